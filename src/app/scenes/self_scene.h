// Scene "Self-attention" (id "self"): Q, K, V from one sentence through W^Q, W^K, W^V; a toggle Q = K = V = X
// that shows each token attending mostly to itself (the notes' argument for three matrices, measured); and a
// toggle to cross-attention, queries from a second sentence and keys/values from the first (the notes'
// misconception "all attention connects any two positions of one sequence"). The numbers are
// core/self_attention.h's; the weights are seeded, not trained.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "core/self_attention.h"

namespace ap {

enum class SelfStage { Qkv = 0, Weights, Output, SelfWeight, Count };
// Scene::explain's `what`: a cell of one of the matrices shown.
enum class SelfItem { X = 0, X2, Q, K, V, Weights, Output, Measured };

namespace self_limits {
constexpr int kMaxTokens = 32;   // per sentence: a heatmap with readable labels
constexpr int kMaxDModel = 128;  // d_model (d_k ≤ d_model)
}  // namespace self_limits

class SelfScene final : public Scene {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit SelfScene(bool defer = false);
  void build_first() override;  // the default model, now or when first used

  const char* id() const override { return "self"; }
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
  std::string explain(int what, int i, int j) const override;

  const SelfAttnParams& params() const { return params_; }
  const SelfAttnModel& model() const { return model_; }
  // What the controls do: build from `p`; on error nothing changes.
  Status apply(const SelfAttnParams& p);

  static const char* setting_title(QkSetting s);  // N_() English: "Q = K = V = X" …

 private:
  SelfAttnParams params_;
  SelfAttnModel model_;
};

// The scene's limits on top of the core's (kMaxTokens per sentence, kMaxDModel), then build_self_attention.
Status compute_self(const SelfAttnParams& p, SelfAttnModel* out);

}  // namespace ap
