// Unit tests for the cell arithmetic text (app/scenes/sdpa_cell_text.h): number formatting, subscripts, dot products and
// the per-cell explanations of every matrix.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "app/scenes/sdpa_cell_text.h"
#include "app/i18n.h"
#include "app/scenes/sdpa_presets.h"
#include "core/tokenizer.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

SdpaModel build(const SdpaParams& p) {
  SdpaModel m;
  const Status s = build_sdpa(p, &m);
  EXPECT_TRUE(s.ok) << s.message;
  return m;
}

SdpaModel preset_model(const char* id, MaskKind mask = MaskKind::None) {
  const Preset* p = find_preset(id);
  EXPECT_NE(p, nullptr) << id;
  if (!p) return {};
  SdpaParams params = p->params;
  if (mask != MaskKind::None) params.mask = mask;
  return build(params);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

class AppCellText : public ::testing::Test {
 protected:
  void SetUp() override { set_lang(Lang::En); }
  void TearDown() override { set_lang(Lang::En); }
};

// ---- fmt, subscript, labels -------------------------------------------------------------------------------

TEST_F(AppCellText, FmtRoundsAndUsesTheRealMinusSign) {
  EXPECT_EQ(fmt(0.7071), "0.71");
  EXPECT_EQ(fmt(0.7071, 3), "0.707");
  EXPECT_EQ(fmt(1.0), "1.00");
  EXPECT_EQ(fmt(-1.5), "−1.50");  // U+2212, not '-'
  EXPECT_EQ(fmt(-0.35), "−0.35");
  EXPECT_EQ(fmt(12.0, 0), "12");
  EXPECT_EQ(fmt(-2.25, 1).find('-'), std::string::npos);
}

TEST_F(AppCellText, FmtSigKeepsSignificantDigitsAndWritesTinyValuesInPowersOfTen) {
  EXPECT_EQ(fmt_sig(2.3148), "2.31");
  EXPECT_EQ(fmt_sig(0.021349), "0.0213");
  EXPECT_EQ(fmt_sig(0.0012), "0.00120");
  EXPECT_EQ(fmt_sig(123.4), "123");
  EXPECT_EQ(fmt_sig(1.7e-6), "1.7×10⁻⁶");
  EXPECT_EQ(fmt_sig(-4.26e-5), "−4.3×10⁻⁵");
  EXPECT_EQ(fmt_sig(9.96e-7), "1.0×10⁻⁶");  // rounds up into the next power
  EXPECT_EQ(fmt_sig(3.0e-12), "3.0×10⁻¹²");
  EXPECT_EQ(fmt_sig(0.0), "0");
  EXPECT_EQ(fmt_sig(kInf), "∞");
  EXPECT_EQ(fmt_sig(7e-6, 1), "7×10⁻⁶");  // one digit: no roll-over below 9.5
  EXPECT_EQ(fmt_sig(9.6e-6, 1), "1×10⁻⁵");
}

TEST_F(AppCellText, FmtOfAValueThatRoundsToZeroHasNoSign) {
  EXPECT_EQ(fmt(-0.001), "0.00");
  EXPECT_EQ(fmt(-0.004), "0.00");
  EXPECT_EQ(fmt(-0.0), "0.00");
  EXPECT_EQ(fmt(0.0), "0.00");
  EXPECT_EQ(fmt(-0.0004, 3), "0.000");
  EXPECT_EQ(fmt(-0.4, 0), "0");
  EXPECT_EQ(fmt(-0.001, 3), "−0.001");  // not zero at 3 decimals
}

TEST_F(AppCellText, FmtOfInfinityAndNaN) {
  EXPECT_EQ(fmt(-kInf), "−∞");
  EXPECT_EQ(fmt(kInf), "∞");
  EXPECT_EQ(fmt(kNaN), "NaN");
}

TEST_F(AppCellText, Subscript) {
  EXPECT_EQ(subscript(12), "₁₂");
  EXPECT_EQ(subscript(1), "₁");
  EXPECT_EQ(subscript(0), "₀");
  EXPECT_EQ(subscript(1024), "₁₀₂₄");
  EXPECT_EQ(subscript(-3), "₋₃");
}

TEST_F(AppCellText, MatrixLabels) {
  EXPECT_STREQ(matrix_label(MatrixId::Q), "Q");
  EXPECT_STREQ(matrix_label(MatrixId::K), "Kᵀ");
  EXPECT_STREQ(matrix_label(MatrixId::V), "V");
  EXPECT_STREQ(matrix_label(MatrixId::Weights), "A");
  EXPECT_STREQ(matrix_label(MatrixId::Output), "A·V");
}

// ---- dot_product_text ---------------------------------------------------------------------------------------

TEST_F(AppCellText, DotProductWritesEveryTerm) {
  const float x[3] = {0.5f, -0.3f, 2.0f};
  const float y[3] = {1.0f, 0.2f, -1.0f};
  const double r = 0.5 * 1.0 + -0.3 * 0.2 + 2.0 * -1.0;
  EXPECT_EQ(dot_product_text("q", 0, "k", 1, x, y, 1, 3, r),
            "q₁·k₂ = 0.50×1.00 + (−0.30)×0.20 + 2.00×(−1.00) = −1.560");
}

TEST_F(AppCellText, DotProductFollowsTheStride) {
  // y is a column of a row-major 3×2 matrix: stride 2.
  const float x[3] = {1, 2, 3};
  const float w[6] = {1, 10, 2, 20, 3, 30};
  EXPECT_EQ(dot_product_text("x", 1, "W col ", 1, x, w + 1, 2, 3, 140.0),
            "x₂·W col ₂ = 1.00×10.00 + 2.00×20.00 + 3.00×30.00 = 140.000");
}

TEST_F(AppCellText, DotProductElidesTermsBeyondMaxTerms) {
  float x[10], y[10];
  for (int t = 0; t < 10; ++t) { x[t] = static_cast<float>(t + 1); y[t] = 1.0f; }
  const std::string s = dot_product_text("a", 0, "b", 1, x, y, 1, 10, 55.0, 8);
  EXPECT_EQ(s,
            "a₁·b₂ = 1.00×1.00 + 2.00×1.00 + 3.00×1.00 + 4.00×1.00 + 5.00×1.00 + 6.00×1.00 + … + 9.00×1.00 + "
            "10.00×1.00 = 55.000");
  // Exactly max_terms terms: nothing elided.
  const std::string all = dot_product_text("a", 0, "b", 1, x, y, 1, 8, 36.0, 8);
  EXPECT_FALSE(contains(all, "…")) << all;
  EXPECT_TRUE(contains(all, "8.00×1.00")) << all;
}

TEST_F(AppCellText, DotProductShowsAtMostMaxTermsProducts) {
  float x[40], y[40];
  for (int t = 0; t < 40; ++t) { x[t] = 1.0f; y[t] = 1.0f; }
  for (int max_terms : {3, 4, 8}) {
    const std::string s = dot_product_text("a", 0, "b", 0, x, y, 1, 40, 40.0, max_terms);
    int products = 0;
    for (size_t p = s.find("×"); p != std::string::npos; p = s.find("×", p + 1)) ++products;
    EXPECT_EQ(products, max_terms) << s;
    EXPECT_TRUE(contains(s, "…")) << s;
  }
}

// ---- explain_cell on the cats preset ------------------------------------------------------------------------

TEST_F(AppCellText, ScoresShowTheDotProduct) {
  const SdpaModel m = preset_model("cats");
  EXPECT_EQ(explain_cell(m, MatrixId::Scores, 0, 2),
            "“I” → “cats”\nS₁,₃ = q₁·k₃ = 1.00×0.50 + 0.00×0.50 = 0.500");
  const std::string s = explain_cell(m, MatrixId::Scores, 2, 1);  // q₃ = [1, 1], k₂ = [0, 1]
  EXPECT_TRUE(contains(s, "1.00×0.00 + 1.00×1.00")) << s;
  EXPECT_TRUE(contains(s, "= 1.000")) << s;
  EXPECT_TRUE(contains(s, "“cats” → “love”")) << s;
}

TEST_F(AppCellText, ScaledShowsTheDivisionBySqrtDk) {
  const SdpaModel m = preset_model("cats");
  const std::string s = explain_cell(m, MatrixId::Scaled, 0, 0);
  EXPECT_TRUE(contains(s, "1.000 / √2 = 1.000 / 1.414 = 0.707")) << s;
}

TEST_F(AppCellText, WeightsShowTheExpAndTheSum) {
  const SdpaModel m = preset_model("cats");
  const SoftmaxTrace& sm = m.trace.softmax;
  const std::string s = explain_cell(m, MatrixId::Weights, 0, 0);
  // exp(z − max) / Σ with the numbers of row 0: z = 1/√2, max = 1/√2, Σ = 1 + e^{−1/√2} + e^{−1/(2√2)}.
  EXPECT_TRUE(contains(s, "exp(0.707 − 0.707) / 2.195 = 1.000 / 2.195 = 0.456")) << s;
  EXPECT_TRUE(contains(s, "exp(" + fmt(m.trace.masked(0, 0), 3) + " − " + fmt(sm.row_max[0], 3) + ")")) << s;
  EXPECT_TRUE(contains(s, "/ " + fmt(sm.row_sum[0], 3))) << s;
  EXPECT_TRUE(contains(s, "= " + fmt(sm.weights(0, 0), 3))) << s;
  EXPECT_TRUE(contains(s, "A₁,₁")) << s;
  // The same explanation serves the exps matrix.
  EXPECT_EQ(explain_cell(m, MatrixId::Exps, 0, 0), s);
  // Another cell of the row: exp(0 − 0.707) = 0.493.
  const std::string s1 = explain_cell(m, MatrixId::Weights, 0, 1);
  EXPECT_TRUE(contains(s1, "exp(0.000 − 0.707) / 2.195 = 0.493 / 2.195 = 0.225")) << s1;
}

TEST_F(AppCellText, OutputShowsTheWeightedSum) {
  const SdpaModel m = preset_model("cats");
  const std::string s = explain_cell(m, MatrixId::Output, 0, 0);
  const Mat& A = m.trace.weights();
  EXPECT_TRUE(contains(s, fmt(A(0, 0), 3) + "×1.00 + " + fmt(A(0, 1), 3) + "×0.00 + " + fmt(A(0, 2), 3) + "×0.50"))
      << s;
  EXPECT_TRUE(ends_with(s, " = " + fmt(m.trace.output(0, 0), 3))) << s;
  EXPECT_FALSE(contains(s, "…")) << s;
}

TEST_F(AppCellText, OutputOfALongRowIsElided) {
  const SdpaModel m = build(SdpaParams{});  // 11 keys
  const std::string s = explain_cell(m, MatrixId::Output, 3, 2);
  EXPECT_TRUE(contains(s, "… (11 terms)")) << s;
  EXPECT_TRUE(contains(s, "= " + fmt(m.trace.output(3, 2), 3))) << s;
}

TEST_F(AppCellText, HandSetQkvSaysSo) {
  const SdpaModel m = preset_model("cats");
  const std::string q = explain_cell(m, MatrixId::Q, 2, 1);
  EXPECT_TRUE(contains(q, "Q₃,2 = 1.000")) << q;
  EXPECT_TRUE(contains(q, "set by hand")) << q;
  const std::string k = explain_cell(m, MatrixId::K, 1, 2);  // Kᵀ row 2 (dimension), column 3 (key "cats")
  EXPECT_TRUE(contains(k, "k₃[2] = 0.500")) << k;
  EXPECT_TRUE(contains(k, "set by hand")) << k;
}

TEST_F(AppCellText, ProjectedQShowsTheProjection) {
  const SdpaModel m = build(SdpaParams{});  // d_model 16 > 8 terms
  const std::string q = explain_cell(m, MatrixId::Q, 1, 2);
  EXPECT_TRUE(contains(q, "x₂·W^Q col ₃ = ")) << q;
  EXPECT_TRUE(contains(q, "…")) << q;
  EXPECT_TRUE(ends_with(q, " = " + fmt(m.Q(1, 2), 3))) << q;
  const std::string k = explain_cell(m, MatrixId::K, 2, 1);
  EXPECT_TRUE(contains(k, "W^K col ₃")) << k;
  const std::string x = explain_cell(m, MatrixId::X, 0, 0);
  EXPECT_TRUE(contains(x, "“The”")) << x;
  EXPECT_TRUE(contains(x, fmt(m.X(0, 0), 3))) << x;
}

// ---- masks --------------------------------------------------------------------------------------------------

TEST_F(AppCellText, CausalMaskedCellIsExpOfMinusInfinity) {
  const SdpaModel m = preset_model("cats", MaskKind::Causal);
  ASSERT_EQ(m.trace.weights()(0, 1), 0.0f);
  const std::string w = explain_cell(m, MatrixId::Weights, 0, 1);
  EXPECT_TRUE(contains(w, "exp(−∞) = 0")) << w;
  EXPECT_TRUE(contains(w, "A₁,₂ = 0")) << w;
  const std::string mk = explain_cell(m, MatrixId::Masked, 0, 2);
  EXPECT_TRUE(contains(mk, "(−∞)")) << mk;
  EXPECT_TRUE(contains(mk, "= −∞")) << mk;
  EXPECT_TRUE(contains(mk, "the future")) << mk;
  // A visible cell of the same row.
  const std::string vis = explain_cell(m, MatrixId::Mask, 1, 0);
  EXPECT_TRUE(contains(vis, "visible")) << vis;
  EXPECT_FALSE(contains(vis, "∞")) << vis;
}

TEST_F(AppCellText, PaddingMaskedCellNamesThePadToken) {
  const SdpaModel m = preset_model("padding");
  ASSERT_EQ(m.key_tokens.size(), 6u);
  ASSERT_EQ(m.key_tokens[5], kPadToken);
  const std::string s = explain_cell(m, MatrixId::Mask, 0, 5);
  EXPECT_TRUE(contains(s, "[PAD]")) << s;
  EXPECT_TRUE(contains(s, "(−∞)")) << s;
}

TEST_F(AppCellText, FullyMaskedRowSaysNoNaN) {
  SdpaParams p;
  p.source = QkvSource::Custom;
  p.Q = Mat::Ones(2, 2);
  p.K = Mat::Ones(2, 2);
  p.V = Mat::Ones(2, 1);
  p.key_labels = {kPadToken, kPadToken};
  p.query_labels = {"a", "b"};
  p.mask = MaskKind::Padding;
  const SdpaModel m = build(p);
  ASSERT_EQ(m.trace.fully_masked_rows, 2);
  const std::string s = explain_cell(m, MatrixId::Weights, 1, 0);
  EXPECT_TRUE(contains(s, "all 0")) << s;
  EXPECT_TRUE(contains(s, "no NaN")) << s;
}

TEST_F(AppCellText, ExplanationsFollowTheLanguage) {
  const SdpaModel m = preset_model("cats", MaskKind::Causal);
  set_lang(Lang::Zh);
  const std::string s = explain_cell(m, MatrixId::Mask, 0, 2);
  EXPECT_TRUE(contains(s, "屏蔽")) << s;
  EXPECT_FALSE(contains(s, "the future")) << s;
  const std::string q = explain_cell(m, MatrixId::Q, 0, 0);
  EXPECT_TRUE(contains(q, tr("set by hand"))) << q;
  EXPECT_FALSE(contains(q, "set by hand")) << q;
}

// ---- cells that do not exist --------------------------------------------------------------------------------

TEST_F(AppCellText, OutOfRangeCellsAreEmpty) {
  const SdpaModel m = preset_model("cats");  // n = m = 3, d_k = d_v = 2, no X (hand-set)
  for (MatrixId id : {MatrixId::Scores, MatrixId::Scaled, MatrixId::Mask, MatrixId::Masked, MatrixId::Exps,
                      MatrixId::Weights}) {
    EXPECT_EQ(explain_cell(m, id, 3, 0), "") << matrix_label(id);
    EXPECT_EQ(explain_cell(m, id, 0, 3), "") << matrix_label(id);
    EXPECT_EQ(explain_cell(m, id, -1, 0), "") << matrix_label(id);
    EXPECT_EQ(explain_cell(m, id, 0, -1), "") << matrix_label(id);
    EXPECT_NE(explain_cell(m, id, 2, 2), "") << matrix_label(id);
  }
  EXPECT_EQ(explain_cell(m, MatrixId::Q, 0, 2), "");
  EXPECT_EQ(explain_cell(m, MatrixId::V, 3, 0), "");
  EXPECT_EQ(explain_cell(m, MatrixId::K, 2, 0), "");  // Kᵀ has d_k = 2 rows
  EXPECT_EQ(explain_cell(m, MatrixId::K, 0, 3), "");
  EXPECT_EQ(explain_cell(m, MatrixId::Output, 0, 2), "");
  EXPECT_EQ(explain_cell(m, MatrixId::Output, 3, 0), "");
  EXPECT_EQ(explain_cell(m, MatrixId::X, 0, 0), "");  // no embeddings for hand-set Q, K, V
  EXPECT_NE(explain_cell(m, MatrixId::K, 1, 2), "");
  EXPECT_NE(explain_cell(m, MatrixId::Output, 2, 1), "");
}

TEST_F(AppCellText, NonSquareModelUsesTheRightLabels) {
  const SdpaModel m = preset_model("one-query");  // 1 query, 3 keys
  const std::string s = explain_cell(m, MatrixId::Scores, 0, 2);
  EXPECT_TRUE(contains(s, "“q” → “k3”")) << s;
  EXPECT_TRUE(contains(s, "1.00×0.00")) << s;
  EXPECT_EQ(explain_cell(m, MatrixId::Scores, 1, 0), "");
  const std::string o = explain_cell(m, MatrixId::Output, 0, 0);
  EXPECT_TRUE(contains(o, "×10.00")) << o;
  EXPECT_TRUE(contains(o, "×(−10.00)")) << o;
  EXPECT_TRUE(contains(o, "= 5.752")) << o;
}

}  // namespace
}  // namespace ap
