// The formula of the current stage, in real math glyphs, with one line on the idea (from the lecture
// notes) and the arithmetic of the step being animated.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/math_text.h"

namespace ap {

namespace {

struct StageText { const char* formula; const char* idea; };

const StageText kStages[kStageCount] = {
    {"Q = X·W^Q     K = X·W^K     V = X·W^V",
     "Query: what am I looking for?  Key: what can I offer?  Value: what do I contain?"},
    {"S = Q·Kᵀ     Sᵢⱼ = qᵢ·kⱼ = Σₜ qᵢₜ kⱼₜ",
     "One dot product per cell: how well query i matches key j."},
    {"S / √dₖ",
     "With unit-variance q and k, q·k has variance dₖ; dividing by √dₖ brings it back to 1, so softmax does not saturate."},
    {"S / √dₖ + M,     Mᵢⱼ ∈ {0, −∞}",
     "Hidden positions get −∞ before softmax, so their weights become exactly 0."},
    {"Aᵢⱼ = exp(zᵢⱼ − maxᵢ) / Σⱼ exp(zᵢⱼ − maxᵢ)",
     "Row by row: exponentials, their sum, then divide. Each row of A sums to 1."},
    {"output = A·V     outᵢ = Σⱼ Aᵢⱼ vⱼ",
     "Each output row is a weighted mix of the value rows, not the value of the best key."},
    {"Attention(Q, K, V) = softmax(QKᵀ / √dₖ + M) · V",
     "Q and K only decide the weights; what gets summed is V."},
};

// The arithmetic of the sub-step being animated (the current cell or row).
std::string current_step_text(const PlaygroundState& st) {
  const SdpaModel& m = st.model;
  const AttentionTrace& t = m.trace;
  const Timeline& tl = st.timeline;
  const int done = tl.done_substeps();
  char buf[256];
  switch (static_cast<Stage>(tl.stage())) {
    case Stage::Scores: {
      const int cell = std::min(done, t.n * t.m - 1);
      const int i = cell / t.m, j = cell % t.m;
      return explain_cell(m, MatrixId::Scores, i, j);
    }
    case Stage::Scale:
      std::snprintf(buf, sizeof buf, "√dₖ = √%d = %s", t.d_k, fmt(t.sqrt_dk, 3).c_str());
      return buf;
    case Stage::Mask: {
      int hidden = 0;
      for (int i = 0; i < t.n; ++i)
        for (int j = 0; j < t.m; ++j) hidden += std::isinf(t.mask(i, j)) ? 1 : 0;
      std::snprintf(buf, sizeof buf, "%s: %s · %d / %d %s", tr("mask"), tr(mask_name(m.params.mask)), hidden,
                    t.n * t.m, tr("cells hidden"));
      return buf;
    }
    case Stage::Softmax: {
      const int row = std::min(done / 3, t.n - 1);
      const int phase = done - row * 3;
      if (t.softmax.fully_masked[row])
        return "“" + m.query_tokens[row] + "”: " + tr("every key of this row is hidden: the weights are all 0 (no NaN)");
      std::string s = "“" + m.query_tokens[row] + "”  max = " + fmt(t.softmax.row_max[row], 3);
      if (phase >= 1 || done >= t.n * 3) s += "   Σ exp = " + fmt(t.softmax.row_sum[row], 3);
      if (phase == 0 && done < t.n * 3) s += std::string("   ") + tr("1) exp(z − max)");
      else if (phase == 1) s += std::string("   ") + tr("2) add up the row");
      else s += std::string("   ") + tr("3) divide by the sum");
      return s;
    }
    case Stage::WeightedSum: {
      const int row = std::min(done, t.n - 1);
      return explain_cell(m, MatrixId::Output, row, 0);
    }
    default:
      return {};
  }
}

}  // namespace

void formula_panel(PlaygroundState& st, UiState& ui) {
  const int s = st.timeline.stage();
  // Hand-set Q, K, V do not come from X·W: say so instead.
  const bool by_hand = s == static_cast<int>(Stage::Qkv) && st.model.params.source == QkvSource::Custom;
  ImGui::PushFont(ui.fonts.formula);
  math_text(by_hand ? "Q, K, V" : kStages[s].formula);
  ImGui::PopFont();
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", by_hand ? tr("Set by hand: click a cell of Q, Kᵀ or V to type a new value.") : tr(kStages[s].idea));
  const std::string step = current_step_text(st);
  if (!step.empty()) {
    // One line in the flow of the page; the full text is in the hover panel.
    std::string first = step.substr(0, step.find('\n') == std::string::npos ? step.size() : step.find('\n'));
    std::string rest = step.find('\n') == std::string::npos ? "" : step.substr(step.find('\n') + 1);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.30f, 0.0f, 1.f));
    ImGui::TextUnformatted(rest.empty() ? first.c_str() : (first + "   " + rest).c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::NewLine();
  }
  ImGui::PopTextWrapPos();
}

}  // namespace ap
