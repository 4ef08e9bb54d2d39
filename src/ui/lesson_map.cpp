// The lesson map: the lecture notes' path (学习路线) through the scenes, in the registry's order, each with its
// formula, what to try and what to notice (Scene::lesson()); above it the notes' history line as a strip of
// buttons that open the scene telling that part of the story. Previous / next lesson: top bar, keys P / N.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/api.h"
#include "app/i18n.h"
#include "ui/ui_state.h"
#include "widgets/math_text.h"
#include "widgets/text_fit.h"
#include "widgets/tooltip.h"

namespace ap {

namespace {

// The notes' history line (RNN encoder–decoder 2014 → Bahdanau 2014 → Luong 2015 → self-attention →
// multi-head → Transformer 2017), each step opening the scene that shows it.
struct HistoryStep {
  const char* label;  // N_()
  const char* year;   // "" when the notes give none
  const char* scene;  // scene id
};
const HistoryStep kHistory[] = {
    {N_("RNN encoder–decoder"), "2014", "bottleneck"},
    {"Bahdanau", "2014", "bahdanau"},
    {"Luong", "2015", "luong"},
    {N_("self-attention"), "", "self"},
    {N_("multi-head"), "", "multihead"},
    {"Transformer", "2017", "sdpa"},
};

}  // namespace

void open_lesson(PlaygroundState& st, UiState& ui, const char* id) {
  if (switch_scene(st, id)) st.timeline().home();
  close_lesson_map(st, ui);
}

void close_lesson_map(PlaygroundState& st, UiState& ui) {
  ui.show_lessons = false;
  st.welcome = false;
  ui.focus_scene = true;
}

int lesson_index(const PlaygroundState& st) { return st.current; }

void step_lesson(PlaygroundState& st, int delta) {
  const int n = static_cast<int>(st.scenes.size());
  const int next = std::clamp(st.current + delta, 0, n - 1);
  if (next == st.current) return;
  if (switch_scene(st, st.scenes[static_cast<size_t>(next)]->id())) st.timeline().home();
}

void lesson_map(PlaygroundState& st, UiState& ui) {
  const float fs = ImGui::GetFontSize();
  const float w = std::min(ui.frame.width - fs * 2.f, fs * 52.f);
  const float h = ui.frame.height - fs * 4.f;
  ImGui::SetNextWindowPos(ImVec2(ui.frame.width * 0.5f, fs * 2.6f), ImGuiCond_Always, ImVec2(0.5f, 0.f));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::SetNextWindowFocus();
  bool open = true;
  const bool shown = ImGui::Begin((std::string(tr(st.welcome ? "Welcome" : "Lesson map")) + "###lessons").c_str(), &open,
                                  ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoResize |
                                      ImGuiWindowFlags_NoMove);
  if (!open) close_lesson_map(st, ui);
  if (!shown || !open) {
    ImGui::End();
    return;
  }
  if (st.welcome) welcome_header(st, ui);
  // The history strip.
  ImGui::PushTextWrapPos(0.f);  // wrapped on a small phone
  ImGui::TextDisabled("%s", tr("History (from the lecture notes): click a step to open its scene"));
  ImGui::PopTextWrapPos();
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.90f, 0.93f, 0.99f, 1.f));
  for (size_t k = 0; k < std::size(kHistory); ++k) {
    const HistoryStep& hs = kHistory[k];
    const Scene* target = st.find(hs.scene);
    std::string label = tr(hs.label);
    const float pad = ImGui::GetStyle().FramePadding.x * 2;
    // The year on a line of its own when the step with its year is wider than the window (a phone at 2× text).
    if (*hs.year) {
      const std::string one_line = label + " " + hs.year;
      const bool fits = ImGui::CalcTextSize(one_line.c_str()).x + pad <= ImGui::GetContentRegionAvail().x;
      label += (fits ? " " : "\n") + std::string(hs.year);
    }
    label += std::string("###hist_") + hs.scene;
    const float bw = ImGui::CalcTextSize(label.substr(0, label.find("###")).c_str()).x + pad;
    if (k > 0) {
      ImGui::SameLine(0, fs * 0.3f);
      if (ImGui::GetCursorPosX() + bw + fs * 1.5f > ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
      else {
        ImGui::TextDisabled("→");
        ImGui::SameLine(0, fs * 0.3f);
      }
    }
    ImGui::BeginDisabled(target == nullptr);
    if (ImGui::Button(label.c_str()) && target) open_lesson(st, ui, hs.scene);
    note_if_cut((std::string("history_") + hs.scene).c_str());
    ImGui::EndDisabled();
    if (target && ImGui::IsItemHovered()) tooltip("%s", tr(target->title()));
  }
  ImGui::PopStyleColor();
  ImGui::Separator();

  // The path: one entry per scene.
  ImGui::BeginChild("path", ImVec2(0, 0), false);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t k = 0; k < st.scenes.size(); ++k) {
    const Scene& sc = *st.scenes[k];
    const LessonInfo li = sc.lesson();
    const bool here = static_cast<int>(k) == st.current;
    ImGui::PushID(sc.id());
    ImGui::BeginGroup();
    const ImVec2 top = ImGui::GetCursorScreenPos();
    char num[24];  // any size_t
    std::snprintf(num, sizeof num, "%zu", k + 1);
    if (here) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.93f, 0.55f, 0.16f, 1.f));
    if (ImGui::Button((std::string(num) + ". " + tr(sc.title()) + "###open").c_str())) open_lesson(st, ui, sc.id());
    note_if_cut((std::string("lesson_") + sc.id()).c_str());
    if (here) ImGui::PopStyleColor();
    if (here) {
      ImGui::SameLine();
      ImGui::TextDisabled("(%s)", tr("you are here"));
    }
    ImGui::Indent(fs * 1.2f);
    math_text_wrapped(li.formula, ImGui::GetColorU32(ImGuiCol_Text), 1.25f);  // wrapped on a phone
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", tr("Try:"));
    ImGui::SameLine();
    text_wrapped("%s", tr(li.try_this));
    ImGui::TextDisabled("%s", tr("Notice:"));
    ImGui::SameLine();
    text_wrapped("%s", tr(li.notice));
    ImGui::PopTextWrapPos();
    ImGui::Unindent(fs * 1.2f);
    ImGui::EndGroup();
    if (here) dl->AddRectFilled(ImVec2(top.x - fs * 0.5f, top.y), ImVec2(top.x - fs * 0.25f, ImGui::GetItemRectMax().y),
                                IM_COL32(238, 140, 40, 255));
    ImGui::PopID();
    ImGui::Spacing();
    ImGui::Separator();
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace ap
