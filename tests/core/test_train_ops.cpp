// The training engine's layers (core/train/ops.h): every backward pass against central finite differences,
// and the attention forward against the scenes' scaled_dot_product_attention (core/attention.h).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/attention.h"
#include "core/train/ops.h"
#include "reference.h"
#include "train_check.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;
using traintest::dot;
using traintest::max_rel_error;
using traintest::report_rel;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr double kTol = 2e-2;  // float forward passes, ε = 1e-3

// ---- the attention forward is the scenes' attention --------------------------------------------------------

// Three sequences of T = 7 (no mask, padding keys 1 and 4, causal) and then H = 2 heads: each (sequence, head)
// block of the engine's output and weights equals scaled_dot_product_attention on the same Q, K, V and mask.
TEST(CoreTrainOps, AttentionForwardEqualsCoreAttention) {
  const int T = 7, C = 6;
  for (int H : {1, 2}) {
    const int B = 4, d = C / H;
    const Mat q = ref::random_mat(B * T, C, 11 + H), k = ref::random_mat(B * T, C, 12 + H, -2, 2),
              v = ref::random_mat(B * T, C, 13 + H);
    std::vector<MaskSpec> specs(B);
    specs[1].kind = MaskKind::Padding;
    specs[1].key_is_pad = {0, 1, 0, 0, 1, 0, 0};
    specs[2].kind = MaskKind::Causal;
    specs[3].kind = MaskKind::Padding;  // every key hidden: all rows fully masked
    specs[3].key_is_pad.assign(T, 1);
    Mat mask(B * T, T);
    for (int b = 0; b < B; ++b) {
      Mat M;
      ASSERT_TRUE(build_mask(specs[b], T, T, &M).ok);
      mask.block(b * T, 0, T, T) = M;
    }
    Mat out(B * T, C), preatt(B * H * T, T), att(B * H * T, T);
    attention_forward(out, preatt, att, q, k, v, mask, B, T, H);
    double worst_out = 0, worst_w = 0;
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < H; ++h) {
        AttentionTrace t;
        ASSERT_TRUE(scaled_dot_product_attention(q.block(b * T, h * d, T, d), k.block(b * T, h * d, T, d),
                                                 v.block(b * T, h * d, T, d), specs[b], &t)
                        .ok);
        const Mat o = out.block(b * T, h * d, T, d), w = att.block((b * H + h) * T, 0, T, T);
        worst_out = std::max(worst_out, double((o - t.output).cwiseAbs().maxCoeff()));
        worst_w = std::max(worst_w, double((w - t.weights()).cwiseAbs().maxCoeff()));
        if (b == 3) {
          EXPECT_EQ(t.fully_masked_rows, T);
          EXPECT_FALSE(ref::any_nan(o));
          EXPECT_EQ(o.cwiseAbs().maxCoeff(), 0.f);
        }
      }
    ref::report(H == 1 ? "engine vs core attention: output (1 head)" : "engine vs core attention: output (2 heads)",
                worst_out);
    ref::report(H == 1 ? "engine vs core attention: weights (1 head)" : "engine vs core attention: weights (2 heads)",
                worst_w);
    EXPECT_LE(worst_out, 1e-5);
    EXPECT_LE(worst_w, 1e-5);
  }
}

// ---- gradient checks, op by op -----------------------------------------------------------------------------

TEST(CoreTrainOps, EmbeddingGradient) {
  const int B = 2, T = 4, V = 5, C = 3;
  const std::vector<int> ids = {0, 3, 3, 1, 4, 0, 2, 3};  // repeated ids: gradients must accumulate
  Mat wte = ref::random_mat(V, C, 1), wpe = ref::random_mat(T + 2, C, 2), w = ref::random_mat(B * T, C, 3);
  Mat out(B * T, C), dwte = Mat::Zero(V, C), dwpe = Mat::Zero(T + 2, C);
  auto loss = [&] {
    embedding_forward(out, ids.data(), B, T, wte, wpe);
    return dot(w, out);
  };
  loss();
  embedding_backward(dwte, dwpe, w, ids.data(), B, T);
  EXPECT_LE(report_rel("embedding: d wte", max_rel_error(wte, dwte, loss)), kTol);
  EXPECT_LE(report_rel("embedding: d wpe", max_rel_error(wpe, dwpe, loss)), kTol);
  EXPECT_EQ(dwte.row(0), 0 * dwte.row(0) + w.row(0) + w.row(5));  // id 0 at rows 0 and 5
}

