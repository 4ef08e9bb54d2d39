#include "trained_qkv.h"

namespace ap {
namespace train {

Status trained_qkv(Trainer& t, const std::vector<std::string>& words, TrainedQkv* out) {
  // 1) the forward pass on the padded sentence (it validates the words)
  SentenceAttention a;
  AP_TRY(t.attention_of(words, &a));
  const AttentionModel& m = t.model();
  const int n = static_cast<int>(words.size()), C = m.config().d_model, H = m.config().heads;
  TrainedQkv r;
  r.words = words;
  r.layers = m.config().layers;
  r.n = n;
  r.d = C / H;
  r.it_pos = a.it_pos;
  r.head = m.config().pointer_head;
  // 2) each layer's projections, as that forward pass computed them: rows 0 … n−1, the head's columns
  for (int l = 0; l < r.layers; ++l) {
    r.X.push_back(m.residual(l).block(0, 0, n, C));
    r.Q.push_back(m.projection(l, 'q').block(0, r.head * r.d, n, r.d));
    r.K.push_back(m.projection(l, 'k').block(0, r.head * r.d, n, r.d));
    r.V.push_back(m.projection(l, 'v').block(0, r.head * r.d, n, r.d));
  }
  r.recipe = t.recipe();
  r.step = t.step();
  r.heldout_accuracy = t.heldout_accuracy();
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
