#include "sdpa_pipeline.h"

#include "embedding.h"
#include "tokenizer.h"

namespace ap {

namespace {
std::vector<std::string> default_labels(int count, const char* prefix) {
  std::vector<std::string> v;
  for (int i = 0; i < count; ++i) v.push_back(prefix + std::to_string(i + 1));
  return v;
}
}  // namespace

SdpaParams as_custom(const SdpaModel& m) {
  SdpaParams p = m.params;
  if (p.source == QkvSource::Custom) return p;
  p.source = QkvSource::Custom;
  p.Q = m.Q;
  p.K = m.K;
  p.V = m.V;
  p.query_labels = m.query_tokens;
  p.key_labels = m.key_tokens;
  return p;
}

Status build_sdpa(const SdpaParams& p, SdpaModel* out) {
  SdpaModel m;
  m.params = p;
  if (p.source == QkvSource::Projection) {
    AP_TRY(check_size(p.d_model, "d_model", limits::kMaxModelDim));
    AP_TRY(check_size(p.d_k, "d_k", limits::kMaxHeadDim));
    if (p.pad_to < 0 || p.pad_to > limits::kMaxTokens)
      return Status::Error("pad to must be between 0 and {0}", {arg(limits::kMaxTokens)});
    std::vector<std::string> tokens;
    AP_TRY(tokenize(p.text, limits::kMaxTokens, &tokens));
    while (static_cast<int>(tokens.size()) < p.pad_to) tokens.push_back(kPadToken);
    AP_TRY(embed_tokens(tokens, p.d_model, p.seed, p.positional, &m.X));
    m.Wq = projection_weights(p.d_model, p.d_k, p.seed, 'Q');
    m.Wk = projection_weights(p.d_model, p.d_k, p.seed, 'K');
    m.Wv = projection_weights(p.d_model, p.d_k, p.seed, 'V');
    AP_TRY(project(m.X, m.Wq, &m.Q));
    AP_TRY(project(m.X, m.Wk, &m.K));
    AP_TRY(project(m.X, m.Wv, &m.V));
    m.query_tokens = tokens;
    m.key_tokens = tokens;
  } else {
    m.Q = p.Q;
    m.K = p.K;
    m.V = p.V;
    m.query_tokens = p.query_labels.size() == static_cast<size_t>(p.Q.rows())
                         ? p.query_labels : default_labels(static_cast<int>(p.Q.rows()), "q");
    m.key_tokens = p.key_labels.size() == static_cast<size_t>(p.K.rows())
                       ? p.key_labels : default_labels(static_cast<int>(p.K.rows()), "k");
    m.params.d_k = static_cast<int>(p.Q.cols());
  }
  MaskSpec spec;
  spec.kind = p.mask;
  for (const auto& t : m.key_tokens) {
    spec.key_is_pad.push_back(t == kPadToken);
    m.pad_count += t == kPadToken;
  }
  AP_TRY(scaled_dot_product_attention(m.Q, m.K, m.V, spec, &m.trace));
  *out = std::move(m);
  return Status::Ok();
}

}  // namespace ap
