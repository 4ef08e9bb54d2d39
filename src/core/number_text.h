// Numbers as the learner reads them: fixed decimals with a real minus sign, ∞ for infinities, and
// subscript digits for indices. Shared by the cell arithmetic text (app) and the matrix views (widgets).
#pragma once
#include <string>

namespace ap {

std::string fmt(double v, int decimals = 2);  // "0.71", "−0.35", "−∞"; never "−0.00"
std::string subscript(int one_based);         // 12 -> "₁₂"
std::string fmt_percent(double share, int decimals = 1);  // a share as a percentage: 0.985 -> "98.5 %"
// `digits` significant digits (2.31 -> "2.31", 0.0213 -> "0.0213"); below 0.001 as m×10⁻ᵉ with one digit fewer
// in m (1.7e-6 -> "1.7×10⁻⁶"): a training loss that falls over six decades.
std::string fmt_sig(double v, int digits = 3);

}  // namespace ap
