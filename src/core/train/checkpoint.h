// Training engine, part 8: checkpoints — a trained run as a few kilobytes of bytes.
//
// The idea in one line: the recipe, the step, the measured held-out accuracy and every parameter, behind a
// header with a version, and a checksum at the end, so that a damaged or foreign file is refused by name.
//
// Layout (little-endian, as wasm and x86 are):
//   header   "APTC" · u32 version (kCheckpointVersion) · u32 payload bytes
//   payload  u8 len + task · i32 layers, d_model, heads · u64 seed · i32 steps · f64 learning rate · i32 batch
//            · i32 step · f64 held-out accuracy · u32 parameter count
//            · per parameter: u8 len + name · u32 rows · u32 cols · rows·cols f32 (row-major)
//   trailer  u64 FNV-1a of the payload
// (The envelope and the parameter list are checkpoint_bytes.h's, shared with the encoder–decoders' checkpoints.)
// Reading checks, in order: length, magic, version, payload length (truncated / bytes after the end),
// checksum, the recipe (validate_recipe), then the parameters against the model the recipe builds (names,
// shapes, finite values) and the accuracy against the weights (Trainer::set_weights measures it again).
#pragma once
#include <cstdint>
#include <vector>

#include "trainer.h"

namespace ap {
namespace train {

constexpr uint32_t kCheckpointVersion = 1;

// The trainer's recipe, step, last held-out accuracy and weights. Which weights: the current ones (a finished or
// evaluated run: they are the last evaluation's), or those of the last evaluation with its step, what a run
// still training sends to the page (its current step may lie between two evaluations: those weights were not
// measured, and a checkpoint says only what its weights give).
enum class CheckpointWeights { Current, LastEvaluation };
void write_checkpoint(const Trainer& t, std::vector<uint8_t>* out, CheckpointWeights which = CheckpointWeights::Current);
// Trains `r` to its last step (seconds for the default recipe; deterministic: the same bytes every time) and
// writes its checkpoint: what the build ships (tools/make_checkpoint.cpp) and what the desktop trains when
// the file is missing. `trained` (may be null) gets the trainer.
Status train_checkpoint(const Recipe& r, std::vector<uint8_t>* out, Trainer* trained = nullptr);
// Builds `out` from the bytes (init from the recipe, then the weights), or fails and leaves `out` as it was.
// When `out` already holds a model of the same recipe (a run's newer weights: the page's trained views while the
// learner trains), only the weights are replaced: no second data set, no second model (milliseconds, not tens).
Status read_checkpoint(const uint8_t* bytes, size_t size, Trainer* out);
// The same for `out`'s own recipe, in slices: the weights are checked and staged (Trainer::stage_weights), and
// installed by Trainer::measure_staged once they give the accuracy the file says. Another recipe is refused.
Status stage_checkpoint(const uint8_t* bytes, size_t size, Trainer* out);
// The recipe (and step) a checkpoint holds: its header, checksum and recipe checked as read_checkpoint does, no
// weights read.
Status peek_checkpoint(const uint8_t* bytes, size_t size, Recipe* recipe, int* step = nullptr);

}  // namespace train
}  // namespace ap
