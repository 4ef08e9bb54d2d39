#include "mask_bug_lm.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "recipe.h"

namespace ap {
namespace train {

Status validate_bug_lab_recipe(const BugLabRecipe& r) {
  Recipe as;  // the same limits as the induction task's recipes
  as.task = kInductionTask;
  as.layers = r.layers;
  as.heads = r.heads;
  as.d_model = r.d_model;
  as.seed = r.seed;
  as.steps = r.steps;
  as.learning_rate = r.learning_rate;
  as.batch = r.batch;
  return validate_recipe(as, kInductionSeqLen);
}

const char* bug_lab_mask_name(BugLabMask m) {
  switch (m) {
    case BugLabMask::Causal: return "causal";
    case BugLabMask::Forgotten: return "forgotten";
    case BugLabMask::AfterSoftmax: return "after_softmax";
  }
  return "?";
}

Status BugLabRun::init(const BugLabRecipe& r, BugLabMask mask) {
  AP_TRY(validate_bug_lab_recipe(r));
  // 1) the induction task's model; the bug is the mask alone
  ModelConfig c = induction_model_config(r.layers, r.heads, r.d_model, std::max(r.batch, 64), r.seed);
  c.causal = mask != BugLabMask::Forgotten;
  c.mask_after_softmax = mask == BugLabMask::AfterSoftmax;
  mask_ = mask;
  AttentionModel m;
  AP_TRY(m.init(c));
  model_ = std::move(m);
  recipe_ = r;
  // 2) the same data for both runs: the held-out split of the task, training sequences from the recipe's seed
  make_induction_dataset(kTaskSplitSeed, &data_);
  AdamConfig ac;
  ac.lr = r.learning_rate;
  ac.clip_norm = 1.0;
  adam_ = Adam(ac);
  rng_ = SeededRng(r.seed, 0xB06ull);
  set_.assign(static_cast<size_t>(r.batch), InductionSequence{});
  idx_.resize(static_cast<size_t>(std::max(r.batch, 64)));
  for (size_t k = 0; k < idx_.size(); ++k) idx_[k] = static_cast<int>(k);
  step_ = 0;
  losses_.clear();
  curve_.clear();
  divergence_ = Status::Ok();
  return Status::Ok();
}

int BugLabRun::advance(int n) {
  int done = 0;
  while (done < n && !finished()) {
    // 1) B fresh sequences (no held-out segment), the same for both runs of a seed
    for (InductionSequence& s : set_) sample_induction(rng_, &data_.heldout_segments, &s);
    fill_induction_batch(set_, idx_.data(), recipe_.batch, &batch_);
    // 2) one Adam step, each run with its own mask
    double loss = 0;
    const Status s = model_.train_step(batch_, adam_, &loss);
    ++step_;
    ++done;
    if (!s.ok || !std::isfinite(loss)) {
      divergence_ = Status::Error("training diverged at step {0}: stopped", {arg(step_)});
      break;
    }
    losses_.push_back(loss);
    if (step_ % kBugLabLossWindow == 0 || step_ == recipe_.steps) {
      const size_t from = static_cast<size_t>((step_ - 1) / kBugLabLossWindow) * kBugLabLossWindow;
      double sum = 0;
      for (size_t k = from; k < losses_.size(); ++k) sum += losses_[k];
      curve_.push_back({step_, sum / static_cast<double>(losses_.size() - from)});
    }
  }
  return done;
}

double BugLabRun::train_loss() const {
  if (losses_.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t from = losses_.size() > kBugLabLossWindow ? losses_.size() - kBugLabLossWindow : 0;
  double sum = 0;
  for (size_t k = from; k < losses_.size(); ++k) sum += losses_[k];
  return sum / static_cast<double>(losses_.size() - from);
}

// Greedy generation, B prompts at a time. Step r (r = 0 … N−2) reads row s2 + r of a batch in which the
// positions after s2 + r are padding (hidden keys: the future is not there) and writes its argmax at s2 + r + 1.
// Every readout row of a sequence is set to that one row (the model reads R rows; they are the same here).
void BugLabRun::generate(size_t first, int B, std::vector<std::vector<int>>* written) {
  constexpr int T = kInductionSeqLen, R = kInductionRows;
  std::vector<InductionSequence> seqs(data_.heldout.begin() + static_cast<std::ptrdiff_t>(first),
                                      data_.heldout.begin() + static_cast<std::ptrdiff_t>(first) + B);
  written->assign(static_cast<size_t>(B), {});
  Batch b;
  b.B = B;
  b.ids.resize(static_cast<size_t>(B) * T);
  b.pad.resize(static_cast<size_t>(B) * T);
  b.row.resize(static_cast<size_t>(B) * R);
  b.target.resize(static_cast<size_t>(B) * R);
  for (int r = 0; r < R; ++r) {
    for (int s = 0; s < B; ++s) {
      const InductionSequence& q = seqs[static_cast<size_t>(s)];
      const int at = q.s2 + r;  // the row that predicts position at + 1
      for (int t = 0; t < T; ++t) {
        b.ids[static_cast<size_t>(s * T + t)] = t <= at ? q.ids[t] : 0;
        b.pad[static_cast<size_t>(s * T + t)] = t > at ? 1 : 0;
      }
      for (int k = 0; k < R; ++k) {
        b.row[static_cast<size_t>(s * R + k)] = at;
        b.target[static_cast<size_t>(s * R + k)] = q.target(r);  // for the loss only; not read here
      }
    }
    double loss = 0;
    if (!model_.forward(b, &loss).ok) return;
    const CMatMap probs = model_.class_probs();  // [B·R, V]
    for (int s = 0; s < B; ++s) {
      Eigen::Index best = 0;
      probs.row(s * R).maxCoeff(&best);
      InductionSequence& q = seqs[static_cast<size_t>(s)];
      q.ids[q.s2 + r + 1] = static_cast<int>(best);  // the next step reads what was written, not the truth
      (*written)[static_cast<size_t>(s)].push_back(static_cast<int>(best));
    }
  }
}

// [first, first + count) clamped to the held-out set: the sequences a tally counts.
static void clamp_range(int first, int count, int size, int* from, int* to) {
  *from = std::clamp(first, 0, size);
  *to = std::clamp(first + std::max(count, 0), *from, size);
}

void BugLabRun::tally_generation(int first, int count, Tally* t) {
  int from = 0, to = 0;
  clamp_range(first, count, static_cast<int>(data_.heldout.size()), &from, &to);
  const int chunk = measure_batch();
  std::vector<std::vector<int>> written;
  for (int at = from; at < to; at += chunk) {
    const int B = std::min(chunk, to - at);
    generate(static_cast<size_t>(at), B, &written);
    for (int s = 0; s < B; ++s) {
      const InductionSequence& q = data_.heldout[static_cast<size_t>(at + s)];
      for (int r = 0; r < kInductionRows && r < static_cast<int>(written[static_cast<size_t>(s)].size()); ++r)
        t->right += written[static_cast<size_t>(s)][static_cast<size_t>(r)] == q.target(r);
      t->total += kInductionRows;
    }
  }
}

void BugLabRun::tally_teacher_forced(int first, int count, Tally* t) {
  int from = 0, to = 0;
  clamp_range(first, count, static_cast<int>(data_.heldout.size()), &from, &to);
  const int chunk = measure_batch();
  Batch b;
  for (int at = from; at < to; at += chunk) {
    const int B = std::min(chunk, to - at);
    std::vector<int> idx(static_cast<size_t>(B));
    for (int s = 0; s < B; ++s) idx[static_cast<size_t>(s)] = at + s;
    fill_induction_batch(data_.heldout, idx.data(), B, &b);
    double loss = 0;
    if (!model_.forward(b, &loss).ok) break;
    const CMatMap probs = model_.class_probs();
    for (int n = 0; n < B * kInductionRows; ++n) {
      Eigen::Index best = 0;
      probs.row(n).maxCoeff(&best);
      t->right += static_cast<int>(best) == b.target[static_cast<size_t>(n)];
      ++t->total;
    }
  }
}

double BugLabRun::generation_accuracy(int prompts) {
  Tally t;
  tally_generation(0, prompts, &t);
  return t.share();
}

double BugLabRun::teacher_forced_accuracy(int prompts) {
  Tally t;
  tally_teacher_forced(0, prompts, &t);
  return t.share();
}

BugLabRun::Sample BugLabRun::generate_sample(int k) {
  Sample out;
  if (k < 0 || k >= static_cast<int>(data_.heldout.size())) return out;
  std::vector<std::vector<int>> written;
  generate(static_cast<size_t>(k), 1, &written);
  const InductionSequence& q = data_.heldout[static_cast<size_t>(k)];
  out.prompt.assign(q.ids, q.ids + q.s2 + 1);
  out.written = written.empty() ? std::vector<int>{} : written[0];
  for (int r = 0; r < kInductionRows; ++r) out.truth.push_back(q.target(r));
  return out;
}

}  // namespace train
}  // namespace ap
