#include "luong_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "app/weights_label.h"
#include "core/embedding.h"
#include "core/number_text.h"
#include "core/tokenizer.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kLuongStrings[] = {
    {"Luong: multiplicative attention", "Luong：乘性注意力"},
    {"Encoder states h_j and decoder states s_t", "编码器状态 h_j 与解码器状态 s_t"},
    {"One decoder step: three scores", "解码器的一步：三种评分"},
    {"Three alignment matrices", "三个对齐矩阵"},
    {"Luong vs Bahdanau", "Luong 与 Bahdanau 对比"},
    {"A unidirectional RNN reads the source left to right (Luong's encoder); the decoder computes its current state s_t FIRST, from s_t-1 and the previous target word y_t-1, before it attends.",
     "单向 RNN 从左到右读源句（Luong 的编码器）；解码器先算出当前状态 s_t（由 s_t-1 和上一个目标词 y_t-1 得到），然后才做注意力。"},
    {"The same s_t meets the same h_j three ways: dot s_t^T h_j (no parameters), general s_t^T W_a h_j, concat v_a^T tanh(W_a [s_t; h_j]); softmax turns each row of scores into attention weights α_t.",
     "同一个 s_t 以三种方式与同一组 h_j 相遇：dot s_t^T h_j（无参数）、general s_t^T W_a h_j、concat v_a^T tanh(W_a [s_t; h_j])；softmax 把每行分数变成注意力权重 α_t。"},
    {"One row per decoder step t, one column per source word j: each score function gives its own alignment (对齐), each row sums to 1. With random weights the patterns are not a translation's; with the trained models each English word looks at the French word it translates.",
     "每个解码步 t 一行，每个源词 j 一列：每种评分函数给出自己的对齐矩阵，每行之和为 1。随机权重下这些模式不是翻译的对齐；换成训练过的模型，每个英语词都看向它所翻译的法语词。"},
    {"The notes' three differences: Luong attends with the current state s_t (Bahdanau with s_t-1), reads a unidirectional encoder (Bahdanau a bidirectional one), and its dot score is simpler and cheaper.",
     "讲义列出的三点区别：Luong 用当前状态 s_t 做注意力（Bahdanau 用 s_t-1），用单向编码器（Bahdanau 用双向），点积评分更简洁高效。"},
    {"Step through the decoder (stage 2) and compare the three bars of each source word; then set d_s to 24 and see why the dot score disappears.",
     "逐步播放解码器（第 2 阶段），比较每个源词的三种权重条；再把 d_s 设为 24，看看点积评分为什么消失。"},
    {"The three scores read the same s_t and the same h_j yet weigh the source differently; dot needs no parameters but requires d_s = d_enc.",
     "三种评分读的是同一个 s_t 和同一组 h_j，却给源句分配了不同的权重；dot 不需要参数，但要求 d_s = d_enc。"},
    // presets
    {"The notes' sentence, all three scores", "讲义中的句子，三种评分"},
    {"Step through the decoder: the three scores read the same s_t and the same h_j, and still weigh the source differently.",
     "逐步播放解码器：三种评分读的是同一个 s_t 和同一组 h_j，分配给源句的权重却各不相同。"},
    {"d_s = 24, d_h = 16: no dot score", "d_s = 24，d_h = 16：没有点积评分"},
    {"A 24-unit decoder and a 16-unit encoder: s_t^T h_j is undefined, so only general (whose W_a is 24 × 16) and concat remain.",
     "解码器 24 维、编码器 16 维：s_t^T h_j 没有定义，只剩 general（其 W_a 为 24 × 16）和 concat。"},
    {"Wider states: the dot score grows", "更宽的状态：点积分数变大"},
    {"With 64 units the dot score adds 64 products: its scores spread wider than with 16 and its weights are sharper (the reason the Transformer divides by √d_k).",
     "64 维时点积是 64 个乘积之和：分数比 16 维时分布更宽，权重更尖锐（这正是 Transformer 要除以 √d_k 的原因）。"},
    {"The notes' longer pair", "讲义中更长的句对"},
    {"12 source words: every decoder step still reads all of the encoder states, not one compressed vector (the 信息瓶颈 of plain Seq2Seq).",
     "12 个源词：每个解码步仍然读取全部编码器状态，而不是一个压缩向量（普通 Seq2Seq 的信息瓶颈）。"},
    // names and hover texts (the view draws its own strings: views/luong_view.cpp)
    {"dot", "dot（点积）"},
    {"general", "general（一般）"},
    {"concat", "concat（拼接）"},
    {"reads", "读入"},
    {"score", "评分"},
    {"numbers", "参数个数"},
    {"bidirectional", "双向"},
    {"encoder", "编码器"},
    {"decoder", "解码器"},
    {"source word", "源词"},
    {"read", "读入"},
    {"will emit", "将输出"},
    // the trained view
    {"trained on the toy translation (French → English), {0} steps each; held-out words right: dot {1}, general {2}, concat {3}; words aligned to their source word: {4}, {5}, {6}",
     "在玩具翻译（法语 → 英语）上各训练 {0} 步；留出数据上词的正确率：dot {1}、general {2}、concat {3}；词对齐到其源词：{4}、{5}、{6}"},
    {"a GRU unit: h = (1 − z)·h_prev + z·n", "GRU 单元：h = (1 − z)·h_prev + z·n"},
    {"the {0} model", "{0} 模型"},
    // errors
    {"score must be one of all, dot, general, concat; got {0}", "score 必须是 all、dot、general、concat 之一；收到的是 {0}"},
    {"the {0} sentence has no tokens: type at least one word", "{0} 句子中没有 token：请至少输入一个词"},
    {"the {0} sentence has {1} tokens; the limit is {2}", "{0} 句子有 {1} 个 token，上限为 {2}"},
};

