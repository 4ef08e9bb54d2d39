#include "views/weights_choice.h"

#include <imgui.h>

#include "app/i18n.h"
#include "widgets/section.h"

namespace ap {

bool weights_radios(const char* trained_name, bool trained_now, bool one_line, bool* trained) {
  int which = trained_now ? 1 : 0;
  section_heading(tr("weights"));
  bool changed = ImGui::RadioButton((std::string(tr("random (seeded)")) + "###w_random").c_str(), &which, 0);
  if (one_line) ImGui::SameLine();
  changed |= ImGui::RadioButton((std::string(trained_name) + "###w_trained").c_str(), &which, 1);
  *trained = which == 1;
  return changed;
}

void weights_label_line(bool pending, const std::string& label) {
  ImGui::PushTextWrapPos(0.f);
  if (pending) ImGui::TextDisabled("%s", tr("loading the trained model…"));
  else ImGui::TextDisabled("%s", label.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace ap
