#include "seq2seq_run.h"

#include <cmath>

namespace ap {
namespace train {

Status validate_length_measurement(const std::vector<int>& lengths, int per_length) {
  for (int L : lengths)
    if (L < 1 || L > 30) return Status::Error("{0} must be between {1} and {2}, got {3}", {"length", arg(1), arg(30), arg(L)});
  if (!lengths.empty() && (per_length < 1 || per_length > 1000))
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"per_length", arg(1), arg(1000), arg(per_length)});
  return Status::Ok();
}

Status Seq2SeqRun::init(const Seq2SeqRecipe& r, const std::vector<int>& lengths, int per_length, int eval_pairs) {
  AP_TRY(validate_length_measurement(lengths, per_length));
  if (eval_pairs < 1 || eval_pairs > kSeq2SeqHeldout)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"eval_pairs", arg(1), arg(kSeq2SeqHeldout), arg(eval_pairs)});
  ready_ = false;
  AP_TRY(trainer_.init(r, eval_pairs));
  // 1. the pairs measured by length are held out of the training stream before its first step
  lengths_ = lengths;
  per_length_ = lengths.empty() ? 0 : per_length;
  length_pairs_ = lengths.empty() ? std::vector<Seq2SeqPair>() : length_set(trainer_, lengths_, per_length_);
  if (!length_pairs_.empty()) AP_TRY(trainer_.exclude(length_pairs_));
  eval_pairs_ = eval_pairs;
  by_token_.clear();
  by_sentence_.clear();
  measured_ = 0;
  measure_ = HeldOutProgress();
  ready_ = true;
  return Status::Ok();
}

bool Seq2SeqRun::advance() {
  if (!ready_ || done()) return false;
  // 2. training: a step, or a slice of the evaluation under way
  if (training()) {
    trainer_.advance(1);
    return true;
  }
  // 3. eval_pairs more pairs of the next length: held-out token and sentence accuracy of greedy decoding,
  //    counted (the counts of its units add up to the length's figures)
  const size_t per = static_cast<size_t>(per_length_);
  if (tally_slice(trainer_.model(), length_pairs_.data() + measured_ * per, per, static_cast<size_t>(eval_pairs_), &measure_)) {
    by_token_.push_back(measure_.tally.tokens());
    by_sentence_.push_back(measure_.tally.sentence_share());
    measure_ = HeldOutProgress();
    ++measured_;
  }
  return true;
}

RunReport make_run_report(const Seq2SeqRun& run, double seconds) {
  RunReport r;
  r.step = run.trainer().step();
  r.training = run.training();
  r.diverged = run.trainer().diverged();
  r.done = run.done();
  r.seconds = seconds;
  r.curve = run.trainer().curve();
  r.tokens_by_length = run.tokens_by_length();
  r.sentences_by_length = run.sentences_by_length();
  return r;
}

void encode_run_report(const RunReport& r, std::vector<double>* out) {
  std::vector<double>& v = *out;
  v.clear();
  v.insert(v.end(), {kRunReportVersion, static_cast<double>(r.step), r.training ? 1.0 : 0.0, r.diverged ? 1.0 : 0.0,
                     r.done ? 1.0 : 0.0, r.seconds, static_cast<double>(r.curve.size())});
  for (const Seq2SeqCurvePoint& p : r.curve) v.insert(v.end(), {static_cast<double>(p.step), p.loss, p.accuracy, p.sentences, p.alignment});
  v.push_back(static_cast<double>(r.tokens_by_length.size()));
  for (size_t i = 0; i < r.tokens_by_length.size(); ++i) v.insert(v.end(), {r.tokens_by_length[i], r.sentences_by_length[i]});
}

Status decode_run_report(const double* v, size_t n, RunReport* out) {
  const auto bad = [](const char* why) { return Status::Error("a training report that does not hold together: {0}", {why}); };
  const auto count = [](double x, double most) { return std::isfinite(x) && x >= 0 && x <= most && x == std::floor(x); };
  const auto share = [](double x) { return std::isfinite(x) && x >= 0 && x <= 1; };
  const auto flag = [](double x) { return x == 0 || x == 1; };
  if (!v || n < 8) return bad("too short");
  if (v[0] != kRunReportVersion) return bad("another version");
  if (!count(v[1], 1e6) || !flag(v[2]) || !flag(v[3]) || !flag(v[4])) return bad("its step or state");
  if ((v[2] == 1 && (v[3] == 1 || v[4] == 1))) return bad("its step or state");  // done or diverged, yet training
  if (!std::isfinite(v[5]) || v[5] < 0) return bad("its times");
  if (!count(v[6], 1e5)) return bad("its curve's length");
  const size_t points = static_cast<size_t>(v[6]);
  const size_t at = 7 + 5 * points;
  if (n < at + 1) return bad("too short for its curve");
  if (!count(v[at], 30)) return bad("its number of lengths");
  const size_t lengths = static_cast<size_t>(v[at]);
  if (n != at + 1 + 2 * lengths) return bad("a length that is not its counts'");
  RunReport r;
  r.step = static_cast<int>(v[1]);
  r.training = v[2] == 1;
  r.diverged = v[3] == 1;
  r.done = v[4] == 1;
  r.seconds = v[5];
  for (size_t k = 0; k < points; ++k) {
    const double* p = v + 7 + 5 * k;
    // the loss may be NaN or infinite (a diverged step's); the alignment NaN (no reference alignment); the steps
    // rise, up to the run's
    const bool rising = count(p[0], v[1]) && (k == 0 || p[0] > p[-5]);
    if (!rising || !share(p[2]) || !share(p[3]) || !(std::isnan(p[4]) || share(p[4]))) return bad("a curve point");
    Seq2SeqCurvePoint c;
    c.step = static_cast<int>(p[0]);
    c.loss = p[1];
    c.accuracy = p[2];
    c.sentences = p[3];
    c.alignment = p[4];
    r.curve.push_back(c);
  }
  for (size_t k = 0; k < lengths; ++k) {
    const double* p = v + at + 1 + 2 * k;
    if (!share(p[0]) || !share(p[1])) return bad("an accuracy by length");
    r.tokens_by_length.push_back(p[0]);
    r.sentences_by_length.push_back(p[1]);
  }
  *out = std::move(r);
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
