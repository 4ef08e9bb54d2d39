#include "sdpa_cell_text.h"

#include <cmath>
#include <cstdio>

#include "app/i18n.h"
#include "core/tokenizer.h"

namespace ap {

const char* matrix_label(MatrixId id) {
  switch (id) {
    case MatrixId::X: return "X";
    case MatrixId::Q: return "Q";
    case MatrixId::K: return "Kᵀ";
    case MatrixId::V: return "V";
    case MatrixId::Scores: return "S = QKᵀ";
    case MatrixId::Scaled: return "QKᵀ/√dₖ";
    case MatrixId::Mask: return "M";
    case MatrixId::Masked: return "QKᵀ/√dₖ + M";
    case MatrixId::Exps: return "exp(z − max)";
    case MatrixId::RowSum: return "Σ";
    case MatrixId::WeightColumn: return "Aᵢⱼ";
    case MatrixId::Weights: return "A";
    case MatrixId::Output: return "A·V";
  }
  return "?";
}

namespace {
std::string paren(double v, int d) { return v < 0 ? "(" + fmt(v, d) + ")" : fmt(v, d); }
}  // namespace

std::string dot_product_text(const char* a, int i, const char* b, int j, const float* x, const float* y,
                             int stride_y, int count, double result, int max_terms) {
  std::string s = std::string(a) + subscript(i + 1) + "·" + b + subscript(j + 1) + " = ";
  const auto term = [&](int t) { return paren(x[t], 2) + "×" + paren(y[t * stride_y], 2); };
  if (count <= max_terms) {
    for (int t = 0; t < count; ++t) s += (t ? " + " : "") + term(t);
  } else {
    for (int t = 0; t < max_terms - 2; ++t) s += (t ? " + " : "") + term(t);
    s += " + … + " + term(count - 2) + " + " + term(count - 1);
  }
  return s + " = " + fmt(result, 3);
}

std::string explain_cell(const SdpaModel& m, MatrixId id, int i, int j) {
  const AttentionTrace& t = m.trace;
  const auto in = [](const Mat& a, int r, int c) { return r >= 0 && c >= 0 && r < a.rows() && c < a.cols(); };
  const auto who = [&](int qi, int kj) {
    return "“" + m.query_tokens[qi] + "” → “" + m.key_tokens[kj] + "”";
  };
  char buf[512];
  switch (id) {
    case MatrixId::X:
      if (!in(m.X, i, j)) return {};
      std::snprintf(buf, sizeof buf, "x%s,%d = %s  (%s “%s”)", subscript(i + 1).c_str(), j + 1,
                    fmt(m.X(i, j), 3).c_str(), tr("embedding + position of"), m.query_tokens[i].c_str());
      return buf;
    case MatrixId::Q: case MatrixId::V: {
      const Mat& M = id == MatrixId::Q ? m.Q : m.V;
      const Mat& W = id == MatrixId::Q ? m.Wq : m.Wv;
      if (!in(M, i, j)) return {};
      const char* name = id == MatrixId::Q ? "Q" : "V";
      std::string head = std::string(name) + subscript(i + 1) + "," + std::to_string(j + 1) + " = " + fmt(M(i, j), 3);
      if (m.params.source == QkvSource::Custom || m.X.rows() == 0) return head + "  (" + tr("set by hand") + ")";
      return head + "\n" +
             dot_product_text("x", i, id == MatrixId::Q ? "W^Q col " : "W^V col ", j, &m.X(i, 0), &W(0, j),
                              static_cast<int>(W.cols()), static_cast<int>(m.X.cols()), M(i, j));
    }
    case MatrixId::K: {  // drawn as Kᵀ: row = dimension i, column = key j
      if (!in(m.K, j, i)) return {};
      std::string head = "Kᵀ" + subscript(i + 1) + "," + std::to_string(j + 1) + " = k" + subscript(j + 1) +
                         "[" + std::to_string(i + 1) + "] = " + fmt(m.K(j, i), 3);
      if (m.params.source == QkvSource::Custom || m.X.rows() == 0) return head + "  (" + tr("set by hand") + ")";
      return head + "\n" + dot_product_text("x", j, "W^K col ", i, &m.X(j, 0), &m.Wk(0, i),
                                            static_cast<int>(m.Wk.cols()), static_cast<int>(m.X.cols()), m.K(j, i));
    }
    case MatrixId::Scores:
      if (!in(t.scores, i, j)) return {};
      return who(i, j) + "\nS" + subscript(i + 1) + "," + subscript(j + 1) + " = " +
             dot_product_text("q", i, "k", j, &m.Q(i, 0), &m.K(j, 0), 1, t.d_k, t.scores(i, j));
    case MatrixId::Scaled:
      if (!in(t.scaled, i, j)) return {};
      std::snprintf(buf, sizeof buf, "%s\nS%s,%s / √dₖ = %s / √%d = %s / %s = %s", who(i, j).c_str(),
                    subscript(i + 1).c_str(), subscript(j + 1).c_str(), fmt(t.scores(i, j), 3).c_str(), t.d_k,
                    fmt(t.scores(i, j), 3).c_str(), fmt(t.sqrt_dk, 3).c_str(), fmt(t.scaled(i, j), 3).c_str());
      return buf;
    case MatrixId::Mask: case MatrixId::Masked: {
      if (!in(t.masked, i, j)) return {};
      std::string why;
      if (std::isinf(t.mask(i, j)))
        why = m.key_tokens[j] == kPadToken ? tr("hidden: this key is padding [PAD]")
                                           : tr("hidden: this key comes after the query (the future)");
      else
        why = tr("visible: + 0");
      std::snprintf(buf, sizeof buf, "%s\n%s + %s = %s   (%s)", who(i, j).c_str(), fmt(t.scaled(i, j), 3).c_str(),
                    std::isinf(t.mask(i, j)) ? "(−∞)" : "0", fmt(t.masked(i, j), 3).c_str(), why.c_str());
      return buf;
    }
    case MatrixId::Exps: case MatrixId::Weights: {
      if (!in(t.weights(), i, j)) return {};
      const SoftmaxTrace& s = t.softmax;
      if (s.fully_masked[i]) return who(i, j) + "\n" + tr("every key of this row is hidden: the weights are all 0 (no NaN)");
      if (std::isinf(t.masked(i, j)))
        return who(i, j) + "\nexp(−∞) = 0  →  A" + subscript(i + 1) + "," + subscript(j + 1) + " = 0";
      std::snprintf(buf, sizeof buf,
                    "%s\nA%s,%s = exp(z − max) / Σ = exp(%s − %s) / %s = %s / %s = %s\n(%s)",
                    who(i, j).c_str(), subscript(i + 1).c_str(), subscript(j + 1).c_str(),
                    fmt(t.masked(i, j), 3).c_str(), fmt(s.row_max[i], 3).c_str(), fmt(s.row_sum[i], 3).c_str(),
                    fmt(s.exps(i, j), 3).c_str(), fmt(s.row_sum[i], 3).c_str(), fmt(s.weights(i, j), 3).c_str(),
                    tr("subtracting the row maximum keeps exp() from overflowing; it cancels in the ratio"));
      return buf;
    }
    case MatrixId::RowSum: {
      if (i < 0 || i >= t.n || j != 0) return {};
      const SoftmaxTrace& s = t.softmax;
      if (s.fully_masked[i]) return tr("every key of this row is hidden: the weights are all 0 (no NaN)");
      std::string out = "Σⱼ exp(z" + subscript(i + 1) + "ⱼ − max) = ";
      const int shown = t.m <= 6 ? t.m : 4;
      for (int k = 0; k < shown; ++k) out += (k ? " + " : "") + fmt(s.exps(i, k), 3);
      if (t.m > shown) out += " + … (" + std::to_string(t.m) + " " + tr("terms") + ")";
      return out + " = " + fmt(s.row_sum[i], 3);
    }
    case MatrixId::WeightColumn:
      return {};  // the scene reports these cells as cells of A
    case MatrixId::Output: {
      if (!in(t.output, i, j)) return {};
      // output(i, c) = Σ_k A(i,k) · V(k, c)
      std::string s = "out" + subscript(i + 1) + "," + std::to_string(j + 1) + " = Σⱼ A" + subscript(i + 1) +
                      "ⱼ·V[j][" + std::to_string(j + 1) + "]\n= ";
      const Mat& A = t.weights();
      const int mm = t.m;
      const int shown = mm <= 8 ? mm : 6;
      for (int k = 0; k < shown; ++k) s += (k ? " + " : "") + fmt(A(i, k), 3) + "×" + paren(m.V(k, j), 2);
      if (mm > shown) s += " + … (" + std::to_string(mm) + " " + tr("terms") + ")";
      return s + " = " + fmt(t.output(i, j), 3);
    }
  }
  return {};
}

}  // namespace ap
