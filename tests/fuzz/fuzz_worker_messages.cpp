// What the training workers send the page, which reads it as untrusted bytes: a race run's packed report
// (core/train/seq2seq_run.h decode_run_report), a recipe's bytes (seq2seq_checkpoint.h read_seq2seq_recipe, what
// a race worker is sent) and "Watch attention learn"'s packed report (core/train/report.h decode_report). The
// first byte picks the reader, the rest is its input (the reports' as doubles). Every input is refused with a
// message or read into something that, written again, reads back the same.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/train/report.h"
#include "core/train/seq2seq_checkpoint.h"
#include "core/train/seq2seq_run.h"
#include "fuzz_common.h"

namespace {

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::vector<double> as_doubles(const uint8_t* data, size_t size) {
  std::vector<double> v(size / sizeof(double));
  if (!v.empty()) std::memcpy(v.data(), data, v.size() * sizeof(double));
  return v;
}

void run_report(const uint8_t* data, size_t size) {
  const std::vector<double> v = as_doubles(data, size);
  ap::train::RunReport r;
  const ap::Status s = ap::train::decode_run_report(v.data(), v.size(), &r);
  if (!s.ok) {
    AP_FUZZ_CHECK(!s.message.empty(), "a refusal without a message");
    return;
  }
  AP_FUZZ_CHECK(!(r.training && (r.done || r.diverged)), "a run training yet done or diverged");
  AP_FUZZ_CHECK(r.tokens_by_length.size() == r.sentences_by_length.size(), "the two measurements by length disagree");
  for (size_t k = 0; k < r.curve.size(); ++k)
    AP_FUZZ_CHECK(r.curve[k].step <= r.step && (k == 0 || r.curve[k].step > r.curve[k - 1].step), "a curve's steps that do not rise to the run's");
  std::vector<double> again;
  ap::train::encode_run_report(r, &again);
  AP_FUZZ_CHECK(again.size() == v.size(), "a report that does not write back to its length");
  for (size_t k = 0; k < v.size(); ++k) AP_FUZZ_CHECK(same(again[k], v[k]), "a report that does not write back the same");
}

void recipe(const uint8_t* data, size_t size) {
  ap::train::Seq2SeqRecipe r;
  const ap::Status s = ap::train::read_seq2seq_recipe(data, size, &r);
  if (!s.ok) {
    AP_FUZZ_CHECK(!s.message.empty(), "a refusal without a message");
    return;
  }
  AP_FUZZ_CHECK(ap::train::validate_seq2seq_recipe(r).ok, "a recipe read that its validation refuses");
  std::vector<uint8_t> again;
  ap::train::write_seq2seq_recipe(r, &again);
  ap::train::Seq2SeqRecipe back;
  AP_FUZZ_CHECK(ap::train::read_seq2seq_recipe(again.data(), again.size(), &back).ok, "a recipe written that does not read back");
  AP_FUZZ_CHECK(back == r, "a recipe that does not read back the same");
}

void train_report(const uint8_t* data, size_t size) {
  const std::vector<double> v = as_doubles(data, size);
  ap::train::TrainReport r;
  const ap::Status s = ap::train::decode_report(v.data(), v.size(), &r);
  if (!s.ok) {
    AP_FUZZ_CHECK(!s.message.empty(), "a refusal without a message");
    return;
  }
  std::vector<double> again;
  ap::train::encode_report(r, &again);
  ap::train::TrainReport back;
  AP_FUZZ_CHECK(ap::train::decode_report(again.data(), again.size(), &back).ok, "a report written that does not read back");
  AP_FUZZ_CHECK(back.step == r.step && back.steps == r.steps && same(back.loss, r.loss), "a report that does not read back the same");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  switch (data[0] % 3) {
    case 0: run_report(data + 1, size - 1); break;
    case 1: recipe(data + 1, size - 1); break;
    default: train_report(data + 1, size - 1); break;
  }
  return 0;
}
