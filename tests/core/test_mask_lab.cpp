// Unit tests for core/mask_lab.h: the padded batch, the correct masked attention and each bug's damage.
//
// Every variant is compared with a naive double-precision reference written here from the bug's
// description (plain loops, std::exp; no Eigen arithmetic, no core softmax). Tolerances: weights 1e-5 and
// outputs 2e-5, as for scaled_dot_product_attention (float scores of d_k = 16 products, values |v| ≲ 3).
//
// Damage thresholds: the batch is seeded and fixed, so each bug's damage is a deterministic number. The
// tests demand either a structural identity (rows summing to exactly 1/√d_k, one empty row per sentence)
// or roughly a third to a half of the value observed, far above rounding (the correct computation's
// measures are exactly 0 or within 1e-6 of their ideal), so that they catch a bug that stopped doing
// damage without being brittle to the particular weights.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/embedding.h"
#include "core/mask_lab.h"
#include "core/tokenizer.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfF = std::numeric_limits<float>::infinity();

template <typename T>
std::string name_of(const ::testing::TestParamInfo<T>& info) {
  return info.param.name;
}

// Four sentences of 6, 3, 6 and 1 tokens padded to 8; d_model 64 in 4 heads: d_k = 16.
const std::vector<std::vector<std::string>> kSentences = {
    {"the", "cat", "sat", "on", "the", "mat"},
    {"I", "love", "cats"},
    {"attention", "is", "all", "you", "need", "."},
    {"hello"}};

PaddedBatch lesson_batch(int heads = 4) {
  PaddedBatch b;
  const Status s = make_padded_batch(kSentences, 8, 64, heads, 42, &b);
  EXPECT_TRUE(s.ok) << s.message;
  return b;
}

// ---- the independent reference -------------------------------------------------------------------------------

struct RefLab {
  ref::DMat hidden, weights, output;
};

RefLab ref_lab(const Mat& Qf, const Mat& Kf, const Mat& Vf, const std::vector<uint8_t>& pad, bool causal, int d_model,
               MaskBug bug) {
  const ref::DMat Q = ref::from_mat(Qf), K = ref::from_mat(Kf), V = ref::from_mat(Vf);
  const int L = Q.rows, dk = Q.cols;
  RefLab r;
  r.hidden = ref::DMat(L, L);
  r.weights = ref::DMat(L, L);
  // which keys the code under each bug hides before its softmax, and what it divides by
  auto own_hidden = [&](int i, int j) {
    const bool p = pad[j] != 0;
    switch (bug) {
      case MaskBug::MaskAfterSoftmax: return false;
      case MaskBug::CausalOmitted: return p;
      case MaskBug::CausalTransposed: return p || j < i;
      case MaskBug::CausalDiagonal: return p || j >= i;
      default: return p || (causal && j > i);
    }
  };
  double divisor = std::sqrt(static_cast<double>(dk));
  if (bug == MaskBug::ScaleAfterSoftmax) divisor = 1.0;
  if (bug == MaskBug::ScaleByDModel) divisor = std::sqrt(static_cast<double>(d_model));
  ref::DMat z(L, L);
  std::vector<std::vector<bool>> hid(L, std::vector<bool>(L));
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      double s = 0.0;
      for (int c = 0; c < dk; ++c) s += Q(i, c) * K(j, c);
      z(i, j) = s / divisor;
      hid[i][j] = own_hidden(i, j);
      r.hidden(i, j) = (pad[j] || (causal && j > i)) ? 1.0 : 0.0;
    }
  // softmax along rows, or along columns for that bug; an all-hidden line is all zeros
  const bool by_column = bug == MaskBug::SoftmaxOverColumns;
  for (int a = 0; a < L; ++a) {
    double mx = -ref::kInf, sum = 0.0;
    for (int b = 0; b < L; ++b) {
      const int i = by_column ? b : a, j = by_column ? a : b;
      if (!hid[i][j]) mx = std::max(mx, z(i, j));
    }
    if (mx == -ref::kInf) continue;
    for (int b = 0; b < L; ++b) {
      const int i = by_column ? b : a, j = by_column ? a : b;
      if (!hid[i][j]) sum += std::exp(z(i, j) - mx);
    }
    for (int b = 0; b < L; ++b) {
      const int i = by_column ? b : a, j = by_column ? a : b;
      r.weights(i, j) = hid[i][j] ? 0.0 : std::exp(z(i, j) - mx) / sum;
    }
  }
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      if (bug == MaskBug::MaskAfterSoftmax && r.hidden(i, j) != 0.0) r.weights(i, j) = 0.0;
      if (bug == MaskBug::ScaleAfterSoftmax) r.weights(i, j) /= std::sqrt(static_cast<double>(dk));
    }
  r.output = ref::matmul(r.weights, V);
  return r;
}

