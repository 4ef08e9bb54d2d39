// The controls: presets, the sentence or the matrices, sizes, seed, mask. Each change builds a new model
// from the last good parameters plus that one change; a refused value stays in its field, with a message.
#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID, for the touch-screen prompt

#include <algorithm>
#include <string>

#include "app/i18n.h"
#include "app/presets.h"
#include "core/tokenizer.h"
#include "ui/ui_state.h"

namespace ap {

namespace {

void section(const char* title) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextUnformatted(title);
  ImGui::PopStyleColor();
  ImGui::Separator();
}

Mat resized(const Mat& a, int rows, int cols) {
  Mat b = Mat::Zero(rows, cols);
  const int r = std::min<int>(rows, static_cast<int>(a.rows())), c = std::min<int>(cols, static_cast<int>(a.cols()));
  b.topLeftCorner(r, c) = a.topLeftCorner(r, c);
  return b;
}

void relabel(std::vector<std::string>* labels, int count, const char* prefix) {
  while (static_cast<int>(labels->size()) > count) labels->pop_back();
  while (static_cast<int>(labels->size()) < count) labels->push_back(prefix + std::to_string(labels->size() + 1));
}

// A size stepper: "−  [value]  +", changing one dimension of the hand-edited matrices.
bool size_stepper(const char* label, int value, int lo, int hi, int* out) {
  ImGui::PushID(label);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(ImGui::GetFontSize() * 3.2f);
  bool changed = false;
  if (ImGui::Button("−") && value > lo) { *out = value - 1; changed = true; }
  ImGui::SameLine(0, 4);
  ImGui::Text("%3d", value);
  ImGui::SameLine(0, 4);
  if (ImGui::Button("+") && value < hi) { *out = value + 1; changed = true; }
  ImGui::PopID();
  return changed;
}

// The tokens as small chips, wrapped to the panel: what the tokenizer made of the sentence.
void token_chips(const std::vector<std::string>& tokens, int max_shown) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float h = ImGui::GetFontSize() + 4.f, pad = 4.f, gap = 3.f;
  ImVec2 p = ImGui::GetCursorScreenPos();
  const float x0 = p.x;
  const int shown = std::min<int>(max_shown, static_cast<int>(tokens.size()));
  for (int i = 0; i <= shown; ++i) {
    const std::string t = i < shown ? tokens[i] : "+" + std::to_string(tokens.size() - shown);
    if (i == shown && shown == static_cast<int>(tokens.size())) break;
    const float w = ImGui::CalcTextSize(t.c_str()).x + 2 * pad;
    if (p.x + w > right && p.x > x0) { p.x = x0; p.y += h + gap; }
    const bool pad_token = t == kPadToken;
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), pad_token ? IM_COL32(215, 215, 220, 255) : IM_COL32(225, 233, 250, 255), 4.f);
    dl->AddText(ImVec2(p.x + pad, p.y + 2), ImGui::GetColorU32(ImGuiCol_Text), t.c_str());
    p.x += w + gap;
  }
  ImGui::SetCursorScreenPos(ImVec2(x0, p.y + h + gap));
  ImGui::Dummy(ImVec2(0, 0));
}

}  // namespace

