// The tests' argmax of a row (the first on a tie): where a trained row puts its largest weight.
#pragma once
#include "core/matrix.h"

namespace ap {

inline int row_argmax(const Mat& A, int row) {
  int best = 0;
  for (int j = 1; j < A.cols(); ++j)
    if (A(row, j) > A(row, best)) best = j;
  return best;
}

}  // namespace ap
