// Scene "Multi-head attention" (id "multihead"): h heads, each with d_k = d_model / h, on the notes' sentence
// "The cat sat on the mat because it was tired". Every head's weights as a heatmap, the concatenation and W^O,
// and the parameter count read from the actual matrices: 4·d_model² (no biases) whatever h is
// (core/multihead.h computes all of it; the scene only sets parameters and reports).
//
//   text ──tokenize──> n tokens ──embed──> X: n × d_model
//   X ──·W_i^Q, ·W_i^K, ·W_i^V (d_model × d_k)──> Q_i, K_i, V_i: n × d_k       for i = 1 … h
//   head_i = softmax(Q_i K_iᵀ / √d_k + M) · V_i                                  n × d_k
//   Concat(head_1 … head_h): n × (h·d_k) = n × d_model ──·W^O──> output: n × d_model
//
// Stages: split (1 sub-step), heads (h sub-steps: one head at a time), concat (1), parameter count (1).
//
// Weights "random" (seeded, no biases) or "trained" (preset "trained"): the layer of the build's heads
// experiment (dist/checkpoints/heads.aptc: one layer of 2 heads that learned to name the referent of "it",
// core/train/heads.h), its X and learned W_i^Q, W_i^K, W_i^V, W^O with their biases, through the same
// multi_head_attention; each head's pattern as the trainer measured it on every held-out sentence. The
// checkpoint is fetched the first time a trained view is asked for (app/trained_checkpoint.h: TrainedView).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/trainable_scene.h"
#include "core/multihead.h"
#include "core/train/trained_qkv.h"

namespace ap {

enum class MultiheadStage { Split = 0, Heads, Concat, Params, Count };

// Scene::explain's `what` = item · kMultiheadItemStride + head (head 0 for the matrices that have none).
enum class MultiheadItem { X = 0, Q, K, V, Weights, Concat, Wo, Output };
constexpr int kMultiheadItemStride = 100;
inline int multihead_hover_id(MultiheadItem item, int head = 0) { return static_cast<int>(item) * kMultiheadItemStride + head; }

namespace multihead_limits {
constexpr int kMaxTokens = 48;  // every head's n × n weights are drawn, side by side
}

struct MultiheadParams {
  std::string text = "The cat sat on the mat because it was tired";
  int d_model = 16;
  int h = 4;  // heads; d_k = d_model / h
  MaskKind mask = MaskKind::None;
  uint64_t seed = 42;
  bool trained = false;  // weights "trained": the heads checkpoint's layer (d_model, h are its; no mask)
  bool operator==(const MultiheadParams& o) const {
    return text == o.text && d_model == o.d_model && h == o.h && mask == o.mask && seed == o.seed && trained == o.trained;
  }
};

struct MultiheadModel {
  std::vector<std::string> tokens;            // n
  Mat X;                                      // n × d_model: seeded embeddings + position codes
  MultiHeadWeights weights;                   // W_i^Q, W_i^K, W_i^V (d_model × d_k), W^O (d_model × d_model)
  MultiHeadTrace trace;                       // Q_i, K_i, V_i, every head's intermediates, concat, output
  std::vector<HeadFocus> focus;               // per head: mean entropy, mean largest weight, top key per row
  MultiHeadParamCount count;                  // this layer's parameters, counted from its matrices
  std::vector<MultiHeadParamCount> table;     // every h dividing d_model (up to 16), each built and counted
  int pad_count = 0;                          // "[PAD]" tokens (the padding mask hides them)
  bool trained = false;                       // X and the weights are the heads checkpoint's layer
  int d_k() const { return weights.d_head; }
  int n() const { return static_cast<int>(tokens.size()); }
};

class MultiheadScene final : public TrainableParamScene<MultiheadParams, MultiheadModel> {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit MultiheadScene(bool defer = false);

  const char* id() const override { return "multihead"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const TrPair* translations(size_t* count) const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;

  // The query row the scene reports each head's choice for: "it" (or "它") when the sentence has it, else the last token.
  int focus_query() const;

  // ---- the trained view ----
  // The view hands over the fetched bytes (or checkpoint_failed); a waiting trained view is then applied.
  void receive_checkpoint(const std::vector<unsigned char>& bytes);
  // Each trained head's "it" row, measured on every held-out sentence (empty until the checkpoint is read).
  const std::vector<train::HeadPattern>& head_patterns() const;
  // "trained on naming the referent, N steps, held-out accuracy x %" or "random, seed s".
  std::string weights_label(bool localized = true) const;
  // The checkpoint's recipe (the default's until it has arrived).
  train::Recipe trained_recipe() const;

  void write_params(nlohmann::json& doc) const override;

 protected:
  const FieldTable<MultiheadParams>& fields() const override;
  const std::vector<ScenePreset<MultiheadParams>>& preset_table() const override;
  Status compute(const MultiheadParams& p, MultiheadModel* out) const override;
  nlohmann::json results(const MultiheadParams& p, const MultiheadModel& m, bool with_matrices) const override;
  const char* matrices_key() const override { return "weights"; }
  std::string label_of(const MultiheadParams& p, const MultiheadModel& m, bool localized) const;
  Status complete(const nlohmann::json& in, MultiheadParams* p) const override;
  bool must_wait(const MultiheadParams& p) const override { return wants_checkpoint(p.trained); }
  void wait_for(const MultiheadParams& p) override { hold_for_checkpoint(p); }
  void installed() override { release_hold(); }
  std::vector<const char*> unchecked_results() const override { return {"checkpoint", "checkpoint_error"}; }
};

// Validates `p` and builds everything, or nothing. `table` (may be null): a parameter table already built for
// the same d_model and seed, reused instead of building every layer again.
Status compute_multihead(const MultiheadParams& p, const std::vector<MultiHeadParamCount>* table, MultiheadModel* out);
// The same from a trained layer (core/train/trained_qkv.h): its words, X and weights; no mask.
Status compute_multihead_trained(const train::TrainedLayer& layer, uint64_t seed, const std::vector<MultiHeadParamCount>* table,
                                 MultiheadModel* out);

}  // namespace ap
