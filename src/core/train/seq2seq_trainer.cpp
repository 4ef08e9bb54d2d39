#include "seq2seq_trainer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "checkpoint_bytes.h"

namespace ap {
namespace train {

namespace {
constexpr int kReversalVocab = 12;  // 10 symbols besides <s> and </s>

std::string key_of(const std::vector<int>& ids) {
  std::string k;
  for (int id : ids) k += std::to_string(id) + ",";
  return k;
}
}  // namespace

Status validate_seq2seq_recipe(const Seq2SeqRecipe& r) {
  if (r.task != "translation" && r.task != "reversal")
    return Status::Error("unknown task '{0}' (translation, reversal)", {r.task});
  if (r.d_emb < 1 || r.d_emb > 128) return Status::Error("d_emb must be 1 … 128, got {0}", {arg(r.d_emb)});
  if (r.d_h < 1 || r.d_h > 128) return Status::Error("d_h must be 1 … 128, got {0}", {arg(r.d_h)});
  const int lo = r.task == "translation" ? 3 : 1;
  if (r.min_len < lo || r.max_len > 30 || r.min_len > r.max_len)
    return Status::Error("source lengths must lie in {0} … 30 with min <= max, got {1} … {2}", {arg(lo), arg(r.min_len), arg(r.max_len)});
  if (r.steps < 1 || r.steps > 20000) return Status::Error("steps must be 1 … 20000, got {0}", {arg(r.steps)});
  if (r.batch < 1 || r.batch > 128) return Status::Error("batch must be 1 … 128, got {0}", {arg(r.batch)});
  if (!(std::isfinite(r.learning_rate) && r.learning_rate > 0 && r.learning_rate <= 1))
    return Status::Error("the learning rate must be a number in (0, 1], got {0}", {std::to_string(r.learning_rate)});
  if (!(std::isfinite(r.decay_from) && r.decay_from >= 0 && r.decay_from <= 1))
    return Status::Error("the decay must start at a share of the run in [0, 1], got {0}", {std::to_string(r.decay_from)});
  return Status::Ok();
}

double seq2seq_learning_rate(const Seq2SeqRecipe& r, int step) {
  const double at = static_cast<double>(step) / r.steps;
  if (r.decay_from >= 1 || at <= r.decay_from) return r.learning_rate;
  // linear: the full rate at decay_from, a tenth of it at the last step
  return r.learning_rate * (1.0 - 0.9 * std::min(1.0, (at - r.decay_from) / (1.0 - r.decay_from)));
}

Seq2SeqPair Seq2SeqTrainer::make_pair(uint64_t seed, uint64_t index, int min_len, int max_len) const {
  if (recipe_.task == "reversal") return reversal_pair(kReversalVocab, min_len, max_len, seed, index);
  return toy_seq2seq_pair(toy_translation_pair(seed, index, min_len, max_len));
}

Status Seq2SeqTrainer::init(const Seq2SeqRecipe& r, int eval_pairs, bool measure_untrained) {
  AP_TRY(validate_seq2seq_recipe(r));
  Seq2SeqConfig c;
  c.vocab = r.task == "reversal" ? kReversalVocab : static_cast<int>(toy_vocabulary().size());
  c.d_emb = r.d_emb;
  c.d_h = c.d_a = r.d_h;
  c.bidirectional = r.bidirectional;
  c.attention = r.attention;
  c.cell = r.cell;
  c.max_len = 32;  // 30 words and EOS
  c.seed = r.seed;
  Seq2SeqModel m;
  AP_TRY(m.init(c));
  recipe_ = r;
  model_ = std::move(m);
  AdamConfig ac;
  ac.lr = r.learning_rate;
  adam_ = Adam(ac);
  step_ = 0;
  next_ = 0;
  loss_sum_ = 0;
  loss_steps_ = 0;
  curve_.clear();
  divergence_ = Status::Ok();
  // 1. the held-out set, and its sources (never trained on)
  heldout_.clear();
  heldout_text_.clear();
  heldout_sources_.clear();
  for (int k = 0; k < kSeq2SeqHeldout; ++k) {
    if (r.task == "translation") {
      heldout_text_.push_back(toy_translation_pair(kSeq2SeqHeldoutSeed, static_cast<uint64_t>(k), r.min_len, r.max_len));
      heldout_.push_back(toy_seq2seq_pair(heldout_text_.back()));
    } else {
      heldout_.push_back(make_pair(kSeq2SeqHeldoutSeed, static_cast<uint64_t>(k), r.min_len, r.max_len));
    }
    heldout_sources_.insert(key_of(heldout_.back().src));
  }
  if (r.task == "translation") heldout_sources_.insert(key_of(toy_seq2seq_pair(toy_notes_pair()).src));  // the scenes' own
  batch_.resize(static_cast<size_t>(r.batch));
  // 2. the untrained model's point: step 0 of the curve, and the weights a divergence goes back to
  eval_pairs_ = std::max(0, eval_pairs);
  evaluating_ = false;
  if (!measure_untrained) return Status::Ok();
  if (eval_pairs_ > 0) begin_evaluation(std::numeric_limits<double>::quiet_NaN());
  else evaluate(std::numeric_limits<double>::quiet_NaN());
  return Status::Ok();
}

void Seq2SeqTrainer::evaluate(double loss) {
  begin_evaluation(loss);
  evaluate_slice(SIZE_MAX);
}

void Seq2SeqTrainer::begin_evaluation(double loss) {
  evaluating_ = true;
  eval_loss_ = loss;
  eval_ = HeldOutProgress();
  eval_aligned_ = eval_aligned_of_ = 0;
}

void Seq2SeqTrainer::evaluate_slice(size_t pairs) {
  // 1. the next pairs, each decoded once: token and sentence counts, and (translation) the alignment's
  const bool translation = recipe_.task == "translation";
  if (!tally_slice(model_, heldout_.data(), heldout_.size(), pairs, &eval_, [&](size_t k, const std::vector<int>& out, const Seq2SeqTrace& tr) {
        if (translation) count_aligned(heldout_text_[k], heldout_[k], out, tr, false, &eval_aligned_, &eval_aligned_of_);
      }))
    return;
  // 2. all measured: the curve's point, and the weights it measured (what a divergence goes back to)
  Seq2SeqCurvePoint p;
  p.step = step_;
  p.loss = eval_loss_;
  p.accuracy = eval_.tally.tokens();
  p.sentences = eval_.tally.sentence_share();
  p.alignment = !translation ? std::numeric_limits<double>::quiet_NaN()
                : eval_aligned_of_ ? static_cast<double>(eval_aligned_) / eval_aligned_of_ : 0.0;
  curve_.push_back(p);
  model_.params().save_values(&good_);
  evaluating_ = false;
}

Status Seq2SeqTrainer::set_weights(const std::vector<std::pair<std::string, Mat>>& weights, int step, double heldout_accuracy) {
  AP_TRY(stage_weights(weights, step, heldout_accuracy));
  Status measured;
  measure_weights(SIZE_MAX, &measured);
  return measured;
}

Status Seq2SeqTrainer::stage_weights(const std::vector<std::pair<std::string, Mat>>& weights, int step, double heldout_accuracy) {
  AP_TRY(check_params(weights, model_.params()));
  if (step < 0 || step > recipe_.steps)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"step", arg(0), arg(recipe_.steps), arg(step)});
  for (const auto& [name, m] : weights) model_.params().find(name)->value = m;
  step_ = step;
  curve_.clear();
  claimed_ = heldout_accuracy;
  begin_evaluation(std::numeric_limits<double>::quiet_NaN());
  return Status::Ok();
}

