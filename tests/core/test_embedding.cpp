// Unit tests for the seeded RNG, token embeddings, projection weights and project() (core/embedding.h).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/embedding.h"
#include "reference.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using Tokens = std::vector<std::string>;

bool rows_equal(const Mat& m, int a, int b) { return ref::identical(Mat(m.row(a)), Mat(m.row(b))); }

// ---- RNG and hash --------------------------------------------------------------------------------------------

TEST(CoreRng, SameSeedAndStreamGiveTheSameSequence) {
  SeededRng a(42, 7), b(42, 7), c(42, 8), d(43, 7);
  int same_c = 0, same_d = 0;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.next_u64();
    EXPECT_EQ(x, b.next_u64());
    same_c += x == c.next_u64();
    same_d += x == d.next_u64();
  }
  EXPECT_EQ(same_c, 0);
  EXPECT_EQ(same_d, 0);
}

TEST(CoreRng, UniformIsInsideTheOpenInterval) {
  SeededRng rng(1);
  double lo = 1.0, hi = 0.0, sum = 0.0;
  const int N = 100000;
  for (int i = 0; i < N; ++i) {
    const double u = rng.uniform01();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    sum += u;
  }
  EXPECT_LT(lo, 1e-3);
  EXPECT_GT(hi, 1.0 - 1e-3);
  EXPECT_NEAR(sum / N, 0.5, 0.01);
}

TEST(CoreRng, GaussianHasUnitVariance) {
  SeededRng rng(2024, 3);
  const int N = 200000;
  double s = 0.0, s2 = 0.0;
  int beyond3 = 0;
  for (int i = 0; i < N; ++i) {
    const double g = rng.gaussian();
    ASSERT_TRUE(std::isfinite(g));
    s += g;
    s2 += g * g;
    beyond3 += std::fabs(g) > 3.0;
  }
  const double mean = s / N, var = s2 / N - mean * mean;
  std::printf("    gaussian: mean %.4f, variance %.4f, P(|g|>3) %.5f\n", mean, var, double(beyond3) / N);
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(var, 1.0, 0.02);
  EXPECT_NEAR(double(beyond3) / N, 0.0027, 0.001);  // normal tail
}

