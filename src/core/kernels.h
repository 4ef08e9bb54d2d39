// Lean compute kernels for the "Cost: attention vs RNN" scene: the same mathematics as attention.h, but with
// no teaching intermediates, on raw row-major float arrays, and no allocation inside (scratch memory comes from
// a caller-provided workspace), so that they can be timed.
//
// Every kernel has two paths, chosen at run time so that one binary can time both:
//   KernelImpl::Scalar  the textbook loops, one float at a time. Auto-vectorisation is switched off for these
//                       functions (GCC: optimize("no-tree-vectorize"); clang: loop pragmas), so "scalar" stays
//                       one lane whatever -O level or -msimd128 the build uses. Library exp / tanh.
//   KernelImpl::Simd    4-lane float vectors: wasm_simd128.h when compiled with -msimd128 (__wasm_simd128__),
//                       SSE2 intrinsics natively (__SSE2__, the x86-64 baseline); without either it runs the
//                       scalar path (simd_available() says which). Besides the lanes, it blocks registers
//                       (2 query rows × 4 keys for Q·Kᵀ, 2 rows × 16 columns for A·V, 4 hidden units for the RNN
//                       mat-vecs) and uses the polynomial exp / tanh / sigmoid below. So Scalar vs Simd compares
//                       "first implementation" with "tuned 128-bit kernel", not lanes alone.
//
// Layout: every matrix is row-major and dense (row stride = column count), as ap::Mat stores it, so
// `mat.data()` can be passed directly. Sizes: n tokens (1 .. 2^20), widths d, hidden (1 .. 4096).
// The kernels check sizes, pointers and ranges (cheap), not values: callers that take user input validate it
// with check_matrix first. Non-finite inputs give non-finite outputs, nothing worse.
#pragma once
#include <cstddef>

#include "cost_model.h"
#include "status.h"

