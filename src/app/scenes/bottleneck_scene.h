// Scene "The Seq2Seq bottleneck" (id "bottleneck"): an RNN encoder reads a sentence token by token and hands
// the decoder ONE vector c (its last state). How much of each source token can still be read back from c,
// and how much from the states h_j an attention decoder reads? A ridge probe over many random sentences
// measures it (core/seq2seq.h), at the sentence's length and as the sentence grows. Then the papers' own
// measurement, trained in the page (app/seq2seq_race.h): GRU encoder–decoders without and with attention, on the
// same data (reversal of 4 … 24 symbols) and the same budget, held-out accuracy against source length (the
// shape of Bahdanau et al.'s Figure 2). setState({training: "start" | "pause" | "reset"}) drives it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/race_scene.h"
#include "core/bottleneck_probe.h"
#include "core/seq2seq.h"

namespace ap {

enum class BottleneckStage { Read = 0, Compress, Probe, Grow, Trained, Count };
// Scene::explain's `what`: a cell of X (i token, j feature), of H (i token, j unit), of c (j unit), a probed
// position (i position) and a length of the curve (i index into the lengths, L = i + 1).
// TrainedLength: i index into the race's lengths, j = 0 without attention, 1 with.
enum class BottleneckItem { Source = 0, State, Context, Position, Length, TrainedLength };

// The race of the last stage: reversal_recipe without attention (run 0) and with additive attention (run 1),
// measured at these lengths on kMeasurePerLength held-out pairs each.
namespace bottleneck_race {
const std::vector<int>& lengths();  // 4, 6, … 24
constexpr int kMeasurePerLength = 40;
}  // namespace bottleneck_race

struct BottleneckParams {
  std::string text = "Le chat noir est assis sur le tapis rouge dans le salon";
  int d_in = 8;       // token embedding width
  int d_h = 32;       // encoder width: the size of c
  double gain = 0.9;  // recurrent gain g of W_h
  uint64_t seed = 7;
  // the probe's own sizes (core ProbeConfig)
  int vocab = 64;
  int l_max = 16;
  int n_train = 768;
  int n_test = 256;
  double lambda = 1e-3;
  bool operator==(const BottleneckParams& o) const {
    return text == o.text && d_in == o.d_in && d_h == o.d_h && gain == o.gain && seed == o.seed && vocab == o.vocab &&
           l_max == o.l_max && n_train == o.n_train && n_test == o.n_test && lambda == o.lambda;
  }
};

struct BottleneckModel {
  std::vector<std::string> tokens;  // n tokens of the sentence
  Mat X;                            // n × d_in   seeded embeddings of the tokens (untrained)
  RnnTrace trace;                   // the encoder over X: trace.H n × d_h, trace.last = c
  BottleneckProbe probe;            // L = 1 … l_max on random sentences, the same encoder
  int n() const { return static_cast<int>(tokens.size()); }
  const ProbeLength& at_sentence() const { return probe.lengths[static_cast<size_t>(n() - 1)]; }  // L = n
};

// The probe's configuration for these parameters (l_min = 1: the curve starts where c = h_1).
ProbeConfig bottleneck_probe_config(const BottleneckParams& p);
// A linear read-out of d_h numbers explains at most d_h of the L·d_in unit variances: min(1, d_h / (L·d_in)).
double bottleneck_bound(int d_h, int d_in, int L);
// `with_probe` false leaves out the probe (the scene's first model: the page does not pay for the probe, tens
// of milliseconds, until the scene is looked at).
Status compute_bottleneck(const BottleneckParams& p, BottleneckModel* out, bool with_probe = true);

class BottleneckScene final : public RaceParamScene<BottleneckParams, BottleneckModel, Seq2SeqRace> {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built).
  explicit BottleneckScene(bool defer = false);

  const char* id() const override { return "bottleneck"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const TrPair* translations(size_t* count) const override;
  void write_results(nlohmann::json& doc, bool with_matrices) const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;

  // The probe of the first model is run the first time anything reads the model (a frame of this scene, the
  // page API), not when the playground starts.
  const BottleneckModel& model() const;


 protected:
  void build_first() override;  // the default model without its probe (model() runs it when first read)
  void installed() override { probe_pending_ = false; }
  const FieldTable<BottleneckParams>& fields() const override;
  const std::vector<ScenePreset<BottleneckParams>>& preset_table() const override;
  Status compute(const BottleneckParams& p, BottleneckModel* out) const override;
  nlohmann::json results(const BottleneckParams& p, const BottleneckModel& m, bool with_matrices) const override;
  const char* matrices_key() const override { return "H"; }
  std::vector<const char*> unchecked_results() const override { return {"accuracy_by_length"}; }

 private:
  mutable bool probe_pending_ = false;
};

}  // namespace ap