// The measures, from their definitions, over the real query rows.
struct RefDamage {
  double row_dev = 0, hidden = 0, mean_hidden = 0, pad = 0, future = 0, max_w = 0, peak = 0, entropy = 0, out = 0, abs_out = 0;
  int empty = 0;
};

RefDamage ref_damage(const RefLab& v, const RefLab& good, const std::vector<uint8_t>& pad, bool causal) {
  RefDamage d;
  const int L = v.weights.rows;
  int rows = 0, shaped = 0;
  for (int i = 0; i < L; ++i) {
    if (pad[i]) continue;
    ++rows;
    double sum = 0, hid = 0, pm = 0, fut = 0, mx = 0;
    for (int j = 0; j < L; ++j) {
      const double w = v.weights(i, j);
      sum += w;
      hid += v.hidden(i, j) * w;
      if (pad[j]) pm += w;
      if (causal && j > i) fut += w;
      mx = std::max(mx, w);
    }
    d.row_dev = std::max(d.row_dev, std::fabs(sum - 1.0));
    d.hidden = std::max(d.hidden, hid);
    d.mean_hidden += hid;
    d.pad = std::max(d.pad, pm);
    d.future = std::max(d.future, fut);
    d.max_w = std::max(d.max_w, mx);
    if (sum == 0.0) {
      ++d.empty;
    } else {
      ++shaped;
      d.peak += mx / sum;
      for (int j = 0; j < L; ++j)
        if (v.weights(i, j) > 0.0) d.entropy -= v.weights(i, j) / sum * std::log(v.weights(i, j) / sum);
    }
    for (int c = 0; c < v.output.cols; ++c) d.out = std::max(d.out, std::fabs(v.output(i, c) - good.output(i, c)));
    for (int c = 0; c < v.output.cols; ++c) d.abs_out = std::max(d.abs_out, std::fabs(v.output(i, c)));
  }
  d.mean_hidden /= rows;
  if (shaped > 0) d.peak /= shaped, d.entropy /= shaped;
  return d;
}

// ---- the padded batch ----------------------------------------------------------------------------------------

