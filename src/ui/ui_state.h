// What the interface remembers that is not part of the computation (that lives in PlaygroundState).
#pragma once
#include <string>
#include <vector>

#include "app/cell_text.h"
#include "app/state.h"
#include "platform/platform.h"
#include "ui/fonts.h"

namespace ap {

struct UiState {
  UiFonts fonts;
  float font_scale = 0.f;         // dpr × zoom the atlas was built for
  float font_zoom = 0.f;
  int generation_seen = -1;       // model generation the caches below belong to
  Mat Kt;                         // Kᵀ, drawn in the scores stage (row-major copy)
  Mat row_sums;                   // softmax row sums as an n × 1 matrix (the "Σ" column)
  // Colour ranges, shared by the flow strip and the stage view: symmetric ±range for diverging scales.
  // Scores, scaled and masked share one range so that the shrinking by √dₖ shows as paler colours;
  // outputs share Q, K, V's range (each output row is a convex mix of value rows).
  float range_qkv = 1.f, range_scores = 1.f, range_x = 1.f;
  SdpaParams edit;                // what the controls show (may hold a value the model refused)
  std::vector<char> text_buf;     // the sentence being edited
  // Cell editing (Q, K, V): which cell, and the text typed so far.
  bool cell_popup = false;
  MatrixId edit_id = MatrixId::Q;
  int edit_i = -1, edit_j = -1;
  char edit_buf[64] = {};
  bool show_help = false;
  bool focus_scene = true;        // give the scene keyboard focus on the next frame
  bool compact = false;           // narrow screen (phone): controls become an overlay
  std::string announced;          // last text sent to the ARIA live region
  std::string document_lang;      // last language given to the page's <html lang>
  FrameInfo frame;
  int hover_count = 0;            // hovered cells this frame (the hover panel shows the last one)
  MatrixId hover_id = MatrixId::Q;
  int hover_i = -1, hover_j = -1;
};

// The frame function: draws the whole interface for one frame.
void ui_frame(PlaygroundState& st, UiState& ui, const FrameInfo& f);
// Before ImGui::NewFrame: rebuilds fonts when the pixel ratio or zoom changed; true if it did.
bool ui_prepare_fonts(PlaygroundState& st, UiState& ui, const FrameInfo& f);

// Panels and scenes, one per file (src/ui/*.cpp, src/scenes/*.cpp).
void top_bar(PlaygroundState& st, UiState& ui, float height);
void controls_panel(PlaygroundState& st, UiState& ui);
void messages_panel(PlaygroundState& st);
void formula_panel(PlaygroundState& st, UiState& ui);
void timeline_panel(PlaygroundState& st, UiState& ui);
void help_panel(UiState& ui);
void flow_strip(PlaygroundState& st, UiState& ui, float height);
void sdpa_scene(PlaygroundState& st, UiState& ui);
void hover_panel(PlaygroundState& st, UiState& ui);
void cell_editor(PlaygroundState& st, UiState& ui);
const char* stage_title(int stage);  // translated, e.g. "Scores Q·Kᵀ"

// Opens the cell editor for Q, K or V.
void begin_cell_edit(PlaygroundState& st, UiState& ui, MatrixId id, int i, int j);

}  // namespace ap
