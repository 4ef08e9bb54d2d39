// The kernels of kernels.h. Over 700 lines for a reason: each kernel's scalar loops and its SIMD path (wasm
// simd128 and SSE2 behind one set of lane helpers) sit side by side, so that a fast path is read beside the
// plain one it must equal (tests/core/test_kernels.cpp compares them).
#include "kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "matrix.h"  // check_size

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define AP_SIMD_WASM 1
#define AP_HAVE_SIMD 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define AP_SIMD_SSE2 1
#define AP_HAVE_SIMD 1
#else
#define AP_HAVE_SIMD 0
#endif

// Keep the scalar path one lane wide: no auto-vectorisation of its loops.
#if defined(__clang__)
#define AP_SCALAR_FN
#define AP_NOVEC _Pragma("clang loop vectorize(disable) interleave(disable)")
#elif defined(__GNUC__)
#define AP_SCALAR_FN __attribute__((optimize("no-tree-vectorize")))
#define AP_NOVEC
#else
#define AP_SCALAR_FN
#define AP_NOVEC
#endif

namespace ap {

namespace {

constexpr float kNegInfF = -std::numeric_limits<float>::infinity();

// ---- fast exp / tanh / sigmoid, single value (the reference for the vector versions, bit for bit) ------------
// Constants of Cephes expf / tanhf.
constexpr float kExpLo = -87.33654f;      // e^kExpLo ≈ 1.18e-38, the smallest normal float
constexpr float kExpHi = 88.0f;           // k = round(88·log2 e) = 127: 2^k stays finite
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f;    // ln 2 split in two: k·kLn2Hi is exact for |k| <= 128
constexpr float kLn2Lo = -2.12194440e-4f;
constexpr float kRoundMagic = 12582912.0f;  // 1.5·2^23: x + magic rounds x to an integer in the low bits
constexpr int32_t kRoundMagicBits = 0x4B400000;
constexpr float kP0 = 1.9875691500E-4f, kP1 = 1.3981999507E-3f, kP2 = 8.3334519073E-3f,
                kP3 = 4.1665795894E-2f, kP4 = 1.6666665459E-1f, kP5 = 5.0000001201E-1f;
constexpr float kT0 = -5.70498872745E-3f, kT1 = 2.06390887954E-2f, kT2 = -5.37397155531E-2f,
                kT3 = 1.33314422036E-1f, kT4 = -3.33332819422E-1f;
constexpr float kTanhSmall = 0.625f;
constexpr float kTanhClamp = 10.0f;  // 1 − 2/(e^20 + 1) rounds to exactly 1.0f

inline float bits_to_float(int32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
inline int32_t float_to_bits(float f) {
  int32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

inline float fast_exp_1(float x) {
  x = std::min(std::max(x, kExpLo), kExpHi);
  const float t = x * kLog2e + kRoundMagic;
  const int32_t k = float_to_bits(t) - kRoundMagicBits;
  const float kf = t - kRoundMagic;
  float r = x - kf * kLn2Hi;
  r = r - kf * kLn2Lo;
  float p = kP0;
  p = p * r + kP1;
  p = p * r + kP2;
  p = p * r + kP3;
  p = p * r + kP4;
  p = p * r + kP5;
  const float r2 = r * r;
  p = p * r2 + r;
  p = p + 1.0f;
  return p * bits_to_float((k + 127) << 23);
}

inline float fast_tanh_1(float x) {
  const float ax = std::min(std::fabs(x), kTanhClamp);
  float y;
  if (ax < kTanhSmall) {
    const float z = ax * ax;
    float p = kT0;
    p = p * z + kT1;
    p = p * z + kT2;
    p = p * z + kT3;
    p = p * z + kT4;
    y = p * z * ax + ax;
  } else {
    const float e = fast_exp_1(ax + ax);
    y = 1.0f - 2.0f / (e + 1.0f);
  }
  return std::signbit(x) ? -y : y;
}

inline float fast_sigmoid_1(float x) { return 1.0f / (1.0f + fast_exp_1(-x)); }

// ---- 4-lane vectors --------------------------------------------------------------------------------------------
#if AP_HAVE_SIMD
#if AP_SIMD_WASM
using f4 = v128_t;
using i4 = v128_t;
inline f4 load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, f4 v) { wasm_v128_store(p, v); }
inline f4 set1(float x) { return wasm_f32x4_splat(x); }
inline f4 zero4() { return wasm_f32x4_splat(0.0f); }
inline f4 add(f4 a, f4 b) { return wasm_f32x4_add(a, b); }
inline f4 sub(f4 a, f4 b) { return wasm_f32x4_sub(a, b); }
inline f4 mul(f4 a, f4 b) { return wasm_f32x4_mul(a, b); }
inline f4 divv(f4 a, f4 b) { return wasm_f32x4_div(a, b); }
// pmin/pmax: the plain compare-and-select (what minps/maxps do), cheaper than NaN-propagating min/max
inline f4 vmax(f4 a, f4 b) { return wasm_f32x4_pmax(a, b); }
inline f4 vmin(f4 a, f4 b) { return wasm_f32x4_pmin(a, b); }
inline f4 unpacklo(f4 a, f4 b) { return wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); }
inline f4 unpackhi(f4 a, f4 b) { return wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); }
inline f4 lo_halves(f4 a, f4 b) { return wasm_i32x4_shuffle(a, b, 0, 1, 4, 5); }
inline f4 hi_halves(f4 a, f4 b) { return wasm_i32x4_shuffle(a, b, 2, 3, 6, 7); }
inline float lane0(f4 v) { return wasm_f32x4_extract_lane(v, 0); }
inline f4 swap_pairs(f4 v) { return wasm_i32x4_shuffle(v, v, 1, 0, 3, 2); }
inline f4 swap_halves(f4 v) { return wasm_i32x4_shuffle(v, v, 2, 3, 0, 1); }
inline i4 as_int(f4 v) { return v; }
inline f4 as_float(i4 v) { return v; }
inline i4 isub(i4 a, i4 b) { return wasm_i32x4_sub(a, b); }
inline i4 iadd(i4 a, i4 b) { return wasm_i32x4_add(a, b); }
inline i4 iset1(int32_t x) { return wasm_i32x4_splat(x); }
inline i4 shl23(i4 a) { return wasm_i32x4_shl(a, 23); }
inline f4 lt(f4 a, f4 b) { return wasm_f32x4_lt(a, b); }
inline f4 select(f4 mask, f4 a, f4 b) { return wasm_v128_bitselect(a, b, mask); }  // mask ? a : b
inline f4 vand(f4 a, f4 b) { return wasm_v128_and(a, b); }
inline f4 vor(f4 a, f4 b) { return wasm_v128_or(a, b); }
inline f4 vandnot(f4 a, f4 b) { return wasm_v128_andnot(b, a); }  // ~a & b
#else
using f4 = __m128;
using i4 = __m128i;
inline f4 load(const float* p) { return _mm_loadu_ps(p); }
inline void store(float* p, f4 v) { _mm_storeu_ps(p, v); }
inline f4 set1(float x) { return _mm_set1_ps(x); }
inline f4 zero4() { return _mm_setzero_ps(); }
inline f4 add(f4 a, f4 b) { return _mm_add_ps(a, b); }
inline f4 sub(f4 a, f4 b) { return _mm_sub_ps(a, b); }
inline f4 mul(f4 a, f4 b) { return _mm_mul_ps(a, b); }
inline f4 divv(f4 a, f4 b) { return _mm_div_ps(a, b); }
inline f4 vmax(f4 a, f4 b) { return _mm_max_ps(a, b); }
inline f4 vmin(f4 a, f4 b) { return _mm_min_ps(a, b); }
inline f4 unpacklo(f4 a, f4 b) { return _mm_unpacklo_ps(a, b); }
inline f4 unpackhi(f4 a, f4 b) { return _mm_unpackhi_ps(a, b); }
inline f4 lo_halves(f4 a, f4 b) { return _mm_movelh_ps(a, b); }
inline f4 hi_halves(f4 a, f4 b) { return _mm_movehl_ps(b, a); }
inline float lane0(f4 v) { return _mm_cvtss_f32(v); }
inline f4 swap_pairs(f4 v) { return _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)); }
inline f4 swap_halves(f4 v) { return _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)); }
inline i4 as_int(f4 v) { return _mm_castps_si128(v); }
inline f4 as_float(i4 v) { return _mm_castsi128_ps(v); }
inline i4 isub(i4 a, i4 b) { return _mm_sub_epi32(a, b); }
inline i4 iadd(i4 a, i4 b) { return _mm_add_epi32(a, b); }
inline i4 iset1(int32_t x) { return _mm_set1_epi32(x); }
inline i4 shl23(i4 a) { return _mm_slli_epi32(a, 23); }
inline f4 lt(f4 a, f4 b) { return _mm_cmplt_ps(a, b); }
inline f4 select(f4 mask, f4 a, f4 b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }
inline f4 vand(f4 a, f4 b) { return _mm_and_ps(a, b); }
inline f4 vor(f4 a, f4 b) { return _mm_or_ps(a, b); }
inline f4 vandnot(f4 a, f4 b) { return _mm_andnot_ps(a, b); }  // ~a & b
#endif