TEST(CoreMaskLab, PaddedBatchShapesFlagsAndProjections) {
  const PaddedBatch b = lesson_batch();
  ASSERT_EQ(b.Q.size(), kSentences.size());
  EXPECT_EQ(b.L, 8);
  EXPECT_EQ(b.d_model, 64);
  EXPECT_EQ(b.heads, 4);
  EXPECT_EQ(b.d_k, 16);
  EXPECT_EQ(b.lengths, (std::vector<int>{6, 3, 6, 1}));
  const Mat Wq = projection_weights(64, 16, 42, 'Q', 0), Wv = projection_weights(64, 16, 42, 'V', 0);
  for (size_t s = 0; s < kSentences.size(); ++s) {
    ASSERT_EQ(b.tokens[s].size(), 8u);
    for (int j = 0; j < 8; ++j) {
      const bool pad = j >= b.lengths[s];
      EXPECT_EQ(b.key_is_pad[s][j], pad ? 1 : 0) << s << "," << j;
      EXPECT_EQ(b.tokens[s][j], pad ? std::string(kPadToken) : kSentences[s][j]);
    }
    EXPECT_EQ(b.Q[s].rows(), 8);
    EXPECT_EQ(b.Q[s].cols(), 16);
    EXPECT_EQ(b.V[s].cols(), 16);
    // Q = X·W^Q with the seeded embeddings (and position codes) of the padded sentence
    Mat X;
    ASSERT_TRUE(embed_tokens(b.tokens[s], 64, 42, true, &X).ok);
    EXPECT_LE(ref::max_abs_diff(b.Q[s], ref::matmul(ref::from_mat(X), ref::from_mat(Wq))), 1e-5);
    EXPECT_LE(ref::max_abs_diff(b.V[s], ref::matmul(ref::from_mat(X), ref::from_mat(Wv))), 1e-5);
  }
  // pad_to = 0: the longest sentence
  PaddedBatch tight;
  ASSERT_TRUE(make_padded_batch(kSentences, 0, 64, 4, 42, &tight).ok);
  EXPECT_EQ(tight.L, 6);
  EXPECT_EQ(tight.key_is_pad[0], (std::vector<uint8_t>(6, 0)));
}

// ---- every variant against the reference ---------------------------------------------------------------------

struct VariantCase {
  const char* name;
  MaskBug bug;
  bool causal;
};
void PrintTo(const VariantCase& c, std::ostream* os) { *os << c.name; }

const VariantCase kVariants[] = {
    {"padding_correct", MaskBug::None, false},
    {"padding_mask_after_softmax", MaskBug::MaskAfterSoftmax, false},
    {"padding_scale_after_softmax", MaskBug::ScaleAfterSoftmax, false},
    {"padding_softmax_over_columns", MaskBug::SoftmaxOverColumns, false},
    {"padding_scale_by_d_model", MaskBug::ScaleByDModel, false},
    {"causal_correct", MaskBug::None, true},
    {"causal_mask_after_softmax", MaskBug::MaskAfterSoftmax, true},
    {"causal_scale_after_softmax", MaskBug::ScaleAfterSoftmax, true},
    {"causal_softmax_over_columns", MaskBug::SoftmaxOverColumns, true},
    {"causal_scale_by_d_model", MaskBug::ScaleByDModel, true},
    {"causal_omitted", MaskBug::CausalOmitted, true},
    {"causal_transposed", MaskBug::CausalTransposed, true},
    {"causal_diagonal", MaskBug::CausalDiagonal, true},
};

class CoreMaskLabVsReference : public ::testing::TestWithParam<VariantCase> {};

