// Scene "Scaled dot-product attention" (id "sdpa"): softmax(QKᵀ/√dₖ + M)·V computed step by step on a
// sentence (Q, K, V projected from seeded embeddings), on Q, K, V set by hand, or on the Q, K, V of a trained
// model (preset "it-trained", weights: "trained").
//
// The trained view: the build's checkpoint of the coreference model (dist/checkpoints/coref.aptc, made by
// tools/make_checkpoint.cpp) is fetched the first time a trained view is asked for — never before. The
// sentence runs through the model (core/train/trained_qkv.h) and one layer's Q, K, V (with biases, as the
// model computes them from that layer's input) become hand-set Q, K, V here: the scene computes the scores,
// 1/√d and softmax with the same code as always, no mask (the model hides only padding, and there is none).
// Layer L, the last, decides: its "it" row points at the referent; the other layer is one click away.
// Until the checkpoint has arrived the scene keeps what it shows; one that cannot be read leaves a message
// (checkpoint_error) and the weights as they were.
//
// Stages (the lecture notes' flow): Q,K,V → Q·Kᵀ → ÷√dₖ → mask → softmax → ×V → output. Sub-steps:
//   scores:        n·m cells, row-major (cell (i,j) is sub-step i·m + j)
//   softmax:       kSoftmaxPhases per row: exp, row sum, divide (see softmax_cursor)
//   weighted sum:  n rows
//   others:        1 (the whole matrix at once)
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "app/scene_training.h"
#include "app/trained_checkpoint.h"
#include "core/sdpa_pipeline.h"
#include "core/train/trained_qkv.h"

namespace ap {

enum class SdpaStage { Qkv = 0, Scores, Scale, Mask, Softmax, WeightedSum, Output, Count };
constexpr int kSdpaStageCount = static_cast<int>(SdpaStage::Count);

// The softmax stage runs row by row, each row in three phases.
enum class SoftmaxPhase { Exp = 0, Sum = 1, Divide = 2 };
constexpr int kSoftmaxPhases = 3;
struct SoftmaxCursor {
  int row;             // the row being computed (the last row once complete)
  SoftmaxPhase phase;  // its phase
  int rows_done;       // rows whose weights are final
  int rows_with_exps;  // rows whose exponentials are shown
  int rows_with_sum;   // rows whose sum is shown
  bool running;        // false once every row is done
};
SoftmaxCursor softmax_cursor(int done_substeps, int n);

// Sub-steps of each stage for n queries and m keys (the table above).
std::vector<int> sdpa_substeps(int n, int m);

class SdpaScene final : public Scene {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit SdpaScene(bool defer = false);
  ~SdpaScene() override;
  void build_first() override;  // the default model, now or when first used  // the default sentence (always builds)

  const char* id() const override { return "sdpa"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const std::vector<PresetInfo>& presets() const override;
  const TrPair* translations(size_t* count) const override;
  void write_params(nlohmann::json& doc) const override;
  void write_results(nlohmann::json& doc, bool with_matrices) const override;
  Status prepare(const nlohmann::json& doc, std::unique_ptr<SceneChange>* change) const override;
  void commit(std::unique_ptr<SceneChange> change) override;
  const std::vector<UrlParam>& url_params() const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;  // what: a MatrixId (app/scenes/sdpa_cell_text.h)

  const SdpaModel& model() const { return model_; }
  // Builds a model from `params` and installs it, or keeps the current one and returns the error.
  Status apply(const SdpaParams& params);
  Status load_preset(const std::string& id);  // shows the preset complete (last stage)

  // ---- the trained view ----
  using Checkpoint = CheckpointSlot::State;
  const CheckpointSlot& checkpoint_slot() const { return ck_; }
  bool trained() const { return trained_; }            // the model shows a trained layer
  bool trained_pending() const { return pending_; }    // a trained view waits for the checkpoint
  const train::TrainedQkv& trained_qkv() const { return qkv_; }
  int trained_layer() const { return layer_; }         // 0-based
  Checkpoint checkpoint() const { return ck_.state(); }
  const Status& checkpoint_error() const { return ck_.error(); }
  int checkpoint_failures() const { return ck_.failures(); }  // one more per failure (the view reports it)
  // The view hands over the fetched bytes (or the fetch's failure); a pending trained view is installed once
  // they are read (poll reads them in slices).
  void receive_checkpoint(const std::vector<unsigned char>& bytes);
  void checkpoint_failed(const Status& error);
  // "trained on coreference, N steps, held-out accuracy x %", "random, seed s" or "Q, K, V set by hand".
  std::string weights_label(bool localized = true) const;
  // The trained view of `text` at `layer` (0-based; −1: the last), through prepare() as setState does.
  Status show_trained(const std::string& text, int layer);
  // The training panel (app/scene_training.h): the learner trains this model again; the view follows.
  SceneTraining& training() { return training_; }
  const SceneTraining& training() const { return training_; }
  const Status& training_error() const { return training_error_; }  // the last weights that could not be shown
  void poll() override;
  bool wants_time() const override { return training_.wants_frames() || ck_.updating() || ck_.reading(); }

 private:
  void show_checkpoint();  // the build's checkpoint is read: the view that waited for it
  SdpaModel model_;
  bool trained_ = false, pending_ = false;
  int layer_ = 0, pending_layer_ = -1;
  train::TrainedQkv qkv_;
  std::vector<std::string> pending_words_;
  CheckpointSlot ck_;
  SceneTraining training_{BuildCheckpoint::Coref};
  Status training_error_;
};


}  // namespace ap
