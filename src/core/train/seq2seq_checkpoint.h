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
#include <vector>

#include "seq2seq_trainer.h"

namespace ap {
namespace train {

constexpr uint32_t kSeq2SeqCheckpointVersion = 2;  // 2: the encoder's cell and the schedule (decay_from)

// The trainer's recipe, the step of its last evaluation, that evaluation's accuracy and the weights it measured.
void write_seq2seq_checkpoint(const Seq2SeqTrainer& t, std::vector<uint8_t>* out);
// Trains `r` to its last step and writes its checkpoint (what the build ships). `trained` (may be null) gets the
// trainer.
Status train_seq2seq_checkpoint(const Seq2SeqRecipe& r, std::vector<uint8_t>* out, Seq2SeqTrainer* trained = nullptr);
// Builds `out` from the bytes, or fails and leaves `out` as it was.
Status read_seq2seq_checkpoint(const uint8_t* bytes, size_t size, Seq2SeqTrainer* out);
// Several checkpoints one after the other (split_checkpoints): each read, in order; all or nothing.
Status read_seq2seq_checkpoints(const uint8_t* bytes, size_t size, std::vector<std::unique_ptr<Seq2SeqTrainer>>* out);

}  // namespace train
}  // namespace ap