TEST_P(CoreMaskLabVsReference, WeightsOutputsAndMeasures) {
  const VariantCase p = GetParam();
  const PaddedBatch b = lesson_batch();
  MaskLabRun run;
  const Status s = run_mask_lab(b, p.causal, p.bug, &run);
  ASSERT_TRUE(s.ok) << s.message;
  ASSERT_EQ(run.variant.size(), b.Q.size());
  double worst_w = 0, worst_o = 0, worst_h = 0, worst_m = 0;
  int empty = 0;
  for (size_t k = 0; k < b.Q.size(); ++k) {
    const RefLab want = ref_lab(b.Q[k], b.K[k], b.V[k], b.key_is_pad[k], p.causal, b.d_model, p.bug);
    const RefLab good = ref_lab(b.Q[k], b.K[k], b.V[k], b.key_is_pad[k], p.causal, b.d_model, MaskBug::None);
    worst_w = std::max(worst_w, ref::max_abs_diff(run.variant[k].weights, want.weights));
    worst_o = std::max(worst_o, ref::max_abs_diff(run.variant[k].output, want.output));
    worst_h = std::max(worst_h, ref::max_abs_diff(run.variant[k].hidden, want.hidden));
    worst_w = std::max(worst_w, ref::max_abs_diff(run.correct[k].weights, good.weights));
    // the measures, per sentence
    const RefDamage d = ref_damage(want, good, b.key_is_pad[k], p.causal);
    const MaskDamage& g = run.per_sentence[k];
    worst_m = std::max({worst_m, std::fabs(g.max_row_sum_dev - d.row_dev), std::fabs(g.max_hidden_mass - d.hidden),
                        std::fabs(g.mean_hidden_mass - d.mean_hidden), std::fabs(g.max_pad_mass - d.pad),
                        std::fabs(g.max_future_mass - d.future), std::fabs(g.max_weight - d.max_w),
                        std::fabs(g.mean_peak - d.peak), std::fabs(g.mean_entropy - d.entropy)});
    worst_o = std::max({worst_o, std::fabs(g.max_output_diff - d.out), std::fabs(g.max_abs_output - d.abs_out)});
    if (p.bug == MaskBug::None) EXPECT_GT(g.max_abs_output, 0.0) << "sentence " << k;  // the scale of the leaks (a bug may empty a sentence)
    EXPECT_EQ(g.empty_rows, d.empty) << "sentence " << k;
    empty += d.empty;
  }
  const std::string tag = p.name;
  EXPECT_LE(ref::report(tag + " weights", worst_w), 1e-5);
  EXPECT_LE(ref::report(tag + " outputs", worst_o), 2e-5);
  EXPECT_EQ(ref::report(tag + " hidden map", worst_h), 0.0);
  EXPECT_LE(ref::report(tag + " measures", worst_m), 1e-5);
  EXPECT_EQ(run.damage.empty_rows, empty);

  // a left-padded sentence through the single-sentence entry point (padding need not come last)
  const std::vector<uint8_t> pad = {1, 1, 0, 0, 0, 0, 1};
  const Mat Q = ref::random_mat(7, 8, 5, -2, 2), K = ref::random_mat(7, 8, 6, -2, 2), V = ref::random_mat(7, 3, 7, -3, 3);
  LabAttention a;
  ASSERT_TRUE(lab_attention(Q, K, V, pad, p.causal, 32, p.bug, &a).ok);
  const RefLab want = ref_lab(Q, K, V, pad, p.causal, 32, p.bug);
  EXPECT_LE(ref::report(tag + " left-padded weights", ref::max_abs_diff(a.weights, want.weights)), 1e-5);
  EXPECT_LE(ref::report(tag + " left-padded output", ref::max_abs_diff(a.output, want.output)), 2e-5);
}

INSTANTIATE_TEST_SUITE_P(Variants, CoreMaskLabVsReference, ::testing::ValuesIn(kVariants), name_of<VariantCase>);

// ---- the correct computation ---------------------------------------------------------------------------------

