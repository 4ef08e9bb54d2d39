#include "views/head_patterns_list.h"

#include <imgui.h>

#include <utility>

#include "app/i18n.h"
#include "core/number_text.h"
#include "widgets/text_fit.h"

namespace ap {

void head_patterns_list(const std::vector<train::HeadPattern>& patterns) {
  for (const train::HeadPattern& p : patterns) {
    const std::string reads = train::head_relation(p, tr);
    ImGui::Text("%s %d: %s %s", tr("head"), p.head + 1, tr("reads"), reads.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    for (auto [name, x] : {std::pair<const char*, const train::RowShares*>{N_("referent is the animal"), &p.when_animal},
                           {N_("referent is the place"), &p.when_place}})
      text_wrapped("  %s: %s %s · %s %s · %s %s · %s %s", tr(name), tr("animal"), fmt(x->animal, 2).c_str(), tr("place"),
                         fmt(x->place, 2).c_str(), tr("adjective"), fmt(x->adjective, 2).c_str(), tr("entropy"),
                         fmt(x->entropy, 2).c_str());
    text_wrapped("  %s: %s %s · %s %s · %s %s", tr("after a noun"), tr("reads"), tr(train::after_noun_relation(p)),
                       tr("on the noun before"), fmt(p.after_noun, 2).c_str(), tr("on the other noun"),
                       fmt(p.after_noun_other, 2).c_str());
    ImGui::PopStyleColor();
  }
}

void head_patterns_caption() {
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", tr("the \"it\" row and the rows after a noun, measured on every held-out sentence"));
  ImGui::PopTextWrapPos();
}

}  // namespace ap
