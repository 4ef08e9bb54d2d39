#include "trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "checkpoint_bytes.h"
#include "core/matrix.h"

namespace ap {
namespace train {

namespace {
constexpr int kEvalBatch = 64;

// Whether some head of a layer's weights att [B·H·T, T] has the largest weight of sequence b's row `row` on `key`.
bool some_head_argmax_on(const CMatMap& att, int b, int H, int T, int row, int key) {
  for (int h = 0; h < H; ++h) {
    Eigen::Index best;
    att.row((b * H + h) * T + row).maxCoeff(&best);
    if (best == key) return true;
  }
  return false;
}
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
    c.readout_rows = kHeadsRows;  // heads.h: "it", after the animal, after the place
  }
  return c;
}

Status Trainer::init(const Recipe& r, bool measure_untrained) {
  const bool induction_task = r.task == kInductionTask;
  AP_TRY(validate_recipe(r, task_seq_len(r.task)));
  // 1) the task's data (the split is the task's: the same for every recipe)
  CorefDataset data;
  InductionDataset sequences;
  if (induction_task) make_induction_dataset(kTaskSplitSeed, &sequences);
  else AP_TRY(make_coref_dataset(kTaskSplitSeed, &data));
  // 2) the model: embedding → r.layers attention layers (r.heads heads) → the task's readout
  const ModelConfig c = induction_task ? induction_model_config(r.layers, r.heads, r.d_model,
                                                                std::max(r.batch, kEvalBatch), r.seed)
                                       : coref_model_config(r, data, kEvalBatch);
  AttentionModel model;
  AP_TRY(model.init(c));
  // 3) everything else of the run
  recipe_ = r;
  data_ = std::move(data);
  induction_ = std::move(sequences);
  model_ = std::move(model);
  AdamConfig ac;
  ac.lr = r.learning_rate;
  ac.clip_norm = 1.0;
  adam_ = Adam(ac);
  rng_ = SeededRng(r.seed, 0xBA7C4ull);  // the minibatch order (induction: the sequences themselves)
  idx_.assign(static_cast<size_t>(c.max_batch), 0);
  // The curve's held-out sentences: a seeded shuffle (fixed for the task), its first kCurveSentences. The
  // induction task's held-out sequences are random draws already: their first kCurveSentences.
  curve_set_ = data_.heldout;
  SeededRng shuffle(kTaskSplitSeed, 0x5E7ull);
  for (size_t i = curve_set_.size(); i > 1; --i)
    std::swap(curve_set_[i - 1], curve_set_[static_cast<size_t>(shuffle.next_u64() % i)]);
  curve_set_.resize(std::min(curve_set_.size(), static_cast<size_t>(kCurveSentences)));
  induction_curve_.assign(induction_.heldout.begin(),
                          induction_.heldout.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(induction_.heldout.size(), kCurveSentences)));
  induction_set_.resize(static_cast<size_t>(r.batch));
  good_.assign(static_cast<size_t>(model_.params().count()), 0.f);
  step_ = 0;
  last_loss_ = std::nan("");
  loss_sum_ = 0;
  loss_count_ = 0;
  curve_.clear();
  patterns_.clear();
  induction_scores_ = InductionScores();  // a run of another task before this one measured its own
  divergence_ = Status::Ok();
  diverged_step_ = -1;
  if (measure_untrained) {
    evaluate(false);  // step 0: the untrained model
    curve_.push_back({0, std::nan(""), acc_, argmax_});
  } else {
    acc_ = argmax_ = 0;
  }
  snapshot();
  return Status::Ok();
}

size_t Trainer::heldout_size() const { return induction() ? induction_.heldout.size() : data_.heldout.size(); }

Status check_task_words(const std::string& task, const std::vector<std::string>& words) {
  return task == kInductionTask ? check_induction_tokens(words) : check_coref_sentence(words, nullptr);
}

Status divergence_status(int step, double loss, int kept_step) {
  return Status::Error("training diverged at step {0} (loss {1}): stopped, the weights of step {2} are kept",
                       {arg(step), format_number(loss), arg(kept_step)});
}

int Trainer::curve_sentences() const {
  return static_cast<int>(induction() ? induction_curve_.size() : curve_set_.size());
}

