#include "self_attention.h"

#include <string>

#include "embedding.h"
#include "tokenizer.h"

namespace ap {

const char* qk_setting_name(QkSetting s) {
  switch (s) {
    case QkSetting::Identity: return "identity";
    case QkSetting::Shared: return "shared";
    case QkSetting::Separate: return "separate";
    case QkSetting::Count: break;
  }
  return "";
}

Status project_qkv(const Mat& Xq, const Mat& Xkv, const Mat& Wq, const Mat& Wk, const Mat& Wv, Mat* Q, Mat* K, Mat* V) {
  // 1) shapes: each sequence meets its own matrices; queries and keys must land in the same d_k
  if (Xq.cols() != Wq.rows())
    return Status::Error("the query sequence has {0} columns but W^Q has {1} rows", {arg(Xq.cols()), arg(Wq.rows())});
  if (Xkv.cols() != Wk.rows() || Xkv.cols() != Wv.rows())
    return Status::Error("the key/value sequence has {0} columns but W^K has {1} rows and W^V {2}",
                         {arg(Xkv.cols()), arg(Wk.rows()), arg(Wv.rows())});
  if (Wq.cols() != Wk.cols())
    return Status::Error("W^Q gives {0} columns but W^K gives {1}: queries and keys must have the same d_k",
                         {arg(Wq.cols()), arg(Wk.cols())});
  // 2) the products, validated (finite values, sizes) by project()
  Mat q, k, v;
  AP_TRY(project(Xq, Wq, &q));
  AP_TRY(project(Xkv, Wk, &k));
  AP_TRY(project(Xkv, Wv, &v));
  *Q = std::move(q);
  *K = std::move(k);
  *V = std::move(v);
  return Status::Ok();
}

Status measure_self_weight(const Mat& A, SelfWeight* out) {
  if (A.rows() == 0 || A.rows() != A.cols())
    return Status::Error("self-weight needs a square weight matrix, got {0} × {1}", {arg(A.rows()), arg(A.cols())});
  const int n = static_cast<int>(A.rows());
  SelfWeight w;
  w.uniform = 1.0 / n;
  int own_max = 0;
  for (int i = 0; i < n; ++i) {
    const double d = A(i, i);
    w.diagonal.push_back(d);
    w.mean += d / n;
    bool largest = true;
    for (int j = 0; j < n; ++j) largest = largest && A(i, j) <= A(i, i);
    own_max += largest;
  }
  w.argmax_self = static_cast<double>(own_max) / n;
  *out = std::move(w);
  return Status::Ok();
}

namespace {

// Tokens and X of one sentence; `name` ("text", "text2") says which one a message is about.
Status sentence_rows(const std::string& text, const char* name, const SelfAttnParams& p, std::vector<std::string>* tokens, Mat* X) {
  std::vector<std::string> t;
  const Status s = tokenize(text, limits::kMaxTokens, &t);
  if (!s.ok && std::string(s.code).find("no tokens") != std::string::npos)
    return Status::Error("{0} has no tokens: type at least one word", {name});
  AP_TRY(s);
  if (static_cast<int>(t.size()) > p.max_tokens)
    return Status::Error("{0} has {1} tokens, over the limit of {2}", {name, arg(static_cast<long long>(t.size())), arg(p.max_tokens)});
  AP_TRY(embed_tokens(t, p.d_model, p.seed, p.positional, X));
  *tokens = std::move(t);
  return Status::Ok();
}

// The self-attention of X with Q and K made one way (V = X·W^V, or X itself with identity).
Status self_attention_of(const Mat& X, const Mat& Wq, const Mat& Wk, const Mat& Wv, QkSetting s, Mat* A) {
  Mat Q = X, K = X, V = X;
  if (s == QkSetting::Shared) AP_TRY(project_qkv(X, X, Wq, Wq, Wv, &Q, &K, &V));
  if (s == QkSetting::Separate) AP_TRY(project_qkv(X, X, Wq, Wk, Wv, &Q, &K, &V));
  AttentionTrace t;
  AP_TRY(scaled_dot_product_attention(Q, K, V, MaskSpec{}, &t));
  *A = t.weights();
  return Status::Ok();
}

}  // namespace

Status build_self_attention(const SelfAttnParams& p, SelfAttnModel* out) {
  AP_TRY(check_size(p.d_model, "d_model", limits::kMaxModelDim));
  AP_TRY(check_size(p.d_k, "d_k", p.d_model));  // a projection to more dimensions than X has adds nothing
  AP_TRY(check_size(p.max_tokens, "max_tokens", limits::kMaxTokens));
  SelfAttnModel m;
  // 1) X from text (keys and values); X₂ from text2 (queries) in cross-attention
  AP_TRY(sentence_rows(p.text, "text", p, &m.key_tokens, &m.X));
  if (p.cross) AP_TRY(sentence_rows(p.text2, "text2", p, &m.query_tokens, &m.X2));
  else m.query_tokens = m.key_tokens;
  const Mat& Xq = p.cross ? m.X2 : m.X;
  // 2) the seeded projections (the same streams as the sdpa scene), and Q, K, V of the setting shown
  m.Wq = projection_weights(p.d_model, p.d_k, p.seed, 'Q');
  m.Wk = projection_weights(p.d_model, p.d_k, p.seed, 'K');
  m.Wv = projection_weights(p.d_model, p.d_k, p.seed, 'V');
  if (p.identity) {
    m.Q = Xq;
    m.K = m.X;
    m.V = m.X;
  } else {
    AP_TRY(project_qkv(Xq, m.X, m.Wq, m.Wk, m.Wv, &m.Q, &m.K, &m.V));
  }
  m.d_k = static_cast<int>(m.Q.cols());
  // 3) attention: weights n × m, output n × d_v
  AP_TRY(scaled_dot_product_attention(m.Q, m.K, m.V, MaskSpec{}, &m.trace));
  // 4) the notes' argument on X's own self-attention: identity, one shared matrix, separate matrices
  for (int s = 0; s < static_cast<int>(QkSetting::Count); ++s) {
    AP_TRY(self_attention_of(m.X, m.Wq, m.Wk, m.Wv, static_cast<QkSetting>(s), &m.self_weights[s]));
    AP_TRY(measure_self_weight(m.self_weights[s], &m.self_weight[s]));
  }
  *out = std::move(m);
  return Status::Ok();
}

Status build_self_attention_trained(const SelfTrainedLayer& layer, uint64_t seed, SelfAttnModel* out) {
  // 1) shapes: one row per token in X, Q, K, V; queries and keys of the same width d
  const Mat& X = layer.X;
  const int n = static_cast<int>(X.rows());
  if (n < 1 || static_cast<size_t>(n) != layer.tokens.size())
    return Status::Error("the trained layer has {0} tokens but X has {1} rows", {arg(static_cast<long long>(layer.tokens.size())), arg(n)});
  AP_TRY(check_size(static_cast<int>(X.cols()), "d_model", limits::kMaxModelDim));
  if (layer.Q.rows() != n || layer.K.rows() != n || layer.V.rows() != n || layer.Q.cols() != layer.K.cols() || layer.Q.cols() < 1)
    return Status::Error("the trained layer's Q, K, V must have {0} rows and Q, K the same columns", {arg(n)});
  SelfAttnModel m;
  m.key_tokens = m.query_tokens = layer.tokens;
  m.X = X;
  m.Q = layer.Q;
  m.K = layer.K;
  m.V = layer.V;
  m.d_k = static_cast<int>(m.Q.cols());
  // 2) the trained layer's attention (validates finite values) and its diagonal
  AP_TRY(scaled_dot_product_attention(m.Q, m.K, m.V, MaskSpec{}, &m.trace));
  AP_TRY(measure_self_weight(m.trace.weights(), &m.trained_weight));
  // 3) beside it: seeded C × d matrices (the streams of build_self_attention) on the same X, every setting
  const int C = static_cast<int>(X.cols());
  m.Wq = projection_weights(C, m.d_k, seed, 'Q');
  m.Wk = projection_weights(C, m.d_k, seed, 'K');
  m.Wv = projection_weights(C, m.d_k, seed, 'V');
  for (int s = 0; s < static_cast<int>(QkSetting::Count); ++s) {
    AP_TRY(self_attention_of(m.X, m.Wq, m.Wk, m.Wv, static_cast<QkSetting>(s), &m.self_weights[s]));
    AP_TRY(measure_self_weight(m.self_weights[s], &m.self_weight[s]));
  }
  m.trained = true;
  *out = std::move(m);
  return Status::Ok();
}

}  // namespace ap
