// "Share": the link that restores this view and the iframe snippet that embeds it in a course page, each
// with a Copy button. The snippet's options: which panels to hide (?hide=) and the frame's size.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/i18n.h"
#include "app/url.h"
#include "ui/ui_state.h"

namespace ap {

std::string view_query(const PlaygroundState& st);  // page_sync.cpp

namespace {

struct FrameSize {
  const char* label;
  const char* width;  // iframe attribute
  int height;
};
const FrameSize kSizes[] = {{"800 × 480", "800", 480}, {"640 × 400", "640", 400}, {"960 × 600", "960", 600}, {"100% × 520", "100%", 520}};

const char* const kPanelTitles[4] = {N_("top bar"), N_("controls"), N_("formula"), N_("timeline")};

// A read-only text box that wraps, with a Copy button under it.
void copy_box(UiState& ui, const char* id, const std::string& text, float lines, const char* button) {
  std::string buf = text;
  ImGui::InputTextMultiline(id, buf.data(), buf.size() + 1, ImVec2(-1, ImGui::GetTextLineHeight() * lines + 10.f),
                            ImGuiInputTextFlags_ReadOnly);
  if (ImGui::Button((std::string(tr(button)) + "###copy" + id).c_str()))
    ui.share_note = platform_copy_text(text) ? tr("Copied to the clipboard.") : tr("The browser refused: select the text and copy it.");
}

}  // namespace

void share_dialog(PlaygroundState& st, UiState& ui) {
  const float fs = ImGui::GetFontSize();
  ImGui::SetNextWindowPos(ImVec2(ui.frame.width * 0.5f, fs * 3.f), ImGuiCond_Appearing, ImVec2(0.5f, 0.f));
  ImGui::SetNextWindowSize(ImVec2(std::min(ui.frame.width - fs, fs * 40.f), 0.f));
  if (!ImGui::Begin((std::string(tr("Share this view")) + "###share").c_str(), &ui.show_share,
                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  std::string base = platform_page_url();
  if (base.empty()) base = "index.html";
  const std::string link = base + "?" + state_to_query(st);
  ImGui::TextUnformatted(tr("Link to this view (scene, parameters, language, step):"));
  copy_box(ui, "##link", link, 2.5f, N_("Copy link"));

  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextUnformatted(tr("Embed in a course page:"));
  ImGui::TextDisabled("%s", tr("hide"));
  for (int k = 0; k < 4; ++k) {
    ImGui::SameLine();
    ImGui::Checkbox((std::string(tr(kPanelTitles[k])) + "###hide" + kHidablePanels[k]).c_str(), &ui.share_hide[k]);
  }
  ImGui::TextDisabled("%s", tr("size"));
  for (int k = 0; k < 4; ++k) {
    ImGui::SameLine();
    ImGui::RadioButton(kSizes[k].label, &ui.share_size, k);
  }
  std::string hide;
  for (int k = 0; k < 4; ++k)
    if (ui.share_hide[k]) hide += (hide.empty() ? "" : ",") + std::string(kHidablePanels[k]);
  std::string src = link + "&embed=1";
  if (!hide.empty()) src += "&hide=" + hide;
  const FrameSize& sz = kSizes[ui.share_size];
  char snippet[4096 + 512];
  std::snprintf(snippet, sizeof snippet,
                "<iframe src=\"%s\" width=\"%s\" height=\"%d\" style=\"border:0\" loading=\"lazy\" allow=\"fullscreen; clipboard-write\" "
                "title=\"Attention Playground: %s\"></iframe>",
                src.size() < 4096 ? src.c_str() : link.c_str(), sz.width, sz.height, st.scene().title());
  copy_box(ui, "##embed", snippet, 4.f, N_("Copy embed code"));
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", tr("The embed starts when it scrolls into view and leaves the course page's keyboard and scroll alone until the learner clicks it. Its events (scene and step changes) reach the page through postMessage; see the README."));
  ImGui::PopTextWrapPos();
  if (!ui.share_note.empty()) ImGui::TextUnformatted(ui.share_note.c_str());
  ImGui::End();
  if (!ui.show_share) ui.share_note.clear();
  (void)view_query;
}

}  // namespace ap
