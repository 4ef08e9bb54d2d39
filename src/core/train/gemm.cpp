#include "gemm.h"

#include <cassert>
#include <cstring>

namespace ap {
namespace train {

namespace {
// 4 floats in one register: SSE2's xmm natively, wasm's v128 with -msimd128 (the compiler lowers the vector
// extension to whichever the target has; without either, to scalar code).
typedef float f4 __attribute__((vector_size(16)));
inline f4 load4(const float* p) {
  f4 v;
  std::memcpy(&v, p, sizeof v);  // unaligned load (rows of a block start anywhere)
  return v;
}
inline void store4(float* p, f4 v) { std::memcpy(p, &v, sizeof v); }
inline f4 splat(float s) { return f4{s, s, s, s}; }
inline float hsum(f4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }
// base + offset, where an empty operand (a dimension of 0: no storage, a null data pointer) stays null: offsetting a
// null pointer is undefined even when nothing is read through it (found by UBSan, a gemm with K = 0).
template <class T>
inline T* at(T* base, long offset) {
  return base ? base + offset : base;
}

// One row of C = α · Σ_k a_k · B[k, :], with a_k = a[k · a_step]: the axpy form that serves nn and tn.
//   c: [N]   B: [K, N] with row stride ldb
inline void row_axpy(float* c, const float* a, long a_step, const float* B, long ldb, int K, int N, float alpha,
                     bool accumulate) {
  int j = 0;
  for (; j + 16 <= N; j += 16) {  // 4 vectors of accumulators: 16 columns per pass over k
    f4 s0 = splat(0.f), s1 = s0, s2 = s0, s3 = s0;
    for (int k = 0; k < K; ++k) {
      const f4 ak = splat(a[k * a_step]);
      const float* b = B + k * ldb + j;
      s0 += ak * load4(b);
      s1 += ak * load4(b + 4);
      s2 += ak * load4(b + 8);
      s3 += ak * load4(b + 12);
    }
    const f4 al = splat(alpha);
    if (accumulate) {
      s0 = load4(c + j) + al * s0;
      s1 = load4(c + j + 4) + al * s1;
      s2 = load4(c + j + 8) + al * s2;
      s3 = load4(c + j + 12) + al * s3;
    } else {
      s0 *= al, s1 *= al, s2 *= al, s3 *= al;
    }
    store4(c + j, s0);
    store4(c + j + 4, s1);
    store4(c + j + 8, s2);
    store4(c + j + 12, s3);
  }
  for (; j + 4 <= N; j += 4) {
    f4 s = splat(0.f);
    for (int k = 0; k < K; ++k) s += splat(a[k * a_step]) * load4(B + k * ldb + j);
    s *= splat(alpha);
    store4(c + j, accumulate ? load4(c + j) + s : s);
  }
  for (; j < N; ++j) {
    float s = 0.f;
    for (int k = 0; k < K; ++k) s += a[k * a_step] * B[k * ldb + j];
    c[j] = accumulate ? c[j] + alpha * s : alpha * s;
  }
}
}  // namespace

void gemm_nn(GemmOut C, GemmIn A, GemmIn B, float alpha, bool accumulate) {
  const int M = static_cast<int>(C.rows()), N = static_cast<int>(C.cols()), K = static_cast<int>(A.cols());
  assert(A.rows() == M && B.rows() == K && B.cols() == N);
  for (int i = 0; i < M; ++i)
    row_axpy(at(C.data(), i * C.outerStride()), at(A.data(), i * A.outerStride()), 1, B.data(), B.outerStride(), K, N,
             alpha, accumulate);
}

void gemm_tn(GemmOut C, GemmIn A, GemmIn B, float alpha, bool accumulate) {
  const int M = static_cast<int>(C.rows()), N = static_cast<int>(C.cols()), K = static_cast<int>(A.rows());
  assert(A.cols() == M && B.rows() == K && B.cols() == N);
  for (int i = 0; i < M; ++i)  // row i of C: Σ_k A[k, i] · B[k, :] (column i of A, stride lda)
    row_axpy(at(C.data(), i * C.outerStride()), at(A.data(), i), A.outerStride(), B.data(), B.outerStride(), K, N, alpha,
             accumulate);
}

// C[i, j] = α · dot(A[i, :], B[j, :]): 4 lanes over k, then one horizontal sum (fixed order).
void gemm_nt(GemmOut C, GemmIn A, GemmIn B, float alpha, bool accumulate) {
  const int M = static_cast<int>(C.rows()), N = static_cast<int>(C.cols()), K = static_cast<int>(A.cols());
  assert(A.rows() == M && B.rows() == N && B.cols() == K);
  for (int i = 0; i < M; ++i) {
    const float* a = at(A.data(), i * A.outerStride());
    float* c = at(C.data(), i * C.outerStride());
    for (int j = 0; j < N; ++j) {
      const float* b = at(B.data(), j * B.outerStride());
      f4 s = splat(0.f);
      int k = 0;
      for (; k + 4 <= K; k += 4) s += load4(a + k) * load4(b + k);
      float t = hsum(s);
      for (; k < K; ++k) t += a[k] * b[k];
      c[j] = accumulate ? c[j] + alpha * t : alpha * t;
    }
  }
}

}  // namespace train
}  // namespace ap
