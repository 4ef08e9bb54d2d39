// A text field as a person expects one. In the browser, while it is edited, a real HTML <input> (or
// <textarea>) lies over the field: input methods (Chinese pinyin composition), paste, the on-screen keyboard
// of phones and tablets and screen readers all work, which a canvas cannot offer. Natively it is Dear ImGui's
// own field.
//
// The overlay opens when the learner clicks or taps the field (web/playground.js opens it inside the
// pointer event, so that a phone raises its keyboard) or tabs into it; Enter (single line), Escape or leaving
// it closes it. What is typed reaches `*text` at the next frame.
#pragma once
#include <string>

namespace ap {

struct TextFieldOptions {
  bool multiline = false;
  float height = 0.f;             // multi-line: the field's height in pixels (0: 4 lines)
  size_t max_bytes = 16384;       // longer text is cut here (the scene then says it is too long)
  const char* accessible_name = "";  // what a screen reader calls the field
  bool select_all = false;        // editing starts with the whole text selected (a number to replace)
  // Single line: set to true in the frame the learner pressed Enter (*submitted) or Escape (*cancelled) in
  // the field; left alone otherwise. nullptr: not asked.
  bool* submitted = nullptr;
  bool* cancelled = nullptr;
};

// Draws the field at the cursor, full width of the next item (SetNextItemWidth applies). Returns true when
// `*text` changed this frame (typed, pasted, composed).
bool text_field(const char* id, std::string* text, const TextFieldOptions& options = {});

// True while an HTML overlay holds the keyboard: the playground's shortcuts wait.
bool text_overlay_open();

// Once per frame, after everything is drawn: fields not drawn this frame are forgotten (their overlay closes).
void text_fields_end_frame();

}  // namespace ap