void controls_panel(PlaygroundState& st, UiState& ui) {
  const SdpaModel& model = st.model;
  const float w = ImGui::GetContentRegionAvail().x;

  section(tr("Examples"));
  for (const Preset& pr : presets()) {
    const char* title = tr(pr.title);
    const float bw = ImGui::CalcTextSize(title).x + ImGui::GetStyle().FramePadding.x * 2;
    if (ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x &&
        ImGui::GetCursorPosX() + bw > w) ImGui::NewLine();
    if (ImGui::Button(title)) load_preset(st, pr.id);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(pr.note));
    ImGui::SameLine();
  }
  ImGui::NewLine();

  section(tr("Input"));
  int source = model.params.source == QkvSource::Projection ? 0 : 1;
  if (ImGui::RadioButton(tr("Sentence → X·W"), source == 0) && source != 0) {
    SdpaParams p = model.params;
    p.source = QkvSource::Projection;
    apply(st, p, "source");
  }
  ImGui::SameLine();
  if (ImGui::RadioButton(tr("Q, K, V by hand"), source == 1) && source != 1)
    apply(st, as_custom(model), "source");

  if (source == 0) {
    ImGui::TextWrapped("%s", tr("Sentence (one token per word, punctuation mark or Chinese character)"));
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputText("##text", ui.text_buf.data(), ui.text_buf.size())) {
      SdpaParams p = model.params;
      p.text = ui.text_buf.data();
      if (p.text.size() > limits::kMaxTextBytes) p.text.resize(limits::kMaxTextBytes + 1);  // refused with a message
      apply(st, p, "text");
    }
    std::string typed;
    if (ImGui::IsItemActivated() && platform_is_touch()) {
      ImGui::ClearActiveID();  // no keyboard would come up for the canvas field: ask the browser instead
      if (platform_prompt(tr("Sentence"), model.params.text, &typed)) {
        SdpaParams p = model.params;
        p.text = typed;
        apply(st, p, "text");
      }
    }
    ImGui::TextDisabled("%s: %d   (%s %d)", tr("tokens"), model.trace.n, tr("limit"), limits::kMaxTokens);
    token_chips(model.query_tokens, 48);
    const float field = ImGui::GetFontSize() * 7.f;
    // The field keeps what was typed; the model takes it only if it builds (else a message says why).
    const auto int_field = [&](const char* name, int* shown, int SdpaParams::*member) {
      ImGui::SetNextItemWidth(field);
      if (ImGui::InputInt(name, shown, 1, 8)) {
        SdpaParams p = model.params;
        p.*member = *shown;
        apply(st, p, name);
      }
    };
    int_field("d_model", &ui.edit.d_model, &SdpaParams::d_model);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Width of each token's embedding x_i (1 to 512)"));
    int_field("d_k", &ui.edit.d_k, &SdpaParams::d_k);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Width of queries and keys (and values here), 1 to 512"));
    int seed = static_cast<int>(ui.edit.seed & 0x7FFFFFFF);
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt(tr("seed"), &seed, 1, 10)) {
      ui.edit.seed = static_cast<uint64_t>(std::max(0, seed));
      SdpaParams p = model.params;
      p.seed = ui.edit.seed;
      apply(st, p, "seed");
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("The random embeddings and W^Q, W^K, W^V come from this seed"));
    bool pos = model.params.positional;
    if (ImGui::Checkbox(tr("add position codes (sin/cos)"), &pos)) {
      SdpaParams p = model.params;
      p.positional = pos;
      apply(st, p, "positional");
    }
  } else {
    ImGui::TextWrapped("%s", tr("Click any cell of Q, Kᵀ or V in the first stage to type a value."));
    int v;
    if (size_stepper("n", model.trace.n, 1, 32, &v)) {
      SdpaParams p = as_custom(model);
      p.Q = resized(p.Q, v, model.trace.d_k);
      relabel(&p.query_labels, v, "q");
      apply(st, p, "size");
    }
    if (size_stepper("m", model.trace.m, 1, 32, &v)) {
      SdpaParams p = as_custom(model);
      p.K = resized(p.K, v, model.trace.d_k);
      p.V = resized(p.V, v, model.trace.d_v);
      relabel(&p.key_labels, v, "k");
      apply(st, p, "size");
    }
    if (size_stepper("d_k", model.trace.d_k, 1, 16, &v)) {
      SdpaParams p = as_custom(model);
      p.Q = resized(p.Q, model.trace.n, v);
      p.K = resized(p.K, model.trace.m, v);
      apply(st, p, "size");
    }
    if (size_stepper("d_v", model.trace.d_v, 1, 16, &v)) {
      SdpaParams p = as_custom(model);
      p.V = resized(p.V, model.trace.m, v);
      apply(st, p, "size");
    }
  }

  section(tr("Mask"));
  const MaskKind kinds[3] = {MaskKind::None, MaskKind::Padding, MaskKind::Causal};
  const char* names[3] = {tr("none"), tr("padding"), tr("causal")};
  for (int k = 0; k < 3; ++k) {
    if (k) ImGui::SameLine();
    if (ImGui::RadioButton(names[k], model.params.mask == kinds[k]) && model.params.mask != kinds[k]) {
      SdpaParams p = model.params;
      p.mask = kinds[k];
      apply(st, p, "mask");
    }
  }
  if (model.params.mask == MaskKind::Padding || model.params.pad_to > 0) {
    if (source == 0) {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.f);
      if (ImGui::InputInt(tr("pad to"), &ui.edit.pad_to, 1, 4)) {
        SdpaParams p = model.params;
        p.pad_to = ui.edit.pad_to;
        apply(st, p, "pad_to");
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Append [PAD] tokens up to this length (0: none)"));
    }
    if (model.params.mask == MaskKind::Padding && model.pad_count == 0)
      ImGui::TextWrapped("%s", tr("No [PAD] keys yet: raise 'pad to', or type [PAD] in the sentence."));
    else if (model.params.mask == MaskKind::Padding)
      ImGui::TextDisabled("%d [PAD] %s", model.pad_count, tr("keys hidden"));
  }
  if (model.trace.fully_masked_rows > 0)
    ImGui::TextWrapped("%d %s", model.trace.fully_masked_rows,
                       tr("rows have every key hidden: their weights are all 0 and they are flagged."));

  section(tr("Display"));
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.f);
  static float zoom = 1.f;
  static bool dragging = false;
  if (!dragging) zoom = st.ui_scale;
  ImGui::SliderFloat(tr("text size"), &zoom, 0.6f, 2.5f, "%.1f×");
  dragging = ImGui::IsItemActive();
  if (ImGui::IsItemDeactivatedAfterEdit()) st.ui_scale = zoom;  // rebuild the fonts once, on release
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", tr("Keys: Space play · ←/→ stage · Shift+←/→ one cell · Home/End · F1 help"));
  ImGui::PopStyleColor();
}

}  // namespace ap
