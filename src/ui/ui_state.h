// The shell of the interface: what it remembers that is not part of any scene (that lives in
// PlaygroundState) and the panels around the scene's view, one per file.
#pragma once
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/state.h"
#include "platform/platform.h"
#include "ui/fonts.h"
#include "views/view.h"

namespace ap {

// Chinese beyond the interface's own characters (font_loader.cpp).
struct FontFollow {
  std::string seen;                      // what the text was last looked at for (scene, generation, messages)
  std::set<uint32_t> wanted;             // characters asked for from the larger font
  std::vector<unsigned char> extra_bytes;  // the larger font, once loaded (the atlas points into it)
  std::vector<ImWchar> ranges;           // `wanted` as ImGui ranges (the atlas points into it)
  bool rebuild = false;                  // rebuild the atlas before the next frame
  bool rebuild_typed = false;            // … for Chinese beyond the interface's own (getState().fonts counts these)
  // The interface's own hanzi (fonts::cjk) in the atlas: all of them once the interface has been Chinese,
  // else only those an English screen shows ("中文", English strings that quote Chinese, Chinese text of
  // a scene), so that the first atlas of an English visit stays quick.
  bool own_all = false;
  std::set<uint32_t> own_wanted;
  std::vector<ImWchar> own_ranges;       // `own_wanted` as ImGui ranges (the atlas points into it)
  // The interface's own Chinese font (cjk_ui.otf), fetched when first needed: the interface turned Chinese, or
  // an English screen shows one of its hanzi beyond the few embedded (ui_needed).
  bool ui_needed = false;
  bool ui_failed = false;
  bool strings_failed = false;           // the page's Chinese text could not be fetched or read
  bool ui_font_in = false;               // its bytes arrived (ui_loaded waits for the page's Chinese text too)
  bool chinese_in_atlas = false;         // the atlas holds all of the interface's own hanzi
  std::vector<unsigned char> ui_bytes;   // once loaded (the atlas points into it; never changed after)
};

struct UiState {
  UiFonts fonts;
  FontFollow font_follow;
  bool told_ready = false;        // the page was told that the first frame is drawn (playground.ready)
  float font_scale = 0.f;         // dpr × zoom the atlas was built for
  float font_zoom = 0.f;
  bool style_presenter = false;   // the style was built for presenter mode
  std::vector<std::unique_ptr<SceneView>> views;  // one per scene, same order as st.scenes
  float zoom_slider = 1.f;        // the text-size slider while it is dragged (applied on release)
  bool zoom_dragging = false;
  bool pointer_moved = false;  // the mouse has moved over the page (presenter mode draws its disc only then)
  bool show_help = false;
  bool show_lessons = false;     // the lesson map (G)
  bool jump_to_quiz = false;     // the side panel's "Check yourself ↓": open it and scroll to it next frame
  bool show_share = false;       // the link and embed dialog
  bool show_export = false;      // the export dialog (E): PNG of the view, a matrix as SVG, PNG, CSV, JSON, .npy, LaTeX
  int export_choice = 0;         // the matrix chosen in it
  int export_decimals = 2;       // for LaTeX and the SVG's numbers
  std::string synced_view;       // the view last written to the address bar and told to the host page
  std::string synced_step;       // the scene and stage last told to the host page
  std::string synced_query;      // the address last written (a run's new weights change the model, not the link)
  std::string share_note;        // "Copied" after a copy
  bool share_hide[4] = {false, true, false, false};  // the embed snippet's hide= (url.h kHidablePanels order)
  int share_size = 0;            // the embed snippet's size preset
  bool focus_scene = true;        // give the scene keyboard focus on the next frame
  bool compact = false;           // narrow screen (phone): controls become an overlay
  // A short, wide screen (a phone held sideways, an 800×480 embed): the timeline is one row (buttons, stage,
  // scrubber, speed), not two; the stage keeps about 40 more pixels of its 390.
  bool one_row_timeline = false;
  std::string announced;          // last text sent to the ARIA live region
  std::string document_lang;      // last language given to the page's <html lang>
  FrameInfo frame;