TEST(CoreTrainOps, AffineGradient) {
  const int N = 5, C = 4, OC = 3;
  Mat x = ref::random_mat(N, C, 4), W = ref::random_mat(C, OC, 5), b = ref::random_mat(1, OC, 6),
      w = ref::random_mat(N, OC, 7);
  Mat out(N, OC), dx = Mat::Zero(N, C), dW = Mat::Zero(C, OC), db = Mat::Zero(1, OC);
  auto loss = [&] {
    affine_forward(out, x, W, b);
    return dot(w, out);
  };
  loss();
  affine_backward(dx, dW, db, w, x, W);
  EXPECT_LE(report_rel("affine: d x", max_rel_error(x, dx, loss)), kTol);
  EXPECT_LE(report_rel("affine: d W", max_rel_error(W, dW, loss)), kTol);
  EXPECT_LE(report_rel("affine: d b", max_rel_error(b, db, loss)), kTol);
}

TEST(CoreTrainOps, TanhReluResidualGradients) {
  const int N = 4, C = 5;
  Mat x = ref::random_mat(N, C, 8, -2, 2), w = ref::random_mat(N, C, 9);
  for (Eigen::Index i = 0; i < x.size(); ++i)  // keep ReLU's inputs away from its kink at 0
    if (std::fabs(x.data()[i]) < 0.1f) x.data()[i] += 0.3f;
  Mat out(N, C), dx = Mat::Zero(N, C);
  auto tanh_loss = [&] {
    tanh_forward(out, x);
    return dot(w, out);
  };
  tanh_loss();
  tanh_backward(dx, w, out);
  EXPECT_LE(report_rel("tanh: d x", max_rel_error(x, dx, tanh_loss)), kTol);

  dx.setZero();
  auto relu_loss = [&] {
    relu_forward(out, x);
    return dot(w, out);
  };
  relu_loss();
  relu_backward(dx, w, x);
  EXPECT_LE(report_rel("relu: d x", max_rel_error(x, dx, relu_loss)), kTol);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (x.data()[i] < 0) {
      EXPECT_EQ(dx.data()[i], 0.f);
    }
  }

  Mat a = ref::random_mat(N, C, 10), b2 = ref::random_mat(N, C, 11), da = Mat::Zero(N, C), db = Mat::Zero(N, C);
  auto res_loss = [&] {
    residual_forward(out, a, b2);
    return dot(w, out);
  };
  res_loss();
  residual_backward(da, db, w);
  EXPECT_LE(report_rel("residual: d a", max_rel_error(a, da, res_loss)), kTol);
  EXPECT_LE(report_rel("residual: d b", max_rel_error(b2, db, res_loss)), kTol);
}

