#include "self_scene.h"

#include <algorithm>
#include <cstdio>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "app/scenes/train_scene.h"
#include "app/weights_label.h"
#include "core/train/trained_qkv.h"
#include "core/number_text.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kSelfStrings[] = {
    {"Self-attention", "自注意力"},
    {"Turn on Q = K = V = X and watch the diagonal of the weights light up; then turn on cross-attention and see the weights become n × m.",
     "打开 Q = K = V = X，看权重的对角线亮起来；再打开交叉注意力，看权重变成 n × m。"},
    {"Without projections each token attends mostly to itself; separate W^Q and W^K remove that bias. Cross-attention connects the queries of one sentence with the keys and values of another.",
     "没有投影时每个词主要关注它自己；不同的 W^Q 和 W^K 去掉了这种偏向。交叉注意力连接的是一个句子的 query 与另一个句子的 key 和 value。"},
    {"X and the projections", "X 与投影"},
    {"Scores and weights", "分数与注意力权重"},
    {"The output", "输出"},
    {"Why three matrices, measured", "为什么要三个矩阵：实测"},
    {"Each token's row of X is projected three ways: a query (what it looks for), a key (what it offers to be matched), a value (what it gives).",
     "X 中每个词的行被投影三次：query（我在找什么）、key（我能被怎样匹配）、value（我实际提供什么）。"},
    {"Row i: how much query i takes from each key; each row sums to 1. In self-attention the diagonal is each token's weight on itself.",
     "第 i 行：query i 从每个 key 取多少；每行之和为 1。在自注意力中，对角线是每个词给自己的权重。"},
    {"Each output row is a weighted mix of the V rows: the context vector of that query. Q·K only distributes the weights; V is what gets summed.",
     "每个输出行都是 V 各行的加权混合：这个 query 的上下文向量。Q·K 只负责分配权重，真正被汇总的是 V。"},
    {"With Q = K = V = X each token is most similar to itself (x_i·x_i = |x_i|^2), so it attends mostly to itself. One shared matrix W^Q = W^K keeps that; separate W^Q and W^K remove it.",
     "当 Q = K = V = X 时，每个词与自己最相似（x_i·x_i = |x_i|^2），所以主要关注自己。共用一个矩阵 W^Q = W^K 仍保留这种偏向；不同的 W^Q 和 W^K 才去掉它。"},
    {"Self-attention: the notes' sentence", "自注意力：讲义中的句子"},
    {"Q, K, V from one sentence through three seeded matrices W^Q, W^K, W^V.", "Q、K、V 来自同一个句子，经过三个随机种子生成的矩阵 W^Q、W^K、W^V。"},
    {"Q = K = V = X: no projections", "Q = K = V = X：没有投影"},
    {"Each token attends mostly to itself: look at the diagonal of the weights.", "每个词主要关注它自己：看权重的对角线。"},
    {"Cross-attention: a translation", "交叉注意力：一句翻译"},
    {"Queries from the second sentence (the decoder's side), keys and values from the first (the encoder's): the weights are n × m.",
     "query 来自第二个句子（解码器一侧），key 和 value 来自第一个句子（编码器一侧）：权重是 n × m。"},
    {"Cross-attention without projections", "没有投影的交叉注意力"},
    {"Q = X2, K = V = X: a query finds its own word in the other sentence; there is no diagonal to speak of.",
     "Q = X2，K = V = X：query 在另一个句子里找到同一个词；这里谈不上对角线。"},
    {"Self-attention in Chinese", "中文的自注意力"},
    {"One token per Chinese character; the same three matrices.", "每个汉字一个 token；同样的三个矩阵。"},
    {"Q = K = V = X", "Q = K = V = X"},
    {"W^Q = W^K (one shared matrix)", "W^Q = W^K（共用一个矩阵）"},
    {"W^Q, W^K separate (seeded)", "W^Q、W^K 各自独立（随机种子）"},
    {"uniform 1/m", "均匀 1/m"},
    {"token", "词"},
    {"Trained against random: the notes' sentence", "训练过的与随机的对比：讲义中的句子"},
    {"X and Q, K, V from the last layer of the coreference model the build trains; beside its weights, seeded W^Q, W^K on the same X.",
     "X 与 Q、K、V 取自构建时训练的指代消解模型的最后一层；在它的权重旁边，是随机种子生成的 W^Q、W^K 作用于同一个 X 的结果。"},
    {"trained W^Q, W^K (layer {0})", "训练过的 W^Q、W^K（第 {0} 层）"},
    {"{0} has no tokens: type at least one word", "{0} 没有 token：请至少输入一个词"},
    {"{0} has {1} tokens, over the limit of {2}", "{0} 有 {1} 个 token，超过了上限 {2}"},
    {"the query sequence has {0} columns but W^Q has {1} rows", "query 序列有 {0} 列，但 W^Q 有 {1} 行"},
    {"the key/value sequence has {0} columns but W^K has {1} rows and W^V {2}", "key/value 序列有 {0} 列，但 W^K 有 {1} 行，W^V 有 {2} 行"},
    {"W^Q gives {0} columns but W^K gives {1}: queries and keys must have the same d_k",
     "W^Q 得到 {0} 列，而 W^K 得到 {1} 列：query 和 key 的 d_k 必须相同"},
    {"self-weight needs a square weight matrix, got {0} × {1}", "自身权重需要方阵形式的权重矩阵，收到的是 {0} × {1}"},
};