inline f4 madd(f4 acc, f4 a, f4 b) { return add(acc, mul(a, b)); }
inline float hsum(f4 v) {
  v = add(v, swap_halves(v));
  v = add(v, swap_pairs(v));
  return lane0(v);
}
inline float hmax(f4 v) {
  v = vmax(v, swap_halves(v));
  v = vmax(v, swap_pairs(v));
  return lane0(v);
}
// [Σa, Σb, Σc, Σd]: the four horizontal sums in one vector (a 4×4 transpose folded into adds)
inline f4 hsum4(f4 a, f4 b, f4 c, f4 d) {
  const f4 ab = add(unpacklo(a, b), unpackhi(a, b));  // [a0+a2, b0+b2, a1+a3, b1+b3]
  const f4 cd = add(unpacklo(c, d), unpackhi(c, d));
  return add(lo_halves(ab, cd), hi_halves(ab, cd));
}

// Same operation sequence as fast_exp_1, lane by lane.
inline f4 exp4(f4 x) {
  x = vmin(vmax(x, set1(kExpLo)), set1(kExpHi));
  const f4 t = add(mul(x, set1(kLog2e)), set1(kRoundMagic));
  const i4 k = isub(as_int(t), iset1(kRoundMagicBits));
  const f4 kf = sub(t, set1(kRoundMagic));
  f4 r = sub(x, mul(kf, set1(kLn2Hi)));
  r = sub(r, mul(kf, set1(kLn2Lo)));
  f4 p = set1(kP0);
  p = add(mul(p, r), set1(kP1));
  p = add(mul(p, r), set1(kP2));
  p = add(mul(p, r), set1(kP3));
  p = add(mul(p, r), set1(kP4));
  p = add(mul(p, r), set1(kP5));
  const f4 r2 = mul(r, r);
  p = add(mul(p, r2), r);
  p = add(p, set1(1.0f));
  return mul(p, as_float(shl23(iadd(k, iset1(127)))));
}