TEST(CoreMaskLab, CorrectComputationHasNoDamage) {
  const PaddedBatch b = lesson_batch();
  for (bool causal : {false, true}) {
    SCOPED_TRACE(causal ? "causal" : "padding only");
    MaskLabRun run;
    ASSERT_TRUE(run_mask_lab(b, causal, MaskBug::None, &run).ok);
    for (const MaskDamage* d : {&run.damage, &run.baseline}) {
      EXPECT_EQ(d->max_hidden_mass, 0.0);  // hidden weights are exactly 0: exp(-inf) = 0
      EXPECT_EQ(d->max_pad_mass, 0.0);
      EXPECT_EQ(d->max_future_mass, 0.0);
      EXPECT_EQ(d->pad_leak, 0.0);     // changing the [PAD] tokens moves no real row, not even by one ulp
      EXPECT_EQ(d->future_leak, 0.0);  // changing the last token moves no earlier row
      EXPECT_EQ(d->max_output_diff, 0.0);
      EXPECT_EQ(d->empty_rows, 0);
      EXPECT_LE(d->max_row_sum_dev, 1e-6);
    }
    EXPECT_EQ(run.entropy_change, 0.0);
    ref::report(std::string("correct, ") + (causal ? "causal" : "padding") + ": max |row sum − 1|",
                run.damage.max_row_sum_dev);
    // the one-token sentence attends to itself only
    EXPECT_EQ(run.correct[3].weights(0, 0), 1.0f);
  }
  // Cross-check with the core's scaled_dot_product_attention: padding only, and causal on a sentence
  // without padding (that function takes one mask kind at a time)
  MaskLabRun pad_run, causal_run;
  ASSERT_TRUE(run_mask_lab(b, false, MaskBug::None, &pad_run).ok);
  double worst = 0.0;
  for (size_t k = 0; k < b.Q.size(); ++k) {
    MaskSpec spec;
    spec.kind = MaskKind::Padding;
    spec.key_is_pad = b.key_is_pad[k];
    AttentionTrace t;
    ASSERT_TRUE(scaled_dot_product_attention(b.Q[k], b.K[k], b.V[k], spec, &t).ok);
    worst = std::max({worst, ref::max_abs_diff(pad_run.correct[k].weights, ref::from_mat(t.weights())),
                      ref::max_abs_diff(pad_run.correct[k].output, ref::from_mat(t.output))});
  }
  PaddedBatch full;
  ASSERT_TRUE(make_padded_batch({kSentences[0], kSentences[2]}, 0, 64, 4, 42, &full).ok);  // both 6 tokens
  ASSERT_TRUE(run_mask_lab(full, true, MaskBug::None, &causal_run).ok);
  for (size_t k = 0; k < full.Q.size(); ++k) {
    MaskSpec spec;
    spec.kind = MaskKind::Causal;
    AttentionTrace t;
    ASSERT_TRUE(scaled_dot_product_attention(full.Q[k], full.K[k], full.V[k], spec, &t).ok);
    worst = std::max(worst, ref::max_abs_diff(causal_run.correct[k].output, ref::from_mat(t.output)));
  }
  EXPECT_LE(ref::report("correct vs scaled_dot_product_attention", worst), 1e-6);
}

// ---- each bug's damage ---------------------------------------------------------------------------------------

class CoreMaskLabBugs : public ::testing::TestWithParam<VariantCase> {};

