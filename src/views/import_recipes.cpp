// The import scene's "How do I get this file?": what file the scene reads, and two short recipes (the files
// of docs/recipes/, embedded) that write one from a Hugging Face model or from any PyTorch attention module,
// each with a Copy button. tests/recipes/run_recipes.py runs both against stand-ins and imports what they write.
#include <imgui.h>

#include <string>

#include "app/i18n.h"
#include "platform/platform.h"
#include "views/import_view.h"
#include "views/recipes_data.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
struct Recipe {
  const char* title;
  const char* file;
  const char* const* code;
};
const Recipe kRecipes[] = {
    {N_("Hugging Face transformers (output_attentions=True)"), "huggingface_attentions.py", &recipes::huggingface_attentions_py},
    {N_("PyTorch: a forward hook on an attention module"), "pytorch_hook.py", &recipes::pytorch_hook_py},
};
}  // namespace

void ImportView::recipes_panel() {
  if (scene_.is_example()) ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);  // whoever has no file yet
  if (!ImGui::CollapsingHeader((std::string(tr("How do I get this file?")) + "###recipes").c_str())) return;
  ImGui::PushTextWrapPos(0.f);
  text_wrapped("%s", tr("Save your model's attention for one sentence with numpy.save, shape [layers, heads, n, n] (or [heads, n, n]), and its tokens as {\"tokens\": [...]} in a JSON file beside it; then open both files at once."));
  ImGui::PopTextWrapPos();
  const float fs = ImGui::GetFontSize();
  for (const Recipe& r : kRecipes) {
    ImGui::PushID(r.file);
    ImGui::Spacing();
    text_wrapped("%s", tr(r.title));
    if (ImGui::SmallButton(tr("Copy")))
      recipe_note_ = platform_copy_text(*r.code) ? tr("Copied to the clipboard.") : tr("The browser refused: select the text and copy it.");
    ImGui::SameLine();
    ImGui::TextDisabled("docs/recipes/%s", r.file);
    // Long lines wrap in the box (read without scrolling sideways); Copy and the file keep them whole.
    ImGui::BeginChild("code", ImVec2(0.f, fs * 12.f), true);
    ImGui::SetWindowFontScale(0.85f);
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextUnformatted(*r.code);
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopID();
  }
  if (!recipe_note_.empty()) ImGui::TextDisabled("%s", recipe_note_.c_str());
}

}  // namespace ap