constexpr const char* kStart = "<s>";  // the decoder's input at step 1

const LuongScore kAllScores[] = {LuongScore::Dot, LuongScore::General, LuongScore::Concat};  // also the trained models' order (seq2seq_checkpoint_recipes)

using LuongPreset = ScenePreset<LuongParams>;

const std::vector<LuongPreset>& luong_presets() {
  static const std::vector<LuongPreset> kPresets = [] {
    std::vector<LuongPreset> v;
    LuongParams p;
    v.push_back({{"notes", N_("The notes' sentence, all three scores"),
                  N_("Step through the decoder: the three scores read the same s_t and the same h_j, and still weigh the source differently.")},
                 p});
    p.d_s = 24;
    v.push_back({{"dot-needs-equal-sizes", N_("d_s = 24, d_h = 16: no dot score"),
                  N_("A 24-unit decoder and a 16-unit encoder: s_t^T h_j is undefined, so only general (whose W_a is 24 × 16) and concat remain.")},
                 p});
    p = LuongParams{};
    p.d_h = p.d_s = 64;
    p.score = "dot";
    v.push_back({{"wide-states", N_("Wider states: the dot score grows"),
                  N_("With 64 units the dot score adds 64 products: its scores spread wider than with 16 and its weights are sharper (the reason the Transformer divides by √d_k).")},
                 p});
    p = LuongParams{};
    p.source = "Le chat noir est assis sur le tapis rouge dans le salon";
    p.target = "The black cat is sitting on the red carpet in the living room";
    v.push_back({{"long-sentence", N_("The notes' longer pair"),
                  N_("12 source words: every decoder step still reads all of the encoder states, not one compressed vector (the 信息瓶颈 of plain Seq2Seq).")},
                 p});
    return v;
  }();
  return kPresets;
}

