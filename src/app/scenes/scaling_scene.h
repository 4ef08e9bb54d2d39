// Scene "Why √dₖ" (id "scaling"): q and k with independent N(0, 1) components; the histogram of q·k with
// its measured variance (≈ dₖ) against the scaled q·k/√dₖ (≈ 1); then the softmax's largest weight and
// entropy against dₖ, with and without the scaling. Every number comes from core/scaling.h.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/scene.h"
#include "core/scaling.h"

namespace ap {

enum class ScalingStage { Dots = 0, Raw, Scaled, Softmax, Count };
// What a hovered item is (Scene::explain's `what`).
enum class ScalingItem { HistRaw = 0, HistScaled, SweepMaxWeight, SweepEntropy, SweepVariance };

class ScalingScene final : public Scene {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit ScalingScene(bool defer = false);
  void build_first() override;  // the default model, now or when first used

  const char* id() const override { return "scaling"; }
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

  const ScalingParams& params() const { return params_; }
  const ScalingResult& result() const { return result_; }
  Status apply(const ScalingParams& p);

 private:
  ScalingParams params_;
  ScalingResult result_;
};

}  // namespace ap
