// Scene "Why √dₖ" (id "scaling"): q and k with independent N(0, 1) components; the histogram of q·k with
// its measured variance (≈ dₖ) against the scaled q·k/√dₖ (≈ 1); then the softmax's largest weight and
// entropy against dₖ, with and without the scaling. Every number comes from core/scaling.h.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/param_scene.h"
#include "core/scaling.h"

namespace ap {

enum class ScalingStage { Dots = 0, Raw, Scaled, Softmax, Count };
// What a hovered item is (Scene::explain's `what`).
enum class ScalingItem { HistRaw = 0, HistScaled, SweepMaxWeight, SweepEntropy, SweepVariance };

class ScalingScene final : public ParamScene<ScalingParams, ScalingResult> {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit ScalingScene(bool defer = false);

  const char* id() const override { return "scaling"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const TrPair* translations(size_t* count) const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;

  const ScalingResult& result() const { return model_; }

 protected:
  void build_first() override;  // the defaults' result, computed once per program
  const FieldTable<ScalingParams>& fields() const override;
  const std::vector<ScenePreset<ScalingParams>>& preset_table() const override;
  Status compute(const ScalingParams& p, ScalingResult* out) const override;
  nlohmann::json results(const ScalingParams& p, const ScalingResult& m, bool with_matrices) const override;
  const char* matrices_key() const override { return ""; }  // no matrices: the results are always whole
};

}  // namespace ap
