// Scene "Masks and a bug lab" (id "masks"): a padded batch of sentences of different lengths, its padding mask
// and the causal mask (−∞ added before softmax), the weights of one sentence computed correctly and with a
// real implementation bug, and every bug's damage measured on the same batch (core/mask_lab.h). Then "train with
// the bug" (app/bug_training.h): a tiny causal language model trained with its causal mask and with the mask
// forgotten, and with the mask applied after the softmax; setState({training: "start" | "pause" | "reset"}) drives it, results.bug_training reports it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/bug_training.h"
#include "app/race_scene.h"
#include "core/mask_lab.h"

namespace ap {

enum class MasksStage { Batch = 0, Masks, Weights, Damage, Training, Count };
// Scene::explain's `what`: a cell of the mask (i query, j key), of the correct or the buggy weights.
enum class MasksItem { Hidden = 0, Correct, Variant };

struct MasksParams {
  // The default teaches the correct computation first (no bug), on a batch whose first sentence (the one shown)
  // is padded, so that the padding mask shows in the default walk; every bug is one click away.
  std::vector<std::string> sentences = {"I love cats", "the cat sat on the mat", "attention is all you need .", "hello"};
  int pad_to = 0;    // L; 0: the longest sentence
  bool causal = true;
  MaskBug bug = MaskBug::None;
  int d_model = 64;  // d_k = d_model / heads
  int heads = 4;
  uint64_t seed = 42;
  int sentence = 0;  // the sentence whose matrices are shown
  bool operator==(const MasksParams& o) const {
    return sentences == o.sentences && pad_to == o.pad_to && causal == o.causal && bug == o.bug && d_model == o.d_model &&
           heads == o.heads && seed == o.seed && sentence == o.sentence;
  }
};

namespace masks_limits {
constexpr int kMaxDModel = 512;
}

struct MasksModel {
  PaddedBatch batch;
  MaskLabRun run;                // the chosen bug (or none) on the whole batch
  std::vector<MaskLabRun> bugs;  // every variant, all_mask_bugs() order (the causal ones only with causal on)
};

class MasksScene final : public RaceParamScene<MasksParams, MasksModel, BugTraining> {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit MasksScene(bool defer = false);

  const char* id() const override { return "masks"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const TrPair* translations(size_t* count) const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;


  static const char* bug_title(MaskBug b);  // N_() English
  static const char* bug_effect(MaskBug b); // N_() what goes wrong

  // "Train with the bug" (the last stage): race(), and results.bug_training once it is done.
  void write_results(nlohmann::json& doc, bool with_matrices) const override;

 protected:
  const FieldTable<MasksParams>& fields() const override;
  const std::vector<ScenePreset<MasksParams>>& preset_table() const override;
  Status compute(const MasksParams& p, MasksModel* out) const override;
  nlohmann::json results(const MasksParams& p, const MasksModel& m, bool with_matrices) const override;
  const char* matrices_key() const override { return "hidden"; }
  std::vector<const char*> unchecked_results() const override { return {"bug_training"}; }
};

Status compute_masks(const MasksParams& p, MasksModel* out);

}  // namespace ap
