#include "multihead.h"

#include <cmath>

#include "embedding.h"

namespace ap {

Status make_multihead_weights(int d_model, int heads, uint64_t seed, MultiHeadWeights* w) {
  AP_TRY(check_size(d_model, "d_model", limits::kMaxModelDim));
  AP_TRY(check_size(heads, "heads", limits::kMaxHeads));
  if (d_model % heads != 0)
    return Status::Error("heads ({0}) must divide d_model ({1})", {arg(heads), arg(d_model)});
  MultiHeadWeights out;
  out.d_model = d_model;
  out.heads = heads;
  out.d_head = d_model / heads;
  for (int h = 0; h < heads; ++h) {
    out.Wq.push_back(projection_weights(d_model, out.d_head, seed, 'Q', h));
    out.Wk.push_back(projection_weights(d_model, out.d_head, seed, 'K', h));
    out.Wv.push_back(projection_weights(d_model, out.d_head, seed, 'V', h));
  }
  out.Wo = projection_weights(heads * out.d_head, d_model, seed, 'O');
  *w = std::move(out);
  return Status::Ok();
}

Status multi_head_attention(const Mat& Xq, const Mat& Xkv, const MultiHeadWeights& w, const MaskSpec& mask,
                            MultiHeadTrace* out) {
  if (w.heads < 1 || w.d_head < 1 || static_cast<int>(w.Wq.size()) != w.heads ||
      static_cast<int>(w.Wk.size()) != w.heads || static_cast<int>(w.Wv.size()) != w.heads)
    return Status::Error("multi-head weights are incomplete");
  for (int h = 0; h < w.heads; ++h)  // each head must fill exactly its d_head columns of the concatenation
    if (w.Wq[h].cols() != w.d_head || w.Wk[h].cols() != w.d_head || w.Wv[h].cols() != w.d_head)
      return Status::Error("multi-head weights: head {0} is not {1} columns wide", {arg(h + 1), arg(w.d_head)});
  AP_TRY(check_matrix(w.Wo, "W^O", w.heads * w.d_head, w.d_model, limits::kMaxModelDim, limits::kMaxModelDim));
  if (w.has_biases()) {  // one row per head for each projection, and b^O of d_model
    if (static_cast<int>(w.bk.size()) != w.heads || static_cast<int>(w.bv.size()) != w.heads || static_cast<int>(w.bq.size()) != w.heads)
      return Status::Error("multi-head weights are incomplete");
    for (int h = 0; h < w.heads; ++h) {
      AP_TRY(check_matrix(w.bq[h], "b^Q", 1, w.d_head, 1, limits::kMaxModelDim));
      AP_TRY(check_matrix(w.bk[h], "b^K", 1, w.d_head, 1, limits::kMaxModelDim));
      AP_TRY(check_matrix(w.bv[h], "b^V", 1, w.d_head, 1, limits::kMaxModelDim));
    }
    AP_TRY(check_matrix(w.bo, "b^O", 1, w.d_model, 1, limits::kMaxModelDim));
  }
  AP_TRY(check_matrix(Xq, "X (queries)", -1, w.d_model, limits::kMaxTokens, limits::kMaxModelDim));
  AP_TRY(check_matrix(Xkv, "X (keys/values)", -1, w.d_model, limits::kMaxTokens, limits::kMaxModelDim));
  MultiHeadTrace t;
  const int n = static_cast<int>(Xq.rows());
  t.concat.resize(n, w.heads * w.d_head);
  for (int h = 0; h < w.heads; ++h) {
    // 1) split: project into head h's subspace (d_head columns)
    Mat Q, K, V;
    AP_TRY(project(Xq, w.Wq[h], &Q));
    AP_TRY(project(Xkv, w.Wk[h], &K));
    AP_TRY(project(Xkv, w.Wv[h], &V));
    if (w.has_biases()) {  // a trained layer's: the same bias added to every row
      Q.rowwise() += w.bq[h].row(0);
      K.rowwise() += w.bk[h].row(0);
      V.rowwise() += w.bv[h].row(0);
    }
    // 2) attend within the head
    AttentionTrace a;
    AP_TRY(scaled_dot_product_attention(Q, K, V, mask, &a));
    // 3) concatenate: head h fills columns [h·d_head, (h+1)·d_head)
    t.concat.middleCols(h * w.d_head, w.d_head) = a.output;
    t.Q.push_back(std::move(Q));
    t.K.push_back(std::move(K));
    t.V.push_back(std::move(V));
    t.heads.push_back(std::move(a));
  }
  // 4) mix the heads back to d_model: output = concat · W^O (+ b^O)
  t.output.noalias() = t.concat * w.Wo;
  if (w.has_biases()) t.output.rowwise() += w.bo.row(0);
  *out = std::move(t);
  return Status::Ok();
}

MultiHeadParamCount count_multihead_params(const MultiHeadWeights& w) {
  MultiHeadParamCount c;
  c.heads = w.heads;
  c.d_head = w.d_head;
  const auto entries = [](const std::vector<Mat>& v) {
    long long s = 0;
    for (const Mat& m : v) s += static_cast<long long>(m.rows()) * m.cols();
    return s;
  };
  c.wq = entries(w.Wq);
  c.wk = entries(w.Wk);
  c.wv = entries(w.Wv);
  c.wo = static_cast<long long>(w.Wo.rows()) * w.Wo.cols();
  for (const std::vector<Mat>* b : {&w.bq, &w.bk, &w.bv})
    for (const Mat& m : *b) c.biases += static_cast<long long>(m.size());
  c.biases += static_cast<long long>(w.bo.size());
  return c;
}

Status multihead_param_table(int d_model, uint64_t seed, std::vector<MultiHeadParamCount>* out) {
  AP_TRY(check_size(d_model, "d_model", limits::kMaxModelDim));
  std::vector<MultiHeadParamCount> rows;
  for (int h = 1; h <= limits::kMaxHeads; ++h) {
    if (d_model % h != 0) continue;
    MultiHeadWeights w;  // built for real, so the count is of matrices that exist
    AP_TRY(make_multihead_weights(d_model, h, seed, &w));
    rows.push_back(count_multihead_params(w));
  }
  *out = std::move(rows);
  return Status::Ok();
}

std::vector<HeadFocus> head_focus(const MultiHeadTrace& t) {
  std::vector<HeadFocus> out;
  for (const AttentionTrace& a : t.heads) {
    const Mat& A = a.weights();
    HeadFocus f;
    int rows_seen = 0;
    for (int i = 0; i < A.rows(); ++i) {
      const bool hidden = i < static_cast<int>(a.softmax.fully_masked.size()) && a.softmax.fully_masked[static_cast<size_t>(i)];
      if (hidden || A.cols() == 0) {
        f.top_key.push_back(-1);
        continue;
      }
      // 1) the row's entropy and its largest weight
      double entropy = 0;
      int top = 0;
      for (int j = 0; j < A.cols(); ++j) {
        const double p = A(i, j);
        if (p > 0) entropy -= p * std::log(p);
        if (A(i, j) > A(i, top)) top = j;
      }
      f.top_key.push_back(top);
      f.mean_entropy += entropy;
      f.mean_max_weight += A(i, top);
      ++rows_seen;
    }
    // 2) averaged over the rows that see a key
    if (rows_seen > 0) {
      f.mean_entropy /= rows_seen;
      f.mean_max_weight /= rows_seen;
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace ap