TEST(CoreTrainOps, LayerNormGradient) {
  const int N = 4, C = 6;
  Mat x = ref::random_mat(N, C, 12, -2, 2), g = ref::random_mat(1, C, 13, 0.5, 1.5), be = ref::random_mat(1, C, 14),
      w = ref::random_mat(N, C, 15);
  x.row(3).setConstant(0.7f);  // a constant row: σ² = 0, finite thanks to ε
  Mat out(N, C), mean(N, 1), rstd(N, 1), dx = Mat::Zero(N, C), dg = Mat::Zero(1, C), db = Mat::Zero(1, C);
  auto loss = [&] {
    layernorm_forward(out, mean, rstd, x, g, be);
    return dot(w, out);
  };
  loss();
  EXPECT_FALSE(ref::any_nan(out));
  layernorm_backward(dx, dg, db, w, x, mean, rstd, g);
  EXPECT_FALSE(ref::any_nan(dx));
  // Rows 0–2 by finite differences (row 3, at σ = 0, has a gradient of size 1/√ε: its finite difference
  // with ε_fd = 1e-3 » √1e-5 would measure a different slope).
  Mat x3 = x.topRows(3), dx3 = dx.topRows(3);
  auto loss3 = [&] {
    Mat keep = x;
    x.topRows(3) = x3;
    const double l = loss();
    x = keep;
    return l;
  };
  EXPECT_LE(report_rel("layernorm: d x", max_rel_error(x3, dx3, loss3)), kTol);
  EXPECT_LE(report_rel("layernorm: d gamma", max_rel_error(g, dg, loss)), kTol);
  EXPECT_LE(report_rel("layernorm: d beta", max_rel_error(be, db, loss)), kTol);
}

// One head and two heads, with padding, a causal sequence and a fully masked query row.
TEST(CoreTrainOps, AttentionGradientSingleAndMultiHead) {
  const int B = 3, T = 5, C = 4;
  for (int H : {1, 2}) {
    Mat q = ref::random_mat(B * T, C, 20 + H, -1.5, 1.5), k = ref::random_mat(B * T, C, 30 + H, -1.5, 1.5),
        v = ref::random_mat(B * T, C, 40 + H), w = ref::random_mat(B * T, C, 50 + H);
    Mat mask = Mat::Zero(B * T, T);
    mask.block(T, 3, T, 1).setConstant(kNegInf);  // sequence 1: key 3 is padding
    for (int i = 0; i < T; ++i)                   // sequence 2: causal, and query 4 sees nothing
      for (int j = 0; j < T; ++j)
        if (j > i || i == 4) mask(2 * T + i, j) = kNegInf;
    Mat out(B * T, C), preatt(B * H * T, T), att(B * H * T, T);
    auto loss = [&] {
      attention_forward(out, preatt, att, q, k, v, mask, B, T, H);
      return dot(w, out);
    };
    loss();
    Mat dq = Mat::Zero(B * T, C), dk = dq, dv = dq, dpre = Mat::Zero(B * H * T, T), datt = dpre;
    attention_backward(dq, dk, dv, dpre, datt, w, q, k, v, att, B, T, H);
    EXPECT_FALSE(ref::any_nan(out) || ref::any_nan(dq) || ref::any_nan(dk) || ref::any_nan(dv));
    EXPECT_EQ(out.row(2 * T + 4).cwiseAbs().maxCoeff(), 0.f);  // the fully masked row: zeros, not NaN
    EXPECT_EQ(dq.row(2 * T + 4).cwiseAbs().maxCoeff(), 0.f);
    const std::string tag = H == 1 ? "attention (1 head): " : "attention (2 heads): ";
    EXPECT_LE(report_rel(tag + "d Q", max_rel_error(q, dq, loss)), kTol);
    EXPECT_LE(report_rel(tag + "d K", max_rel_error(k, dk, loss)), kTol);
    EXPECT_LE(report_rel(tag + "d V", max_rel_error(v, dv, loss)), kTol);
  }
}

TEST(CoreTrainOps, SoftmaxCrossEntropyGradient) {
  const int N = 4, V = 6;
  Mat logits = ref::random_mat(N, V, 60, -3, 3);
  logits(2, 1) = 80.f;  // large logits: max-subtraction keeps exp finite
  const std::vector<int> targets = {0, 5, 2, 3};
  Mat probs(N, V), dl = Mat::Zero(N, V);
  auto loss = [&] { return softmax_xent_forward(probs, logits, targets.data(), N); };
  const double l = loss();
  EXPECT_TRUE(std::isfinite(l));
  softmax_xent_backward(dl, probs, targets.data(), N);
  EXPECT_LE(report_rel("softmax cross-entropy: d logits", max_rel_error(logits, dl, loss)), kTol);
}