inline f4 tanh4(f4 x) {
  const f4 sign = set1(-0.0f);
  const f4 ax = vmin(vandnot(sign, x), set1(kTanhClamp));
  const f4 z = mul(ax, ax);
  f4 p = set1(kT0);
  p = add(mul(p, z), set1(kT1));
  p = add(mul(p, z), set1(kT2));
  p = add(mul(p, z), set1(kT3));
  p = add(mul(p, z), set1(kT4));
  const f4 small = add(mul(mul(p, z), ax), ax);
  const f4 e = exp4(add(ax, ax));
  const f4 big = sub(set1(1.0f), divv(set1(2.0f), add(e, set1(1.0f))));
  const f4 y = select(lt(ax, set1(kTanhSmall)), small, big);
  return vor(y, vand(x, sign));
}

inline f4 sigmoid4(f4 x) {
  return divv(set1(1.0f), add(set1(1.0f), exp4(sub(zero4(), x))));
}
#endif  // AP_HAVE_SIMD

// ---- validation helpers ----------------------------------------------------------------------------------------
Status check_ptr(const void* p, const char* name) {
  if (!p) return Status::Error("{0} is a null pointer", {name});
  return Status::Ok();
}

Status check_workspace(size_t have, long long need) {
  if (static_cast<unsigned long long>(have) < static_cast<unsigned long long>(need))
    return Status::Error("the workspace holds {0} floats; this kernel needs {1}",
                         {arg(static_cast<long long>(have)), arg(need)});
  return Status::Ok();
}

Status check_attention_args(const float* Q, const float* K, const float* V, int n, int d, int r0, int r1,
                            const float* out, const float* ws) {
  AP_TRY(check_size(n, "n (tokens)", kernel_limits::kMaxTokens));
  AP_TRY(check_size(d, "d (width)", kernel_limits::kMaxWidth));
  if (r0 < 0 || r0 > r1 || r1 > n)
    return Status::Error("query rows [{0}, {1}) are not a range within the {2} queries", {arg(r0), arg(r1), arg(n)});
  AP_TRY(check_ptr(Q, "Q"));
  AP_TRY(check_ptr(K, "K"));
  AP_TRY(check_ptr(V, "V"));
  AP_TRY(check_ptr(out, "out"));
  AP_TRY(check_ptr(ws, "workspace"));
  return Status::Ok();
}

Status check_tile(TileSizes t) {
  AP_TRY(check_size(t.keys, "key tile", kernel_limits::kMaxKeyTile));
  AP_TRY(check_size(t.queries, "query tile", kernel_limits::kMaxQueryTile));
  return Status::Ok();
}

inline size_t idx(long long row, long long stride) { return static_cast<size_t>(row) * static_cast<size_t>(stride); }

// ---- scalar building blocks ----------------------------------------------------------------------------------------

// s[r][j] = scale · q_r·k_j for rows r < R of a query block and keys j < cols (K already offset to the tile).
AP_SCALAR_FN void scores_scalar(const float* Q, int rows, const float* K, int cols, int d, float scale, float* S,
                                int lds) {
  for (int r = 0; r < rows; ++r) {
    const float* q = Q + idx(r, d);
    for (int j = 0; j < cols; ++j) {
      const float* k = K + idx(j, d);
      float s = 0.0f;
      AP_NOVEC for (int c = 0; c < d; ++c) s += q[c] * k[c];
      S[idx(r, lds) + j] = s * scale;
    }
  }
}

AP_SCALAR_FN float row_max_scalar(const float* s, int cols) {
  float m = kNegInfF;
  AP_NOVEC for (int j = 0; j < cols; ++j) m = std::max(m, s[j]);
  return m;
}

// s[j] ← exp(s[j] − m); returns Σ s[j]
AP_SCALAR_FN float exp_sum_scalar(float* s, int cols, float m) {
  float sum = 0.0f;
  AP_NOVEC for (int j = 0; j < cols; ++j) {
    const float e = std::exp(s[j] - m);
    s[j] = e;
    sum += e;
  }
  return sum;
}

// o_r ← α_r·o_r + Σ_j p_r[j]·v_j (α == nullptr: o_r ← Σ_j …), rows r < R; V offset to the tile (cols rows).
AP_SCALAR_FN void mix_scalar(const float* P, int ldp, int rows, const float* V, int cols, int d, float* O,
                             const float* alpha) {
  for (int r = 0; r < rows; ++r) {
    float* o = O + idx(r, d);
    const float* p = P + idx(r, ldp);
    if (alpha) {
      AP_NOVEC for (int c = 0; c < d; ++c) o[c] *= alpha[r];
    } else {
      AP_NOVEC for (int c = 0; c < d; ++c) o[c] = 0.0f;
    }
    for (int j = 0; j < cols; ++j) {
      const float pj = p[j];
      const float* v = V + idx(j, d);
      AP_NOVEC for (int c = 0; c < d; ++c) o[c] += pj * v[c];
    }
  }
}

AP_SCALAR_FN void scale_rows_scalar(float* O, int rows, int d, const float* inv) {
  for (int r = 0; r < rows; ++r) {
    float* o = O + idx(r, d);
    AP_NOVEC for (int c = 0; c < d; ++c) o[c] *= inv[r];
  }
}