bool Seq2SeqTrainer::measure_weights(size_t pairs, Status* result) {
  if (!evaluating_) return false;
  evaluate_slice(pairs);
  if (evaluating_) return false;
  // The accuracy written with the weights is measured again: a checkpoint cannot claim what they do not give.
  if (std::fabs(curve_.back().accuracy - claimed_) > 1e-9)
    *result = Status::Error("the checkpoint says held-out accuracy {0}, its weights give {1}",
                            {format_number(claimed_), format_number(curve_.back().accuracy)});
  else
    *result = Status::Ok();
  return true;
}

Status Seq2SeqTrainer::align(const std::vector<std::string>& source, const std::vector<std::string>& target,
                             Seq2SeqAlignment* out) const {
  if (recipe_.task != "translation") return Status::Error("only a translation model has words to align");
  if (recipe_.attention == Seq2SeqAttention::None) return Status::Error("a model without attention has no alignment");
  ToyPairIds ids;
  AP_TRY(toy_pair_ids(source, target, &ids));
  Seq2SeqAlignment a;
  a.source = std::move(ids.source);
  a.target = std::move(ids.target);
  const std::vector<int>& src = ids.src;
  const std::vector<int>& tgt = ids.tgt;
  // 1. the model's own translation
  Seq2SeqTrace tr;
  std::vector<int> out_ids;
  AP_TRY(model_.greedy(src, 31, &out_ids, &tr));
  const std::vector<std::string>& vocab = toy_vocabulary();
  for (int id : out_ids) a.translation.push_back(vocab[static_cast<size_t>(id)]);
  // 2. the weights: over the given target (teacher forcing), else over the greedy words just decoded
  a.greedy = a.target.empty();
  if (a.greedy) {
    a.target = a.translation;
  } else {
    Seq2SeqPair p{src, tgt};
    p.tgt.push_back(kEos);
    AP_TRY(model_.forward(p, &tr));
  }
  const int T = static_cast<int>(tr.alpha.size()), n = static_cast<int>(src.size()), Hd = recipe_.d_h;
  const int D = static_cast<int>(tr.H.cols()), S = static_cast<int>(tr.s0.cols());
  const bool scored = recipe_.attention == Seq2SeqAttention::Additive || recipe_.attention == Seq2SeqAttention::Concat;
  const ParamStore& ps = model_.params();
  a.scores.resize(T, n);
  a.alpha.resize(T, n);
  a.Y_prev.resize(T, recipe_.d_emb);
  a.queries.resize(T, S);
  a.states.resize(T, S);
  a.contexts.resize(T, D);
  if (scored) a.query_part.resize(T, recipe_.d_h);
  a.hidden.clear();
  for (int t = 0; t < T; ++t) {
    const size_t k = static_cast<size_t>(t);
    a.scores.row(t) = tr.score[k];
    a.alpha.row(t) = tr.alpha[k];
    a.Y_prev.row(t) = ps.find("tgt.emb")->value.row(tr.input[k]);
    a.queries.row(t) = t == 0 ? tr.s0 : tr.dec[k - 1].h;
    a.states.row(t) = tr.dec[k].h;
    a.contexts.row(t) = tr.context[k];
    if (scored) {
      a.query_part.row(t) = tr.query[k];
      a.hidden.push_back(tr.u[k]);
    }
    a.score_max.push_back(tr.score[k].maxCoeff());
    double sum = 0;  // Σ_j exp(e_tj − max), as the softmax summed it
    for (int j = 0; j < n; ++j) sum += std::exp(tr.score[k](0, j) - a.score_max.back());
    a.exp_sum.push_back(static_cast<float>(sum));
    a.reads.push_back(tr.input[k] == kBos ? "<s>" : vocab[static_cast<size_t>(tr.input[k])]);
  }
  a.X.resize(n, recipe_.d_emb);
  for (int j = 0; j < n; ++j) a.X.row(j) = ps.find("src.emb")->value.row(src[static_cast<size_t>(j)]);
  a.H = tr.H;
  a.H_fwd = tr.H.leftCols(Hd);
  a.H_bwd = recipe_.bidirectional ? Mat(tr.H.rightCols(Hd)) : Mat();
  const auto gates = [&](const std::vector<GruStep>& steps, Mat* z, Mat* cand) {
    z->resize(n, Hd);
    cand->resize(n, Hd);
    for (int j = 0; j < n && static_cast<size_t>(j) < steps.size(); ++j) {
      z->row(j) = steps[static_cast<size_t>(j)].z;
      cand->row(j) = steps[static_cast<size_t>(j)].n;
    }
  };
  gates(tr.enc_f, &a.z_fwd, &a.n_fwd);
  if (recipe_.bidirectional) gates(tr.enc_b, &a.z_bwd, &a.n_bwd);
  a.s0 = tr.s0;
  if (scored) {
    a.key_part = tr.HU;
    a.v_a = ps.find("att.v_a")->value;
  }
  *out = std::move(a);
  return Status::Ok();
}

