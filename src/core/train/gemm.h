// Training engine, part 2b: the matrix products of the layers (ops.cpp), small and row-major.
//
// The idea in one line: the training's products are tiny ([384, 16]·[16, 16], [12, 16]·[16, 12] per head),
// where a general GEMM spends its time packing, and in wasm Eigen 3.4 has no SIMD packets at all (its
// products run one float at a time, about 2.2× slower than natively); these loops use 4-lane float vectors
// (GCC/clang vector extensions: SSE2 natively, wasm SIMD128 with -msimd128) on both builds.
//
//   gemm_nn:  C[M, N] (+)= α · A[M, K] · B[K, N]
//   gemm_nt:  C[M, N] (+)= α · A[M, K] · B[N, K]ᵀ
//   gemm_tn:  C[M, N] (+)= α · A[K, M]ᵀ · B[K, N]
// Every operand is row-major with its own row stride (an ap::Mat, an arena map or a block of either, e.g.
// one head's columns). `accumulate`: add into C (the backward passes' +=) instead of overwriting it.
// Deterministic: a fixed order of summation (k ascending in every element), so the same inputs give the same
// bits in the same build; the order differs from Eigen's, hence last-bit differences from an Eigen product.
#pragma once
#include "core/matrix.h"

namespace ap {
namespace train {

using GemmIn = const Eigen::Ref<const Mat>&;
using GemmOut = Eigen::Ref<Mat>;

void gemm_nn(GemmOut C, GemmIn A, GemmIn B, float alpha = 1.f, bool accumulate = false);
void gemm_nt(GemmOut C, GemmIn A, GemmIn B, float alpha = 1.f, bool accumulate = false);
void gemm_tn(GemmOut C, GemmIn A, GemmIn B, float alpha = 1.f, bool accumulate = false);

}  // namespace train
}  // namespace ap
