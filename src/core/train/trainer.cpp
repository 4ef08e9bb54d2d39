#include "trainer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/matrix.h"

namespace ap {
namespace train {

namespace {
constexpr int kEvalBatch = 64;
}  // namespace

ModelConfig coref_model_config(const Recipe& r, const CorefDataset& data, int eval_batch) {
  ModelConfig c;
  c.vocab = data.vocab.size();
  c.seq_len = data.seq_len;
  c.d_model = r.d_model;
  c.layers = r.layers;
  c.heads = r.heads;
  c.max_batch = std::max(r.batch, eval_batch);
  c.seed = r.seed;
  if (r.task == kHeadsTask) {
    c.readout = Readout::Classifier;
    c.classes = kHeadsClasses;
  }
  return c;
}

Status Trainer::init(const Recipe& r) {
  AP_TRY(validate_recipe(r, coref_seq_len()));
  // 1) the task's data (the split is the task's: the same for every recipe)
  CorefDataset data;
  AP_TRY(make_coref_dataset(kTaskSplitSeed, &data));
  // 2) the model: embedding → r.layers attention layers (r.heads heads) → pointer readout on head 0
  const ModelConfig c = coref_model_config(r, data, kEvalBatch);
  AttentionModel model;
  AP_TRY(model.init(c));
  // 3) everything else of the run
  recipe_ = r;
  data_ = std::move(data);
  model_ = std::move(model);
  AdamConfig ac;
  ac.lr = r.learning_rate;
  ac.clip_norm = 1.0;
  adam_ = Adam(ac);
  rng_ = SeededRng(r.seed, 0xBA7C4ull);  // the minibatch order
  idx_.assign(static_cast<size_t>(c.max_batch), 0);
  // The curve's held-out sentences: a seeded shuffle (fixed for the task), its first kCurveSentences.
  curve_set_ = data_.heldout;
  SeededRng shuffle(kTaskSplitSeed, 0x5E7ull);
  for (size_t i = curve_set_.size() - 1; i > 0; --i)
    std::swap(curve_set_[i], curve_set_[static_cast<size_t>(shuffle.next_u64() % (i + 1))]);
  curve_set_.resize(std::min(curve_set_.size(), static_cast<size_t>(kCurveSentences)));
  size_t floats = 0;
  for (size_t i = 0; i < model_.params().size(); ++i) floats += static_cast<size_t>(model_.params()[i].value.size());
  good_.assign(floats, 0.f);
  step_ = 0;
  last_loss_ = std::nan("");
  loss_sum_ = 0;
  loss_count_ = 0;
  curve_.clear();
  divergence_ = Status::Ok();
  diverged_step_ = -1;
  evaluate(curve_set_, curve_set_.size());  // step 0: the untrained model
  curve_.push_back({0, std::nan(""), acc_, argmax_});
  snapshot();
  return Status::Ok();
}

Status divergence_status(int step, double loss, int kept_step) {
  return Status::Error("training diverged at step {0} (loss {1}): stopped, the weights of step {2} are kept",
                       {arg(step), format_number(loss), arg(kept_step)});
}

int Trainer::curve_sentences() const { return static_cast<int>(curve_set_.size()); }

int Trainer::advance(int n) {
  int done = 0;
  const int B = recipe_.batch;
  while (done < n && !finished() && !diverged()) {
    // 1) a minibatch of B training sentences, in the seeded order
    for (int b = 0; b < B; ++b) idx_[static_cast<size_t>(b)] = static_cast<int>(rng_.next_u64() % data_.train.size());
    fill(data_.train, B, &batch_);
    // 2) one Adam step
    double loss = 0, norm = 0;
    const Status s = model_.train_step(batch_, adam_, &loss, &norm);
    ++step_;
    ++done;
    last_loss_ = loss;
    // 3) divergence: stop, and bring back the weights of the last good evaluation
    if (!s.ok || !std::isfinite(loss) || !std::isfinite(norm) || loss > kExplodingLoss) {
      divergence_ = divergence_status(step_, loss, good_step_);
      diverged_step_ = step_;
      diverged_loss_ = loss;
      restore();
      step_ = good_step_;
      break;
    }
    loss_sum_ += loss;
    ++loss_count_;
    // 4) the curve: every kEvalEvery steps on the curve's sentences, at the last step on every held-out one
    if (finished()) evaluate(data_.heldout, data_.heldout.size());
    else if (step_ % kEvalEvery == 0) evaluate(curve_set_, curve_set_.size());
    else continue;
    curve_.push_back({step_, loss_sum_ / std::max(1, loss_count_), acc_, argmax_});
    loss_sum_ = 0;
    loss_count_ = 0;
    snapshot();
  }
  return done;
}

void Trainer::fill(const std::vector<CorefSentence>& set, int B, Batch* batch) const {
  if (classifier()) fill_referent_batch(data_, set, idx_.data(), B, batch);
  else fill_coref_batch(data_, set, idx_.data(), B, batch);
}

void Trainer::evaluate(const std::vector<CorefSentence>& set, size_t count) {
  const int T = data_.seq_len, H = recipe_.heads, L = recipe_.layers, K = kHeadsClasses;
  const bool all = count == data_.heldout.size() && &set == &data_.heldout;
  int right = 0, argmax_right = 0;
  size_t animal = 0;
  std::vector<HeadPattern> patterns;
  patterns_.clear();
  for (size_t start = 0; start < count; start += kEvalBatch) {
    const int B = static_cast<int>(std::min<size_t>(kEvalBatch, count - start));
    for (int b = 0; b < B; ++b) idx_[static_cast<size_t>(b)] = static_cast<int>(start) + b;
    fill(set, B, &eval_batch_);
    double loss;
    if (!model_.forward(eval_batch_, &loss).ok) return;
    if (all) add_head_patterns(model_, set, idx_.data(), B, &patterns);  // the same forward pass
    const CMatMap att = model_.attention(L - 1);
    for (int b = 0; b < B; ++b) {
      const CorefSentence& s = set[static_cast<size_t>(idx_[static_cast<size_t>(b)])];
      animal += s.refers_to_animal;
      Eigen::Index best;
      if (classifier()) {
        // 1) the largest of the 40 logits (probabilities: same order) names the referent
        model_.class_probs().row(b).head(K).maxCoeff(&best);
        right += best == referent_class(s);
        // 2) some head of the last layer has its row's largest weight on the referent
        bool any = false;
        for (int h = 0; h < H && !any; ++h) {
          att.row((b * H + h) * T + s.it_pos).maxCoeff(&best);
          any = best == s.target_pos();
        }
        argmax_right += any;
        continue;
      }
      const auto row = att.row((b * H + 0) * T + s.it_pos);  // the pointer head: 0
      right += row(s.target_pos()) > row(s.distractor_pos());
      row.maxCoeff(&best);
      argmax_right += best == s.target_pos();
    }
  }
  acc_ = count ? static_cast<double>(right) / count : 0.0;
  argmax_ = count ? static_cast<double>(argmax_right) / count : 0.0;
  evaluated_all_ = all;
  if (all) {
    finish_head_patterns(animal, count - animal, &patterns);
    patterns_ = std::move(patterns);
  }
}

void Trainer::snapshot() {
  size_t at = 0;
  for (size_t i = 0; i < model_.params().size(); ++i) {
    const Mat& v = model_.params()[i].value;
    std::memcpy(good_.data() + at, v.data(), sizeof(float) * static_cast<size_t>(v.size()));
    at += static_cast<size_t>(v.size());
  }
  good_step_ = step_;
}

void Trainer::restore() {
  size_t at = 0;
  for (size_t i = 0; i < model_.params().size(); ++i) {
    Mat& v = model_.params()[i].value;
    std::memcpy(v.data(), good_.data() + at, sizeof(float) * static_cast<size_t>(v.size()));
    at += static_cast<size_t>(v.size());
  }
}

Status Trainer::attention_of(const std::vector<std::string>& words, SentenceAttention* out) {
  const int T = data_.seq_len, n = static_cast<int>(words.size());
  SentenceAttention a;
  AP_TRY(check_coref_sentence(words, &a.it_pos));
  a.words = words;
  // One sequence, padded to T; the padding is hidden as a key, so the first n columns hold every weight.
  Batch& b = eval_batch_;
  b.B = 1;
  b.ids.assign(static_cast<size_t>(T), 0);
  b.pad.assign(static_cast<size_t>(T), 1);
  for (int i = 0; i < n; ++i) {
    b.ids[static_cast<size_t>(i)] = data_.vocab.id(words[static_cast<size_t>(i)]);
    b.pad[static_cast<size_t>(i)] = 0;
  }
  b.row.assign(1, a.it_pos);
  b.target.assign(1, a.it_pos);  // any visible position: the loss is not used
  double loss;
  AP_TRY(model_.forward(b, &loss));
  a.layers = recipe_.layers;
  a.heads = recipe_.heads;
  for (int l = 0; l < a.layers; ++l) {
    const CMatMap att = model_.attention(l);  // [H·T, T]
    for (int h = 0; h < a.heads; ++h) a.maps.push_back(att.block(h * T, 0, n, n));
  }
  *out = std::move(a);
  return Status::Ok();
}

Status Trainer::set_weights(const std::vector<std::pair<std::string, Mat>>& weights, int step, double heldout_accuracy) {
  ParamStore& ps = model_.params();
  if (weights.size() != ps.size())
    return Status::Error("the checkpoint has {0} parameters, its recipe needs {1}", {arg(static_cast<long long>(weights.size())), arg(static_cast<long long>(ps.size()))});
  for (const auto& [name, m] : weights) {
    const Param* p = ps.find(name);
    if (!p) return Status::Error("the checkpoint has a parameter {0} that its recipe does not have", {name});
    if (p->value.rows() != m.rows() || p->value.cols() != m.cols())
      return Status::Error("the checkpoint's parameter {0} is {1} × {2}, its recipe needs {3} × {4}",
                           {name, arg(m.rows()), arg(m.cols()), arg(p->value.rows()), arg(p->value.cols())});
    if (!m.allFinite()) return Status::Error("the checkpoint's parameter {0} holds a value that is not a finite number", {name});
  }
  if (step < 0 || step > recipe_.steps)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"step", arg(0), arg(recipe_.steps), arg(step)});
  for (const auto& [name, m] : weights) ps.find(name)->value = m;
  step_ = step;
  const bool all = step >= recipe_.steps;
  evaluate(all ? data_.heldout : curve_set_, all ? data_.heldout.size() : curve_set_.size());
  curve_.assign(1, {step_, std::nan(""), acc_, argmax_});
  snapshot();
  // The accuracy written with the weights is measured again: a checkpoint cannot claim what they do not give.
  if (std::fabs(acc_ - heldout_accuracy) > 1e-9)
    return Status::Error("the checkpoint says held-out accuracy {0}, its weights give {1}",
                         {format_number(heldout_accuracy), format_number(acc_)});
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
