// The exact arithmetic behind one cell, written out for the learner (hover panel and the stage captions).
// Pure functions of the model: the numbers come from the trace, the text only shows how they combine.
#pragma once
#include <string>

#include "core/number_text.h"
#include "core/sdpa_pipeline.h"

namespace ap {

enum class MatrixId { X, Q, K, V, Scores, Scaled, Mask, Masked, Exps, RowSum, Weights, Output, WeightColumn };
// WeightColumn: one row of A drawn as a column beside V (m × 1); its cells are explained as cells of A.
const char* matrix_label(MatrixId id);  // "Q", "Kᵀ", "QKᵀ", "QKᵀ/√dₖ", "A", ...


// "q₁·k₂ = 0.50×1.00 + (−0.30)×0.20 + … = 0.44": at most max_terms products, the rest elided.
std::string dot_product_text(const char* a, int i, const char* b, int j, const float* x, const float* y,
                             int stride_y, int count, double result, int max_terms = 8);

// Multi-line explanation of cell (i, j) of matrix `id` (rows/cols as that matrix is drawn; for K the drawn
// matrix is Kᵀ, so i is the dimension and j the key). Empty if the cell does not exist.
std::string explain_cell(const SdpaModel& m, MatrixId id, int i, int j);

}  // namespace ap
