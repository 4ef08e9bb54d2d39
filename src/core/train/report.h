// Training engine, part 9: a trainer's progress as a flat array of numbers (what a Web Worker posts back).
//
// The idea in one line: everything the page shows of a run — step, loss, accuracy, the curve, the attention
// of the sentence on screen — packed into doubles by the worker's module and unpacked, checked, by the page's.
//
// Layout: [kReportVersion, step, steps, loss, accuracy, argmax, evaluated_on_all, curve_sentences,
//          diverged_step, diverged_loss, kept_step, held-out sentences, curve points P, P × (step, loss, accuracy, argmax),
//          head patterns Q (0 until the whole held-out set was measured), Q × (layer, head, referent, other noun,
//          after a noun: on it, on the other noun; the 6 shares when the referent is the animal, the 6 when it is the place: heads.h's RowShares order),
//          induction head scores Z (task "induction": every head, at every evaluation), Z × (layer, head, previous,
//          induction, same token, itself: induction.h's InductionHeadScore),
//          layers L, heads H, words n, it_pos, L·H·n·n weights (map by map, row-major)]
#pragma once
#include <vector>

#include "trainer.h"

namespace ap {
namespace train {

constexpr double kReportVersion = 4;  // 2: the head patterns; 3: the induction head scores; 4: the rows after a noun

struct TrainReport {
  int step = 0, steps = 0;
  double loss = 0, heldout_accuracy = 0, referent_argmax = 0;
  bool evaluated_on_all = false;
  int curve_sentences = 0;
  int heldout_sentences = 0;  // the whole held-out set (the last evaluation's, when evaluated_on_all)
  int diverged_step = -1, kept_step = 0;  // diverged_step −1: the run has not diverged
  double diverged_loss = 0;
  std::vector<CurvePoint> curve;
  std::vector<HeadPattern> head_patterns;  // Trainer::head_patterns(): measured at the end of the run
  std::vector<InductionHeadScore> induction_heads;  // Trainer::induction_scores(): at the last evaluation
  SentenceAttention attention;  // words are not packed: the page knows which sentence it asked for
  // A run begun with weights (TrainHost::begin): the checkpoint of its last evaluation (checkpoint.h,
  // CheckpointWeights::LastEvaluation) when that changed since the report before, else empty. Not packed into
  // the doubles: a worker posts the bytes beside them.
  std::vector<uint8_t> weights;
  bool finished() const { return step >= steps; }
  bool diverged() const { return diverged_step >= 0; }
  Status divergence() const { return diverged() ? divergence_status(diverged_step, diverged_loss, kept_step) : Status::Ok(); }
};

TrainReport make_report(const Trainer& t, const SentenceAttention& shown);
void encode_report(const TrainReport& r, std::vector<double>* out);
// Checks the version, every count against the array's length and every number's range.
Status decode_report(const double* v, size_t n, TrainReport* out);

}  // namespace train
}  // namespace ap