// The pointer loss on attention weights, through the attention backward into Q and K.
TEST(CoreTrainOps, PointerLossGradient) {
  const int B = 3, T = 6, C = 4, H = 2, head = 1;
  Mat q = ref::random_mat(B * T, C, 70, -1.5, 1.5), k = ref::random_mat(B * T, C, 71, -1.5, 1.5),
      v = ref::random_mat(B * T, C, 72);
  Mat mask = Mat::Zero(B * T, T);
  mask.block(0, 5, T, 1).setConstant(kNegInf);  // sequence 0: key 5 is padding
  const std::vector<int> rows = {2, 0, 5}, targets = {4, 1, 0};
  Mat out(B * T, C), preatt(B * H * T, T), att(B * H * T, T);
  auto loss = [&] {
    attention_forward(out, preatt, att, q, k, v, mask, B, T, H);
    return pointer_loss_forward(preatt, rows.data(), targets.data(), B, T, H, head);
  };
  EXPECT_TRUE(std::isfinite(loss()));
  Mat dpre = Mat::Zero(B * H * T, T), datt = dpre, dq = Mat::Zero(B * T, C), dk = dq, dv = dq, zero = dq;
  pointer_loss_backward(dpre, att, rows.data(), targets.data(), B, T, H, head);
  attention_backward(dq, dk, dv, dpre, datt, zero, q, k, v, att, B, T, H);
  EXPECT_LE(report_rel("pointer loss: d Q", max_rel_error(q, dq, loss)), kTol);
  EXPECT_LE(report_rel("pointer loss: d K", max_rel_error(k, dk, loss)), kTol);
  EXPECT_EQ(dv.cwiseAbs().maxCoeff(), 0.f);  // the loss reads weights only
  // Head 0's columns get nothing: the loss reads head 1.
  EXPECT_EQ(dq.leftCols(C / H).cwiseAbs().maxCoeff(), 0.f);
}

TEST(CoreTrainOps, GatherRowsGradient) {
  const int B = 3, T = 4, C = 2;
  Mat x = ref::random_mat(B * T, C, 80), w = ref::random_mat(B, C, 81), out(B, C), dx = Mat::Zero(B * T, C);
  const std::vector<int> rows = {3, 0, 2};
  auto loss = [&] {
    gather_rows_forward(out, x, rows.data(), B, T);
    return dot(w, out);
  };
  loss();
  gather_rows_backward(dx, w, rows.data(), B, T);
  EXPECT_LE(report_rel("gather rows: d x", max_rel_error(x, dx, loss)), kTol);
}

// R = 2 rows per sequence, one of them read twice (its gradient is the sum of both reads).
TEST(CoreTrainOps, GatherRowsGradientManyRowsPerSequence) {
  const int B = 2, T = 4, C = 3, R = 2;
  Mat x = ref::random_mat(B * T, C, 82), w = ref::random_mat(B * R, C, 83), out(B * R, C), dx = Mat::Zero(B * T, C);
  const std::vector<int> rows = {1, 3, 2, 2};
  auto loss = [&] {
    gather_rows_forward(out, x, rows.data(), B, T, R);
    return dot(w, out);
  };
  loss();
  EXPECT_EQ(out.row(1), x.row(3));
  EXPECT_EQ(out.row(2), x.row(T + 2));
  gather_rows_backward(dx, w, rows.data(), B, T, R);
  EXPECT_LE(report_rel("gather rows, R = 2: d x", max_rel_error(x, dx, loss)), kTol);
  EXPECT_FLOAT_EQ(dx(T + 2, 0), w(2, 0) + w(3, 0));
  EXPECT_EQ(dx.row(0).cwiseAbs().maxCoeff(), 0.f);  // a row never read gets nothing
}

}  // namespace
}  // namespace ap
