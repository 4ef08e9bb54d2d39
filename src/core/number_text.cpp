#include "number_text.h"

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

}  // namespace ap
