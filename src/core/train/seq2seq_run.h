// Training engine, part 9: one run of a race, from step 0 to its measurement by source length, in units of
// work of a few milliseconds. What app/seq2seq_race.h steps round-robin on the page's main thread (a slice per
// frame), and what a race worker runs alone (src/program/train_worker.cpp), its progress sent to the page as a
// packed report (encode_run_report).
//
//   Training ──last step, or diverged──> Measuring (lengths × per_length pairs, if any) ──> Done
//
// A unit is one of: an Adam step; eval_pairs held-out pairs of an evaluation under way (the trainer's own
// slices); eval_pairs pairs of one length's measurement. The measured pairs (length_set) are excluded from the
// training stream before the first step: never trained on.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "seq2seq_trainer.h"

namespace ap {
namespace train {

// A unit of measuring, in held-out pairs: a run's evaluation (200 pairs) and each length's measurement are
// measured this many pairs per unit, a few milliseconds in the page (a whole evaluation of the reversal at once
// was one unit of about 45 ms).
constexpr int kRaceEvalPairs = 20;

// The measurement by length: lengths 1 … 30, and per_length 1 … 1000 when there are lengths (none: no measurement).
Status validate_length_measurement(const std::vector<int>& lengths, int per_length);

class Seq2SeqRun {
 public:
  // A fresh run of `r` at step 0 (validated: the message names the field) and its measurement by length.
  Status init(const Seq2SeqRecipe& r, const std::vector<int>& lengths = {}, int per_length = 0, int eval_pairs = kRaceEvalPairs);
  // One unit of work; false when there is none left (done(), or never initialised).
  bool advance();
  bool ready() const { return ready_; }  // initialised
  bool training() const { return ready_ && !trainer_.finished() && !trainer_.diverged(); }
  bool done() const { return ready_ && !training() && measured_ >= lengths_.size(); }
  const Seq2SeqTrainer& trainer() const { return trainer_; }
  Seq2SeqTrainer& trainer() { return trainer_; }  // (a test's way to its weights)
  const std::vector<int>& lengths() const { return lengths_; }
  int per_length() const { return per_length_; }
  // Per length, once measured (growing while Measuring): held-out token accuracy and whole strings right.
  const std::vector<double>& tokens_by_length() const { return by_token_; }
  const std::vector<double>& sentences_by_length() const { return by_sentence_; }

 private:
  Seq2SeqTrainer trainer_;
  bool ready_ = false;
  int eval_pairs_ = kRaceEvalPairs;
  std::vector<int> lengths_;
  int per_length_ = 0;
  std::vector<Seq2SeqPair> length_pairs_;  // lengths_ × per_length_, in length order
  std::vector<double> by_token_, by_sentence_;
  size_t measured_ = 0;      // lengths measured
  HeldOutProgress measure_;  // of the next length: its pairs counted so far
};

// A run's progress as a worker posts it, packed in doubles (one typed array, no parsing on the page):
//   kRunReportVersion · step · training · diverged · done · seconds
//   · n_curve · n_curve × (step, loss, accuracy, sentences, alignment) · n_lengths · n_lengths × (tokens, sentences)
// (NaN travels as itself: the reversal's alignment, a diverged step's loss.) Decoding checks the version, the
// counts against the length, steps and shares in range, the curve's steps rising up to the step, a run done or
// diverged no longer training: a report that does not hold together is refused. (Whether it fits the race that
// asked for it, its recipe's steps and lengths, is the race's to check.)
constexpr double kRunReportVersion = 1;
struct RunReport {
  int step = 0;
  bool training = false, diverged = false, done = false;
  double seconds = 0;  // the worker's time in units so far
  std::vector<Seq2SeqCurvePoint> curve;
  std::vector<double> tokens_by_length, sentences_by_length;  // measured so far
};
RunReport make_run_report(const Seq2SeqRun& run, double seconds);
void encode_run_report(const RunReport& r, std::vector<double>* out);
Status decode_run_report(const double* v, size_t n, RunReport* out);

}  // namespace train
}  // namespace ap
