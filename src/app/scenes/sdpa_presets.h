// One-click presets: the seeds' worked examples and a few sentences.
#pragma once
#include <string>
#include <vector>

#include "core/sdpa_pipeline.h"

namespace ap {

struct Preset {
  const char* id;      // used in URLs: ?preset=cats
  const char* title;   // English; tr() gives the Chinese
  const char* note;    // what to look at (English; tr())
  SdpaParams params;
  // A softmax row as the lecture notes print it (hand-set presets only): shown beside the row computed here,
  // so that a misprint in the notes is visible on screen. printed_row < 0: the notes print none.
  int printed_row = -1;
  std::vector<float> printed_weights;
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& id);
// The hand-set preset whose Q, K and V are exactly these (the learner has not edited them), or nullptr.
const Preset* hand_set_preset(const Mat& Q, const Mat& K, const Mat& V);

}  // namespace ap