TEST_P(CoreMaskLabBugs, ShowsItsDamage) {
  const VariantCase p = GetParam();
  const PaddedBatch b = lesson_batch();
  MaskLabRun run;
  ASSERT_TRUE(run_mask_lab(b, p.causal, p.bug, &run).ok);
  const MaskDamage& d = run.damage;
  std::printf("    %-28s row-sum dev %.3f  hidden mass max %.3f mean %.3f  max w %.3f  peak %+.3f  entropy %+.3f"
              "  |ΔO| %.3f  leaks pad %.3f future %.3f  empty %d\n",
              p.name, d.max_row_sum_dev, d.max_hidden_mass, d.mean_hidden_mass, d.max_weight, run.peak_change,
              run.entropy_change, d.max_output_diff, d.pad_leak, d.future_leak, d.empty_rows);
  const double inv_sqrt_dk = 1.0 / std::sqrt(static_cast<double>(b.d_k));  // 0.25
  switch (p.bug) {
    case MaskBug::MaskAfterSoftmax:
      // hidden weights are zero (the mask did run) …
      EXPECT_EQ(d.max_hidden_mass, 0.0);
      // … but rows lost the mass the hidden keys took in the softmax, and those keys still steer the result
      EXPECT_GT(d.max_row_sum_dev, 0.3);
      EXPECT_GT(d.pad_leak, 0.2);
      if (p.causal) {
        EXPECT_GT(d.future_leak, 0.2);
      }
      EXPECT_GT(d.max_output_diff, 0.3);
      break;
    case MaskBug::ScaleAfterSoftmax:
      // every real row sums to exactly 1/√d_k
      for (size_t k = 0; k < b.Q.size(); ++k)
        for (int i = 0; i < b.L; ++i)
          if (!b.key_is_pad[k][i]) {
            EXPECT_NEAR(run.variant[k].weights.row(i).sum(), inv_sqrt_dk, 1e-6) << k << "," << i;
          }
      EXPECT_NEAR(d.max_row_sum_dev, 1.0 - inv_sqrt_dk, 1e-6);
      EXPECT_LE(d.max_weight, inv_sqrt_dk + 1e-6);
      // underneath, the softmax saw unscaled scores: sharper rows (saturation)
      EXPECT_LT(run.entropy_change, -0.2);
      EXPECT_GT(run.peak_change, 0.1);
      EXPECT_EQ(d.max_hidden_mass, 0.0);
      EXPECT_EQ(d.pad_leak, 0.0);
      break;
    case MaskBug::SoftmaxOverColumns:
      EXPECT_GT(d.max_row_sum_dev, 0.3);
      EXPECT_GT(d.pad_leak, 0.2);  // padding QUERIES share every column's denominator
      if (p.causal) {
        EXPECT_GT(d.future_leak, 0.2);  // and so do future queries
      }
      EXPECT_EQ(d.max_hidden_mass, 0.0);
      // what it does compute: each column with a visible entry sums to 1 over all queries
      for (size_t k = 0; k < b.Q.size(); ++k)
        for (int j = 0; j < b.L; ++j) {
          const double col = run.variant[k].weights.col(j).sum();
          if (!b.key_is_pad[k][j]) {
            EXPECT_NEAR(col, 1.0, 1e-6) << k << "," << j;
          } else {
            EXPECT_EQ(col, 0.0);
          }
        }
      break;
    case MaskBug::ScaleByDModel:
      // still a valid distribution over visible keys, but flatter: scores shrank by √heads = 2
      EXPECT_LE(d.max_row_sum_dev, 1e-6);
      EXPECT_EQ(d.max_hidden_mass, 0.0);
      EXPECT_EQ(d.pad_leak, 0.0);
      EXPECT_EQ(d.future_leak, 0.0);
      EXPECT_GT(run.entropy_change, 0.05);
      EXPECT_LT(run.peak_change, -0.03);
      EXPECT_GT(d.max_output_diff, 0.1);
      break;
    case MaskBug::CausalOmitted:
    case MaskBug::CausalTransposed:
      EXPECT_GT(d.max_future_mass, 0.5);
      EXPECT_GT(d.mean_hidden_mass, 0.2);
      EXPECT_GT(d.future_leak, 0.5);
      EXPECT_EQ(d.max_pad_mass, 0.0);  // the padding mask is still there
      EXPECT_LE(d.max_row_sum_dev, 1e-6);
      if (p.bug == MaskBug::CausalTransposed) {  // the last real token can only see itself
        for (size_t k = 0; k < b.Q.size(); ++k) EXPECT_EQ(run.variant[k].weights(b.lengths[k] - 1, b.lengths[k] - 1), 1.0f);
      }
      break;
    case MaskBug::CausalDiagonal:
      // the first token of every sentence sees nothing: an all-zero row (NaN in most frameworks)
      EXPECT_EQ(d.empty_rows, static_cast<int>(b.Q.size()));
      EXPECT_EQ(d.max_row_sum_dev, 1.0);
      EXPECT_EQ(d.max_future_mass, 0.0);  // no leak: it hides too much, not too little
      EXPECT_GT(d.max_output_diff, 0.3);
      for (size_t k = 0; k < b.Q.size(); ++k)
        for (int i = 0; i < b.lengths[k]; ++i) EXPECT_EQ(run.variant[k].weights(i, i), 0.0f);
      break;
    case MaskBug::None:
      FAIL() << "not a bug";
  }
  // the baseline is always clean
  EXPECT_EQ(run.baseline.max_hidden_mass, 0.0);
  EXPECT_EQ(run.baseline.pad_leak, 0.0);
  EXPECT_EQ(run.baseline.future_leak, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Bugs, CoreMaskLabBugs,
                         ::testing::Values(kVariants[1], kVariants[2], kVariants[3], kVariants[4], kVariants[6],
                                           kVariants[7], kVariants[8], kVariants[9], kVariants[10], kVariants[11],
                                           kVariants[12]),
                         name_of<VariantCase>);

TEST(CoreMaskLab, ScaleByDModelIsHarmlessWithOneHead) {
  const PaddedBatch b = lesson_batch(1);  // d_k = d_model = 64
  MaskLabRun run;
  ASSERT_TRUE(run_mask_lab(b, true, MaskBug::ScaleByDModel, &run).ok);
  EXPECT_EQ(run.damage.max_output_diff, 0.0);
  EXPECT_EQ(run.entropy_change, 0.0);
}

TEST(CoreMaskLab, BugNamesRoundTrip) {
  const std::vector<MaskBug> bugs = all_mask_bugs();
  ASSERT_EQ(static_cast<int>(bugs.size()), kMaskBugCount);
  EXPECT_EQ(bugs.front(), MaskBug::None);
  int causal = 0;
  for (MaskBug g : bugs) {
    MaskBug back;
    ASSERT_TRUE(parse_mask_bug_name(mask_bug_name(g), &back)) << mask_bug_name(g);
    EXPECT_EQ(back, g);
    causal += mask_bug_needs_causal(g);
  }
  EXPECT_EQ(causal, 3);
  MaskBug x;
  EXPECT_FALSE(parse_mask_bug_name("mask-before-softmax", &x));
}

// ---- validation ----------------------------------------------------------------------------------------------

void expect_error(const Status& s, const std::string& must_mention) {
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.code, nullptr);
  EXPECT_NE(s.message.find(must_mention), std::string::npos) << s.message;
}

