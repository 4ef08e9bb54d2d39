// The build's trained checkpoints: trains each default recipe natively with the core's own engine
// (core/train/), deterministic, and writes it where the page fetches it (dist/checkpoints/ via build.sh).
//
//   usage: make_checkpoint OUT.aptc
//   coref: Recipe{} (2 layers, d_model 16, 1 head, seed 1, 1500 steps) → OUT.aptc, then read back to check it
// Prints the recipe, the step, the held-out accuracy (measured on all held-out sentences), the size and the
// seconds it took. Written to OUT.aptc.tmp first and renamed: an interrupted run leaves no half file.
#include <chrono>
#include <cstdio>
#include <vector>

#include "core/train/checkpoint.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.aptc\n", argv[0]);
    return 2;
  }
  using namespace ap::train;
  const auto t0 = std::chrono::steady_clock::now();
  const Recipe r;
  std::vector<uint8_t> bytes;
  Trainer t;
  ap::Status s = train_checkpoint(r, &bytes, &t);
  if (!s.ok) {
    std::fprintf(stderr, "make_checkpoint: %s\n", s.message.c_str());
    return 1;
  }
  Trainer back;
  s = read_checkpoint(bytes.data(), bytes.size(), &back);
  if (!s.ok) {
    std::fprintf(stderr, "make_checkpoint: the checkpoint does not read back: %s\n", s.message.c_str());
    return 1;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string tmp = std::string(argv[1]) + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0 ||
      std::rename(tmp.c_str(), argv[1]) != 0) {
    std::fprintf(stderr, "make_checkpoint: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("%s: task %s, %d layers, d_model %d, %d head(s), seed %llu, %d steps, lr %g, batch %d; step %d, held-out accuracy %.2f %% "
              "(all %zu held-out sentences), %zu bytes, %.2f s\n",
              argv[1], r.task.c_str(), r.layers, r.d_model, r.heads, static_cast<unsigned long long>(r.seed), r.steps,
              r.learning_rate, r.batch, t.step(), 100.0 * t.heldout_accuracy(), t.data().heldout.size(), bytes.size(), secs);
  return 0;
}
