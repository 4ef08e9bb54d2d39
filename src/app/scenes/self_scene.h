// Scene "Self-attention" (id "self"): Q, K, V from one sentence through W^Q, W^K, W^V; a toggle Q = K = V = X
// that shows each token attending mostly to itself (the notes' argument for three matrices, measured); and a
// toggle to cross-attention, queries from a second sentence and keys/values from the first (the notes'
// misconception "all attention connects any two positions of one sequence"). The numbers are
// core/self_attention.h's; the weights are seeded, not trained.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/param_scene.h"
#include "core/self_attention.h"

namespace ap {

enum class SelfStage { Qkv = 0, Weights, Output, SelfWeight, Count };
// Scene::explain's `what`: a cell of one of the matrices shown.
enum class SelfItem { X = 0, X2, Q, K, V, Weights, Output, Measured };

namespace self_limits {
constexpr int kMaxTokens = 32;   // per sentence: a heatmap with readable labels
constexpr int kMaxDModel = 128;  // d_model (d_k ≤ d_model)
}  // namespace self_limits

class SelfScene final : public ParamScene<SelfAttnParams, SelfAttnModel> {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit SelfScene(bool defer = false);

  const char* id() const override { return "self"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const TrPair* translations(size_t* count) const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;

  static const char* setting_title(QkSetting s);  // N_() English: "Q = K = V = X" …

 protected:
  const FieldTable<SelfAttnParams>& fields() const override;
  const std::vector<ScenePreset<SelfAttnParams>>& preset_table() const override;
  Status compute(const SelfAttnParams& p, SelfAttnModel* out) const override;
  nlohmann::json results(const SelfAttnParams& p, const SelfAttnModel& m, bool with_matrices) const override;
  const char* matrices_key() const override { return "Q"; }
};

// The scene's limits on top of the core's (kMaxTokens per sentence, kMaxDModel), then build_self_attention.
Status compute_self(const SelfAttnParams& p, SelfAttnModel* out);

}  // namespace ap