AP_SCALAR_FN float dot_scalar(const float* a, const float* b, int len) {
  float s = 0.0f;
  AP_NOVEC for (int c = 0; c < len; ++c) s += a[c] * b[c];
  return s;
}

// ---- SIMD building blocks --------------------------------------------------------------------------------------
#if AP_HAVE_SIMD
inline float dot_simd(const float* a, const float* b, int len) {
  f4 acc0 = zero4(), acc1 = zero4();
  int c = 0;
  for (; c + 8 <= len; c += 8) {
    acc0 = madd(acc0, load(a + c), load(b + c));
    acc1 = madd(acc1, load(a + c + 4), load(b + c + 4));
  }
  for (; c + 4 <= len; c += 4) acc0 = madd(acc0, load(a + c), load(b + c));
  float s = hsum(add(acc0, acc1));
  for (; c < len; ++c) s += a[c] * b[c];
  return s;
}

// R query rows (R = 1 or 2) × 4 keys per inner block, vectors along d, then a transposing horizontal sum.
template <int R>
void scores_block_simd(const float* Q, const float* K, int cols, int d, float scale, float* S, int lds) {
  const int d4 = d & ~3;
  const f4 vscale = set1(scale);
  int j = 0;
  for (; j + 4 <= cols; j += 4) {
    const float* k0 = K + idx(j, d);
    const float* k1 = k0 + d;
    const float* k2 = k1 + d;
    const float* k3 = k2 + d;
    f4 acc[R][4];
    for (int r = 0; r < R; ++r)
      for (int x = 0; x < 4; ++x) acc[r][x] = zero4();
    for (int c = 0; c < d4; c += 4) {
      const f4 kv0 = load(k0 + c), kv1 = load(k1 + c), kv2 = load(k2 + c), kv3 = load(k3 + c);
      for (int r = 0; r < R; ++r) {
        const f4 qv = load(Q + idx(r, d) + c);
        acc[r][0] = madd(acc[r][0], qv, kv0);
        acc[r][1] = madd(acc[r][1], qv, kv1);
        acc[r][2] = madd(acc[r][2], qv, kv2);
        acc[r][3] = madd(acc[r][3], qv, kv3);
      }
    }
    for (int r = 0; r < R; ++r) {
      f4 sum = hsum4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
      if (d4 < d) {
        const float* q = Q + idx(r, d);
        float t[4] = {0.f, 0.f, 0.f, 0.f};
        for (int c = d4; c < d; ++c) {
          t[0] += q[c] * k0[c];
          t[1] += q[c] * k1[c];
          t[2] += q[c] * k2[c];
          t[3] += q[c] * k3[c];
        }
        sum = add(sum, load(t));
      }
      store(S + idx(r, lds) + j, mul(sum, vscale));
    }
  }
  for (; j < cols; ++j)
    for (int r = 0; r < R; ++r) S[idx(r, lds) + j] = dot_simd(Q + idx(r, d), K + idx(j, d), d) * scale;
}

void scores_simd(const float* Q, int rows, const float* K, int cols, int d, float scale, float* S, int lds) {
  int r = 0;
  for (; r + 2 <= rows; r += 2) scores_block_simd<2>(Q + idx(r, d), K, cols, d, scale, S + idx(r, lds), lds);
  if (r < rows) scores_block_simd<1>(Q + idx(r, d), K, cols, d, scale, S + idx(r, lds), lds);
}

float row_max_simd(const float* s, int cols) {
  int j = 0;
  float m = kNegInfF;
  if (cols >= 4) {
    f4 vm = load(s);
    for (j = 4; j + 4 <= cols; j += 4) vm = vmax(vm, load(s + j));
    m = hmax(vm);
  }
  for (; j < cols; ++j) m = std::max(m, s[j]);
  return m;
}

float exp_sum_simd(float* s, int cols, float m) {
  const f4 vm = set1(m);
  f4 acc = zero4();
  int j = 0;
  for (; j + 4 <= cols; j += 4) {
    const f4 e = exp4(sub(load(s + j), vm));
    store(s + j, e);
    acc = add(acc, e);
  }
  float sum = hsum(acc);
  for (; j < cols; ++j) {
    const float e = fast_exp_1(s[j] - m);
    s[j] = e;
    sum += e;
  }
  return sum;
}

// R rows (1 or 2) of O ← α·O + P·V, 16 columns (4 vectors) per block, then 4, then scalar.
template <int R>
void mix_block_simd(const float* P, int ldp, const float* V, int cols, int d, float* O, const float* alpha) {
  int c = 0;
  for (; c + 16 <= d; c += 16) {
    f4 acc[R][4];
    for (int r = 0; r < R; ++r) {
      float* o = O + idx(r, d) + c;
      if (alpha) {
        const f4 a = set1(alpha[r]);
        for (int x = 0; x < 4; ++x) acc[r][x] = mul(load(o + 4 * x), a);
      } else {
        for (int x = 0; x < 4; ++x) acc[r][x] = zero4();
      }
    }
    const float* v = V + c;
    for (int j = 0; j < cols; ++j, v += d) {
      const f4 v0 = load(v), v1 = load(v + 4), v2 = load(v + 8), v3 = load(v + 12);
      for (int r = 0; r < R; ++r) {
        const f4 p = set1(P[idx(r, ldp) + j]);
        acc[r][0] = madd(acc[r][0], p, v0);
        acc[r][1] = madd(acc[r][1], p, v1);
        acc[r][2] = madd(acc[r][2], p, v2);
        acc[r][3] = madd(acc[r][3], p, v3);
      }
    }
    for (int r = 0; r < R; ++r)
      for (int x = 0; x < 4; ++x) store(O + idx(r, d) + c + 4 * x, acc[r][x]);
  }
  for (; c + 4 <= d; c += 4) {
    f4 acc[R];
    for (int r = 0; r < R; ++r) acc[r] = alpha ? mul(load(O + idx(r, d) + c), set1(alpha[r])) : zero4();
    const float* v = V + c;
    for (int j = 0; j < cols; ++j, v += d) {
      const f4 v0 = load(v);
      for (int r = 0; r < R; ++r) acc[r] = madd(acc[r], set1(P[idx(r, ldp) + j]), v0);
    }
    for (int r = 0; r < R; ++r) store(O + idx(r, d) + c, acc[r]);
  }
  for (; c < d; ++c)
    for (int r = 0; r < R; ++r) {
      float a = alpha ? O[idx(r, d) + c] * alpha[r] : 0.0f;
      for (int j = 0; j < cols; ++j) a += P[idx(r, ldp) + j] * V[idx(j, d) + c];
      O[idx(r, d) + c] = a;
    }
}

