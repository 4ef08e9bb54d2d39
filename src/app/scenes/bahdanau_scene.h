// Scene "Bahdanau (additive) attention" (id "bahdanau"): a bidirectional RNN encoder reads the source sentence,
// and a decoder, reading the reference target words (teacher forcing), attends at every step t with its
// PREVIOUS state s_{t-1}:
//   e_tj = v_aᵀ tanh(W_a s_{t-1} + U_a h_j),   α_t = softmax(e_t),   c_t = Σ_j α_tj h_j
// All numbers come from core/seq2seq.h; the weights are seeded, not trained (an untrained alignment is not a
// translation alignment).
//
// Stages and sub-steps:
//   encoder:    n   (sub-step k: →h_k has read x_1 … x_k, ←h_{n-1-k} has read x_n … x_{n-1-k})
//   params:     1   (every parameter with its shape)
//   step:       T   (sub-step k: decoder step t = k+1: s_{t-1}, e_t, α_t, c_t)
//   alignment:  1   (the whole T × n matrix α)
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/race_scene.h"
#include "app/trained_checkpoint.h"
#include "core/seq2seq.h"
#include "core/train/seq2seq_trainer.h"

namespace ap {

enum class BahdanauStage { Encoder = 0, Params, Step, Alignment, Count };
// Scene::explain's `what` (i, j as given):
//   Forward, Backward, Joined:  i source position, j unit of →h, ←h or h = [→h; ←h]
//   Score, Alignment:           i decoder step (array row k = step t-1), j source position
//   Context:                    i decoder step, j unit of c_t
enum class BahdanauItem { Forward = 0, Backward, Joined, Score, Alignment, Context };

struct BahdanauParams {
  std::string source = "Le chat noir est assis sur le tapis rouge dans le salon";
  std::string target = "The black cat is sitting on the red carpet in the living room";
  int d_emb = 12;  // width of the source and target word embeddings (d_in = d_y)
  int d_h = 8;     // width of each encoder direction; d_enc = 2·d_h
  int d_s = 10;    // decoder state
  int d_a = 6;     // the attention's hidden layer
  uint64_t seed = 42;
  // weights "trained": the build's model (checkpoints/bahdanau.apsq: a GRU encoder–decoder trained on the toy
  // translation, core/train/seq2seq_trainer.h); its sizes are its own (d_emb … seed apply to the seeded model)
  bool trained = false;
  bool operator==(const BahdanauParams& o) const {
    return source == o.source && target == o.target && d_emb == o.d_emb && d_h == o.d_h && d_s == o.d_s && d_a == o.d_a &&
           seed == o.seed && trained == o.trained;
  }
};

namespace bahdanau_limits {
constexpr int kMaxWords = 32;   // tokens per sentence (n, T)
constexpr int kMaxWidth = 64;   // d_emb, d_h, d_s, d_a
constexpr double kGain = 0.9;   // the encoder RNNs' recurrent gain (make_rnn_weights): older words fade
}  // namespace bahdanau_limits

extern const char* const kBahdanauStartToken;  // "<s>": what the decoder reads at step 1

// One parameter of the whole model as the scene lists it: its shape in numbers and in symbols, its role.
struct BahdanauParamRow {
  ParamShape shape;    // "U_a", 6, 16
  const char* dims;    // "d_a × d_enc"
  const char* role;    // N_() what it does
};

struct BahdanauModel {
  std::vector<std::string> source_tokens;  // n
  std::vector<std::string> target_tokens;  // T
  std::vector<std::string> decoder_reads;  // T: "<s>", y_1 … y_{T-1} (teacher forcing)
  Mat X;       // n × d_emb   source embeddings
  Mat Y_prev;  // T × d_emb   row k = embedding of decoder_reads[k]
  BiRnnWeights encoder;
  BiRnnTrace encoded;  // fwd.H, bwd.H: n × d_h; H: n × 2·d_h
  BahdanauWeights weights;
  BahdanauRun run;                     // T × n scores and alignment, T × d_enc contexts, states …
  std::vector<BahdanauAttend> steps;   // per step: bahdanau_attend(s_{t-1} = run.queries.row(k), H): its terms
  std::vector<BahdanauParamRow> params;  // encoder, attention and decoder parameters
  // The trained view: the run of the build's model (or of the page's run of its recipe) over these sentences (every quantity above is filled from it;
  // the encoder's and decoder's are GRUs, so their gates are here), and what the model is.
  bool trained = false;
  train::Seq2SeqAlignment trained_run;
};

// Tokenises both sentences, embeds them (seeded), encodes, decodes. Refuses bad parameters with a message.
Status compute_bahdanau(const BahdanauParams& p, BahdanauModel* out);

class BahdanauScene final : public RaceParamScene<BahdanauParams, BahdanauModel, Seq2SeqRace>, public TrainedView<BahdanauParams> {
 public:
  // defer: build the first model when first used (make_scenes), not now (Scene::ensure_built). The page's scene
  // (defer) opens on the trained model: the seeded one shows while the checkpoint comes (and stays, with the
  // reason, if it cannot come); a scene built now (the unit tests) opens seeded.
  explicit BahdanauScene(bool defer = false);
  // The trained view of the notes' sentences, in the model's words (the grammar's, lowercased).
  static BahdanauParams trained_opening();