// "all" (every score side by side) or one score's name.
bool valid_score_choice(const std::string& s) {
  LuongScore k;
  return s == "all" || parse_luong_score_name(s, &k);
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<LuongParams>& luong_fields() {
  using P = LuongParams;
  static const FieldTable<P> kFields = {
      {"source", at<&P::source>},
      {"target", at<&P::target>},
      {"score",
       [](const json& v, P* p) {
         if (!v.is_string() || !valid_score_choice(v.get<std::string>()))
           return Status::Error("score must be one of all, dot, general, concat; got {0}", {quote_json(v)});
         p->score = v.get<std::string>();
         return Status::Ok();
       },
       [](const P& p, json& doc) { doc["score"] = p.score; }, UrlKind::String},
      {"d_emb", at<&P::d_emb>, 1, luong_limits::kMaxSize},
      {"d_h", at<&P::d_h>, 1, luong_limits::kMaxSize},
      {"d_s", at<&P::d_s>, 1, luong_limits::kMaxSize},
      {"d_a", at<&P::d_a>, 1, luong_limits::kMaxSize},
      {"gain", at<&P::gain>, 0.0, s2s_limits::kMaxGain},
      {"seed", at<&P::seed>},
      weights_field<P>(),
  };
  return kFields;
}


// A sentence → its tokens, with the sentence named in the message ("source" / "target").
Status luong_sentence_tokens(const std::string& text, const char* which, std::vector<std::string>* out) {
  std::vector<std::string> t;
  const Status s = tokenize(text, limits::kMaxTokens, &t);
  if (!s.ok && s.code && std::strstr(s.code, "has no tokens")) return Status::Error("the {0} sentence has no tokens: type at least one word", {which});
  AP_TRY(s);
  if (static_cast<int>(t.size()) > luong_limits::kMaxTokens)
    return Status::Error("the {0} sentence has {1} tokens; the limit is {2}",
                         {which, arg(static_cast<long long>(t.size())), arg(luong_limits::kMaxTokens)});
  *out = std::move(t);
  return Status::Ok();
}

Status check_size_param(int v, const char* name) {
  if (v < 1 || v > luong_limits::kMaxSize)
    return Status::Error("{0} must be between 1 and {1}, got {2}", {name, arg(luong_limits::kMaxSize), arg(v)});
  return Status::Ok();
}

json shapes_json(const std::vector<ParamShape>& v) {
  json a = json::array();
  for (const ParamShape& s : v) a.push_back({{"name", s.name}, {"rows", s.rows}, {"cols", s.cols}});
  return a;
}

long long count_of(const std::vector<ParamShape>& v, const char* part) {
  long long n = 0;
  for (const ParamShape& s : v)
    if (s.name.find(part) != std::string::npos) n += static_cast<long long>(s.rows) * s.cols;
  return n;
}

// The results of a model as getState reports them (and as setState checks them when they come back).
json results_json(const LuongModel& m, bool with_matrices) {
  json r;
  r["n"] = m.run.n;
  r["T"] = m.run.T;
  r["d_enc"] = m.weights.d_enc;
  r["source_tokens"] = m.source_tokens;
  r["target_tokens"] = m.target_tokens;
  r["decoder_inputs"] = m.input_tokens;
  json avail = json::array();
  for (LuongScore k : m.available) avail.push_back(luong_score_name(k));
  r["available"] = avail;
  r["param_shapes"] = shapes_json(m.run.params);
  r["bahdanau_param_shapes"] = shapes_json(m.bahdanau_params);
  const ScoreParamCounts c = score_param_counts(m);
  r["score_params"] = {{"dot", c.dot}, {"general", c.general}, {"concat", c.concat}, {"additive", c.additive}};
  // Where each step puts its largest weight: argmax_j α_tj, per score function.
  json peaks = json::object();
  for (const LuongScoreRun& sr : m.run.runs) {
    json p = json::array();
    for (int t = 0; t < sr.alignment.rows(); ++t) {
      Eigen::Index j = 0;
      sr.alignment.row(t).maxCoeff(&j);
      p.push_back(static_cast<int>(j));
    }
    peaks[luong_score_name(sr.kind)] = p;
  }
  r["peaks"] = peaks;
  r["trained"] = m.trained;
  if (m.trained) {
    json tr_ = json::object();
    for (size_t k = 0; k < m.trained_runs.size(); ++k) tr_[luong_score_name(kAllScores[k])] = m.trained_runs[k].translation;
    r["translations"] = tr_;
  }
  if (with_matrices) {
    r["H"] = matrix_json(m.encoder.H);
    r["states"] = matrix_json(m.run.states);
    json scores = json::object(), align = json::object();
    for (const LuongScoreRun& sr : m.run.runs) {
      scores[luong_score_name(sr.kind)] = matrix_json(sr.scores);
      align[luong_score_name(sr.kind)] = matrix_json(sr.alignment);
    }
    r["scores"] = scores;
    r["alignments"] = align;
  }
  return r;
}

std::string quoted(const std::vector<std::string>& toks, int i) {
  if (i < 0 || i >= static_cast<int>(toks.size())) return "";
  return "\xE2\x80\x9C" + toks[static_cast<size_t>(i)] + "\xE2\x80\x9D";  // “…”
}

// "a×b + c×d + … (k terms) = e": the first products of a dot product, and its total.
std::string terms_text(const Vec& a, const Vec& b, double total) {
  std::string s;
  const int d = static_cast<int>(a.size()), shown = std::min(d, 3);
  const auto factor = [](double v) { return v < 0 ? "(" + fmt(v, 2) + ")" : fmt(v, 2); };
  for (int k = 0; k < shown; ++k) s += (k ? " + " : "") + factor(a(k)) + "×" + factor(b(k));
  if (d > shown) s += " + …";
  char tail[96];
  std::snprintf(tail, sizeof tail, " (%d %s) = %s", d, tr("terms"), fmt(total, 4).c_str());
  return s + tail;
}

}  // namespace