Status Seq2SeqTrainer::exclude(const std::vector<Seq2SeqPair>& pairs) {
  if (step_ > 0) return Status::Error("held-out pairs are set before training: this run is at step {0}", {arg(step_)});
  for (const Seq2SeqPair& p : pairs) heldout_sources_.insert(key_of(p.src));
  return Status::Ok();
}

std::vector<Seq2SeqPair> length_set(const Seq2SeqTrainer& t, const std::vector<int>& lengths, int per_length) {
  std::vector<Seq2SeqPair> v;
  for (int L : lengths)
    for (int k = 0; k < per_length; ++k)
      v.push_back(t.make_pair(kSeq2SeqLengthSeed, static_cast<uint64_t>(L) * 1000 + static_cast<uint64_t>(k), L, L));
  return v;
}

int Seq2SeqTrainer::advance(int n) {
  int taken = 0;
  while (taken < n && !finished() && !diverged()) {
    if (evaluating_) {  // in slices: this call's work is one slice of the evaluation under way
      evaluate_slice(static_cast<size_t>(eval_pairs_));
      break;
    }
    for (Seq2SeqPair& p : batch_) {
      do p = make_pair(recipe_.seed, next_++, recipe_.min_len, recipe_.max_len);
      while (heldout_sources_.count(key_of(p.src)));
    }
    double loss = 0;
    adam_.set_lr(seq2seq_learning_rate(recipe_, step_));
    const Status s = model_.train_step(batch_, adam_, &loss);
    ++step_;
    ++taken;
    if (!s.ok || !std::isfinite(loss)) {
      // The run stops; the weights of the last evaluation come back.
      divergence_ = Status::Error("training diverged at step {0}: stopped, the weights of step {1} are kept",
                                  {arg(step_), arg(curve_.back().step)});
      (void)model_.params().load_values(good_);  // (good_: this store's, saved at every evaluation)
      step_ = curve_.back().step;
      break;
    }
    loss_sum_ += loss;
    ++loss_steps_;
    if (step_ % kSeq2SeqEvalEvery == 0 || step_ >= recipe_.steps) {
      const double mean = loss_sum_ / loss_steps_;
      loss_sum_ = 0;
      loss_steps_ = 0;
      if (eval_pairs_ == 0) {
        evaluate(mean);
      } else {
        begin_evaluation(mean);  // measured by the next calls
        break;
      }
    }
  }
  return taken;
}

}  // namespace train
}  // namespace ap