namespace ap {

enum class KernelImpl { Scalar, Simd };
const char* kernel_impl_name(KernelImpl impl);  // "scalar", "simd"
bool simd_available();                          // false: KernelImpl::Simd runs the scalar path
const char* simd_backend();                     // "wasm-simd128", "sse2" or "none"

enum class KernelKind { AttentionNaive, AttentionTiled, Elman, Gru };
const char* kernel_kind_name(KernelKind k);  // "attention-naive", "attention-tiled", "elman", "gru"

namespace kernel_limits {
constexpr long long kMaxTokens = cost::kMaxN;  // n
constexpr long long kMaxWidth = cost::kMaxD;   // d, d_in, hidden
constexpr long long kMaxKeyTile = 4096;
constexpr long long kMaxQueryTile = 1024;
}  // namespace kernel_limits

// ---- attention: out = softmax(Q·Kᵀ / √d) · V, Q, K, V, out all n × d -------------------------------------
//
// Stable softmax: each score row has its maximum subtracted before exp. Mathematically nothing changes
// (e^(s−m) / Σ e^(s−m) = e^s / Σ e^s) but every exponent is then <= 0, so exp cannot overflow (exp(89) is
// already inf in float, and scores of |q|·|k| reach that easily), and the largest term is exactly 1, so the
// sum is >= 1 and the division is safe. The division by the row sum is applied to the n×d output rows, not to
// the n×n weights (d multiplies per row instead of n).

// Naive: all score rows of the range are computed into the workspace (rows × n floats), then exponentiated in
// place, then multiplied with V. For the full call the workspace is the whole n×n matrix.
long long attention_naive_workspace_floats(long long rows, long long n);  // rows·n
Status attention_forward(const float* Q, const float* K, const float* V, int n, int d, float* out,
                         float* workspace, size_t workspace_floats, KernelImpl impl);
// Query rows [r0, r1) only (0 <= r0 <= r1 <= n; empty is allowed): rows r0 .. r1-1 of `out` (still the full
// n × d array) are written, the others untouched. Workspace (r1 - r0)·n floats. Row results are identical to
// the full call's (same arithmetic per row), so workers can split the rows.
Status attention_forward_rows(const float* Q, const float* K, const float* V, int n, int d, int r0, int r1,
                              float* out, float* workspace, size_t workspace_floats, KernelImpl impl);

// Tiled (FlashAttention-style): a block of `queries` query rows meets the keys one tile of `keys` rows at a time.
// Per query row it keeps a running maximum m, a running sum l and the output row as accumulator acc:
//   s_j   = q·k_j / √d for the tile;  m' = max(m, max_j s_j);  α = exp(m − m')   (0 for the first tile)
//   l    ← α·l + Σ_j exp(s_j − m');  acc ← α·acc + Σ_j exp(s_j − m')·v_j;   m ← m'
//   out   = acc / l after the last tile.
// Rescaling by α keeps every term relative to the current maximum, so the result equals the two-pass softmax
// (up to rounding) while no n × n matrix ever exists. Memory: Q, K, V, out (4·n·d floats) plus a workspace
// of queries·(keys + 3) floats (scores of one block × tile, and m, l, α per row), independent of n.
struct TileSizes {
  int keys = 64;     // key rows per tile (1 .. 4096); n need not be a multiple
  int queries = 16;  // query rows per block (1 .. 1024)
};
long long attention_tiled_workspace_floats(TileSizes tile);  // queries·(keys + 3)
Status attention_tiled(const float* Q, const float* K, const float* V, int n, int d, TileSizes tile, float* out,
                       float* workspace, size_t workspace_floats, KernelImpl impl);
Status attention_tiled_rows(const float* Q, const float* K, const float* V, int n, int d, int r0, int r1,
                            TileSizes tile, float* out, float* workspace, size_t workspace_floats,
                            KernelImpl impl);

// ---- recurrent networks: X is n × d_in (row t = x_t), H is n × hidden (row t = h_t), h0 optional ------------
// (nullptr = zeros). No workspace. Both loop over time: step t needs h_{t−1}.

// Elman: h_t = tanh(W_x x_t + W_h h_{t−1} + b)
struct ElmanWeights {
  const float* Wx = nullptr;  // hidden × d_in
  const float* Wh = nullptr;  // hidden × hidden
  const float* b = nullptr;   // hidden
};
Status elman_forward(const ElmanWeights& w, const float* X, int n, int d_in, int hidden, const float* h0, float* H,
                     KernelImpl impl);

// GRU, in the form of PyTorch's nn.GRU and cuDNN (gate rows stacked in the order r, z, n):
//   r_t  = σ(W_r x_t + b_r + U_r h_{t−1} + c_r)              reset gate
//   z_t  = σ(W_z x_t + b_z + U_z h_{t−1} + c_z)              update gate
//   h̃_t  = tanh(W_n x_t + b_n + r_t ⊙ (U_n h_{t−1} + c_n))    candidate
//   h_t  = (1 − z_t) ⊙ h̃_t + z_t ⊙ h_{t−1}
// with W = [W_r; W_z; W_n] (3·hidden × d_in), U = [U_r; U_z; U_n] (3·hidden × hidden), b = [b_r; b_z; b_n],
// c = [c_r; c_z; c_n]. Cho et al. (2014) apply r before U_n (U_n (r ⊙ h)); here r multiplies after it. That is
// the standard cuDNN form, and it makes hidden unit u depend only on x_t and the full h_{t−1}: split the units
// over workers and one hand-off of h per step suffices (the Cho form would need r of all units first).
struct GruWeights {
  const float* Wx = nullptr;  // 3·hidden × d_in   (W_r; W_z; W_n)
  const float* Wh = nullptr;  // 3·hidden × hidden (U_r; U_z; U_n)
  const float* bx = nullptr;  // 3·hidden          (b_r; b_z; b_n)
  const float* bh = nullptr;  // 3·hidden          (c_r; c_z; c_n)
};
Status gru_forward(const GruWeights& w, const float* X, int n, int d_in, int hidden, const float* h0, float* H,
                   KernelImpl impl);
// One step for hidden units [u0, u1) only: writes h_next[u0 .. u1-1] from x_t (d_in) and the FULL h_prev
// (hidden; nullptr = zeros). h_next must be a different array from h_prev. Same arithmetic per unit as
// gru_forward, so splitting the units gives identical results.
Status gru_step_units(const GruWeights& w, int d_in, int hidden, const float* x_t, const float* h_prev, int u0,
                      int u1, float* h_next, KernelImpl impl);

// ---- fast elementwise functions of the SIMD path (exposed for tests and plots) -----------------------------
// exp:  Cody–Waite range reduction x = k·ln2 + r (|r| <= ln2/2, k rounded with the 1.5·2^23 trick), the Cephes
//       expf polynomial e^r ≈ 1 + r + r²·P5(r), and 2^k by adding k to the exponent bits. Only +, −, × (no FMA),
//       so wasm and SSE2 give the same bits. Input clamped to [−87.34, 88]: below, the result is ~1.2e-38
//       instead of smaller or 0; above, e^88. Relative error <= kFastExpMaxRelError on [−87, 88] (tested on a
//       grid of 2^-12 steps; measured 7.9e-8, about 1 ulp).
// tanh: |x| < 0.625: odd polynomial x + x³·P(x²) (Cephes tanhf), which keeps the relative error small near 0;
//       otherwise 1 − 2 / (exp(2|x|) + 1) with the sign restored; |x| clamped to 10 (the result is then exactly
//       ±1). Absolute error <= kFastTanhMaxAbsError (measured 7.2e-8 on [−12, 12]).
// sigmoid: 1 / (1 + exp(−x)). Absolute error <= kFastSigmoidMaxAbsError (measured 8.9e-8 on [−12, 12]).
// The scalar path uses std::exp, std::tanh and 1 / (1 + std::exp(−x)) instead.
constexpr double kFastExpMaxRelError = 2e-7;
constexpr double kFastTanhMaxAbsError = 2e-7;
constexpr double kFastSigmoidMaxAbsError = 2e-7;
float fast_exp(float x);
float fast_tanh(float x);
float fast_sigmoid(float x);
// Arrays (4 lanes at a time when SIMD is available; lane results equal the single-value functions).
void fast_exp_array(const float* x, float* y, size_t count);
void fast_tanh_array(const float* x, float* y, size_t count);
void fast_sigmoid_array(const float* x, float* y, size_t count);

// ---- what a kernel costs ------------------------------------------------------------------------------------
// Multiply-adds of one call (the counts of cost_model.h):
//   attention (both): 2·n²·d (Q·Kᵀ and A·V; scaling, exp and the final division not counted)
//   Elman: n·hidden·(d + hidden);  GRU: 3·n·hidden·(d + hidden)   (d = input width)
// `hidden` is only read for Elman and GRU; <= 0 means hidden = d.
long long kernel_macs(KernelKind kind, long long n, long long d, long long hidden = 0);

// Bytes one call touches, fp32, by role:
//                 inputs        weights                  outputs    workspace
//   naive         Q,K,V 3·n·d   —                        out n·d    n·n  (the score matrix)
//   tiled         Q,K,V 3·n·d   —                        out n·d    queries·(keys + 3)
//   Elman         X n·d         h·d + h·h + h            H n·h      0
//   GRU           X n·d         3h·d + 3h·h + 6h         H n·h      0
// (× 4 bytes; h = hidden). h0, when given, is h more floats and not counted.
struct KernelMemory {
  long long inputs = 0, weights = 0, outputs = 0, workspace = 0;  // bytes
  long long total() const { return inputs + weights + outputs + workspace; }
};
KernelMemory kernel_memory(KernelKind kind, long long n, long long d, long long hidden = 0,
                           TileSizes tile = TileSizes{});

}  // namespace ap