const LuongScoreRun* LuongModel::find(LuongScore k) const {
  for (const LuongScoreRun& r : run.runs)
    if (r.kind == k) return &r;
  return nullptr;
}

ScoreParamCounts score_param_counts(const LuongModel& m) {
  ScoreParamCounts c;
  c.dot = 0;  // s_tᵀ h_j: nothing to learn
  c.general = count_of(m.run.params, "(general)");
  c.concat = count_of(m.run.params, "(concat)");
  for (const ParamShape& s : m.bahdanau_params)
    if (s.name == "W_a" || s.name == "U_a" || s.name == "v_a") c.additive += static_cast<long long>(s.rows) * s.cols;
  return c;
}

const char* LuongScene::score_title(LuongScore k) {
  switch (k) {
    case LuongScore::General: return N_("general");
    case LuongScore::Concat: return N_("concat");
    default: return N_("dot");
  }
}

const char* LuongScene::score_formula(LuongScore k) {
  switch (k) {
    case LuongScore::General: return "eₜⱼ = sₜᵀ Wₐ hⱼ";
    case LuongScore::Concat: return "eₜⱼ = vₐᵀ tanh(Wₐ [sₜ; hⱼ])";
    default: return "eₜⱼ = sₜᵀ hⱼ";
  }
}

// Sentences → tokens → seeded embeddings; encoder states; decoder states first, then every score function
// defined for these sizes (core/seq2seq.h). The highlighted score must be one of them: dot with d_s != d_h is
// refused by the core with its explanation.
Status compute_luong(const LuongParams& p, LuongModel* out) {
  if (!valid_score_choice(p.score)) return Status::Error("score must be one of all, dot, general, concat; got {0}", {quote_json(p.score)});
  AP_TRY(check_size_param(p.d_emb, "d_emb"));
  AP_TRY(check_size_param(p.d_h, "d_h"));
  AP_TRY(check_size_param(p.d_s, "d_s"));
  AP_TRY(check_size_param(p.d_a, "d_a"));
  LuongModel m;
  AP_TRY(luong_sentence_tokens(p.source, "source", &m.source_tokens));
  AP_TRY(luong_sentence_tokens(p.target, "target", &m.target_tokens));
  // 1) teacher forcing: step t reads y_t-1, the reference word before it ("<s>" at t = 1)
  m.input_tokens.push_back(kStart);
  for (size_t t = 0; t + 1 < m.target_tokens.size(); ++t) m.input_tokens.push_back(m.target_tokens[t]);
  // 2) seeded embeddings; the target language has its own table (seed + 1): its words are other words
  AP_TRY(embed_tokens(m.source_tokens, p.d_emb, p.seed, false, &m.X));
  AP_TRY(embed_tokens(m.input_tokens, p.d_emb, p.seed + 1, false, &m.Y_prev));
  // 3) encoder: one RNN, left to right (Luong's is unidirectional): H is n × d_h, so d_enc = d_h
  AP_TRY(make_rnn_weights(p.d_emb, p.d_h, p.gain, p.seed, 0, &m.encoder_weights));
  AP_TRY(rnn_encode(m.X, m.encoder_weights, false, &m.encoder));
  // 4) decoder states first, then each score function on the same H and s_t
  AP_TRY(make_luong_weights(p.d_h, p.d_emb, p.d_s, p.d_a, p.seed, &m.weights));
  m.available = luong_available_scores(p.d_s, p.d_h);
  std::vector<LuongScore> kinds = m.available;
  LuongScore chosen;
  if (parse_luong_score_name(p.score, &chosen) && std::find(kinds.begin(), kinds.end(), chosen) == kinds.end())
    kinds.insert(kinds.begin(), chosen);  // not defined for these sizes: the core says why
  AP_TRY(luong_decode(m.encoder.H, m.Y_prev, m.weights, kinds, &m.run));
  // 5) for the comparison: Bahdanau's parameters at the same sizes, with its bidirectional encoder
  BahdanauWeights bw;
  AP_TRY(make_bahdanau_weights(2 * p.d_h, p.d_emb, p.d_s, p.d_a, p.seed, &bw));
  m.bahdanau_params = bahdanau_param_shapes(bw);
  *out = std::move(m);
  return Status::Ok();
}