TEST(CoreMaskLabValidation, BatchRefusals) {
  using S = std::vector<std::vector<std::string>>;
  struct Case {
    const char* what;
    S sentences;
    int pad_to, d_model, heads;
    const char* mention;
  };
  const S ok = {{"a", "b"}, {"c"}};
  const std::vector<Case> cases = {
      {"no sentences", {}, 4, 16, 2, "the number of sentences must be between 1 and 16, got 0"},
      {"17 sentences", S(17, {"a"}), 4, 16, 2, "the number of sentences must be between 1 and 16, got 17"},
      {"empty sentence", {{"a"}, {}}, 4, 16, 2, "sentence 2 is empty"},
      {"only padding", S{std::vector<std::string>{"[PAD]", "[PAD]"}}, 4, 16, 2, "sentence 1 is only padding"},
      {"longer than pad_to", {{"a", "b", "c"}}, 2, 16, 2, "sentence 1 has 3 tokens, more than the padded length 2"},
      {"heads do not divide", ok, 4, 16, 3, "heads (3) must divide d_model (16)"},
      {"d_model = 0", ok, 4, 0, 1, "d_model must be between 1 and 512, got 0"},
      {"pad_to negative", ok, -1, 16, 2, "pad_to must be between 0 and 64, got -1"},
      {"pad_to too large", ok, 65, 16, 2, "pad_to must be between 0 and 64, got 65"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    PaddedBatch b;
    b.L = -4;
    b.lengths = {9};
    expect_error(make_padded_batch(c.sentences, c.pad_to, c.d_model, c.heads, 1, &b), c.mention);
    EXPECT_EQ(b.L, -4);
    EXPECT_EQ(b.lengths, std::vector<int>{9});
    EXPECT_TRUE(b.Q.empty());
  }
}

TEST(CoreMaskLabValidation, SentenceRefusals) {
  const Mat Q = ref::random_mat(5, 4, 1), K = ref::random_mat(5, 4, 2), V = ref::random_mat(5, 3, 3);
  const std::vector<uint8_t> pad = {0, 0, 0, 1, 1};
  Mat nan_q = Q;
  nan_q(1, 2) = kNaN;
  Mat inf_v = V;
  inf_v(4, 0) = kInfF;
  struct Case {
    const char* what;
    Mat Q, K, V;
    std::vector<uint8_t> pad;
    bool causal;
    int d_model;
    MaskBug bug;
    const char* mention;
  };
  const std::vector<Case> cases = {
      {"K rows != L", Q, ref::random_mat(6, 4, 2), V, pad, false, 8, MaskBug::None, "K has 6 rows, expected 5"},
      {"K cols != d_k", Q, ref::random_mat(5, 3, 2), V, pad, false, 8, MaskBug::None, "K has 3 columns, expected 4"},
      {"V rows != L", Q, K, ref::random_mat(4, 3, 3), pad, false, 8, MaskBug::None, "V has 4 rows, expected 5"},
      {"empty Q", Mat(0, 4), K, V, pad, false, 8, MaskBug::None, "Q is empty"},
      {"NaN in Q", nan_q, K, V, pad, false, 8, MaskBug::None, "Q[1][2] is NaN"},
      {"inf in V", Q, K, inf_v, pad, false, 8, MaskBug::None, "V[4][0] is inf"},
      {"flags of the wrong size", Q, K, V, {0, 0, 1}, false, 8, MaskBug::None, "padding mask: 3 padding flags for 5 keys"},
      {"d_model < d_k", Q, K, V, pad, false, 2, MaskBug::ScaleByDModel, "d_model (2) must be at least d_k (4)"},
      {"causal bug without causal", Q, K, V, pad, false, 8, MaskBug::CausalOmitted,
       "the bug \"causal-omitted\" needs the causal mask on"},
      {"unknown bug", Q, K, V, pad, true, 8, static_cast<MaskBug>(99), "unknown bug number 99"},
      {"too long", ref::random_mat(65, 4, 1), ref::random_mat(65, 4, 2), ref::random_mat(65, 3, 3),
       std::vector<uint8_t>(65, 0), false, 8, MaskBug::None, "Q has 65 rows; the limit is 64"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    LabAttention a;
    a.weights = Mat::Constant(1, 1, 42.f);
    expect_error(lab_attention(c.Q, c.K, c.V, c.pad, c.causal, c.d_model, c.bug, &a), c.mention);
    EXPECT_TRUE(ref::identical(a.weights, Mat::Constant(1, 1, 42.f)));
    EXPECT_EQ(a.output.size(), 0);
  }
}

TEST(CoreMaskLabValidation, RunRefusals) {
  const PaddedBatch good = lesson_batch();
  auto refused = [&](const PaddedBatch& b, bool causal, MaskBug bug, const std::string& mention) {
    MaskLabRun run;
    run.causal = true;
    run.entropy_change = 42;
    expect_error(run_mask_lab(b, causal, bug, &run), mention);
    EXPECT_EQ(run.entropy_change, 42);
    EXPECT_TRUE(run.variant.empty());
    EXPECT_TRUE(run.per_sentence.empty());
  };
  PaddedBatch b = good;
  b.V[1](2, 3) = kNaN;
  refused(b, false, MaskBug::None, "V2[2][3] is NaN");
  b = good;
  b.K.pop_back();
  refused(b, false, MaskBug::None, "the batch is inconsistent: 4 Q, 3 K, 4 V and 4 padding masks");
  b = good;
  b.key_is_pad[2].assign(8, 1);
  refused(b, false, MaskBug::None, "sentence 3 is only padding");
  b = good;
  b.key_is_pad[0].pop_back();
  refused(b, true, MaskBug::None, "padding mask: 7 padding flags for 8 keys");
  refused(good, false, MaskBug::CausalDiagonal, "the bug \"causal-diagonal\" needs the causal mask on");
  refused(PaddedBatch{}, false, MaskBug::None, "the number of sentences must be between 1 and 16, got 0");
  b = good;
  b.d_model = 8;
  refused(b, false, MaskBug::None, "d_model (8) must be at least d_k (16)");
}

}  // namespace
}  // namespace ap