  SceneView& view(const PlaygroundState& st) {
    (void)st.scene();  // its first model is built before its view draws it
    return *views[static_cast<size_t>(st.current)];
  }
};

// The frame function: draws the whole interface for one frame.
void ui_frame(PlaygroundState& st, UiState& ui, const FrameInfo& f);
// Before ImGui::NewFrame: rebuilds fonts when the pixel ratio or zoom changed; true if it did.
bool ui_prepare_fonts(PlaygroundState& st, UiState& ui, const FrameInfo& f);
// The text size applied: the one asked for (st.ui_scale), at most what leaves the screen 320 × 300 logical
// pixels of layout (never below 1×). A phone held upright at 2× text (presenter mode, or A+) kept 195 pixels:
// cards ran into each other, the timeline's buttons and the matrices were cut.
float applied_ui_scale(const PlaygroundState& st, const FrameInfo& f);
void ui_shutdown(UiState& ui);
// Lecture mode on or off (T, the Display section, ?present=1): the presenter theme and large type.
void set_presenter(PlaygroundState& st, bool on);
// True while something on screen moves by itself (an animation, a measurement running, a font rebuild
// pending): the platform keeps drawing frames. Otherwise it draws only on input.
bool ui_busy(const PlaygroundState& st, const UiState& ui);
// Busy only with the scene's work spread over frames (a race, a sweep): then the platform's turns between drawn
// frames run ui_work, a slice of it and the scenes' polls, without drawing (platform_set_work_turns).
bool ui_only_work(const PlaygroundState& st, const UiState& ui);
void ui_work(PlaygroundState& st);
// A scene's slice (Scene::run_slice) of a drawn frame, and of a work turn. A drawn frame costs the browser more
// than its function, so work spread over drawn frames alone takes much longer than the work; turns that only work,
// between frames drawn every kWorkDrawInterval, take little more (README, "Measurements behind the code": work
// turns). timed_slice begins no unit that would end past the budget, so a turn stays within a frame's time.
constexpr double kFrameSliceMs = 12.0;
constexpr double kWorkSliceMs = 28.0;

// Panels, one per file (src/ui/*.cpp).
void top_bar(PlaygroundState& st, UiState& ui, float height);
void controls_panel(PlaygroundState& st, UiState& ui, ViewContext& ctx);
void messages_panel(PlaygroundState& st);
void formula_panel(UiState& ui, ViewContext& ctx);
void timeline_panel(PlaygroundState& st, UiState& ui);
void help_panel(PlaygroundState& st, UiState& ui);
void hover_panel(PlaygroundState& st, const ViewContext& ctx);
// The lesson map (G, the top bar's "Lessons n/N"), also the welcome of a bare visit (st.welcome).
void lesson_map(PlaygroundState& st, UiState& ui);
// Opens a scene at its first stage from the map, or closes the map (the welcome with it); the view stays.
void open_lesson(PlaygroundState& st, UiState& ui, const char* id);
void close_lesson_map(PlaygroundState& st, UiState& ui);
// The welcome's head (welcome.cpp): what the playground is and "Start at lesson 1" (Enter).
void welcome_header(PlaygroundState& st, UiState& ui);
void start_first_lesson(PlaygroundState& st, UiState& ui);
// "Press Space or ▶ to step through", over a scene's first stage before anything is computed (start_prompt.cpp).
void start_prompt(const PlaygroundState& st);
// Typed Chinese (font_loader.cpp): looks at the text on screen, loads the larger font when a character lacks
// a glyph, and asks for an atlas rebuild (done by fonts_rebuild before the next frame).
void fonts_follow_text(PlaygroundState& st, UiState& ui);
// A page that starts in Chinese asks for its font at once (main(), before the first frame).
void fonts_prefetch(PlaygroundState& st, UiState& ui);
// The interface is Chinese but its font has not arrived yet (it still draws in English meanwhile).
bool fonts_chinese_pending(const PlaygroundState& st, const UiState& ui);
// The link and embed dialog (share_dialog.cpp), and keeping the address bar and the host page in step with
// the view (page_sync.cpp).
void share_dialog(PlaygroundState& st, UiState& ui);
// Export (export_dialog.cpp), and files picked or dropped onto the page read into the import scene (every frame).
void export_dialog(PlaygroundState& st, UiState& ui);
void files_poll(PlaygroundState& st, UiState& ui);
void page_sync(PlaygroundState& st, UiState& ui);
bool fonts_rebuild_pending(const UiState& ui);
void fonts_rebuild(PlaygroundState& st, UiState& ui, float scale, float zoom);
// Previous (-1) / next (+1) scene on the lesson path, opened at its first stage; nothing past either end.
void step_lesson(PlaygroundState& st, int delta);

}  // namespace ap
