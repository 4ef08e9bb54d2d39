// Training engine: an encoder–decoder's checkpoint — its recipe, step, measured held-out figures and every
// parameter, in the envelope every checkpoint shares (checkpoint_bytes.h), magic "APSQ".
//
//   payload  u8 len + task · u8 len + attention · u8 len + encoder cell · u8 bidirectional · i32 d_emb, d_h, min_len, max_len · u64 seed
//            · i32 steps · f64 learning rate · i32 batch · f64 decay_from · i32 step · f64 held-out token accuracy
//            · the parameters (checkpoint_bytes.h)
// Reading checks the envelope, the recipe (validate_seq2seq_recipe), the parameters against the model the recipe
// builds, and measures the held-out accuracy again: a file cannot claim what its weights do not give.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "seq2seq_trainer.h"

namespace ap {
namespace train {

constexpr uint32_t kSeq2SeqCheckpointVersion = 2;  // 2: the encoder's cell and the schedule (decay_from)

// The recipe alone, as the checkpoint's payload begins (what the page sends a race worker): its fields in order;
// reading checks their names, that nothing follows, and validate_seq2seq_recipe.
void write_seq2seq_recipe(const Seq2SeqRecipe& r, std::vector<uint8_t>* out);
Status read_seq2seq_recipe(const uint8_t* bytes, size_t size, Seq2SeqRecipe* out);

// The trainer's recipe, the step of its last evaluation, that evaluation's accuracy and the weights it measured.
void write_seq2seq_checkpoint(const Seq2SeqTrainer& t, std::vector<uint8_t>* out);
// Trains `r` to its last step and writes its checkpoint (what the build ships). `trained` (may be null) gets the
// trainer.
Status train_seq2seq_checkpoint(const Seq2SeqRecipe& r, std::vector<uint8_t>* out, Seq2SeqTrainer* trained = nullptr);
// Builds `out` from the bytes, or fails and leaves `out` as it was.
Status read_seq2seq_checkpoint(const uint8_t* bytes, size_t size, Seq2SeqTrainer* out);
// Several checkpoints one after the other (split_checkpoints): each read, in order; all or nothing.
Status read_seq2seq_checkpoints(const uint8_t* bytes, size_t size, std::vector<std::unique_ptr<Seq2SeqTrainer>>* out);

// The same read in slices (a checkpoint that arrives while the page draws; read_seq2seq_checkpoints is open,
// then step until it ends): open checks every part's envelope, recipe and parameters at once (no model yet:
// cheap), then each step() is one unit of work: a model's set-up, or up to `pairs` held-out pairs of its
// measurement (some 25 ms a model in wasm when measured at once).
class Seq2SeqCheckpointReader {
 public:
  Status open(const uint8_t* bytes, size_t size);
  // The parts' recipes, in order (after open).
  std::vector<Seq2SeqRecipe> recipes() const;
  // True when the reading ended in this call: *result Ok (take() gives the models, in order), or why not.
  bool step(size_t pairs, Status* result);
  std::vector<std::unique_ptr<Seq2SeqTrainer>> take() { return std::move(done_); }

  struct Part {  // a part as the file holds it: its recipe, weights, step and claimed accuracy
    Seq2SeqRecipe recipe;
    std::vector<std::pair<std::string, Mat>> weights;
    int step = 0;
    double accuracy = 0;
  };

 private:
  std::vector<Part> parts_;
  std::vector<std::unique_ptr<Seq2SeqTrainer>> done_;
  std::unique_ptr<Seq2SeqTrainer> current_;  // set up, being measured
};

}  // namespace train
}  // namespace ap
