// Everything the playground remembers between frames that is not drawing: the scenes (each with its own
// parameters, model and timeline), which one is shown, and the messages on screen.
// No ImGui, SDL or GL here: the native tests drive this exactly as the UI and the page API do.
#pragma once
#include <map>
#include <utility>
#include <memory>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "app/scene.h"

namespace ap {

// Messages on screen. Each has a key (what it is about: "text", "d_k", "cell", "api", "url"): a later
// success for the same key clears it, so a fixed mistake stops being reported. The text is data (a
// template and its arguments) and is shown in the language of the moment.
struct Message {
  std::string key;
  LocalText text;
};

struct PlaygroundState {
  std::vector<std::unique_ptr<Scene>> scenes;  // every registered scene, in lesson order (scene_registry.h)
  int current = 0;                             // index into scenes
  std::vector<Message> errors;
  bool embed = false;         // compact layout for iframes (?embed=1)
  bool show_controls = true;
  // The lesson map shown as a welcome: a bare visit opens with it (main.cpp, apply_url_query), the learner
  // closes it or starts a lesson; getState reports it and setState({welcome}) sets it.
  bool welcome = false;
  // Panels an embed hides (?hide=topbar,controls,formula,timeline): an instructor shows only what the text
  // needs. kHidablePanels lists the names.
  std::vector<std::string> hidden;
  bool is_hidden(const char* panel) const {
    for (const auto& h : hidden)
      if (h == panel) return true;
    return false;
  }
  float ui_scale = 1.0f;      // user zoom on top of the device pixel ratio, kMinUiScale … kMaxUiScale
  static constexpr float kMinUiScale = 0.6f, kMaxUiScale = 3.0f;
  float ui_scale_before_presenter = 1.0f;
  bool presenter = false;     // lecture mode (T, ?present=1): high contrast, large type, the pointer highlighted
  bool colorblind = false;    // blue-orange / cividis-like colour maps (?colors=colorblind); the frame applies it
  // Attention weights are coloured on the fixed scale 0 … 1 (a weight of 0.09 looks as pale as it is); with
  // stretch_weights (?contrast=stretch) on a scale up to about the largest weight, said on the legend.
  bool stretch_weights = false;
  // The item under the mouse (Scene::explain's what, i, j; what = -1: none). Its text is made when it is
  // read (hover_text), so it can never describe a cell of a model that has since been replaced.
  int hover_what = -1, hover_i = -1, hover_j = -1;
  int frames_drawn = 0;
  int view_width = 0, view_height = 0;  // logical size of the canvas, as last drawn
  float view_dpr = 1.f;
  // Each matrix the last drawn frame showed (widgets/matrix_view: the ui copies its report after the frame);
  // getState().view.matrices. x, y, w, h: its cells' rectangle in CSS pixels of the canvas.
  struct ViewMatrix {
    std::string id;
    float x = 0, y = 0, w = 0, h = 0, cell_w = 0, cell_h = 0;
    bool numbers = false, clipped = false;
    int rows = 0, cols = 0, row_labels = 0, col_labels = 0;
    float lo = 0, hi = 0;
  };
  std::vector<ViewMatrix> view_matrices;
  // Interface items the last frame cut at the right (widgets/text_fit: note_if_cut): id → hidden pixels;
  // getState().view.cut.
  std::vector<std::pair<std::string, float>> view_cut;
  std::map<std::string, int> quiz_answers;
  // Chinese typed or pasted beyond the interface's own characters (ui/font_loader.cpp fills this in; getState
  // reports it as "fonts").
  struct FontReport {
    bool extra_requested = false;  // the larger Chinese font (GB2312) was asked for
    bool extra_loaded = false;
    int extra_glyphs = 0;          // characters added to the atlas from it
    int rebuilds = 0;
    double last_rebuild_ms = 0;    // the last atlas rebuild, in milliseconds
    std::string missing;           // characters on screen still without a glyph (not in GB2312, or not loaded yet)
    std::string error;             // the font could not be loaded
    // The interface's own Chinese (cjk_ui.otf, fetched when the interface first turns Chinese or shows one
    // of its hanzi): asked for, arrived. Until it arrives a Chinese interface still draws in English.
    bool ui_requested = false;
    bool ui_loaded = false;
  } fonts;  // "Check yourself": "scene/question" -> picked option (app/quiz.h)

  PlaygroundState();  // every scene at its default, kDefaultScene shown
  static constexpr const char* kDefaultScene = "sdpa";
  PlaygroundState(const PlaygroundState&) = delete;
  PlaygroundState& operator=(const PlaygroundState&) = delete;

  // Every way to a scene goes through these (and find, get): a scene's first model is built on first use.
  Scene& scene() { return built(*scenes[static_cast<size_t>(current)]); }
  const Scene& scene() const { return built(*scenes[static_cast<size_t>(current)]); }
  Timeline& timeline() { return scene().timeline; }
  const Timeline& timeline() const { return scene().timeline; }
  Scene* find(const std::string& id);
  // The scene `T` (e.g. SdpaScene) wherever it is in the list; nullptr if it is not registered.
  template <class T> T* get() {
    for (auto& s : scenes)
      if (auto* t = dynamic_cast<T*>(s.get())) return &built(*t);
    return nullptr;
  }

 private:
  template <class S> static S& built(S& s) {
    s.ensure_built();
    return s;
  }

 public:
  template <class T> const T* get() const { return const_cast<PlaygroundState*>(this)->get<T>(); }
};

// Shows another scene; each scene keeps its own state. False (and nothing changes) for an unknown id.
bool switch_scene(PlaygroundState& st, const std::string& id);

void report(PlaygroundState& st, const std::string& key, const LocalText& text);
void report(PlaygroundState& st, const std::string& key, const Status& s);
// A message that is already words (shown as it is in every language).
void report(PlaygroundState& st, const std::string& key, const std::string& text);
void clear_report(PlaygroundState& st, const std::string& key);
void dismiss(PlaygroundState& st, size_t index);
// Reports `s` under `key` when it is an error, clears that key when it is not; returns `s`.
Status report_result(PlaygroundState& st, const std::string& key, Status s);
// The arithmetic of the hovered item, in the current language ("" when nothing, or nothing that exists, is hovered).
std::string hover_text(const PlaygroundState& st);
// The messages on screen, in the current language.
std::vector<std::string> error_texts(const PlaygroundState& st);

}  // namespace ap
