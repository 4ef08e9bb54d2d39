// What every view says about the weights it shows, on screen and in the document: measured, never typed.
//   trained: "trained on coreference, 1500 steps, held-out accuracy 99.9 %"  (the step and accuracy of the run
//            or checkpoint shown)
//   random:  "random, seed 42"
#pragma once
#include <cstdint>
#include <string>

namespace ap {

// localized: in the current language (the screen), else English (the document, the same in every language).
// task: the recipe's ("heads", core/train/heads.h: "trained on naming the referent, 1500 steps, held-out accuracy
// 100.0 %"; "induction": "trained on copying a repeated sequence, …").
std::string trained_weights_label(int step, double heldout_accuracy, bool localized, const std::string& task = "coref");
std::string random_weights_label(uint64_t seed, bool localized);

}  // namespace ap
