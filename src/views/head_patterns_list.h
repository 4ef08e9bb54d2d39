// What each trained head's "it" row reads (core/train/heads.h: measured by the trainer on every held-out
// sentence), as the scenes "Watch attention learn" and "Multi-head attention" list it: per head its relation
// and, apart for animal and place referents, the weight on each kind of word.
#pragma once
#include <vector>

#include "core/train/heads.h"

namespace ap {

// Draws the list (nothing when `patterns` is empty).
void head_patterns_list(const std::vector<train::HeadPattern>& patterns);

}  // namespace ap
