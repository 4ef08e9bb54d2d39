#include "number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ap {

std::string subscript(int v) {
  static const char* const kDigits[10] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
  const std::string s = std::to_string(v);
  std::string out;
  for (char c : s) out += c == '-' ? "₋" : kDigits[c - '0'];
  return out;
}

std::string fmt(double v, int decimals) {
  if (std::isinf(v)) return v < 0 ? "−∞" : "∞";
  if (std::isnan(v)) return "NaN";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v));
  // Avoid "−0.00": a value that rounds to zero prints without a sign.
  bool zero = true;
  for (const char* p = buf; *p; ++p) if (*p >= '1' && *p <= '9') zero = false;
  return (v < 0 && !zero ? "−" : "") + std::string(buf);
}

std::string fmt_sig(double v, int digits) {
  if (!std::isfinite(v) || v == 0.0) return fmt(v, 0);
  digits = std::max(1, std::min(digits, 9));
  const double a = std::fabs(v);
  const int e = static_cast<int>(std::floor(std::log10(a)));
  if (e >= -3) return fmt(v, std::max(0, digits - 1 - e));
  // m × 10^e with m in [1, 10): the exponent as superscript digits with a real minus sign.
  double m = a / std::pow(10.0, e);
  int ex = e;
  const int dec = std::max(0, digits - 2);  // decimals of m
  if (std::round(m * std::pow(10.0, dec)) >= std::pow(10.0, dec + 1)) { m /= 10.0; ++ex; }  // 9.99 → 1.0×10 more
  static const char* kSup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string exp_text = "⁻";
  const std::string digits_of = std::to_string(-ex);
  for (char c : digits_of) exp_text += kSup[c - '0'];
  return (v < 0 ? "−" : "") + fmt(m, dec) + "×10" + exp_text;
}

}  // namespace ap

namespace ap {
std::string fmt_percent(double share, int decimals) { return fmt(100.0 * share, decimals) + " %"; }
}  // namespace ap
