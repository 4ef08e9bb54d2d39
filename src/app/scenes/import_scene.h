// Scene "Your model's attention" (id "import"): attention weights imported from a file (.npy or .json, shape
// [heads, n, n] or [layers, heads, n, n], optional tokens; app/array_io.h), shown one heatmap per head with a
// layer selector, or one head large with its numbers. Before any import it shows an honest built-in example:
// the weights of the scaled dot-product scene's default sentence, computed by the core (one layer × one head,
// seeded, not trained). The preset "trained" (source "trained") is a trained model's attention as a file of the
// learner's would hold it: the notes' sentence through the build's example model (checkpoints/example.aptc:
// coreference, 2 layers of 2 heads), fetched the first time it is asked for, every head of every layer, with
// its tokens, labelled with the model's measured held-out accuracy.
//
// The document carries the data itself (`weights`: [layers][heads][n][n] nested arrays, `tokens`), so that
// setState({scene: 'import', weights: [...], tokens: [...]}) imports through the page API too, within
// io_limits. The URL carries `source`, `layer` and `head`: the data is too big for an address (a link of a
// file's data names the file, and the page opening it says that its weights must be opened again).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/array_io.h"
#include "app/scene.h"
#include "app/trained_checkpoint.h"

namespace ap {

enum class ImportStage { Heads = 0, OneHead, Count };

struct ImportData {
  AttentionWeights w;
  std::string source;  // "example", "trained", or the file's name, or "setState"
  std::string label;   // source "trained": the model, measured ("trained on coreference, …, 2 layers × 2 heads")
  // Measured on import: how far the rows are from distributions.
  double max_row_sum_dev = 0;  // max over every row of every map of |Σ_j w_ij − 1|
  float min_value = 0, max_value = 0;
  bool negative = false;
};

struct ImportParams {
  int layer = 0, head = 0;
};

class ImportScene final : public Scene {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit ImportScene(bool defer = false);
  void build_first() override;  // the default model, now or when first used

  const char* id() const override { return "import"; }
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
  std::vector<int> substeps() const override { return {1, 1}; }
  // what: the head (of the current layer) whose cell (i query, j key) is hovered.
  std::string explain(int what, int i, int j) const override;

  const ImportData& data() const { return data_; }
  const ImportParams& params() const { return params_; }
  bool is_example() const { return data_.source == "example"; }
  // The token of row i ("3" when the file gave none).
  std::string token(int i) const;
  const std::vector<std::string>& labels() const { return labels_; }

  // ---- the trained example (fetched as the trained views' checkpoints are: views/checkpoint_fetch.h) ----
  using Checkpoint = CheckpointSlot::State;
  const CheckpointSlot& checkpoint_slot() const { return example_; }
  Checkpoint checkpoint() const { return example_.state(); }
  const Status& checkpoint_error() const { return example_.error(); }
  int checkpoint_failures() const { return example_.failures(); }
  bool trained_pending() const { return pending_; }  // the preset "trained" waits for the model
  // The fetched bytes: read in slices by poll (the frame that receives them stays short), then the waiting
  // example is shown.
  void receive_checkpoint(const std::vector<unsigned char>& bytes);
  void checkpoint_failed(const Status& error);
  void poll() override;
  bool wants_time() const override { return example_.reading(); }
  Status load_preset(const std::string& id);
  // Where the data on screen comes from, in the current language (localized) or English: the trained model's
  // measured label, "The built-in example", or the file's name.
  std::string source_label(bool localized = true) const;

  // A file's bytes (picked, dropped): read, checked and installed, or refused with nothing changed.
  Status import_file(const std::string& name, const std::vector<unsigned char>& bytes);
  Status select(int layer, int head);  // the layer and head shown

 private:
  void show_checkpoint();  // the example's checkpoint is read: the view that waited for it
  ImportData data_;
  ImportParams params_;
  std::vector<std::string> labels_;  // tokens, or 1 … n
  CheckpointSlot example_{BuildCheckpoint::Example};
  bool pending_ = false;
  ImportParams pending_params_;  // the layer and head a waiting trained example was asked for
};

// The built-in example (the SDPA scene's default weights, by the core) and the row-sum measurement.
Status import_example(ImportData* out);
// The notes' sentence through a trained model: every head of every layer, its words as the tokens.
Status import_trained(train::Trainer& t, ImportData* out);
void measure_import(ImportData* d);

}  // namespace ap
