// What each trained head reads (core/train/heads.h: measured by the trainer on every held-out sentence), as the
// scenes "Watch attention learn" and "Multi-head attention" list it: per head its relation at "it" and, apart for
// animal and place referents, the weight on each kind of word; then its relation after a noun.
#pragma once
#include <vector>

#include "core/train/heads.h"

namespace ap {

// Draws the list (nothing when `patterns` is empty).
void head_patterns_list(const std::vector<train::HeadPattern>& patterns);
// The line above the list, wrapped: which rows were measured, on which sentences.
void head_patterns_caption();

}  // namespace ap
