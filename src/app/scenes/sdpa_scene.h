// Scene "Scaled dot-product attention" (id "sdpa"): softmax(QKᵀ/√dₖ + M)·V computed step by step on a
// sentence (Q, K, V projected from seeded embeddings) or on Q, K, V set by hand.
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
#include "core/sdpa_pipeline.h"

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
  std::string explain(int what, int i, int j) const override;  // what: a MatrixId (app/cell_text.h)

  const SdpaModel& model() const { return model_; }
  // Builds a model from `params` and installs it, or keeps the current one and returns the error.
  Status apply(const SdpaParams& params);
  Status load_preset(const std::string& id);  // shows the preset complete (last stage)

 private:
  SdpaModel model_;
};

}  // namespace ap
