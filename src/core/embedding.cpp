#include "embedding.h"

#include <cmath>

namespace ap {

SeededRng::SeededRng(uint64_t seed, uint64_t stream)
    : state(seed * 0x9E3779B97F4A7C15ull ^ (stream + 0x632BE59BD9B4E019ull) * 0xD1B54A32D192ED03ull) {}

uint64_t SeededRng::next_u64() {  // splitmix64
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SeededRng::uniform01() { return (static_cast<double>(next_u64() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

double SeededRng::gaussian() {
  const double u1 = uniform01(), u2 = uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

uint64_t hash_string(const std::string& s) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis (0xcbf29ce484222325)
  for (unsigned char c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c - 'A' + 'a');
    h = (h ^ c) * 1099511628211ull;
  }
  return h;
}

Mat seeded_gaussian(int rows, int cols, uint64_t seed, uint64_t stream, double stddev) {
  SeededRng rng(seed, stream);
  Mat W(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) W(i, j) = static_cast<float>(stddev * rng.gaussian());
  return W;
}

Status embed_tokens(const std::vector<std::string>& tokens, int d_model, uint64_t seed, bool positional,
                    Mat* X) {
  AP_TRY(check_size(static_cast<long long>(tokens.size()), "the number of tokens", limits::kMaxTokens));
  AP_TRY(check_size(d_model, "d_model", limits::kMaxModelDim));
  const int n = static_cast<int>(tokens.size());
  Mat out(n, d_model);
  for (int i = 0; i < n; ++i) {
    SeededRng rng(seed, hash_string(tokens[i]));
    for (int c = 0; c < d_model; ++c) out(i, c) = static_cast<float>(rng.gaussian());
    if (positional)
      for (int c = 0; c < d_model; ++c) {
        const double freq = std::pow(10000.0, -static_cast<double>(c - c % 2) / d_model);
        out(i, c) += static_cast<float>(c % 2 == 0 ? std::sin(i * freq) : std::cos(i * freq));
      }
  }
  *X = std::move(out);
  return Status::Ok();
}

Mat projection_weights(int d_model, int d_out, uint64_t seed, char which, int head) {
  const uint64_t stream = (static_cast<uint64_t>(static_cast<unsigned char>(which)) << 32) | static_cast<uint32_t>(head);
  return seeded_gaussian(d_model, d_out, seed, stream ^ 0xA5A5A5A5ull, 1.0 / std::sqrt(static_cast<double>(d_model)));
}

Status project(const Mat& X, const Mat& W, Mat* Y) {
  AP_TRY(check_matrix(X, "X", -1, -1, limits::kMaxTokens, limits::kMaxModelDim));
  AP_TRY(check_matrix(W, "W", static_cast<int>(X.cols()), -1, limits::kMaxModelDim, limits::kMaxModelDim));
  Mat out;
  out.noalias() = X * W;  // n × d_in · d_in × d_out
  *Y = std::move(out);
  return Status::Ok();
}

}  // namespace ap