TEST(CoreHash, IsFnv1a64OverLowercase) {
  EXPECT_EQ(hash_string(""), 0xcbf29ce484222325ull);  // published FNV-1a test vectors
  EXPECT_EQ(hash_string("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(hash_string("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(hash_string("FooBAR"), 0x85944171f73967e8ull);
  EXPECT_EQ(hash_string("The"), hash_string("the"));
  EXPECT_NE(hash_string("cat"), hash_string("cats"));
}

// ---- seeded_gaussian -----------------------------------------------------------------------------------------

TEST(CoreSeededGaussian, DeterministicShapedAndScaled) {
  const Mat a = seeded_gaussian(5, 7, 11, 3, 1.0);
  ASSERT_EQ(a.rows(), 5);
  ASSERT_EQ(a.cols(), 7);
  EXPECT_TRUE(ref::identical(a, seeded_gaussian(5, 7, 11, 3, 1.0)));
  EXPECT_FALSE(ref::identical(a, seeded_gaussian(5, 7, 12, 3, 1.0)));
  EXPECT_FALSE(ref::identical(a, seeded_gaussian(5, 7, 11, 4, 1.0)));
  // stddev only scales: ×2 is exact in floating point
  EXPECT_TRUE(ref::identical(Mat(2.f * a), seeded_gaussian(5, 7, 11, 3, 2.0)));
}

// ---- embed_tokens --------------------------------------------------------------------------------------------

TEST(CoreEmbedding, SameSeedSameMatrixDifferentSeedDifferent) {
  const Tokens t = {"The", "animal", "didn't", "cross"};
  Mat a, b, c;
  ASSERT_TRUE(embed_tokens(t, 16, 42, true, &a).ok);
  ASSERT_TRUE(embed_tokens(t, 16, 42, true, &b).ok);
  ASSERT_TRUE(embed_tokens(t, 16, 43, true, &c).ok);
  ASSERT_EQ(a.rows(), 4);
  ASSERT_EQ(a.cols(), 16);
  EXPECT_TRUE(ref::identical(a, b));
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(ref::identical(Mat(a.row(i)), Mat(c.row(i)))) << "row " << i;
}

TEST(CoreEmbedding, EqualTokensEqualRowsOnlyWithoutPositions) {
  const Tokens t = {"the", "cat", "the", "cat"};
  Mat plain, pos;
  ASSERT_TRUE(embed_tokens(t, 8, 1, false, &plain).ok);
  ASSERT_TRUE(embed_tokens(t, 8, 1, true, &pos).ok);
  EXPECT_TRUE(rows_equal(plain, 0, 2));
  EXPECT_TRUE(rows_equal(plain, 1, 3));
  EXPECT_FALSE(rows_equal(plain, 0, 1));
  EXPECT_FALSE(rows_equal(pos, 0, 2));
  EXPECT_FALSE(rows_equal(pos, 1, 3));
}

TEST(CoreEmbedding, CaseInsensitiveAndContextFree) {
  Mat a, b;
  ASSERT_TRUE(embed_tokens({"The", "the", "THE", "thE"}, 12, 5, false, &a).ok);
  for (int i = 1; i < 4; ++i) EXPECT_TRUE(rows_equal(a, 0, i)) << i;
  // a token's vector does not depend on its neighbours
  ASSERT_TRUE(embed_tokens({"cat"}, 12, 5, false, &a).ok);
  ASSERT_TRUE(embed_tokens({"a", "black", "Cat"}, 12, 5, false, &b).ok);
  EXPECT_TRUE(ref::identical(Mat(a.row(0)), Mat(b.row(2))));
}

TEST(CoreEmbedding, PositionalCodeIsTheSinusoid) {
  // X(positional) - X(plain) must be PE(p, 2k) = sin(p / 10000^(2k/d)), PE(p, 2k+1) = cos(same).
  for (int d : {7, 16}) {
    const Tokens t = {"a", "b", "c", "a", "e", "f", "g", "h", "i", "j", "k", "l"};
    Mat plain, pos;
    ASSERT_TRUE(embed_tokens(t, d, 9, false, &plain).ok);
    ASSERT_TRUE(embed_tokens(t, d, 9, true, &pos).ok);
    double worst = 0.0;
    for (int p = 0; p < static_cast<int>(t.size()); ++p)
      for (int c = 0; c < d; ++c) {
        const int k2 = (c / 2) * 2;
        const double angle = p / std::pow(10000.0, static_cast<double>(k2) / d);
        const double pe = (c % 2 == 0) ? std::sin(angle) : std::cos(angle);
        worst = std::max(worst, std::fabs((static_cast<double>(pos(p, c)) - plain(p, c)) - pe));
      }
    EXPECT_LE(ref::report("positional code d_model=" + std::to_string(d), worst), 2e-6);
    // position 0: sin(0) = 0 on even columns, cos(0) = 1 on odd ones
    for (int c = 0; c < d; ++c) EXPECT_EQ(pos(0, c), plain(0, c) + (c % 2 ? 1.f : 0.f)) << c;
  }
}

TEST(CoreEmbedding, EntriesAreRoughlyStandardNormal) {
  Tokens t;
  for (int i = 0; i < 300; ++i) t.push_back("tok" + std::to_string(i));
  Mat X;
  ASSERT_TRUE(embed_tokens(t, 64, 42, false, &X).ok);
  double mean, var;
  ref::mean_var(X, &mean, &var);
  std::printf("    embeddings 300x64: mean %.4f, variance %.4f\n", mean, var);
  EXPECT_NEAR(mean, 0.0, 0.03);
  EXPECT_NEAR(var, 1.0, 0.06);
}

TEST(CoreEmbedding, RefusesBadSizesAndLeavesOutput) {
  const Tokens three = {"a", "b", "c"};
  const Tokens too_many(limits::kMaxTokens + 1, "w");
  struct Case {
    const Tokens* tokens;
    int d_model;
    const char* what;
  } cases[] = {{&three, 0, "d_model"}, {&three, -4, "d_model"}, {&three, limits::kMaxModelDim + 1, "d_model"},
               {nullptr, 8, "tokens"}, {&too_many, 8, "tokens"}};
  const Tokens none;
  for (const Case& c : cases) {
    Mat X = Mat::Constant(2, 2, 7.f);
    const Status s = embed_tokens(c.tokens ? *c.tokens : none, c.d_model, 1, true, &X);
    EXPECT_FALSE(s.ok) << c.what << " " << c.d_model;
    EXPECT_NE(s.message.find(c.what), std::string::npos) << s.message;
    EXPECT_TRUE(ref::identical(X, Mat::Constant(2, 2, 7.f)));
  }
  Mat X;
  EXPECT_TRUE(embed_tokens(Tokens(limits::kMaxTokens, "w"), limits::kMaxModelDim, 1, true, &X).ok);
}

// ---- projection weights --------------------------------------------------------------------------------------

TEST(CoreProjection, WeightsHaveStddevOneOverSqrtDModel) {
  const int d = 512;
  const Mat W = projection_weights(d, d, 42, 'Q');
  ASSERT_EQ(W.rows(), d);
  ASSERT_EQ(W.cols(), d);
  double mean, var;
  ref::mean_var(W, &mean, &var);
  const double ratio = std::sqrt(var) * std::sqrt(static_cast<double>(d));
  std::printf("    W 512x512: mean %.5f, stddev %.5f (1/sqrt(512) = %.5f, ratio %.4f)\n", mean, std::sqrt(var),
              1.0 / std::sqrt(512.0), ratio);
  EXPECT_NEAR(mean, 0.0, 0.002);
  EXPECT_GT(ratio, 0.97);
  EXPECT_LT(ratio, 1.03);
  // small d_model: larger entries (1/sqrt(16) = 0.25)
  const Mat w16 = projection_weights(16, 256, 42, 'K');
  ref::mean_var(w16, &mean, &var);
  EXPECT_NEAR(std::sqrt(var), 0.25, 0.02);
}

TEST(CoreProjection, KeepsUnitVarianceThroughXW) {
  const int d = 256;
  const Mat X = seeded_gaussian(400, d, 5, 5, 1.0);
  Mat Y;
  ASSERT_TRUE(project(X, projection_weights(d, 64, 42, 'V'), &Y).ok);
  double mean, var;
  ref::mean_var(Y, &mean, &var);
  std::printf("    X·W: variance %.4f\n", var);
  EXPECT_GT(var, 0.8);
  EXPECT_LT(var, 1.2);
}

TEST(CoreProjection, StreamsAreSeparated) {
  const Mat q = projection_weights(8, 4, 42, 'Q');
  EXPECT_TRUE(ref::identical(q, projection_weights(8, 4, 42, 'Q')));
  EXPECT_TRUE(ref::identical(q, projection_weights(8, 4, 42, 'Q', 0)));
  EXPECT_FALSE(ref::identical(q, projection_weights(8, 4, 42, 'K')));
  EXPECT_FALSE(ref::identical(q, projection_weights(8, 4, 42, 'V')));
  EXPECT_FALSE(ref::identical(q, projection_weights(8, 4, 42, 'Q', 1)));
  EXPECT_FALSE(ref::identical(q, projection_weights(8, 4, 43, 'Q')));
}

TEST(CoreProjection, ProjectMatchesNaiveMatmul) {
  const Mat X = ref::random_mat(13, 16, 3, -2.0, 2.0), W = ref::random_mat(16, 5, 4);
  Mat Y;
  ASSERT_TRUE(project(X, W, &Y).ok);
  const double diff = ref::max_abs_diff(Y, ref::matmul(ref::from_mat(X), ref::from_mat(W)));
  EXPECT_LE(ref::report("project 13x16 · 16x5 vs naive", diff), 1e-5);

  const Mat X2 = seeded_gaussian(200, 512, 8, 1, 1.0);
  ASSERT_TRUE(project(X2, projection_weights(512, 64, 8, 'K'), &Y).ok);
  const double diff2 =
      ref::max_abs_diff(Y, ref::matmul(ref::from_mat(X2), ref::from_mat(projection_weights(512, 64, 8, 'K'))));
  EXPECT_LE(ref::report("project 200x512 · 512x64 vs naive", diff2), 2e-5);
}

TEST(CoreProjection, ProjectRefusesBadInputAndLeavesOutput) {
  const Mat X = ref::random_mat(3, 4, 1), W = ref::random_mat(4, 2, 2);
  Mat nanX = X, infW = W, bigX = X;
  nanX(1, 1) = std::numeric_limits<float>::quiet_NaN();
  infW(0, 1) = std::numeric_limits<float>::infinity();
  bigX(2, 3) = 2e6f;
  struct Case {
    Mat X, W;
    const char* what;
  } cases[] = {{X, ref::random_mat(5, 2, 2), "W rows != X cols"},
               {Mat(0, 4), W, "empty X"},
               {X, Mat(4, 0), "empty W"},
               {nanX, W, "NaN in X"},
               {X, infW, "inf in W"},
               {bigX, W, "2e6 in X"},
               {ref::random_mat(limits::kMaxTokens + 1, 4, 1), W, "1025 rows"},
               {ref::random_mat(2, limits::kMaxModelDim + 1, 1), ref::random_mat(limits::kMaxModelDim + 1, 2, 1),
                "513 columns"}};
  for (const Case& c : cases) {
    Mat Y = Mat::Constant(1, 3, 5.f);
    const Status s = project(c.X, c.W, &Y);
    EXPECT_FALSE(s.ok) << c.what;
    EXPECT_FALSE(s.message.empty()) << c.what;
    EXPECT_TRUE(ref::identical(Y, Mat::Constant(1, 3, 5.f))) << c.what;
  }
}

}  // namespace
}  // namespace ap