void mix_simd(const float* P, int ldp, int rows, const float* V, int cols, int d, float* O, const float* alpha) {
  int r = 0;
  for (; r + 2 <= rows; r += 2)
    mix_block_simd<2>(P + idx(r, ldp), ldp, V, cols, d, O + idx(r, d), alpha ? alpha + r : nullptr);
  if (r < rows) mix_block_simd<1>(P + idx(r, ldp), ldp, V, cols, d, O + idx(r, d), alpha ? alpha + r : nullptr);
}

void scale_rows_simd(float* O, int rows, int d, const float* inv) {
  for (int r = 0; r < rows; ++r) {
    float* o = O + idx(r, d);
    const f4 a = set1(inv[r]);
    int c = 0;
    for (; c + 4 <= d; c += 4) store(o + c, mul(load(o + c), a));
    for (; c < d; ++c) o[c] *= inv[r];
  }
}

// One dot product with exactly the per-row arithmetic of matvec4_simd's 4-row path (one accumulator over
// chunks of 4, lanes summed as (l0 + l2) + (l1 + l3), then the scalar tail added), so that a hidden unit gets
// the same bits whether it falls in a full block of 4 or in a remainder (unit-range splits stay identical).
inline float dot_rowwise_simd(const float* w, const float* x, int len) {
  const int l4 = len & ~3;
  f4 acc = zero4();
  for (int c = 0; c < l4; c += 4) acc = madd(acc, load(w + c), load(x + c));
  float t = 0.0f;
  for (int c = l4; c < len; ++c) t += w[c] * x[c];
  return hsum(acc) + t;
}

// y[i] = W_row(u+i) · x for i < count (count <= 4), lanes >= count are 0. W rows have `len` floats.
inline f4 matvec4_simd(const float* W, int len, int u, int count, const float* x) {
  if (count == 4) {
    const float* w0 = W + idx(u, len);
    const float* w1 = w0 + len;
    const float* w2 = w1 + len;
    const float* w3 = w2 + len;
    f4 a0 = zero4(), a1 = zero4(), a2 = zero4(), a3 = zero4();
    const int l4 = len & ~3;
    for (int c = 0; c < l4; c += 4) {
      const f4 xv = load(x + c);
      a0 = madd(a0, load(w0 + c), xv);
      a1 = madd(a1, load(w1 + c), xv);
      a2 = madd(a2, load(w2 + c), xv);
      a3 = madd(a3, load(w3 + c), xv);
    }
    f4 s = hsum4(a0, a1, a2, a3);
    if (l4 < len) {
      float t[4] = {0.f, 0.f, 0.f, 0.f};
      for (int c = l4; c < len; ++c) {
        t[0] += w0[c] * x[c];
        t[1] += w1[c] * x[c];
        t[2] += w2[c] * x[c];
        t[3] += w3[c] * x[c];
      }
      s = add(s, load(t));
    }
    return s;
  }
  float t[4] = {0.f, 0.f, 0.f, 0.f};
  for (int i = 0; i < count; ++i) t[i] = dot_rowwise_simd(W + idx(u + i, len), x, len);
  return load(t);
}

inline f4 load_partial(const float* p, int count) {
  if (count == 4) return load(p);
  float t[4] = {0.f, 0.f, 0.f, 0.f};
  for (int i = 0; i < count; ++i) t[i] = p[i];
  return load(t);
}
inline void store_partial(float* p, f4 v, int count) {
  if (count == 4) {
    store(p, v);
    return;
  }
  float t[4];
  store(t, v);
  for (int i = 0; i < count; ++i) p[i] = t[i];
}
#endif  // AP_HAVE_SIMD

inline bool use_simd(KernelImpl impl) { return AP_HAVE_SIMD && impl == KernelImpl::Simd; }

// ---- attention drivers -----------------------------------------------------------------------------------------

