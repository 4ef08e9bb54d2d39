// Scene "Self-attention" (id "self"): Q, K, V from one sentence through W^Q, W^K, W^V; a toggle Q = K = V = X
// that shows each token attending mostly to itself (the notes' argument for three matrices, measured); and a
// toggle to cross-attention, queries from a second sentence and keys/values from the first (the notes'
// misconception "all attention connects any two positions of one sequence"). The numbers are
// core/self_attention.h's; the weights are seeded ("random, seed s"), or, with weights "trained" (preset
// "trained"), a layer of the build's coreference model: its X and its learned Q, K, V, beside seeded matrices
// on the same X (the notes' "why three matrices" with matrices that learned something).
//
// The trained view: the checkpoint (app/trained_checkpoint.h) is fetched the first time it is asked for; until
// it has arrived the scene keeps what it shows, and the document already names the view it waits for.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/trainable_scene.h"
#include "core/self_attention.h"

namespace ap {

enum class SelfStage { Qkv = 0, Weights, Output, SelfWeight, Count };
// Scene::explain's `what`: a cell of one of the matrices shown.
enum class SelfItem { X = 0, X2, Q, K, V, Weights, Output, Measured, RandomWeights };  // Measured: i = setting (3: trained), j = token

namespace self_limits {
constexpr int kMaxTokens = 32;   // per sentence: a heatmap with readable labels
constexpr int kMaxDModel = 128;  // d_model (d_k ≤ d_model)
}  // namespace self_limits

// The scene's parameters: the core's, and which weights the view shows.
struct SelfSceneParams : SelfAttnParams {
  bool trained = false;  // weights "trained": a layer of the coreference checkpoint (d_model, d_k are its)
  int layer = 2;         // 1-based, trained only: the layer shown (the last decides "it" → its noun)
};

class SelfScene final : public TrainableParamScene<SelfSceneParams, SelfAttnModel> {
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

  // ---- the trained view ----
  // The view hands over the fetched bytes (or checkpoint_failed); a waiting trained view is then applied.
  void receive_checkpoint(const std::vector<unsigned char>& bytes);
  // "trained on coreference, N steps, held-out accuracy x %" or "random, seed s" (the seeded side's seed).
  std::string weights_label(bool localized = true) const;
  std::string random_label(bool localized = true) const;
  int trained_layers() const;  // the checkpoint's layers (the default recipe's until it has arrived)

  void write_params(nlohmann::json& doc) const override;

 protected:
  const FieldTable<SelfSceneParams>& fields() const override;
  const std::vector<ScenePreset<SelfSceneParams>>& preset_table() const override;
  Status compute(const SelfSceneParams& p, SelfAttnModel* out) const override;
  nlohmann::json results(const SelfSceneParams& p, const SelfAttnModel& m, bool with_matrices) const override;
  const char* matrices_key() const override { return "Q"; }
  std::string label_of(const SelfSceneParams& p, const SelfAttnModel& m, bool localized) const;
  Status complete(const nlohmann::json& in, SelfSceneParams* p) const override;
  bool must_wait(const SelfSceneParams& p) const override;
  void wait_for(const SelfSceneParams& p) override;
  void installed() override;
  std::vector<const char*> unchecked_results() const override { return {"checkpoint", "checkpoint_error"}; }

};


// The scene's limits on top of the core's (kMaxTokens per sentence, kMaxDModel), then build_self_attention.
Status compute_self(const SelfAttnParams& p, SelfAttnModel* out);

}  // namespace ap
