#include "platform/text_field.h"

#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID: the HTML overlay, not ImGui, edits the text

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "platform/platform.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

namespace ap {

namespace {

// A field drawn this frame, as the page knows it.
struct Field {
  int id = 0;
  bool seen = false;      // drawn this frame
  float x = 0, y = 0, w = 0, h = 0, font = 0;
  bool multiline = false;
  std::string sent;       // the text the page holds for it (what a new overlay starts with)
  bool has_pending = false;
  std::string pending;    // typed in the overlay, not yet taken by text_field
  int closed_how = 0;     // the overlay closed with Enter (2) or Escape (3), not yet taken by text_field
};
std::vector<Field> g_fields;
int g_open = 0;  // the field whose overlay is open (0: none)

Field* find(int id) {
  for (auto& f : g_fields)
    if (f.id == id) return &f;
  return nullptr;
}

// ImGui's field, shared by both builds. On the web it shows the text; the overlay edits it.
bool imgui_field(const char* id, std::string* text, const TextFieldOptions& o) {
  // One buffer for every field, grown when needed: a drawn frame copies the text, not max_bytes of zeros.
  static std::vector<char> buf;
  if (buf.size() < o.max_bytes + 1) buf.resize(o.max_bytes + 1);
  const size_t n = std::min(text->size(), o.max_bytes);
  text->copy(buf.data(), n);
  buf[n] = '\0';
  bool changed;
  if (o.multiline) {
    changed = ImGui::InputTextMultiline(id, buf.data(), o.max_bytes + 1, ImVec2(-1, o.height > 0 ? o.height : ImGui::GetTextLineHeight() * 4.5f));
  } else {
    ImGuiInputTextFlags flags = o.select_all ? ImGuiInputTextFlags_AutoSelectAll : 0;
    if (o.submitted) flags |= ImGuiInputTextFlags_EnterReturnsTrue;  // then it returns true on Enter only
    const bool r = ImGui::InputText(id, buf.data(), o.max_bytes + 1, flags);
    changed = o.submitted ? *text != buf.data() : r;
    if (o.submitted && r) *o.submitted = true;
  }
  if (changed) *text = buf.data();
  return changed;
}

}  // namespace

#ifdef __EMSCRIPTEN__
}  // namespace ap

// From web/playground.js: the overlay's text (after each edit, not during an unfinished composition).
extern "C" EMSCRIPTEN_KEEPALIVE void ap_text_input(int id, const char* text) {
  if (ap::Field* f = ap::find(id)) {
    f->pending = text;
    f->has_pending = true;
    f->sent = text;
  }
  ap::platform_request_frames(2);
}
// The overlay opened from a pointer event (the page knew the field's place), or closed.
// `state`: 1 opened; 0 closed by leaving it, 2 by Enter, 3 by Escape.
extern "C" EMSCRIPTEN_KEEPALIVE void ap_text_overlay(int id, int state) {
  if (state == 1) ap::g_open = id;
  else if (ap::g_open == id) ap::g_open = 0;
  if (state >= 2)
    if (ap::Field* f = ap::find(id)) f->closed_how = state;
  ap::platform_request_frames(2);
}

namespace ap {

bool text_field(const char* id, std::string* text, const TextFieldOptions& o) {
  const int iid = static_cast<int>(ImGui::GetID(id));
  Field* f = find(iid);
  if (!f) {
    g_fields.push_back({});
    f = &g_fields.back();
    f->id = iid;
  }
  f->seen = true;
  // 1. What was typed in the overlay since the last frame.
  bool changed = false;
  if (f->has_pending) {
    f->has_pending = false;
    if (f->pending.size() > o.max_bytes) f->pending.resize(o.max_bytes);
    if (f->pending != *text) { *text = f->pending; changed = true; }
  }
  if (f->closed_how == 2 && o.submitted) *o.submitted = true;
  if (f->closed_how == 3 && o.cancelled) *o.cancelled = true;
  f->closed_how = 0;
  // 2. The field itself; a click, tap or Tab into it hands over to the overlay.
  TextFieldOptions shown = o;
  shown.submitted = shown.cancelled = nullptr;  // the overlay reports Enter and Escape (above), not ImGui
  (void)imgui_field(id, text, shown);
  const bool activated = ImGui::IsItemActivated();
  if (activated || ImGui::IsItemActive()) ImGui::ClearActiveID();
  const ImVec2 p0 = ImGui::GetItemRectMin(), p1 = ImGui::GetItemRectMax();
  const float font = ImGui::GetFontSize();
  // 3. Tell the page where the field is and what it holds, when that changed.
  if (p0.x != f->x || p0.y != f->y || p1.x - p0.x != f->w || p1.y - p0.y != f->h || font != f->font || o.multiline != f->multiline ||
      *text != f->sent) {
    f->x = p0.x; f->y = p0.y; f->w = p1.x - p0.x; f->h = p1.y - p0.y; f->font = font; f->multiline = o.multiline;
    f->sent = *text;
    EM_ASM({
      if (window['apBridge']) window['apBridge']['textField']($0, $1, $2, $3, $4, $5, $6 !== 0, UTF8ToString($7), UTF8ToString($8), $9 !== 0);
    }, iid, f->x, f->y, f->w, f->h, font, o.multiline ? 1 : 0, text->c_str(), o.accessible_name, o.select_all ? 1 : 0);
  }
  if (activated && g_open != iid) {
    g_open = iid;
    EM_ASM({ if (window['apBridge']) window['apBridge']['openInput']($0); }, iid);
  }
  return changed;
}

bool text_overlay_open() { return g_open != 0; }

void text_fields_end_frame() {
  for (size_t k = 0; k < g_fields.size();) {
    if (g_fields[k].seen) { g_fields[k].seen = false; ++k; continue; }
    const int id = g_fields[k].id;
    if (g_open == id) g_open = 0;
    EM_ASM({ if (window['apBridge']) window['apBridge']['dropField']($0); }, id);
    g_fields.erase(g_fields.begin() + static_cast<long>(k));
  }
}

#else

bool text_field(const char* id, std::string* text, const TextFieldOptions& o) { return imgui_field(id, text, o); }
bool text_overlay_open() { return false; }
void text_fields_end_frame() { (void)g_fields; (void)g_open; (void)find; }

#endif

}  // namespace ap