using SelfPreset = ScenePreset<SelfSceneParams>;

const std::vector<SelfPreset>& self_presets() {
  static const std::vector<SelfPreset> kPresets = [] {
    std::vector<SelfPreset> v;
    SelfSceneParams p;
    v.push_back({{"notes", N_("Self-attention: the notes' sentence"), N_("Q, K, V from one sentence through three seeded matrices W^Q, W^K, W^V.")}, p});
    p.identity = true;
    v.push_back({{"identity", N_("Q = K = V = X: no projections"), N_("Each token attends mostly to itself: look at the diagonal of the weights.")}, p});
    p = SelfSceneParams{};
    p.cross = true;
    v.push_back({{"cross", N_("Cross-attention: a translation"),
                  N_("Queries from the second sentence (the decoder's side), keys and values from the first (the encoder's): the weights are n × m.")},
                 p});
    p.identity = true;
    p.text2 = "it was the animal";
    v.push_back({{"cross-identity", N_("Cross-attention without projections"),
                  N_("Q = X2, K = V = X: a query finds its own word in the other sentence; there is no diagonal to speak of.")},
                 p});
    p = SelfSceneParams{};
    p.text = "动物没有过马路，因为它太累了";
    v.push_back({{"chinese", N_("Self-attention in Chinese"), N_("One token per Chinese character; the same three matrices.")}, p});
    p = SelfSceneParams{};
    p.trained = true;
    p.text = kTrainedSentence;
    p.d_k = p.d_model;  // the trained layer's (complete() checks them against the checkpoint)
    v.push_back({{"trained", N_("Trained against random: the notes' sentence"),
                  N_("X and Q, K, V from the last layer of the coreference model the build trains; beside its weights, seeded W^Q, W^K on the same X.")},
                 p});
    return v;
  }();
  return kPresets;
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<SelfSceneParams>& self_fields() {
  using P = SelfSceneParams;
  static const FieldTable<P> kFields = {
      {"text", at<&P::text>},
      {"text2", at<&P::text2>},
      {"cross", at<&P::cross>},
      {"identity", at<&P::identity>},
      {"d_model", at<&P::d_model>, 1, self_limits::kMaxDModel},
      {"d_k", at<&P::d_k>, 1, self_limits::kMaxDModel},
      {"seed", at<&P::seed>},
      {"positional", at<&P::positional>},
      weights_field<P>(),
      {"layer", at<&P::layer>, 1, train::recipe_limits::kMaxLayers},
  };
  return kFields;
}

json self_weight_json(const SelfWeight& w) {
  return {{"mean", w.mean}, {"argmax_self", w.argmax_self}, {"diagonal", w.diagonal}};
}

// The results of a model as getState reports them (and as setState checks them when they come back).
json results_json(const SelfSceneParams& p, const SelfAttnModel& m, bool with_matrices) {
  json r;
  r["n"] = m.trace.n;
  r["m"] = m.trace.m;
  r["d_k"] = m.d_k;
  r["d_v"] = m.trace.d_v;
  r["tokens"] = m.key_tokens;
  r["query_tokens"] = m.query_tokens;
  json sw;
  for (int s = 0; s < static_cast<int>(QkSetting::Count); ++s) sw[qk_setting_name(static_cast<QkSetting>(s))] = self_weight_json(m.self_weight[s]);
  sw["uniform"] = m.self_weight[0].uniform;
  r["self_weight"] = sw;
  // The notes' two settings, side by side: Q = K = V = X and separate seeded W^Q, W^K.
  r["self_weight_identity"] = m.self_weight[static_cast<int>(QkSetting::Identity)].mean;
  r["self_weight_projected"] = m.self_weight[static_cast<int>(QkSetting::Separate)].mean;
  if (m.trained) {
    sw["trained"] = self_weight_json(m.trained_weight);
    r["self_weight"] = sw;
    r["self_weight_trained"] = m.trained_weight.mean;
  }
  if (with_matrices) {
    r["X"] = matrix_json(m.X);
    if (p.cross) r["X2"] = matrix_json(m.X2);
    r["Q"] = matrix_json(m.Q);
    r["K"] = matrix_json(m.K);
    r["V"] = matrix_json(m.V);
    r["weights"] = matrix_json(m.trace.weights());
    r["output"] = matrix_json(m.trace.output);
    if (m.trained) r["random_weights"] = matrix_json(m.self_weights[static_cast<int>(QkSetting::Separate)]);
  }
  return r;
}

}  // namespace

