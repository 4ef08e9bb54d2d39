// A scene's drawing: the other half of a scene (its logic is an ap::Scene in src/app). A view lays out
// widgets over the scene's model and reports what the learner did; it computes nothing.
// Each view keeps its own caches (textures follow the scene's generation). The shell (src/ui) owns the
// frame: top bar, side panel, formula, timeline, messages, hover and help, and calls the view for the rest.
#pragma once
#include <imgui.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/state.h"

namespace ap {

// The fonts of this frame. A rebuild of the atlas (the first switch to Chinese, typed hanzi, a text size)
// frees every ImFont and makes new ones, possibly at the same addresses: a view must not keep these pointers
// past the frame. What it caches across frames is keyed by `generation` (one more per rebuild), never by a
// pointer.
struct ViewFonts {
  ImFont* body = nullptr;
  ImFont* formula = nullptr;
  ImFont* small = nullptr;
  int generation = 0;
};

// What a view gets each frame, and what it reports back.
struct ViewContext {
  PlaygroundState& st;
  ViewFonts fonts;
  bool compact = false;               // narrow screen (phone)
  float width = 0, height = 0;        // the canvas, logical pixels
  bool keys_free = false;             // no text field or popup holds the keyboard: scene keys may act
  // Set by the view: the item under the mouse, explained by Scene::explain(what, i, j).
  int hover_what = -1, hover_i = -1, hover_j = -1;
};

// The top of an attention-weight colour scale (its bottom is 0): 1, so that a weight looks as large as it
// is, unless the learner stretched the scale (the Display option, ?contrast=stretch), then `largest`. A
// legend's caption says which: weights_caption("α") is "α" or "α (stretched)".
float weights_top(const PlaygroundState& st, float largest);
std::string weights_caption(const PlaygroundState& st, const char* what);

class SceneView {
 public:
  virtual ~SceneView() = default;
  // The scene's part of the side panel, below the shared presets list.
  virtual void controls(ViewContext& ctx) = 0;
  // An overview strip above the formula (0: none).
  virtual float flow_height(const ViewContext& ctx) const { (void)ctx; return 0.f; }
  virtual void flow(ViewContext& ctx, float height) { (void)ctx; (void)height; }
  // The formula and idea shown for the current stage (default: the scene's stage table).
  virtual std::pair<const char*, const char*> caption(const ViewContext& ctx) const;
  // The arithmetic of the sub-step being animated, one line ("" for none).
  virtual std::string step_text(const ViewContext& ctx) const { (void)ctx; return {}; }
  // The main area.
  virtual void stage(ViewContext& ctx) = 0;
  // Scene keys (the shell's keys are handled before); called only when ctx.keys_free.
  virtual void keys(ViewContext& ctx) { (void)ctx; }
  // Rows for the help overlay: {keys, what they do (N_ English)}.
  virtual std::vector<std::pair<const char*, const char*>> help_rows() const { return {}; }
  // True while the view holds the keyboard (a cell editor is open): the shell's keys wait.
  virtual bool holds_keyboard() const { return false; }
};

// One view per registered scene, in the same order as st.scenes (view_registry.cpp); adds the views' strings.
std::vector<std::unique_ptr<SceneView>> make_views(const PlaygroundState& st);

// The strings the views draw, added to the translations: each view's own (NameView::strings(), in its file)
// and those several views share (shared_view_strings(), view.cpp). Called by make_views and before the first
// font atlas, whose English screen needs the hanzi that some English strings quote; twice is harmless.
void add_view_translations();
const TrPair* shared_view_strings(size_t* count);

}  // namespace ap
