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

Status trained_layer(Trainer& t, const std::vector<std::string>& words, int layer, TrainedLayer* out) {
  const AttentionModel& m = t.model();
  const ModelConfig& c = m.config();
  if (layer < 0 || layer >= c.layers)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"layer", "1", arg(c.layers), arg(layer + 1)});
  if (c.layer_norm) return Status::Error("a model with layer norm has no layer input that W^Q multiplies directly");
  // 1) the forward pass on the padded sentence (it validates the words): the layer's input
  SentenceAttention a;
  AP_TRY(t.attention_of(words, &a));
  const int n = static_cast<int>(words.size()), C = c.d_model, H = c.heads, d = C / H;
  TrainedLayer r;
  r.words = words;
  r.layer = layer;
  r.it_pos = a.it_pos;
  r.X = m.residual(layer).block(0, 0, n, C);
  // 2) the layer's parameters, cut into heads (column blocks of d)
  const std::string pre = "l" + std::to_string(layer + 1) + ".";
  const auto param = [&](const char* name) -> const Mat& { return m.params().find(pre + name)->value; };
  MultiHeadWeights& w = r.weights;
  w.d_model = C;
  w.heads = H;
  w.d_head = d;
  for (int h = 0; h < H; ++h) {
    w.Wq.push_back(param("Wq").middleCols(h * d, d));
    w.Wk.push_back(param("Wk").middleCols(h * d, d));
    w.Wv.push_back(param("Wv").middleCols(h * d, d));
    w.bq.push_back(param("bq").middleCols(h * d, d));
    w.bk.push_back(param("bk").middleCols(h * d, d));
    w.bv.push_back(param("bv").middleCols(h * d, d));
  }
  w.Wo = param("Wo");
  w.bo = param("bo");
  r.recipe = t.recipe();
  r.step = t.step();
  r.heldout_accuracy = t.heldout_accuracy();
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