// The trained view: the sentences through each of the build's three models (Seq2SeqTrainer::align, teacher
// forcing on the target given), in the seeded model's places: the rows of each score's run, and H and s_t of
// the model chosen (dot for "all"). The seeded model of the same sizes (16 each, the trained ones') keeps the
// parameter tables. Words outside the toy vocabulary are refused by name.
Status compute_luong_trained(const LuongParams& p, const std::vector<const train::Seq2SeqTrainer*>& models, LuongModel* out) {
  if (models.size() != 3 || !models[0] || !models[1] || !models[2]) return Status::Error("the trained model has not arrived yet");
  LuongParams sized = p;
  const train::Seq2SeqRecipe& r = models[0]->recipe();
  sized.d_emb = r.d_emb;
  sized.d_h = sized.d_s = sized.d_a = r.d_h;
  sized.trained = false;
  LuongModel m;
  AP_TRY(compute_luong(sized, &m));
  std::vector<std::string> source, target;
  AP_TRY(luong_sentence_tokens(p.source, "source", &source));
  AP_TRY(luong_sentence_tokens(p.target, "target", &target));
  m.trained_runs.resize(3);
  for (size_t k = 0; k < 3; ++k) AP_TRY(models[k]->align(source, target, &m.trained_runs[k]));
  LuongScore chosen = LuongScore::Dot;
  (void)parse_luong_score_name(p.score, &chosen);
  m.shown = chosen == LuongScore::General ? 1 : chosen == LuongScore::Concat ? 2 : 0;
  const train::Seq2SeqAlignment& a = m.trained_runs[static_cast<size_t>(m.shown)];
  m.trained = true;
  m.source_tokens = a.source;
  m.target_tokens = a.target;
  m.target_tokens.push_back("</s>");  // the step that ends the sentence attends too
  m.input_tokens = a.reads;
  m.X = a.X;
  m.Y_prev = a.Y_prev;
  m.encoder.n = static_cast<int>(a.H.rows());
  m.encoder.d_in = static_cast<int>(a.X.cols());
  m.encoder.d_h = static_cast<int>(a.H.cols());
  m.encoder.H = a.H;
  m.encoder.pre = a.H;  // a GRU has no single pre-activation: the hover reads its gates (trained_runs)
  m.encoder.last = a.H.row(a.H.rows() - 1).transpose();
  m.run.n = static_cast<int>(a.alpha.cols());
  m.run.T = static_cast<int>(a.alpha.rows());
  m.run.s0 = a.s0.row(0).transpose();
  m.run.states = a.states;
  m.available = {LuongScore::Dot, LuongScore::General, LuongScore::Concat};
  m.run.runs.clear();
  for (size_t k = 0; k < 3; ++k) {
    const train::Seq2SeqAlignment& ak = m.trained_runs[k];
    LuongScoreRun sr;
    sr.kind = kAllScores[k];
    sr.scores = ak.scores;
    sr.alignment = ak.alpha;
    sr.contexts = ak.contexts;
    sr.score_max.resize(static_cast<Eigen::Index>(ak.score_max.size()));
    sr.exp_sum.resize(static_cast<Eigen::Index>(ak.exp_sum.size()));
    for (size_t t = 0; t < ak.score_max.size(); ++t) {
      sr.score_max(static_cast<Eigen::Index>(t)) = ak.score_max[t];
      sr.exp_sum(static_cast<Eigen::Index>(t)) = ak.exp_sum[t];
    }
    m.run.runs.push_back(std::move(sr));
  }
  *out = std::move(m);
  return Status::Ok();
}