  // ---- the trained view ----
  // The view hands over the fetched bytes (or checkpoint_failed); a waiting trained view is then applied.
  void receive_checkpoint(const std::vector<unsigned char>& bytes);
  // "trained on the toy translation, 600 steps: held-out 99.3 % of words, alignment 93.2 %" or "random, seed 42".
  std::string weights_label(bool localized = true) const;
  std::string trained_label(bool localized = true) const;  // the build's model, measured ("" before it arrives)
  void write_params(nlohmann::json& doc) const override;

  // ---- its recipe trained here (the training panel) ----
  // The build's recipe trained in the page in slices (app/seq2seq_race.h); once done, the trained view shows the
  // page's model (labelled "trained in this page"); reset brings the build's back. setState({training}): race().
  const Status& training_error() const { return training_error_; }  // the page's model could not be shown
  void poll() override;
  bool wants_time() const override { return race_.busy() || measuring_weights(); }  // a race, or the checkpoint read

  const char* id() const override { return "bahdanau"; }
  const char* title() const override;
  LessonInfo lesson() const override;
  const std::vector<StageInfo>& stages() const override;
  const TrPair* translations(size_t* count) const override;
  std::vector<int> substeps() const override;
  std::string explain(int what, int i, int j) const override;


  // The source position (encoder stage) or decoder step (step stage) the timeline is on: 0-based, clamped.
  int current_position() const;
  int current_step() const;

 protected:
  const FieldTable<BahdanauParams>& fields() const override;
  const std::vector<ScenePreset<BahdanauParams>>& preset_table() const override;
  Status compute(const BahdanauParams& p, BahdanauModel* out) const override;
  nlohmann::json results(const BahdanauParams& p, const BahdanauModel& m, bool with_matrices) const override;
  const char* matrices_key() const override { return "alignment"; }
  bool must_wait(const BahdanauParams& p) const override { return wants_checkpoint(p.trained); }
  void wait_for(const BahdanauParams& p) override { hold_for_checkpoint(p); }
  Status check_waiting(const BahdanauParams& p) const override;  // the sentences against the toy vocabulary
  void installed() override { release_hold(); }
  std::vector<const char*> unchecked_results() const override { return {"checkpoint", "checkpoint_error"}; }
  void build_first() override;

 private:
  bool opens_trained_ = false;
  bool run_shown_ = false;  // the slot holds the page's run (poll installed it)
  Status training_error_;
};

}  // namespace ap
