// Scene "Luong: multiplicative attention" (id "luong"): one unidirectional RNN encoder, one decoder whose
// state s_t is computed FIRST, and Luong et al.'s three score functions — dot, general, concat — side by side
// on the same encoder states H and the same s_t (core/seq2seq.h). Then the notes' three differences from
// Bahdanau (s_t vs s_t-1, unidirectional vs bidirectional encoder, the simpler score) and each score's
// parameters. Teacher forcing: the decoder reads the reference target words.
//
// Weights "random": one seeded encoder and decoder, the three scores on the same H and s_t. Weights "trained":
// the build's three GRU encoder–decoders (checkpoints/luong.apsq: luong_recipe(dot, general, concat), the toy
// translation), each its own model; the states shown are those of the score chosen (dot for "all"). The last
// stage also trains the three here, side by side (app/seq2seq_race.h): held-out accuracy, steps to 95 %,
// alignment; setState({training: "start" | "pause" | "reset"}) drives it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/race_scene.h"
#include "app/trained_checkpoint.h"
#include "core/seq2seq.h"
#include "core/train/seq2seq_trainer.h"

namespace ap {

enum class LuongStage { States = 0, Step, Alignments, Compare, Count };

// Scene::explain's `what`: a cell of H (i source position, j unit), of the decoder states (i step, j unit),
// or of the alignment of one score function: kLuongAlignItem + int(LuongScore) (i step, j source position).
enum class LuongItem { Encoder = 0, Decoder = 1 };
constexpr int kLuongAlignItem = 10;

struct LuongParams {
  std::string source = "Le chat noir est assis sur le tapis rouge";
  std::string target = "The black cat is sitting on the red mat";
  std::string score = "all";  // the score function highlighted: "all", "dot", "general", "concat"
  int d_emb = 16;             // token embedding width, source and target (d_in = d_y)
  int d_h = 16;               // encoder width; unidirectional, so d_enc = d_h
  int d_s = 16;               // decoder state width (dot needs d_s = d_h)
  int d_a = 16;               // concat's hidden width
  double gain = 0.9;          // the encoder's recurrent gain g (make_rnn_weights)
  uint64_t seed = 42;
  // weights "trained": the build's three models (their sizes are their own: d_emb … seed apply to the seeded one)
  bool trained = false;
  bool operator==(const LuongParams& o) const {
    return source == o.source && target == o.target && score == o.score && d_emb == o.d_emb && d_h == o.d_h && d_s == o.d_s &&
           d_a == o.d_a && gain == o.gain && seed == o.seed && trained == o.trained;
  }
};

namespace luong_limits {
constexpr int kMaxTokens = 24;  // n and T: the matrices stay legible side by side
constexpr int kMaxSize = 128;   // d_emb, d_h, d_s, d_a
}  // namespace luong_limits

struct LuongModel {
  std::vector<std::string> source_tokens;  // n
  std::vector<std::string> target_tokens;  // T: y_t, the word step t should emit
  std::vector<std::string> input_tokens;   // T: y_t-1, what step t reads ("<s>", y_1 … y_T-1)
  Mat X;                                   // n × d_emb   source embeddings
  Mat Y_prev;                              // T × d_emb   embeddings of input_tokens
  RnnWeights encoder_weights;
  RnnTrace encoder;                        // encoder.H: n × d_h, the states h_j
  LuongWeights weights;
  std::vector<LuongScore> available;       // luong_available_scores(d_s, d_h)
  LuongRun run;                            // run.runs in `available` order
  std::vector<ParamShape> bahdanau_params; // the same sizes with Bahdanau's bidirectional encoder (d_enc = 2·d_h)
  // The trained view: each score's own model over these sentences (dot, general, concat), the last step EOS;
  // `shown` is the model whose H and s_t fill encoder and run.states (its gates: hover).
  bool trained = false;
  std::vector<train::Seq2SeqAlignment> trained_runs;
  int shown = 0;
  // The run of score `k`, or nullptr when it is not defined for these sizes (dot with d_s != d_h).
  const LuongScoreRun* find(LuongScore k) const;
};

// The learnable numbers of each score function (from luong_param_shapes): dot 0, general d_s·d_enc, concat
// d_a·(d_s + d_enc) + d_a; and Bahdanau's additive score (W_a, U_a, v_a) for the same sizes.
struct ScoreParamCounts {
  long long dot = 0, general = 0, concat = 0, additive = 0;
};
ScoreParamCounts score_param_counts(const LuongModel& m);

class LuongScene final : public RaceParamScene<LuongParams, LuongModel, Seq2SeqRace>, public TrainedView<LuongParams> {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built). The page's scene
  // (defer) opens on the three trained models (the seeded view shows while they come); one built now (the unit
  // tests) opens seeded.
  explicit LuongScene(bool defer = false);
  // The trained view of the notes' sentences, in the models' words (the grammar's, lowercased).
  static LuongParams trained_opening();

  // ---- the trained view ----
  // The build's checkpoint is read a slice a frame: poll reads it, and the page keeps drawing until it is.
  void poll() override;
  bool wants_time() const override { return race_.busy() || measuring_weights(); }
  void receive_checkpoint(const std::vector<unsigned char>& bytes);
  // "trained on the toy translation …, held-out words right: dot 98.4 %, …" or "random, seed 42".
  std::string weights_label(bool localized = true) const;
  std::string trained_label(bool localized = true) const;  // "" before the checkpoint arrives
  void write_params(nlohmann::json& doc) const override;
  // The build's model of score k (0 dot, 1 general, 2 concat) once arrived, else null.
  const train::Seq2SeqTrainer* trained_model(int k) const { return checkpoint_slot().seq2seq(static_cast<size_t>(k)); }

  // ---- the three trained here (the last stage: race(), with steps_to_95 per run) ----
  void write_results(nlohmann::json& doc, bool with_matrices) const override;

  const char* id() const override { return "luong"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const TrPair* translations(size_t* count) const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;


  static const char* score_title(LuongScore k);    // N_() "dot", "general", "concat"
  static const char* score_formula(LuongScore k);  // math text: "sₜᵀhⱼ" …
  // The decoder step shown by the step stage (0-based row of the run), following the timeline.
  int shown_step() const;
  std::string explain_trained(int what, int i, int j) const;

 protected:
  const FieldTable<LuongParams>& fields() const override;
  const std::vector<ScenePreset<LuongParams>>& preset_table() const override;
  Status compute(const LuongParams& p, LuongModel* out) const override;
  nlohmann::json results(const LuongParams& p, const LuongModel& m, bool with_matrices) const override;
  const char* matrices_key() const override { return "alignments"; }
  bool must_wait(const LuongParams& p) const override { return wants_checkpoint(p.trained); }
  void wait_for(const LuongParams& p) override { hold_for_checkpoint(p); }
  Status check_waiting(const LuongParams& p) const override;  // the sentences against the toy vocabulary
  void installed() override { release_hold(); }
  std::vector<const char*> unchecked_results() const override { return {"checkpoint", "checkpoint_error"}; }
  void build_first() override;

 private:
  bool opens_trained_ = false;
};

Status compute_luong(const LuongParams& p, LuongModel* out);

}  // namespace ap
