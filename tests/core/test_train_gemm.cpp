// The training's matrix products (core/train/gemm.h) against naive double-precision loops: every variant
// (nn, nt, tn), overwrite and accumulate, α ≠ 1, sizes that exercise the 16-, 4- and 1-column paths, and
// operands that are blocks of larger matrices (a row stride larger than the width, as one head's columns).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/train/gemm.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace train;

Mat random_mat(int r, int c, std::mt19937& g) {
  std::normal_distribution<float> n(0.f, 1.f);
  Mat m(r, c);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = n(g);
  return m;
}

enum class Kind { NN, NT, TN };

// C0 (+)= α · op(A)·op(B) in double, element by element.
Mat naive(Kind kind, const Mat& A, const Mat& B, const Mat& C0, float alpha, bool acc) {
  Mat C = C0;
  const int M = static_cast<int>(C.rows()), N = static_cast<int>(C.cols());
  const int K = kind == Kind::TN ? static_cast<int>(A.rows()) : static_cast<int>(A.cols());
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) {
        const double a = kind == Kind::TN ? A(k, i) : A(i, k);
        const double b = kind == Kind::NT ? B(j, k) : B(k, j);
        s += a * b;
      }
      C(i, j) = static_cast<float>((acc ? C0(i, j) : 0.0) + alpha * s);
    }
  return C;
}

TEST(CoreTrainGemm, EveryVariantEqualsNaiveLoopsOnBlocksAndWholeMatrices) {
  std::mt19937 g(11);
  double worst = 0;
  const int sizes[][3] = {{1, 1, 1}, {3, 5, 2}, {12, 16, 12}, {384, 16, 16}, {7, 33, 21}, {20, 4, 19}, {5, 0, 3}};
  for (const auto& s : sizes) {
    const int M = s[0], K = s[1], N = s[2];
    for (Kind kind : {Kind::NN, Kind::NT, Kind::TN})
      for (bool acc : {false, true})
        for (bool block : {false, true}) {
          // (an empty operand has no storage to be a block of: Eigen's block() would offset a null pointer)
          if (block && (M == 0 || K == 0 || N == 0)) continue;
          const int pad = block ? 3 : 0;  // operands as blocks of wider matrices: a row stride > width
          const int ar = kind == Kind::TN ? K : M, ac = kind == Kind::TN ? M : K;
          const int br = kind == Kind::NT ? N : K, bc = kind == Kind::NT ? K : N;
          Mat Abig = random_mat(ar, ac + pad, g), Bbig = random_mat(br, bc + pad, g), Cbig = random_mat(M, N + pad, g);
          const Mat A = Abig.block(0, pad, ar, ac), B = Bbig.block(0, pad, br, bc), C0 = Cbig.block(0, pad, M, N);
          const float alpha = acc ? 0.25f : 1.f;
          const Mat want = naive(kind, A, B, C0, alpha, acc);
          const Mat beside = Cbig.block(0, 0, M, pad);
          auto Cb = Cbig.block(0, pad, M, N);
          if (kind == Kind::NN) gemm_nn(Cb, Abig.block(0, pad, ar, ac), Bbig.block(0, pad, br, bc), alpha, acc);
          if (kind == Kind::NT) gemm_nt(Cb, Abig.block(0, pad, ar, ac), Bbig.block(0, pad, br, bc), alpha, acc);
          if (kind == Kind::TN) gemm_tn(Cb, Abig.block(0, pad, ar, ac), Bbig.block(0, pad, br, bc), alpha, acc);
          const Mat got = Cbig.block(0, pad, M, N);
          const double d = (M > 0 && N > 0) ? (got - want).cwiseAbs().maxCoeff() : 0.0;
          worst = std::max(worst, d);
          EXPECT_LE(d, 1e-4 * (1 + K)) << "M " << M << " K " << K << " N " << N << " kind " << int(kind) << " acc " << acc;
          EXPECT_TRUE(Mat(Cbig.block(0, 0, M, pad)) == beside) << "a column beside the block was written";
        }
  }
  std::printf("gemm against naive double loops: largest difference %.3g\n", worst);
}

TEST(CoreTrainGemm, SameInputsSameBits) {
  std::mt19937 g(5);
  const Mat A = random_mat(37, 19, g), B = random_mat(19, 23, g);
  Mat C1(37, 23), C2(37, 23);
  gemm_nn(C1, A, B);
  gemm_nn(C2, A, B);
  EXPECT_EQ(0, std::memcmp(C1.data(), C2.data(), sizeof(float) * C1.size()));
}

}  // namespace
}  // namespace ap