Status compute_self(const SelfAttnParams& p, SelfAttnModel* out) {
  if (p.d_model < 1 || p.d_model > self_limits::kMaxDModel)
    return Status::Error("{0} must be between 1 and {1}, got {2}", {"d_model", arg(self_limits::kMaxDModel), arg(p.d_model)});
  SelfAttnParams q = p;
  q.max_tokens = self_limits::kMaxTokens;
  return build_self_attention(q, out);
}

const char* SelfScene::setting_title(QkSetting s) {
  switch (s) {
    case QkSetting::Identity: return N_("Q = K = V = X");
    case QkSetting::Shared: return N_("W^Q = W^K (one shared matrix)");
    case QkSetting::Separate: return N_("W^Q, W^K separate (seeded)");
    case QkSetting::Count: break;
  }
  return "";
}

SelfScene::SelfScene(bool defer) : TrainableParamScene(BuildCheckpoint::Coref) { start(defer); }

const FieldTable<SelfSceneParams>& SelfScene::fields() const { return self_fields(); }
const std::vector<ScenePreset<SelfSceneParams>>& SelfScene::preset_table() const { return self_presets(); }

Status SelfScene::compute(const SelfSceneParams& p, SelfAttnModel* out) const {
  if (!p.trained) return compute_self(p, out);
  // The trained view: the sentence through the checkpoint's model, then its layer's X, Q, K, V beside seeded
  // matrices on the same X (core/self_attention.h).
  train::Trainer* t = nullptr;
  AP_TRY(trained_model(&t));
  std::vector<std::string> words;
  AP_TRY(train_sentence_words(p.text, &words));
  train::TrainedQkv q;
  AP_TRY(train::trained_qkv(*t, words, &q));
  if (p.layer < 1 || p.layer > q.layers)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"layer", "1", arg(q.layers), arg(p.layer)});
  const size_t l = static_cast<size_t>(p.layer - 1);
  const SelfTrainedLayer layer{q.words, q.X[l], q.Q[l], q.K[l], q.V[l]};
  return build_self_attention_trained(layer, p.seed, out);
}

json SelfScene::results(const SelfSceneParams& p, const SelfAttnModel& m, bool with_matrices) const {
  json r = results_json(p, m, with_matrices);
  r["label"] = label_of(p, m, false);  // of (p, m): a document being checked is not yet installed
  if (m.trained && checkpoint_trainer()) {
    const train::Trainer& t = *checkpoint_trainer();
    r["trained"] = {{"task", t.recipe().task}, {"step", t.step()}, {"heldout_accuracy", t.heldout_accuracy()},
                    {"layers", t.recipe().layers}, {"recipe", recipe_json(t.recipe())}};
  }
  write_checkpoint_state(r);
  return r;
}