void attention_naive_impl(const float* Q, const float* K, const float* V, int n, int d, int r0, int r1, float* out,
                          float* S, KernelImpl impl) {
  const int rows = r1 - r0;
  if (rows == 0) return;
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  const float* Qr = Q + idx(r0, d);
  float* Or = out + idx(r0, d);
  // 1) all score rows first (the whole rows × n block exists at once: that is what "naive" means here), then
  // 2)-4) per block of up to 64 rows: exp in place with the row sums, A·V, division by the sums (1/sum of a
  // block kept on the stack so that the workspace stays exactly rows × n)
  constexpr int kBlock = 64;
  float inv[kBlock];
#if AP_HAVE_SIMD
  if (use_simd(impl)) {
    scores_simd(Qr, rows, K, n, d, scale, S, n);              // 1) S = Q·Kᵀ/√d   (rows × n)
    for (int b = 0; b < rows; b += kBlock) {                   // 2) S ← exp(S − rowmax), row sums
      const int cnt = std::min(kBlock, rows - b);
      for (int r = 0; r < cnt; ++r) {
        float* s = S + idx(b + r, n);
        inv[r] = 1.0f / exp_sum_simd(s, n, row_max_simd(s, n));
      }
      mix_simd(S + idx(b, n), n, cnt, V, n, d, Or + idx(b, d), nullptr);  // 3) O = S·V
      scale_rows_simd(Or + idx(b, d), cnt, d, inv);                       // 4) O /= row sum
    }
    return;
  }
#endif
  (void)impl;
  scores_scalar(Qr, rows, K, n, d, scale, S, n);
  for (int b = 0; b < rows; b += kBlock) {
    const int cnt = std::min(kBlock, rows - b);
    for (int r = 0; r < cnt; ++r) {
      float* s = S + idx(b + r, n);
      inv[r] = 1.0f / exp_sum_scalar(s, n, row_max_scalar(s, n));
    }
    mix_scalar(S + idx(b, n), n, cnt, V, n, d, Or + idx(b, d), nullptr);
    scale_rows_scalar(Or + idx(b, d), cnt, d, inv);
  }
}

void attention_tiled_impl(const float* Q, const float* K, const float* V, int n, int d, int r0, int r1,
                          TileSizes tile, float* out, float* ws, KernelImpl impl) {
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  const int Bq = tile.queries, Bk = tile.keys;
  float* S = ws;                      // Bq × Bk scores, then probabilities
  float* m = ws + idx(Bq, Bk);        // running max per row
  float* l = m + Bq;                  // running sum per row
  float* alpha = l + Bq;              // rescale factor of this tile per row
  const bool simd = use_simd(impl);
  for (int ib = r0; ib < r1; ib += Bq) {
    const int rows = std::min(Bq, r1 - ib);
    const float* Qb = Q + idx(ib, d);
    float* Ob = out + idx(ib, d);
    for (int r = 0; r < rows; ++r) {
      m[r] = kNegInfF;
      l[r] = 0.0f;
    }
    for (int jb = 0; jb < n; jb += Bk) {
      const int cols = std::min(Bk, n - jb);
      const float* Kt = K + idx(jb, d);
      const float* Vt = V + idx(jb, d);
      const bool first = jb == 0;
#if AP_HAVE_SIMD
      if (simd) scores_simd(Qb, rows, Kt, cols, d, scale, S, Bk);
      else
#endif
        scores_scalar(Qb, rows, Kt, cols, d, scale, S, Bk);
      for (int r = 0; r < rows; ++r) {
        float* s = S + idx(r, Bk);
        float tile_max, tile_sum;
#if AP_HAVE_SIMD
        if (simd) {
          tile_max = row_max_simd(s, cols);
          const float m_new = std::max(m[r], tile_max);
          tile_sum = exp_sum_simd(s, cols, m_new);
          alpha[r] = first ? 0.0f : fast_exp_1(m[r] - m_new);
          m[r] = m_new;
        } else
#endif
        {
          tile_max = row_max_scalar(s, cols);
          const float m_new = std::max(m[r], tile_max);
          tile_sum = exp_sum_scalar(s, cols, m_new);
          alpha[r] = first ? 0.0f : std::exp(m[r] - m_new);
          m[r] = m_new;
        }
        l[r] = l[r] * alpha[r] + tile_sum;
      }
#if AP_HAVE_SIMD
      if (simd) mix_simd(S, Bk, rows, Vt, cols, d, Ob, first ? nullptr : alpha);
      else
#endif
        mix_scalar(S, Bk, rows, Vt, cols, d, Ob, first ? nullptr : alpha);
    }
    for (int r = 0; r < rows; ++r) l[r] = 1.0f / l[r];
#if AP_HAVE_SIMD
    if (simd) scale_rows_simd(Ob, rows, d, l);
    else
#endif
      scale_rows_scalar(Ob, rows, d, l);
  }
  (void)simd;
}

// ---- recurrent drivers ---------------------------------------------------------------------------------------------

AP_SCALAR_FN void elman_step_scalar(const ElmanWeights& w, int d_in, int hidden, const float* x, const float* h,
                                    float* h_next) {
  for (int u = 0; u < hidden; ++u) {
    float s = w.b[u] + dot_scalar(w.Wx + idx(u, d_in), x, d_in);
    if (h) s += dot_scalar(w.Wh + idx(u, hidden), h, hidden);
    h_next[u] = std::tanh(s);
  }
}

AP_SCALAR_FN void gru_units_scalar(const GruWeights& w, int d_in, int hidden, const float* x, const float* h,
                                   int u0, int u1, float* h_next) {
  const int H = hidden;
  for (int u = u0; u < u1; ++u) {
    float g[3], c[3];  // input part W x + b and recurrent part U h + c, for r, z, n
    for (int k = 0; k < 3; ++k) {
      const int row = k * H + u;
      g[k] = w.bx[row] + dot_scalar(w.Wx + idx(row, d_in), x, d_in);
      c[k] = w.bh[row] + (h ? dot_scalar(w.Wh + idx(row, H), h, H) : 0.0f);
    }
    const float r = 1.0f / (1.0f + std::exp(-(g[0] + c[0])));
    const float z = 1.0f / (1.0f + std::exp(-(g[1] + c[1])));
    const float cand = std::tanh(g[2] + r * c[2]);
    const float hp = h ? h[u] : 0.0f;
    h_next[u] = (1.0f - z) * cand + z * hp;
  }
}

