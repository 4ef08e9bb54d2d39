// Numbers as the learner reads them: fixed decimals with a real minus sign, ∞ for infinities, and
// subscript digits for indices. Shared by the cell arithmetic text (app) and the matrix views (widgets).
#pragma once
#include <string>

namespace ap {

std::string fmt(double v, int decimals = 2);  // "0.71", "−0.35", "−∞"; never "−0.00"
std::string subscript(int one_based);         // 12 -> "₁₂"

}  // namespace ap