LuongScene::LuongScene(bool defer) : TrainedView<LuongParams>(BuildCheckpoint::Luong), opens_trained_(defer) {
  start(defer);
  using train::Seq2SeqAttention;
  const Status s = race_.configure(seq2seq_checkpoint_recipes(BuildCheckpoint::Luong));
  (void)s;  // the build's recipes are valid (tested)
}

Status LuongScene::check_waiting(const LuongParams& p) const { return check_toy_sentences(p, luong_sentence_tokens); }

LuongParams LuongScene::trained_opening() {
  LuongParams p;
  const train::TranslationPair notes = train::toy_notes_pair();
  p.source = train::words_text(notes.fr);
  p.target = train::words_text(notes.en);
  p.trained = true;
  return p;
}

void LuongScene::build_first() {
  ParamScene::build_first();  // the seeded model: on screen until the trained ones are here
  if (opens_trained_) hold_for_checkpoint(trained_opening());
}

void LuongScene::poll() {
  (void)read_checkpoint_slice([this](const LuongParams& p) { return apply(p); });
}

void LuongScene::receive_checkpoint(const std::vector<unsigned char>& bytes) {
  take_checkpoint(bytes, [this](const LuongParams& p) { return apply(p); });
}

void LuongScene::write_params(json& doc) const { write_fields(fields(), shown(params_), doc); }

std::string LuongScene::weights_label(bool localized) const {
  return model_.trained ? trained_label(localized) : random_weights_label(params_.seed, localized);
}

std::string LuongScene::trained_label(bool localized) const {
  if (!trained_model(0) || !trained_model(1) || !trained_model(2)) return {};
  std::vector<std::string> a{std::to_string(trained_model(0)->evaluated_step())};
  for (int k = 0; k < 3; ++k) a.push_back(fmt_percent(trained_model(k)->curve().back().accuracy));
  for (int k = 0; k < 3; ++k) a.push_back(fmt_percent(trained_model(k)->curve().back().alignment));
  const char* t = N_("trained on the toy translation (French → English), {0} steps each; held-out words right: dot {1}, general {2}, concat {3}; words aligned to their source word: {4}, {5}, {6}");
  return localized ? tr_format(t, a) : format_template(t, a);
}

void LuongScene::write_results(json& doc, bool with_matrices) const {
  RaceParamScene::write_results(doc, with_matrices);
  // The race's comparison once trained: per score, the steps to 95 % held-out words right (−1: not reached).
  json& runs = doc["training"]["runs"];
  for (int k = 0; k < race_.runs() && k < static_cast<int>(runs.size()); ++k) runs[static_cast<size_t>(k)]["steps_to_95"] = race_.steps_to(k, 0.95);
}

const FieldTable<LuongParams>& LuongScene::fields() const { return luong_fields(); }
const std::vector<ScenePreset<LuongParams>>& LuongScene::preset_table() const { return luong_presets(); }
Status LuongScene::compute(const LuongParams& p, LuongModel* out) const {
  if (!p.trained) return compute_luong(p, out);
  if (checkpoint() == CheckpointSlot::State::Failed) return checkpoint_error();
  return compute_luong_trained(p, {trained_model(0), trained_model(1), trained_model(2)}, out);
}
json LuongScene::results(const LuongParams& p, const LuongModel& m, bool with_matrices) const {
  (void)p;
  json r = results_json(m, with_matrices);
  if (m.trained) r["label"] = trained_label(false);
  write_checkpoint_state(r);
  return r;
}

const char* LuongScene::title() const { return N_("Luong: multiplicative attention"); }

LessonInfo LuongScene::lesson() const {
  return {"eₜⱼ = sₜᵀhⱼ  |  sₜᵀWₐhⱼ  |  vₐᵀ tanh(Wₐ[sₜ; hⱼ])",
          N_("Step through the decoder (stage 2) and compare the three bars of each source word; then set d_s to 24 and see why the dot score disappears."),
          N_("The three scores read the same s_t and the same h_j yet weigh the source differently; dot needs no parameters but requires d_s = d_enc.")};
}