int SelfScene::trained_layers() const { return checkpoint_trainer() ? checkpoint_trainer()->recipe().layers : train::Recipe{}.layers; }

// The trained view fixes the shapes: X has the model's d_model columns and Q, K its d = d_model / heads. A
// field of seeded weights that disagrees is refused (cross-attention and Q = K = V = X have no trained layer).
Status SelfScene::complete(const json& in, SelfSceneParams* p) const {
  if (!p->trained) return Status::Ok();
  const train::Recipe r = checkpoint_trainer() ? checkpoint_trainer()->recipe() : train::Recipe{};
  SelfSceneParams fixed = *p;
  fixed.cross = false;
  fixed.identity = false;
  fixed.positional = true;
  fixed.d_model = r.d_model;
  fixed.d_k = r.d_model / r.heads;
  json mine;
  write_fields(fields(), fixed, mine);
  for (const char* k : {"cross", "identity", "positional", "d_model", "d_k"})
    if (const auto it = in.find(k); it != in.end() && json::parse(it->dump()) != mine[k])
      return Status::Error("{0} applies to seeded or hand-set weights; this view shows the trained model (send weights: \"random\")", {k});
  if (fixed.layer > r.layers)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"layer", "1", arg(r.layers), arg(fixed.layer)});
  std::vector<std::string> words;
  AP_TRY(train_sentence_words(fixed.text, &words));
  fixed.text.clear();
  for (const auto& w : words) fixed.text += (fixed.text.empty() ? "" : " ") + w;
  *p = std::move(fixed);
  return Status::Ok();
}

bool SelfScene::must_wait(const SelfSceneParams& p) const { return wants_checkpoint(p.trained); }
void SelfScene::wait_for(const SelfSceneParams& p) { hold_for_checkpoint(p); }
void SelfScene::installed() { release_hold(); }
void SelfScene::receive_checkpoint(const std::vector<unsigned char>& bytes) {
  take_checkpoint(bytes, [this](const SelfSceneParams& p) { return apply(p); });
}

void SelfScene::write_params(json& doc) const {
  // Waiting for the checkpoint: the document already names the trained view (a link asks for the same).
  write_fields(fields(), shown(params_), doc);
  write_model_fields(doc, shown(params_).trained);
}

std::string SelfScene::weights_label(bool localized) const { return label_of(params_, model_, localized); }

std::string SelfScene::label_of(const SelfSceneParams& p, const SelfAttnModel& m, bool localized) const {
  if (!m.trained || !checkpoint_trainer()) return random_weights_label(p.seed, localized);
  return model_weights_label(*checkpoint_trainer(), localized);
}

std::string SelfScene::random_label(bool localized) const { return random_weights_label(params_.seed, localized); }

const char* SelfScene::title() const { return N_("Self-attention"); }

LessonInfo SelfScene::lesson() const {
  return {"Q = XW^Q,   K = XW^K,   V = XW^V",
          N_("Turn on Q = K = V = X and watch the diagonal of the weights light up; then turn on cross-attention and see the weights become n × m."),
          N_("Without projections each token attends mostly to itself; separate W^Q and W^K remove that bias. Cross-attention connects the queries of one sentence with the keys and values of another.")};
}

const std::vector<StageInfo>& SelfScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"qkv", N_("X and the projections"), "Q = XW^Q,   K = XW^K,   V = XW^V",
       N_("Each token's row of X is projected three ways: a query (what it looks for), a key (what it offers to be matched), a value (what it gives).")},
      {"weights", N_("Scores and weights"), "A = softmax(QKᵀ / √dₖ)",
       N_("Row i: how much query i takes from each key; each row sums to 1. In self-attention the diagonal is each token's weight on itself.")},
      {"output", N_("The output"), "O = A·V,   oᵢ = Σⱼ Aᵢⱼ vⱼ",
       N_("Each output row is a weighted mix of the V rows: the context vector of that query. Q·K only distributes the weights; V is what gets summed.")},
      {"self-weight", N_("Why three matrices, measured"), "mean diag(A):   Q = K = V = X   vs   Q = XW^Q,  K = XW^K",
       N_("With Q = K = V = X each token is most similar to itself (x_i·x_i = |x_i|^2), so it attends mostly to itself. One shared matrix W^Q = W^K keeps that; separate W^Q and W^K remove it.")},
  };
  return kStages;
}

