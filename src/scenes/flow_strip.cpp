// The flow of the computation as a strip of thumbnails: Q,K,V → QKᵀ → ÷√dₖ → mask → softmax → ×V → output.
// The current stage is outlined; a click jumps there.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/heatmap.h"
#include "widgets/math_text.h"

namespace ap {

void flow_strip(PlaygroundState& st, UiState& ui, float height) {
  const SdpaModel& m = st.model;
  const AttentionTrace& t = m.trace;
  struct Node { const char* label; const Mat* mat; MatrixId id; ColorScale s; };
  const Node nodes[kStageCount] = {
      {"Q, K, V", &m.Q, MatrixId::Q, ColorScale::Diverging},
      {"QKᵀ", &t.scores, MatrixId::Scores, ColorScale::Diverging},
      {"÷√dₖ", &t.scaled, MatrixId::Scaled, ColorScale::Diverging},
      {tr("mask"), &t.masked, MatrixId::Masked, ColorScale::Diverging},
      {"softmax", &t.weights(), MatrixId::Weights, ColorScale::Sequential},
      {"×V", &t.output, MatrixId::Output, ColorScale::Diverging},
      {tr("output"), &t.output, MatrixId::Output, ColorScale::Diverging},
  };
  const float score_range = ui.range_scores, qkv_range = ui.range_qkv;

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float W = ImGui::GetContentRegionAvail().x;
  const float arrow = ImGui::GetFontSize() * (ui.compact ? 0.9f : 1.6f);
  const float box_w = (W - arrow * (kStageCount - 1)) / kStageCount;
  const float fs = ImGui::GetFontSize();
  const int current = st.timeline.stage();
  for (int k = 0; k < kStageCount; ++k) {
    const Node& nd = nodes[k];
    const ImVec2 a(o.x + k * (box_w + arrow), o.y), b(a.x + box_w, o.y + height);
    const bool now = k == current, past = k < current;
    dl->AddRectFilled(a, b, now ? IM_COL32(255, 244, 225, 255) : IM_COL32(255, 255, 255, 255), 6.f);
    dl->AddRect(a, b, now ? IM_COL32(230, 140, 0, 255) : IM_COL32(200, 200, 210, 255), 6.f, 0, now ? 2.5f : 1.f);
    const float lw = math_text_width(nd.label, fs);
    draw_math_text(dl, ImVec2(a.x + (box_w - lw) * 0.5f, a.y + 3), ImGui::GetColorU32(past || now ? ImGuiCol_Text : ImGuiCol_TextDisabled), nd.label, fs);
    // Thumbnail: the stage's result as a heatmap (only once it has been computed).
    const float th = height - fs - 10.f;
    if (th > 8.f && (past || now) && nd.mat->size() > 0) {
      const float aspect = static_cast<float>(nd.mat->cols()) / static_cast<float>(nd.mat->rows());
      float tw = std::min(box_w - 10.f, th * aspect), thh = std::min(th, (box_w - 10.f) / aspect);
      const ImVec2 p0(a.x + (box_w - tw) * 0.5f, a.y + fs + 6.f);
      HeatmapStyle hs;
      hs.scale = nd.s;
      const float r = nd.id == MatrixId::Weights ? 1.f : (nd.id == MatrixId::Q || nd.id == MatrixId::Output) ? qkv_range : score_range;
      hs.lo = nd.s == ColorScale::Sequential ? 0.f : -r;
      hs.hi = r;
      if (now && st.timeline.substeps(k) > 1) {
        hs.reveal = k == static_cast<int>(Stage::Scores) ? st.timeline.done_substeps()
                  : k == static_cast<int>(Stage::Softmax) ? (st.timeline.done_substeps() / 3) * double(nd.mat->cols())
                  : st.timeline.done_substeps() * double(nd.mat->cols());
      }
      heatmap_draw(dl, static_cast<int>(nd.id), *nd.mat, st.generation, p0, ImVec2(p0.x + tw, p0.y + thh), hs);
    }
    if (k + 1 < kStageCount) {
      const float y = o.y + height * 0.5f, x0 = b.x + 3, x1 = b.x + arrow - 3;
      dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), IM_COL32(120, 120, 140, 255), 1.5f);
      dl->AddTriangleFilled(ImVec2(x1, y), ImVec2(x1 - 5, y - 4), ImVec2(x1 - 5, y + 4), IM_COL32(120, 120, 140, 255));
    }
    ImGui::SetCursorScreenPos(a);
    ImGui::PushID(k);
    if (ImGui::InvisibleButton("stage", ImVec2(box_w, height))) st.timeline.set_stage(k, true);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s %d: %s", tr("Stage"), k + 1, stage_title(k));
    ImGui::PopID();
  }
  ImGui::SetCursorScreenPos(ImVec2(o.x, o.y + height + 6.f));
  ImGui::Dummy(ImVec2(W, 0));
}

}  // namespace ap
