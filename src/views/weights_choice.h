// The trained views' "weights" section (SDPA's presets aside: the self-attention, multi-head and Bahdanau
// scenes): a heading, "random (seeded)" or the build's trained model, and below them the label of what the view
// shows — measured, never typed — or "loading the trained model…" while the checkpoint comes.
#pragma once
#include <string>

namespace ap {

// The heading and both radios; `trained_name` is already translated. True when the learner picked the other
// one; *trained is then the choice. `one_line`: both radios on one line (short names).
bool weights_radios(const char* trained_name, bool trained_now, bool one_line, bool* trained);
// The line below: the label, or the loading note while `pending`.
void weights_label_line(bool pending, const std::string& label);

}  // namespace ap