const std::vector<StageInfo>& LuongScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"states", N_("Encoder states h_j and decoder states s_t"), "hⱼ = tanh(W^x xⱼ + W^h hⱼ₋₁ + b),   sₜ = tanh(W^s sₜ₋₁ + W^y yₜ₋₁ + b^s)",
       N_("A unidirectional RNN reads the source left to right (Luong's encoder); the decoder computes its current state s_t FIRST, from s_t-1 and the previous target word y_t-1, before it attends.")},
      {"step", N_("One decoder step: three scores"), "eₜⱼ = sₜᵀhⱼ  |  sₜᵀWₐhⱼ  |  vₐᵀ tanh(Wₐ[sₜ; hⱼ]),   αₜ = softmax(eₜ)",
       N_("The same s_t meets the same h_j three ways: dot s_t^T h_j (no parameters), general s_t^T W_a h_j, concat v_a^T tanh(W_a [s_t; h_j]); softmax turns each row of scores into attention weights α_t.")},
      {"alignments", N_("Three alignment matrices"), "αₜⱼ = exp(eₜⱼ) / Σₖ exp(eₜₖ),   cₜ = Σⱼ αₜⱼ hⱼ",
       N_("One row per decoder step t, one column per source word j: each score function gives its own alignment (对齐), each row sums to 1. With random weights the patterns are not a translation's; with the trained models each English word looks at the French word it translates.")},
      {"compare", N_("Luong vs Bahdanau"), "Bahdanau: vₐᵀ tanh(Wₐ sₜ₋₁ + Uₐ hⱼ)     Luong: sₜᵀ hⱼ",
       N_("The notes' three differences: Luong attends with the current state s_t (Bahdanau with s_t-1), reads a unidirectional encoder (Bahdanau a bidirectional one), and its dot score is simpler and cheaper.")},
  };
  return kStages;
}


const TrPair* LuongScene::translations(size_t* count) const { return translation_table(kLuongStrings, count); }

// States: one sub-step per encoder row, then per decoder row. Step: one per decoder step. Alignments: one row
// at a time.
std::vector<int> LuongScene::substeps() const {
  const int n = std::max(1, model_.run.n), T = std::max(1, model_.run.T);
  return {n + T, T, T, 1};
}

int LuongScene::shown_step() const {
  const int T = std::max(1, model_.run.T);
  if (timeline.stage() != static_cast<int>(LuongStage::Step)) return T - 1;
  return std::clamp(timeline.done_substeps(), 0, T - 1);
}

// A hovered cell of the trained view: the GRU's gates for a state, the model's own score and softmax for a weight.
std::string LuongScene::explain_trained(int what, int i, int j) const {
  const LuongModel& m = model_;
  const int n = m.run.n, T = m.run.T;
  char buf[640];
  const std::string model_name = tr_format(N_("the {0} model"), {tr(score_title(kAllScores[m.shown]))});
  if (what == static_cast<int>(LuongItem::Encoder)) {
    const train::Seq2SeqAlignment& a = m.trained_runs[static_cast<size_t>(m.shown)];
    if (i < 0 || i >= n || j < 0 || j >= a.z_fwd.cols()) return {};
    std::snprintf(buf, sizeof buf, "%s, %s, %s %d %s: h_%d[%d] = %s\n%s: z = %s, n = %s", model_name.c_str(), tr("encoder"), tr("source word"), i + 1,
                  quoted(m.source_tokens, i).c_str(), i + 1, j + 1, fmt(m.encoder.H(i, j), 4).c_str(), tr("a GRU unit: h = (1 − z)·h_prev + z·n"),
                  fmt(a.z_fwd(i, j), 3).c_str(), fmt(a.n_fwd(i, j), 3).c_str());
    return buf;
  }
  if (what == static_cast<int>(LuongItem::Decoder)) {
    if (i < 0 || i >= T || j < 0 || j >= m.run.states.cols()) return {};
    std::snprintf(buf, sizeof buf, "%s, %s, %s t = %d (%s %s, %s %s): s_%d[%d] = %s", model_name.c_str(), tr("decoder"), tr("step"), i + 1, tr("read"),
                  quoted(m.input_tokens, i).c_str(), tr("will emit"), quoted(m.target_tokens, i).c_str(), i + 1, j + 1,
                  fmt(m.run.states(i, j), 4).c_str());
    return buf;
  }
  const int k = what - kLuongAlignItem;
  if (k < 0 || k > 2 || i < 0 || i >= T || j < 0 || j >= n) return {};
  const LuongScoreRun* sr = m.find(kAllScores[k]);
  if (!sr) return {};
  std::snprintf(buf, sizeof buf, "%s, t = %d %s → j = %d %s\ne = %s\nα = exp(e − max) / Σ exp(e_k − max) = exp(%s − %s) / %s = %s",
                tr_format(N_("the {0} model"), {tr(score_title(kAllScores[k]))}).c_str(), i + 1, quoted(m.target_tokens, i).c_str(), j + 1,
                quoted(m.source_tokens, j).c_str(), fmt(sr->scores(i, j), 4).c_str(), fmt(sr->scores(i, j), 4).c_str(),
                fmt(sr->score_max(i), 4).c_str(), fmt(sr->exp_sum(i), 4).c_str(), fmt(sr->alignment(i, j), 4).c_str());
  return buf;
}

