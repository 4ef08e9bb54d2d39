// The shell of the interface: what it remembers that is not part of any scene (that lives in
// PlaygroundState) and the panels around the scene's view, one per file.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/state.h"
#include "platform/platform.h"
#include "ui/fonts.h"
#include "views/view.h"

namespace ap {

struct UiState {
  UiFonts fonts;
  float font_scale = 0.f;         // dpr × zoom the atlas was built for
  float font_zoom = 0.f;
  std::vector<std::unique_ptr<SceneView>> views;  // one per scene, same order as st.scenes
  float zoom_slider = 1.f;        // the text-size slider while it is dragged (applied on release)
  bool zoom_dragging = false;
  bool show_help = false;
  bool focus_scene = true;        // give the scene keyboard focus on the next frame
  bool compact = false;           // narrow screen (phone): controls become an overlay
  std::string announced;          // last text sent to the ARIA live region
  std::string document_lang;      // last language given to the page's <html lang>
  FrameInfo frame;

  SceneView& view(const PlaygroundState& st) { return *views[static_cast<size_t>(st.current)]; }
};

// The frame function: draws the whole interface for one frame.
void ui_frame(PlaygroundState& st, UiState& ui, const FrameInfo& f);
// Before ImGui::NewFrame: rebuilds fonts when the pixel ratio or zoom changed; true if it did.
bool ui_prepare_fonts(PlaygroundState& st, UiState& ui, const FrameInfo& f);
void ui_shutdown(UiState& ui);
// True while something on screen moves by itself (an animation, a measurement running, a font rebuild
// pending): the platform keeps drawing frames. Otherwise it draws only on input.
bool ui_busy(const PlaygroundState& st, const UiState& ui);

// Panels, one per file (src/ui/*.cpp).
void top_bar(PlaygroundState& st, UiState& ui, float height);
void controls_panel(PlaygroundState& st, UiState& ui, ViewContext& ctx);
void messages_panel(PlaygroundState& st);
void formula_panel(UiState& ui, ViewContext& ctx);
void timeline_panel(PlaygroundState& st, UiState& ui);
void help_panel(PlaygroundState& st, UiState& ui);
void hover_panel(PlaygroundState& st, const ViewContext& ctx);

}  // namespace ap
