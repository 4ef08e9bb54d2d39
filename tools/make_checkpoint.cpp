// The build's trained checkpoints: trains each default recipe natively with the core's own engine
// (core/train/), deterministic, and writes it where the page fetches it (dist/checkpoints/ via build.sh).
//
//   usage: make_checkpoint DIR
//   DIR/coref.aptc: Recipe{} (coreference: 2 layers, d_model 16, 1 head, seed 1, 1500 steps)
//   DIR/heads.aptc: heads_recipe(2) (heads that specialise: 1 layer of 2 heads, d_model 16, seed 1, 1500 steps)
//   DIR/example.aptc: attention_example_recipe() (coreference with 2 layers of 2 heads: the import scene's example)
//   DIR/bahdanau.apsq: bahdanau_recipe() (toy translation, bidirectional GRU encoder, additive attention, 600 steps)
//   DIR/luong.apsq: luong_recipe(dot), (general), (concat) (unidirectional encoder), three checkpoints in one file
// Each is read back to check it. Prints the recipe, the step, the held-out accuracy (measured on all held-out
// sentences), the size and the seconds it took. Written to NAME.tmp first and renamed: an interrupted run
// leaves no half file.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/train/checkpoint.h"
#include "core/train/heads.h"
#include "core/train/seq2seq_checkpoint.h"

namespace {

// NAME.tmp, then renamed.
bool write_file(const std::vector<uint8_t>& bytes, const std::string& path) {
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0 ||
      std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "make_checkpoint: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

int make(const ap::train::Recipe& r, const std::string& path) {
  using namespace ap::train;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<uint8_t> bytes;
  Trainer t;
  ap::Status s = train_checkpoint(r, &bytes, &t);
  if (!s.ok) {
    std::fprintf(stderr, "make_checkpoint: %s: %s\n", path.c_str(), s.message.c_str());
    return 1;
  }
  Trainer back;
  s = read_checkpoint(bytes.data(), bytes.size(), &back);
  if (!s.ok) {
    std::fprintf(stderr, "make_checkpoint: %s does not read back: %s\n", path.c_str(), s.message.c_str());
    return 1;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!write_file(bytes, path)) return 1;
  std::printf("%s: task %s, %d layers, d_model %d, %d head(s), seed %llu, %d steps, lr %g, batch %d; step %d, held-out accuracy %.2f %% "
              "(all %zu held-out sentences), %zu bytes, %.2f s\n",
              path.c_str(), r.task.c_str(), r.layers, r.d_model, r.heads, static_cast<unsigned long long>(r.seed), r.steps,
              r.learning_rate, r.batch, t.step(), 100.0 * t.heldout_accuracy(), t.data().heldout.size(), bytes.size(), secs);
  return 0;
}

// `path` empty: not written; `all` (may be null) gets the bytes appended (the Luong file of three).
int make(const ap::train::Seq2SeqRecipe& r, const std::string& path, std::vector<uint8_t>* all = nullptr) {
  using namespace ap::train;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<uint8_t> bytes;
  Seq2SeqTrainer t;
  ap::Status s = train_seq2seq_checkpoint(r, &bytes, &t);
  Seq2SeqTrainer back;
  if (s.ok) s = read_seq2seq_checkpoint(bytes.data(), bytes.size(), &back);
  if (!s.ok) {
    std::fprintf(stderr, "make_checkpoint: %s: %s\n", path.c_str(), s.message.c_str());
    return 1;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!path.empty() && !write_file(bytes, path)) return 1;
  if (all) all->insert(all->end(), bytes.begin(), bytes.end());
  const Seq2SeqCurvePoint& p = t.curve().back();
  std::printf("%s: task %s, attention %s, %s, d_emb %d, d_h %d, lengths %d…%d, seed %llu, %d steps, lr %g, batch %d; step %d, "
              "held-out tokens %.1f %%, sentences %.1f %%, words aligned %.1f %% (%zu held-out pairs), %zu bytes, %.2f s\n",
              path.empty() ? seq2seq_attention_name(r.attention) : path.c_str(), r.task.c_str(), seq2seq_attention_name(r.attention), r.bidirectional ? "bidirectional" : "unidirectional",
              r.d_emb, r.d_h, r.min_len, r.max_len, static_cast<unsigned long long>(r.seed), r.steps, r.learning_rate, r.batch,
              p.step, 100.0 * p.accuracy, 100.0 * p.sentences, 100.0 * p.alignment, t.heldout().size(), bytes.size(), secs);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  if (int rc = make(ap::train::Recipe{}, dir + "/coref.aptc")) return rc;
  if (int rc = make(ap::train::heads_recipe(2), dir + "/heads.aptc")) return rc;
  if (int rc = make(ap::train::attention_example_recipe(), dir + "/example.aptc")) return rc;
  using ap::train::Seq2SeqAttention;
  if (int rc = make(ap::train::bahdanau_recipe(), dir + "/bahdanau.apsq")) return rc;
  // The Luong scene's three models in one file (read_seq2seq_checkpoints): one fetch for the scene.
  std::vector<uint8_t> luong;
  for (Seq2SeqAttention a : {Seq2SeqAttention::Dot, Seq2SeqAttention::General, Seq2SeqAttention::Concat})
    if (int rc = make(ap::train::luong_recipe(a), "", &luong)) return rc;
  if (!write_file(luong, dir + "/luong.apsq")) return 1;
  std::printf("%s/luong.apsq: the three, %zu bytes\n", dir.c_str(), luong.size());
  return 0;
}
