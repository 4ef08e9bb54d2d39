// Matrix types, size limits and input validation shared by every core unit.
//
// Layout: every matrix is ROW-MAJOR (Eigen::RowMajor). Row i of Q is token i's query, which is also how
// the page API serialises matrices (an array of rows) and how the heatmap uploads a texture (row i of the
// matrix = texel row i). So Eigen data() can go to GL and to JSON without a transpose.
#pragma once
#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <string>

#include "status.h"

namespace ap {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<float, Eigen::Dynamic, 1>;

// A hidden key's logit (masks): exp(−∞) = 0 exactly, so softmax gives it weight 0; a row with every key hidden
// is caught by comparing with it (weights 0, not 0/0).
inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Stated limits. Entry points refuse larger inputs with a message instead of running out of memory or time.
namespace limits {
constexpr int kMaxTokens = 1024;        // n and m (sequence lengths)
constexpr int kMaxModelDim = 512;       // d_model
constexpr int kMaxHeadDim = 512;        // d_k and d_v
constexpr int kMaxHeads = 16;           // h
constexpr float kMaxAbsValue = 1e6f;    // |entry| of Q, K, V, X, W: keeps Q·Kᵀ far from float overflow
constexpr size_t kMaxTextBytes = 64 * 1024;  // input sentence, UTF-8 bytes
constexpr long long kMaxSeed = 9007199254740991LL;  // seeds: 2^53 − 1, exact in a JSON number
}  // namespace limits

// Checks that `m` is rows×cols (a negative expectation means "any"), that both sizes are within
// [1, max_rows] × [1, max_cols], and that every entry is finite and within kMaxAbsValue.
// `name` is used in the message, e.g. "Q".
Status check_matrix(const Mat& m, const char* name, int expect_rows, int expect_cols, int max_rows,
                    int max_cols);

// Checks 1 <= value <= max for a size parameter; message names it ("d_k must be between 1 and 512, got 0").
Status check_size(long long value, const char* name, long long max);

// Checks lo <= v <= hi (NaN refused); message names it ("the recurrent gain must be between 0 and 2, got 3").
Status check_in_range(double v, const char* name, double lo, double hi);

// Prints a float for messages with up to 4 significant decimals ("0.7071", "-inf", "NaN").
std::string format_number(double v);

}  // namespace ap