#if AP_HAVE_SIMD
void elman_step_simd(const ElmanWeights& w, int d_in, int hidden, const float* x, const float* h, float* h_next) {
  for (int u = 0; u < hidden; u += 4) {
    const int cnt = std::min(4, hidden - u);
    f4 s = add(load_partial(w.b + u, cnt), matvec4_simd(w.Wx, d_in, u, cnt, x));
    if (h) s = add(s, matvec4_simd(w.Wh, hidden, u, cnt, h));
    store_partial(h_next + u, tanh4(s), cnt);
  }
}

void gru_units_simd(const GruWeights& w, int d_in, int hidden, const float* x, const float* h, int u0, int u1,
                    float* h_next) {
  const int H = hidden;
  for (int u = u0; u < u1; u += 4) {
    const int cnt = std::min(4, u1 - u);
    f4 g[3], c[3];
    for (int k = 0; k < 3; ++k) {
      g[k] = add(load_partial(w.bx + k * H + u, cnt), matvec4_simd(w.Wx, d_in, k * H + u, cnt, x));
      c[k] = load_partial(w.bh + k * H + u, cnt);
      if (h) c[k] = add(c[k], matvec4_simd(w.Wh, H, k * H + u, cnt, h));
    }
    const f4 r = sigmoid4(add(g[0], c[0]));
    const f4 z = sigmoid4(add(g[1], c[1]));
    const f4 cand = tanh4(add(g[2], mul(r, c[2])));
    const f4 hp = h ? load_partial(h + u, cnt) : zero4();
    store_partial(h_next + u, add(mul(sub(set1(1.0f), z), cand), mul(z, hp)), cnt);
  }
}
#endif

Status check_rnn_sizes(int n, int d_in, int hidden, const float* X, const float* H) {
  AP_TRY(check_size(n, "n (tokens)", kernel_limits::kMaxTokens));
  AP_TRY(check_size(d_in, "d (input width)", kernel_limits::kMaxWidth));
  AP_TRY(check_size(hidden, "hidden size", kernel_limits::kMaxWidth));
  AP_TRY(check_ptr(X, "X"));
  AP_TRY(check_ptr(H, "H"));
  return Status::Ok();
}

Status check_gru_weights(const GruWeights& w) {
  AP_TRY(check_ptr(w.Wx, "W_x"));
  AP_TRY(check_ptr(w.Wh, "W_h"));
  AP_TRY(check_ptr(w.bx, "b_x"));
  AP_TRY(check_ptr(w.bh, "b_h"));
  return Status::Ok();
}

}  // namespace

// ---- public -----------------------------------------------------------------------------------------------------------

const char* kernel_impl_name(KernelImpl impl) { return impl == KernelImpl::Simd ? "simd" : "scalar"; }

bool simd_available() { return AP_HAVE_SIMD != 0; }

const char* simd_backend() {
#if defined(AP_SIMD_WASM)
  return "wasm-simd128";
#elif defined(AP_SIMD_SSE2)
  return "sse2";
#else
  return "none";
#endif
}

const char* kernel_kind_name(KernelKind k) {
  switch (k) {
    case KernelKind::AttentionTiled: return "attention-tiled";
    case KernelKind::Elman: return "elman";
    case KernelKind::Gru: return "gru";
    default: return "attention-naive";
  }
}

long long attention_naive_workspace_floats(long long rows, long long n) { return rows * n; }
long long attention_tiled_workspace_floats(TileSizes tile) {
  return static_cast<long long>(tile.queries) * (static_cast<long long>(tile.keys) + 3);
}

Status attention_forward(const float* Q, const float* K, const float* V, int n, int d, float* out,
                         float* workspace, size_t workspace_floats, KernelImpl impl) {
  return attention_forward_rows(Q, K, V, n, d, 0, n, out, workspace, workspace_floats, impl);
}

Status attention_forward_rows(const float* Q, const float* K, const float* V, int n, int d, int r0, int r1,
                              float* out, float* workspace, size_t workspace_floats, KernelImpl impl) {
  AP_TRY(check_attention_args(Q, K, V, n, d, r0, r1, out, workspace));
  AP_TRY(check_workspace(workspace_floats, attention_naive_workspace_floats(r1 - r0, n)));
  attention_naive_impl(Q, K, V, n, d, r0, r1, out, workspace, impl);
  return Status::Ok();
}

Status attention_tiled(const float* Q, const float* K, const float* V, int n, int d, TileSizes tile, float* out,
                       float* workspace, size_t workspace_floats, KernelImpl impl) {
  return attention_tiled_rows(Q, K, V, n, d, 0, n, tile, out, workspace, workspace_floats, impl);
}

Status attention_tiled_rows(const float* Q, const float* K, const float* V, int n, int d, int r0, int r1,
                            TileSizes tile, float* out, float* workspace, size_t workspace_floats,
                            KernelImpl impl) {
  AP_TRY(check_attention_args(Q, K, V, n, d, r0, r1, out, workspace));
  AP_TRY(check_tile(tile));
  AP_TRY(check_workspace(workspace_floats, attention_tiled_workspace_floats(tile)));
  attention_tiled_impl(Q, K, V, n, d, r0, r1, tile, out, workspace, impl);
  return Status::Ok();
}