// The exact arithmetic of a hovered cell. For an alignment cell the score is redone by the core for that one
// step (luong_attend), to show the vectors it multiplies; the softmax is spelt out from the run's scores.
std::string LuongScene::explain(int what, int i, int j) const {
  const LuongModel& m = model_;
  const int n = m.run.n, T = m.run.T;
  char buf[640];
  if (m.trained) return explain_trained(what, i, j);
  if (what == static_cast<int>(LuongItem::Encoder)) {
    if (i < 0 || i >= n || j < 0 || j >= m.encoder.d_h) return {};
    std::snprintf(buf, sizeof buf, "%s, %s %d %s: h_%d[%d] = tanh(%s) = %s", tr("encoder"), tr("source word"), i + 1,
                  quoted(m.source_tokens, i).c_str(), i + 1, j + 1, fmt(m.encoder.pre(i, j), 4).c_str(), fmt(m.encoder.H(i, j), 4).c_str());
    return buf;
  }
  if (what == static_cast<int>(LuongItem::Decoder)) {
    if (i < 0 || i >= T || j < 0 || j >= m.run.states.cols()) return {};
    std::snprintf(buf, sizeof buf, "%s, %s t = %d (%s %s, %s %s): s_%d[%d] = %s", tr("decoder"), tr("step"), i + 1, tr("read"),
                  quoted(m.input_tokens, i).c_str(), tr("will emit"), quoted(m.target_tokens, i).c_str(), i + 1, j + 1,
                  fmt(m.run.states(i, j), 4).c_str());
    return buf;
  }
  const int k = what - kLuongAlignItem;
  if (k < 0 || k > 2 || i < 0 || i >= T || j < 0 || j >= n) return {};
  const LuongScore kind = kAllScores[k];
  const LuongScoreRun* sr = m.find(kind);
  if (!sr) return {};
  std::vector<LuongAttend> one;
  const Vec s = m.run.states.row(i).transpose();
  if (!luong_attend(s, m.encoder.H, m.weights, {kind}, &one).ok || one.empty()) return {};
  const LuongAttend& a = one[0];
  const Vec h = m.encoder.H.row(j).transpose();
  std::string score;
  if (kind == LuongScore::Dot) {
    score = "e = s_" + std::to_string(i + 1) + "^T h_" + std::to_string(j + 1) + " = " + terms_text(s, h, sr->scores(i, j));
  } else if (kind == LuongScore::General) {
    score = "e = (W_a^T s_" + std::to_string(i + 1) + ")^T h_" + std::to_string(j + 1) + " = " + terms_text(a.query, h, sr->scores(i, j));
  } else {
    const Vec hid = a.hidden.row(j).transpose();
    score = "e = v_a^T tanh(W_a [s_" + std::to_string(i + 1) + "; h_" + std::to_string(j + 1) + "]) = " +
            terms_text(m.weights.va_concat, hid, sr->scores(i, j));
  }
  const double mx = sr->score_max(i), z = sr->exp_sum(i);  // the softmax's own (core/seq2seq.h LuongScoreRun)
  std::snprintf(buf, sizeof buf, "%s, t = %d %s → j = %d %s\n%s\nα = exp(e − max) / Σ exp(e_k − max) = exp(%s − %s) / %s = %s",
                tr(score_title(kind)), i + 1, quoted(m.target_tokens, i).c_str(), j + 1, quoted(m.source_tokens, j).c_str(), score.c_str(),
                fmt(sr->scores(i, j), 4).c_str(), fmt(mx, 4).c_str(), fmt(z, 4).c_str(), fmt(sr->alignment(i, j), 4).c_str());
  return buf;
}

}  // namespace ap