int Trainer::advance(int n) {
  int done = 0;
  const int B = recipe_.batch;
  while (done < n && !finished() && !diverged()) {
    // 1) a minibatch of B training sentences, in the seeded order (induction: B fresh sequences, none held out)
    if (induction()) {
      for (int b = 0; b < B; ++b) {
        sample_induction(rng_, &induction_.heldout_segments, &induction_set_[static_cast<size_t>(b)]);
        idx_[static_cast<size_t>(b)] = b;
      }
      fill_induction_batch(induction_set_, idx_.data(), B, &batch_);
    } else {
      for (int b = 0; b < B; ++b) idx_[static_cast<size_t>(b)] = static_cast<int>(rng_.next_u64() % data_.train.size());
      fill(data_.train, B, &batch_);
    }
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
    if (finished()) evaluate(true);
    else if (step_ % kEvalEvery == 0) evaluate(false);
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

void Trainer::evaluate(bool all) {
  Evaluation e;
  begin_evaluation(all, &e);
  if (evaluate_batches(&e, SIZE_MAX)) keep_evaluation(&e);
}

// Steps of an evaluation: begin (which sentences), evaluate_batches (kEvalBatch at a time, resumable: the
// counts only add, so any slicing gives the same numbers), keep (the accuracy, argmax rate and patterns).
void Trainer::begin_evaluation(bool all, Evaluation* e) const {
  *e = Evaluation();
  e->all = all;
  e->count = induction() ? (all ? induction_.heldout.size() : induction_curve_.size())
                         : (all ? data_.heldout.size() : curve_set_.size());
}

bool Trainer::evaluate_batches(Evaluation* e, size_t batches) {
  for (size_t done = 0; done < batches && e->next < e->count && !e->failed; ++done) {
    const int B = static_cast<int>(std::min<size_t>(kEvalBatch, e->count - e->next));
    for (int b = 0; b < B; ++b) idx_[static_cast<size_t>(b)] = static_cast<int>(e->next) + b;
    e->next += static_cast<size_t>(B);
    if (induction()) evaluate_induction_batch(B, e);
    else evaluate_coref_batch(B, e);
  }
  if (e->failed || e->next < e->count) return e->failed;
  // The end: the rates
  if (induction()) {
    finish_induction_scores(&e->scores);
    e->acc = e->scores.accuracy();
    e->argmax = e->scores.predictions ? static_cast<double>(e->argmax_right) / e->scores.predictions : 0.0;
  } else {
    e->acc = e->count ? static_cast<double>(e->right) / e->count : 0.0;
    e->argmax = e->count ? static_cast<double>(e->argmax_right) / e->count : 0.0;
    if (e->all) finish_head_patterns(e->animal, e->count - e->animal, &e->patterns);
  }
  return true;
}

void Trainer::keep_evaluation(Evaluation* e) {
  if (e->failed) return;  // a forward pass failed: the last evaluation stays
  acc_ = e->acc;
  argmax_ = e->argmax;
  evaluated_all_ = e->all;
  patterns_ = std::move(e->patterns);
  if (induction()) induction_scores_ = std::move(e->scores);
}

// One batch of the induction task's sequences idx_[0 … B).
void Trainer::evaluate_induction_batch(int B, Evaluation* e) {
  const int T = kInductionSeqLen, R = kInductionRows, H = recipe_.heads, L = recipe_.layers;
  const std::vector<InductionSequence>& set = e->all ? induction_.heldout : induction_curve_;
  fill_induction_batch(set, idx_.data(), B, &eval_batch_);
  double loss;
  if (!model_.forward(eval_batch_, &loss).ok) {
    e->failed = true;
    return;
  }
  // 1) the predictions and every head's scores (induction.h)
  add_induction_scores(model_, set, idx_.data(), B, &e->scores);
  // 2) some head of the last layer has its readout row's largest weight on the token to copy
  const CMatMap att = model_.attention(L - 1);
  for (int b = 0; b < B; ++b) {
    const InductionSequence& s = set[static_cast<size_t>(idx_[static_cast<size_t>(b)])];
    for (int r = 0; r < R; ++r) e->argmax_right += some_head_argmax_on(att, b, H, T, s.row(r), s.source(r));
  }
}

// One batch of the coreference sentences idx_[0 … B).
void Trainer::evaluate_coref_batch(int B, Evaluation* e) {
  const int T = data_.seq_len, H = recipe_.heads, L = recipe_.layers, K = kHeadsClasses;
  const std::vector<CorefSentence>& set = e->all ? data_.heldout : curve_set_;
  fill(set, B, &eval_batch_);
  double loss;
  if (!model_.forward(eval_batch_, &loss).ok) {
    e->failed = true;
    return;
  }
  if (e->all) add_head_patterns(model_, set, idx_.data(), B, &e->patterns);  // the same forward pass
  const CMatMap att = model_.attention(L - 1);
  for (int b = 0; b < B; ++b) {
    const CorefSentence& s = set[static_cast<size_t>(idx_[static_cast<size_t>(b)])];
    e->animal += s.refers_to_animal;
    Eigen::Index best;
    if (classifier()) {
      // 1) the largest of the "it" row's 40 logits (probabilities: same order) names the referent
      model_.class_probs().row(b * kHeadsRows).head(K).maxCoeff(&best);
      e->right += best == referent_class(s);
      // 2) some head of the last layer has its row's largest weight on the referent
      e->argmax_right += some_head_argmax_on(att, b, H, T, s.it_pos, s.target_pos());
      continue;
    }
    const auto row = att.row((b * H + 0) * T + s.it_pos);  // the pointer head: 0
    e->right += row(s.target_pos()) > row(s.distractor_pos());
    row.maxCoeff(&best);
    e->argmax_right += best == s.target_pos();
  }
}

void Trainer::snapshot() {
  model_.params().save_values(&good_);
  good_step_ = step_;
}

void Trainer::restore() { (void)model_.params().load_values(good_); }  // (good_: this store's, saved at init)

Status Trainer::attention_of(const std::vector<std::string>& words, SentenceAttention* out) {
  const int T = model_.config().seq_len, n = static_cast<int>(words.size());
  SentenceAttention a;
  AP_TRY(check_task_words(recipe_.task, words));
  if (!induction()) (void)check_coref_sentence(words, &a.it_pos);  // where "it" is (checked above)
  a.words = words;
  // One sequence, padded to T; the padding is hidden as a key, so the first n columns hold every weight.
  Batch& b = eval_batch_;
  b.B = 1;
  b.ids.assign(static_cast<size_t>(T), 0);
  b.pad.assign(static_cast<size_t>(T), 1);
  for (int i = 0; i < n; ++i) {
    const std::string& w = words[static_cast<size_t>(i)];
    b.ids[static_cast<size_t>(i)] = induction() ? induction_token(w) : data_.vocab.id(w);
    b.pad[static_cast<size_t>(i)] = 0;
  }
  // Readout rows and targets: any visible position, any class (the loss is not used).
  const int R = model_.config().readout_rows, row = induction() ? 0 : a.it_pos;
  b.row.assign(static_cast<size_t>(R), row);
  b.target.assign(static_cast<size_t>(R), row);
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
  AP_TRY(stage_weights(weights, step, heldout_accuracy));
  Status installed;
  measure_staged(SIZE_MAX, &installed);
  return installed;
}

Status Trainer::stage_weights(const std::vector<std::pair<std::string, Mat>>& weights, int step, double heldout_accuracy) {
  ParamStore& ps = model_.params();
  AP_TRY(check_params(weights, ps));
  if (step < 0 || step > recipe_.steps)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"step", arg(0), arg(recipe_.steps), arg(step)});
  Staged st;
  st.weights.resize(ps.size());  // in the model's order
  for (const auto& [name, m] : weights)
    for (size_t i = 0; i < ps.size(); ++i)
      if (ps[i].name == name) st.weights[i] = m;
  st.step = step;
  st.claimed = heldout_accuracy;
  // The last step's weights are measured on every held-out sentence, as the run measured them.
  begin_evaluation(step >= recipe_.steps, &st.eval);
  staged_ = std::move(st);
  return Status::Ok();
}