const TrPair* SelfScene::translations(size_t* count) const { return translation_table(kSelfStrings, count); }

std::vector<int> SelfScene::substeps() const { return {1, 1, 1, 1}; }

// The arithmetic behind a hovered cell, from the model's own numbers.
std::string SelfScene::explain(int what, int i, int j) const {
  const SelfAttnModel& m = model_;
  const auto label = [](const std::vector<std::string>& v, int k) { return k >= 0 && k < static_cast<int>(v.size()) ? v[static_cast<size_t>(k)] : std::string(); };
  char buf[400];
  const auto cell = [&](const char* name, const Mat& a, const std::vector<std::string>& rows) -> std::string {
    if (i < 0 || j < 0 || i >= a.rows() || j >= a.cols()) return {};
    std::snprintf(buf, sizeof buf, "%s[%d][%d] = %s   (%s %d “%s”)", name, i + 1, j + 1, fmt(a(i, j), 4).c_str(), tr("token"), i + 1,
                  label(rows, i).c_str());
    return buf;
  };
  switch (static_cast<SelfItem>(what)) {
    case SelfItem::X: return cell("X", m.X, m.key_tokens);
    case SelfItem::X2: return cell("X2", m.X2, m.query_tokens);
    case SelfItem::Q: return cell("Q", m.Q, m.query_tokens);
    case SelfItem::K: return cell("K", m.K, m.key_tokens);
    case SelfItem::V: return cell("V", m.V, m.key_tokens);
    case SelfItem::Output: return cell("O", m.trace.output, m.query_tokens);
    case SelfItem::Weights: {
      const AttentionTrace& t = m.trace;
      if (i < 0 || j < 0 || i >= t.n || j >= t.m) return {};
      std::snprintf(buf, sizeof buf, "%s %d “%s” → %s %d “%s”\nq·k = %s,   /√%d = %s,   A = %s   (%s 1)", tr("query"), i + 1,
                    label(m.query_tokens, i).c_str(), tr("key"), j + 1, label(m.key_tokens, j).c_str(), fmt(t.scores(i, j), 3).c_str(), t.d_k,
                    fmt(t.scaled(i, j), 3).c_str(), fmt(t.weights()(i, j), 4).c_str(), tr("row sum"));
      return buf;
    }
    case SelfItem::RandomWeights: {
      const Mat& A = m.self_weights[static_cast<int>(QkSetting::Separate)];
      if (i < 0 || j < 0 || i >= A.rows() || j >= A.cols()) return {};
      std::snprintf(buf, sizeof buf, "%s %d “%s” → %s %d “%s”:   A = %s   (%s)", tr("query"), i + 1, label(m.key_tokens, i).c_str(), tr("key"), j + 1,
                    label(m.key_tokens, j).c_str(), fmt(A(i, j), 4).c_str(), random_label().c_str());
      return buf;
    }
    case SelfItem::Measured: {
      // i: the setting (QkSetting, or 3 = the trained layer), j: the token
      const int settings = static_cast<int>(QkSetting::Count);
      if (i < 0 || i > settings || (i == settings && !m.trained)) return {};
      const SelfWeight& w = i == settings ? m.trained_weight : m.self_weight[i];
      if (j < 0 || j >= static_cast<int>(w.diagonal.size())) return {};
      const std::string title = i == settings ? tr_format(N_("trained W^Q, W^K (layer {0})"), {std::to_string(params_.layer)})
                                              : std::string(tr(setting_title(static_cast<QkSetting>(i))));
      std::snprintf(buf, sizeof buf, "%s: %s %d “%s”, A[%d][%d] = %s   (%s %s)", title.c_str(), tr("token"), j + 1, label(m.key_tokens, j).c_str(), j + 1,
                    j + 1, fmt(w.diagonal[static_cast<size_t>(j)], 4).c_str(), tr("uniform 1/m"), fmt(w.uniform, 4).c_str());
      return buf;
    }
  }
  return {};
}

}  // namespace ap
