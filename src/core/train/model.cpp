#include "model.h"

#include <cmath>
#include <limits>
#include <string>

#include "ops.h"

namespace ap {
namespace train {

namespace {
MatMap map(Mat& m) { return MatMap(m.data(), m.rows(), m.cols()); }
}  // namespace

Status AttentionModel::init(const ModelConfig& c) {
  AP_TRY(check_size(c.vocab, "vocabulary size", 1 << 20));
  AP_TRY(check_size(c.seq_len, "sequence length", limits::kMaxTokens));
  AP_TRY(check_size(c.d_model, "d_model", limits::kMaxModelDim));
  AP_TRY(check_size(c.layers, "layers", 64));
  AP_TRY(check_size(c.heads, "heads", limits::kMaxHeads));
  AP_TRY(check_size(c.max_batch, "batch size", 4096));
  if (c.d_model % c.heads != 0)
    return Status::Error("heads ({0}) must divide d_model ({1})", {arg(c.heads), arg(c.d_model)});
  if (c.ffn_hidden < 0 || c.ffn_hidden > 4096) return Status::Error("ffn_hidden must be between 0 and 4096");
  if (c.readout == Readout::Pointer && (c.pointer_head < 0 || c.pointer_head >= c.heads))
    return Status::Error("pointer_head must be a head of the last layer");
  if (c.readout == Readout::Classifier) AP_TRY(check_size(c.classes, "classes", 4096));
  AP_TRY(check_size(c.readout_rows, "readout rows", c.seq_len));
  if (c.readout == Readout::Pointer && c.readout_rows != 1) return Status::Error("the pointer readout reads one row");

  c_ = c;
  params_ = ParamStore();
  acts_ = Arena();
  layers_.clear();
  const int C = c.d_model, T = c.seq_len, H = c.heads, F = c.ffn_hidden;
  const double w_std = 1.0 / std::sqrt(static_cast<double>(C));
  const uint64_t s = c.seed;

  // 1) parameters
  AP_TRY(params_.add("wte", c.vocab, C, Init::Gaussian, c.embed_std, s, &wte_));
  AP_TRY(params_.add("wpe", T, C, Init::Gaussian, c.embed_std, s, &wpe_));
  for (int l = 0; l < c.layers; ++l) {
    Layer L;
    const std::string p = "l" + std::to_string(l + 1) + ".";
    if (c.layer_norm) {
      AP_TRY(params_.add(p + "ln.g", 1, C, Init::Ones, 0, s, &L.ln_g));
      AP_TRY(params_.add(p + "ln.b", 1, C, Init::Zeros, 0, s, &L.ln_b));
    }
    AP_TRY(params_.add(p + "Wq", C, C, Init::Gaussian, w_std, s, &L.Wq));
    AP_TRY(params_.add(p + "bq", 1, C, Init::Zeros, 0, s, &L.bq));
    AP_TRY(params_.add(p + "Wk", C, C, Init::Gaussian, w_std, s, &L.Wk));
    AP_TRY(params_.add(p + "bk", 1, C, Init::Zeros, 0, s, &L.bk));
    AP_TRY(params_.add(p + "Wv", C, C, Init::Gaussian, w_std, s, &L.Wv));
    AP_TRY(params_.add(p + "bv", 1, C, Init::Zeros, 0, s, &L.bv));
    AP_TRY(params_.add(p + "Wo", C, C, Init::Gaussian, w_std, s, &L.Wo));
    AP_TRY(params_.add(p + "bo", 1, C, Init::Zeros, 0, s, &L.bo));
    if (F > 0) {
      if (c.layer_norm) {
        AP_TRY(params_.add(p + "ffn.ln.g", 1, C, Init::Ones, 0, s, &L.ln2_g));
        AP_TRY(params_.add(p + "ffn.ln.b", 1, C, Init::Zeros, 0, s, &L.ln2_b));
      }
      AP_TRY(params_.add(p + "ffn.W1", C, F, Init::Gaussian, w_std, s, &L.W1));
      AP_TRY(params_.add(p + "ffn.b1", 1, F, Init::Zeros, 0, s, &L.b1));
      AP_TRY(params_.add(p + "ffn.W2", F, C, Init::Gaussian, 1.0 / std::sqrt(static_cast<double>(F)), s, &L.W2));
      AP_TRY(params_.add(p + "ffn.b2", 1, C, Init::Zeros, 0, s, &L.b2));
    }
    layers_.push_back(L);
  }
  if (c.readout == Readout::Classifier) {
    AP_TRY(params_.add("cls.W", C, c.classes, Init::Gaussian, w_std, s, &cls_W_));
    AP_TRY(params_.add("cls.b", 1, c.classes, Init::Zeros, 0, s, &cls_b_));
  }

  // 2) the arena plan: rows per sequence × columns for every activation (and, in grads_, its gradient)
  acts_.set_max_batch(c.max_batch);
  emb_ = acts_.plan("x0", T, C);           // [B·T, C]
  mask_ = acts_.plan("mask", T, T);        // [B·T, T]
  int x = emb_;
  for (int l = 0; l < c.layers; ++l) {
    Layer& L = layers_[l];
    const std::string p = "l" + std::to_string(l + 1) + ".";
    L.x_in = x;
    if (c.layer_norm) {
      L.h = acts_.plan(p + "ln", T, C);
      L.ln_mean = acts_.plan(p + "ln.mean", T, 1);
      L.ln_rstd = acts_.plan(p + "ln.rstd", T, 1);
    } else {
      L.h = x;
    }
    L.q = acts_.plan(p + "q", T, C);
    L.k = acts_.plan(p + "k", T, C);
    L.v = acts_.plan(p + "v", T, C);
    L.preatt = acts_.plan(p + "preatt", H * T, T);  // [B·H·T, T]
    L.att = acts_.plan(p + "att", H * T, T);
    if (c.causal && c.mask_after_softmax) L.probs = acts_.plan(p + "probs", H * T, T);  // P, before the future is zeroed
    L.a = acts_.plan(p + "a", T, C);
    L.o = acts_.plan(p + "o", T, C);
    L.x_mid = acts_.plan(p + "x_mid", T, C);
    L.x_out = L.x_mid;
    if (F > 0) {
      if (c.layer_norm) {
        L.h2 = acts_.plan(p + "ffn.ln", T, C);
        L.ln2_mean = acts_.plan(p + "ffn.ln.mean", T, 1);
        L.ln2_rstd = acts_.plan(p + "ffn.ln.rstd", T, 1);
      } else {
        L.h2 = L.x_mid;
      }
      L.f1 = acts_.plan(p + "ffn.f1", T, F);
      L.f1r = acts_.plan(p + "ffn.relu", T, F);
      L.f2 = acts_.plan(p + "ffn.f2", T, C);
      L.x_out = acts_.plan(p + "x_out", T, C);
    }
    x = L.x_out;
  }
  if (c.readout == Readout::Classifier) {
    const int R = c.readout_rows;
    gather_ = acts_.plan("gather", R, C);          // [B·R, C]
    logits_ = acts_.plan("logits", R, c.classes);  // [B·R, K]
    probs_ = acts_.plan("probs", R, c.classes);
  }
  grads_ = acts_;  // the same plan
  acts_.allocate();
  grads_.allocate();
  B_ = 0;
  batch_ = nullptr;
  return Status::Ok();
}

Status AttentionModel::forward(const Batch& batch, double* loss) {
  const int B = batch.B, T = c_.seq_len, H = c_.heads, R = c_.readout_rows;
  // 0) validate the batch (no allocation)
  AP_TRY(check_size(B, "batch size", c_.max_batch));
  if (batch.ids.size() < static_cast<size_t>(B) * T || batch.pad.size() < static_cast<size_t>(B) * T ||
      batch.row.size() < static_cast<size_t>(B) * R || batch.target.size() < static_cast<size_t>(B) * R)
    return Status::Error("batch arrays are shorter than B·T (ids, pad) or B·R (row, target)");
  for (int i = 0; i < B * T; ++i)
    if (batch.ids[i] < 0 || batch.ids[i] >= c_.vocab) return Status::Error("token id out of range");
  for (int n = 0; n < B * R; ++n) {
    if (batch.row[n] < 0 || batch.row[n] >= T) return Status::Error("readout row out of range");
    if (c_.readout == Readout::Pointer) {  // R = 1: n = b
      const int t = batch.target[n];
      if (t < 0 || t >= T || batch.pad[n * T + t] || (c_.causal && t > batch.row[n]))
        return Status::Error("pointer target must be a visible position");
    } else if (batch.target[n] < 0 || batch.target[n] >= c_.classes) {
      return Status::Error("class target out of range");
    }
  }
  B_ = B;
  batch_ = &batch;

  // 1) embeddings                                                      x0: [B·T, C]
  embedding_forward(acts_.view(emb_, B), batch.ids.data(), B, T, map(wte_->value), map(wpe_->value));
  // 2) the additive mask: −inf for padding keys (and future keys when causal), 0 elsewhere   M: [B·T, T]
  MatMap M = acts_.view(mask_, B);
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < T; ++i)
      for (int j = 0; j < T; ++j)
        M(b * T + i, j) = (batch.pad[b * T + j] || (c_.causal && !c_.mask_after_softmax && j > i)) ? kNegInf : 0.f;
  // 3) the layers
  for (Layer& L : layers_) {
    if (c_.layer_norm)
      layernorm_forward(acts_.view(L.h, B), acts_.view(L.ln_mean, B), acts_.view(L.ln_rstd, B),
                        acts_.view(L.x_in, B), map(L.ln_g->value), map(L.ln_b->value));
    affine_forward(acts_.view(L.q, B), acts_.view(L.h, B), map(L.Wq->value), map(L.bq->value));
    affine_forward(acts_.view(L.k, B), acts_.view(L.h, B), map(L.Wk->value), map(L.bk->value));
    affine_forward(acts_.view(L.v, B), acts_.view(L.h, B), map(L.Wv->value), map(L.bv->value));
    attention_forward(acts_.view(L.a, B), acts_.view(L.preatt, B), acts_.view(L.att, B), acts_.view(L.q, B),
                      acts_.view(L.k, B), acts_.view(L.v, B), M, B, T, H, L.probs >= 0 ? acts_.view(L.probs, B).data() : nullptr);
    affine_forward(acts_.view(L.o, B), acts_.view(L.a, B), map(L.Wo->value), map(L.bo->value));
    residual_forward(acts_.view(L.x_mid, B), acts_.view(L.x_in, B), acts_.view(L.o, B));
    if (c_.ffn_hidden > 0) {
      if (c_.layer_norm)
        layernorm_forward(acts_.view(L.h2, B), acts_.view(L.ln2_mean, B), acts_.view(L.ln2_rstd, B),
                          acts_.view(L.x_mid, B), map(L.ln2_g->value), map(L.ln2_b->value));
      affine_forward(acts_.view(L.f1, B), acts_.view(L.h2, B), map(L.W1->value), map(L.b1->value));
      relu_forward(acts_.view(L.f1r, B), acts_.view(L.f1, B));
      affine_forward(acts_.view(L.f2, B), acts_.view(L.f1r, B), map(L.W2->value), map(L.b2->value));
      residual_forward(acts_.view(L.x_out, B), acts_.view(L.x_mid, B), acts_.view(L.f2, B));
    }
  }
  // 4) the loss
  double l = 0.0;
  if (c_.readout == Readout::Pointer) {
    l = pointer_loss_forward(acts_.view(layers_.back().preatt, B), batch.row.data(), batch.target.data(), B, T, H,
                             c_.pointer_head);
  } else {
    gather_rows_forward(acts_.view(gather_, B), acts_.view(layers_.back().x_out, B), batch.row.data(), B, T, R);
    affine_forward(acts_.view(logits_, B), acts_.view(gather_, B), map(cls_W_->value), map(cls_b_->value));
    l = softmax_xent_forward(acts_.view(probs_, B), acts_.view(logits_, B), batch.target.data(), B * R);
  }
  if (loss) *loss = l;
  return Status::Ok();
}

void AttentionModel::backward() {
  if (!batch_) return;
  const Batch& batch = *batch_;
  const int B = B_, T = c_.seq_len, H = c_.heads, R = c_.readout_rows;
  grads_.zero();
  // 4) the loss
  if (c_.readout == Readout::Pointer) {
    pointer_loss_backward(grads_.view(layers_.back().preatt, B), acts_.view(layers_.back().att, B), batch.row.data(),
                          batch.target.data(), B, T, H, c_.pointer_head);
  } else {
    softmax_xent_backward(grads_.view(logits_, B), acts_.view(probs_, B), batch.target.data(), B * R);
    affine_backward(grads_.view(gather_, B), map(cls_W_->grad), map(cls_b_->grad), grads_.view(logits_, B),
                    acts_.view(gather_, B), map(cls_W_->value));
    gather_rows_backward(grads_.view(layers_.back().x_out, B), grads_.view(gather_, B), batch.row.data(), B, T, R);
  }
  // 3) the layers, last first, each step of the forward undone in reverse order
  for (int li = static_cast<int>(layers_.size()) - 1; li >= 0; --li) {
    Layer& L = layers_[li];
    if (c_.ffn_hidden > 0) {
      residual_backward(grads_.view(L.x_mid, B), grads_.view(L.f2, B), grads_.view(L.x_out, B));
      affine_backward(grads_.view(L.f1r, B), map(L.W2->grad), map(L.b2->grad), grads_.view(L.f2, B),
                      acts_.view(L.f1r, B), map(L.W2->value));
      relu_backward(grads_.view(L.f1, B), grads_.view(L.f1r, B), acts_.view(L.f1, B));
      affine_backward(grads_.view(L.h2, B), map(L.W1->grad), map(L.b1->grad), grads_.view(L.f1, B),
                      acts_.view(L.h2, B), map(L.W1->value));
      if (c_.layer_norm)
        layernorm_backward(grads_.view(L.x_mid, B), map(L.ln2_g->grad), map(L.ln2_b->grad), grads_.view(L.h2, B),
                           acts_.view(L.x_mid, B), acts_.view(L.ln2_mean, B), acts_.view(L.ln2_rstd, B),
                           map(L.ln2_g->value));
    }
    residual_backward(grads_.view(L.x_in, B), grads_.view(L.o, B), grads_.view(L.x_mid, B));
    affine_backward(grads_.view(L.a, B), map(L.Wo->grad), map(L.bo->grad), grads_.view(L.o, B), acts_.view(L.a, B),
                    map(L.Wo->value));
    attention_backward(grads_.view(L.q, B), grads_.view(L.k, B), grads_.view(L.v, B), grads_.view(L.preatt, B),
                       grads_.view(L.att, B), grads_.view(L.a, B), acts_.view(L.q, B), acts_.view(L.k, B),
                       acts_.view(L.v, B), acts_.view(L.att, B), B, T, H,
                       L.probs >= 0 ? acts_.view(L.probs, B).data() : nullptr);
    affine_backward(grads_.view(L.h, B), map(L.Wq->grad), map(L.bq->grad), grads_.view(L.q, B), acts_.view(L.h, B),
                    map(L.Wq->value));
    affine_backward(grads_.view(L.h, B), map(L.Wk->grad), map(L.bk->grad), grads_.view(L.k, B), acts_.view(L.h, B),
                    map(L.Wk->value));
    affine_backward(grads_.view(L.h, B), map(L.Wv->grad), map(L.bv->grad), grads_.view(L.v, B), acts_.view(L.h, B),
                    map(L.Wv->value));
    if (c_.layer_norm)
      layernorm_backward(grads_.view(L.x_in, B), map(L.ln_g->grad), map(L.ln_b->grad), grads_.view(L.h, B),
                         acts_.view(L.x_in, B), acts_.view(L.ln_mean, B), acts_.view(L.ln_rstd, B),
                         map(L.ln_g->value));
  }
  // 1) embeddings
  embedding_backward(map(wte_->grad), map(wpe_->grad), grads_.view(emb_, B), batch.ids.data(), B, T);
}

Status AttentionModel::train_step(const Batch& batch, Adam& adam, double* loss, double* grad_norm) {
  params_.zero_grad();
  AP_TRY(forward(batch, loss));
  backward();
  const double n = adam.step(params_);
  if (grad_norm) *grad_norm = n;
  return Status::Ok();
}

CMatMap AttentionModel::attention(int layer) const { return acts_.view(layers_[layer].att, B_); }
CMatMap AttentionModel::residual(int layer) const {
  return acts_.view(layer == 0 ? emb_ : layers_[layer - 1].x_out, B_);
}
CMatMap AttentionModel::projection(int layer, char which) const {
  const Layer& L = layers_[layer];
  return acts_.view(which == 'q' ? L.q : which == 'k' ? L.k : L.v, B_);
}
CMatMap AttentionModel::class_probs() const { return acts_.view(probs_, B_); }

}  // namespace train
}  // namespace ap