void Trainer::swap_staged() {
  ParamStore& ps = model_.params();
  for (size_t i = 0; i < ps.size(); ++i) ps[i].value.swap(staged_->weights[i]);  // O(1): the buffers trade places
}

bool Trainer::measure_staged(size_t batches, Status* result) {
  if (!staged_) return false;
  // 1) the staged weights in the model for these batches only: between calls the model is the one before
  swap_staged();
  const bool done = evaluate_batches(&staged_->eval, batches);
  swap_staged();
  if (!done) return false;
  Evaluation& e = staged_->eval;
  // 2) the accuracy written with the weights is measured again: a checkpoint cannot claim what they do not give
  if (e.failed)
    *result = Status::Error("the checkpoint's weights could not be measured");
  else if (std::fabs(e.acc - staged_->claimed) > 1e-9)
    *result = Status::Error("the checkpoint says held-out accuracy {0}, its weights give {1}",
                            {format_number(staged_->claimed), format_number(e.acc)});
  else {
    // 3) they are what they claim: installed (copied into the model's own buffers), with step and measurement
    ParamStore& ps = model_.params();
    for (size_t i = 0; i < ps.size(); ++i) ps[i].value = staged_->weights[i];
    step_ = staged_->step;
    keep_evaluation(&e);
    curve_.assign(1, {step_, std::nan(""), acc_, argmax_});
    snapshot();
    *result = Status::Ok();
  }
  staged_.reset();
  return true;
}

}  // namespace train
}  // namespace ap