Status elman_forward(const ElmanWeights& w, const float* X, int n, int d_in, int hidden, const float* h0, float* H,
                     KernelImpl impl) {
  AP_TRY(check_rnn_sizes(n, d_in, hidden, X, H));
  AP_TRY(check_ptr(w.Wx, "W_x"));
  AP_TRY(check_ptr(w.Wh, "W_h"));
  AP_TRY(check_ptr(w.b, "b"));
  const float* h = h0;
  for (int t = 0; t < n; ++t) {
    float* ht = H + idx(t, hidden);
#if AP_HAVE_SIMD
    if (use_simd(impl)) elman_step_simd(w, d_in, hidden, X + idx(t, d_in), h, ht);
    else
#endif
      elman_step_scalar(w, d_in, hidden, X + idx(t, d_in), h, ht);
    h = ht;
  }
  (void)impl;
  return Status::Ok();
}

Status gru_forward(const GruWeights& w, const float* X, int n, int d_in, int hidden, const float* h0, float* H,
                   KernelImpl impl) {
  AP_TRY(check_rnn_sizes(n, d_in, hidden, X, H));
  AP_TRY(check_gru_weights(w));
  const float* h = h0;
  for (int t = 0; t < n; ++t) {
    float* ht = H + idx(t, hidden);
#if AP_HAVE_SIMD
    if (use_simd(impl)) gru_units_simd(w, d_in, hidden, X + idx(t, d_in), h, 0, hidden, ht);
    else
#endif
      gru_units_scalar(w, d_in, hidden, X + idx(t, d_in), h, 0, hidden, ht);
    h = ht;
  }
  (void)impl;
  return Status::Ok();
}

Status gru_step_units(const GruWeights& w, int d_in, int hidden, const float* x_t, const float* h_prev, int u0,
                      int u1, float* h_next, KernelImpl impl) {
  AP_TRY(check_size(d_in, "d (input width)", kernel_limits::kMaxWidth));
  AP_TRY(check_size(hidden, "hidden size", kernel_limits::kMaxWidth));
  if (u0 < 0 || u0 > u1 || u1 > hidden)
    return Status::Error("hidden units [{0}, {1}) are not a range within the {2} units",
                         {arg(u0), arg(u1), arg(hidden)});
  AP_TRY(check_gru_weights(w));
  AP_TRY(check_ptr(x_t, "x_t"));
  AP_TRY(check_ptr(h_next, "h_next"));
  if (h_prev == h_next) return Status::Error("{0} must not be the same array as {1}", {"h_next", "h_prev"});
#if AP_HAVE_SIMD
  if (use_simd(impl)) {
    gru_units_simd(w, d_in, hidden, x_t, h_prev, u0, u1, h_next);
    return Status::Ok();
  }
#endif
  (void)impl;
  gru_units_scalar(w, d_in, hidden, x_t, h_prev, u0, u1, h_next);
  return Status::Ok();
}

float fast_exp(float x) { return fast_exp_1(x); }
float fast_tanh(float x) { return fast_tanh_1(x); }
float fast_sigmoid(float x) { return fast_sigmoid_1(x); }

void fast_exp_array(const float* x, float* y, size_t count) {
  size_t i = 0;
#if AP_HAVE_SIMD
  for (; i + 4 <= count; i += 4) store(y + i, exp4(load(x + i)));
#endif
  for (; i < count; ++i) y[i] = fast_exp_1(x[i]);
}
void fast_tanh_array(const float* x, float* y, size_t count) {
  size_t i = 0;
#if AP_HAVE_SIMD
  for (; i + 4 <= count; i += 4) store(y + i, tanh4(load(x + i)));
#endif
  for (; i < count; ++i) y[i] = fast_tanh_1(x[i]);
}
void fast_sigmoid_array(const float* x, float* y, size_t count) {
  size_t i = 0;
#if AP_HAVE_SIMD
  for (; i + 4 <= count; i += 4) store(y + i, sigmoid4(load(x + i)));
#endif
  for (; i < count; ++i) y[i] = fast_sigmoid_1(x[i]);
}

long long kernel_macs(KernelKind kind, long long n, long long d, long long hidden) {
  const long long h = hidden > 0 ? hidden : d;
  switch (kind) {
    case KernelKind::Elman: return elman_macs(n, d, h);
    case KernelKind::Gru: return gru_macs(n, d, h);
    default: return attention_macs(n, d);
  }
}

KernelMemory kernel_memory(KernelKind kind, long long n, long long d, long long hidden, TileSizes tile) {
  const long long h = hidden > 0 ? hidden : d;
  constexpr long long F = 4;  // bytes per float
  KernelMemory m;
  switch (kind) {
    case KernelKind::AttentionNaive:
      m.inputs = 3 * n * d * F;
      m.outputs = n * d * F;
      m.workspace = attention_naive_workspace_floats(n, n) * F;
      break;
    case KernelKind::AttentionTiled:
      m.inputs = 3 * n * d * F;
      m.outputs = n * d * F;
      m.workspace = attention_tiled_workspace_floats(tile) * F;
      break;
    case KernelKind::Elman:
      m.inputs = n * d * F;
      m.weights = (h * d + h * h + h) * F;
      m.outputs = n * h * F;
      break;
    case KernelKind::Gru:
      m.inputs = n * d * F;
      m.weights = (3 * h * d + 3 * h * h + 6 * h) * F;
      m.outputs = n * h * F;
      break;
  }
  return m;
}

}  // namespace ap
