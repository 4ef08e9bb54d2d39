// Token embeddings and projections from deterministic, seeded weights.
//
// Nothing here is trained: the playground shows how attention *computes*, so the weights are random but
// reproducible. The same (token, seed) gives the same vector on every platform (own RNG, not <random>,
// whose distributions differ between standard libraries).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "matrix.h"

namespace ap {

// Counter-based generator: splitmix64 over (seed, stream, index). Gaussian via Box–Muller.
struct SeededRng {
  uint64_t state;
  explicit SeededRng(uint64_t seed, uint64_t stream = 0);
  uint64_t next_u64();
  double uniform01();  // in (0, 1), never 0 (Box–Muller takes log of it)
  double gaussian();   // N(0, 1)
};

uint64_t hash_string(const std::string& s);  // FNV-1a 64, over the ASCII-lowercased token

// rows × cols matrix with N(0, stddev²) entries, determined by (seed, stream).
Mat seeded_gaussian(int rows, int cols, uint64_t seed, uint64_t stream, double stddev);

// X: n × d_model. Row i = embedding(token_i) [+ sinusoidal position code of position i].
//   embedding(t) ~ N(0, 1)^d_model, seeded by hash(lowercase t) and seed: equal tokens get equal rows
//   position code (Vaswani et al.): PE(p, 2k) = sin(p / 10000^(2k/d)), PE(p, 2k+1) = cos(same)
Status embed_tokens(const std::vector<std::string>& tokens, int d_model, uint64_t seed, bool positional,
                    Mat* X);

// Projection weights W: d_model × d_out, N(0, 1/d_model): then X·W keeps roughly unit-variance entries
// when X has them (each output sums d_model products of variance 1/d_model).
// `which` separates the streams: 'Q', 'K', 'V', 'O' (and head index for multi-head).
Mat projection_weights(int d_model, int d_out, uint64_t seed, char which, int head = 0);

// Y = X · W with validation (X: n × d_in, W: d_in × d_out).
Status project(const Mat& X, const Mat& W, Mat* Y);

}  // namespace ap
