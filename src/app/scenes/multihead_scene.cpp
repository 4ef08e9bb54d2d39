#include "multihead_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "app/scenes/train_scene.h"
#include "app/weights_label.h"
#include "core/embedding.h"
#include "core/number_text.h"
#include "core/tokenizer.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kMultiheadStrings[] = {
    {"Multi-head attention", "多头注意力"},
    {"Change h (1, 2, 4, 8 …) and watch d_k = d_model / h shrink while the parameter count stays 4·d_model².",
     "改变 h（1、2、4、8……），看 d_k = d_model / h 变小，而参数量始终是 4·d_model²。"},
    {"Each head attends in its own subspace and gets its own weights; the heads are laid side by side and W^O mixes them. More heads cost no more parameters.",
     "每个头在自己的子空间里做注意力，得到自己的注意力权重；各头的输出拼接起来，再由 W^O 混合。头数变多，参数量并不增加。"},
    // stages
    {"Split into h heads", "拆分成 h 个头"},
    {"Each head's weights", "每个头的注意力权重"},
    {"Concat and W^O", "拼接与 W^O"},
    {"The parameter count", "参数量"},
    {"The same X is projected h times, each head with its own W_i^Q, W_i^K, W_i^V of d_model × d_k: h low-dimensional subspaces instead of one wide one.",
     "同一个 X 被投影 h 次，每个头有自己的 W_i^Q、W_i^K、W_i^V（d_model × d_k）：h 个低维子空间，而不是一个宽的空间。"},
    {"Each head runs scaled dot-product attention on its own: h matrices of attention weights from one sentence. Seeded, untrained weights: the heads differ by chance; only training makes them specialise.",
     "每个头各自做缩放点积注意力：同一个句子得到 h 个注意力权重矩阵。权重是随机种子生成、未经训练的：各头的差别只是偶然；只有训练才会让它们各有专长。"},
    {"The heads' outputs (n × d_k each) are laid side by side: n × h·d_k = n × d_model. W^O (d_model × d_model) mixes them back into one output of X's shape.",
     "各头的输出（每个 n × d_k）并排拼接：n × h·d_k = n × d_model。W^O（d_model × d_model）把它们混合成一个与 X 形状相同的输出。"},
    {"W^Q, W^K, W^V are h matrices of d_model × d_k = d_model / h columns each, W^O is d_model × d_model: counted from the actual matrices, 4·d_model² for every h.",
     "W^Q、W^K、W^V 各是 h 个 d_model × d_k（d_k = d_model / h）的矩阵，W^O 是 d_model × d_model：从实际矩阵逐个计数，每个 h 都是 4·d_model²。"},
    // presets
    {"h = 1: one head, d_k = d_model", "h = 1：一个头，d_k = d_model"},
    {"One full-width head: the baseline the notes compare against.", "一个全宽的头：讲义对比的基准。"},
    {"h = 2: two heads", "h = 2：两个头"},
    {"Two heads of d_k = 8: two weight matrices, the same parameter count.", "两个 d_k = 8 的头：两个权重矩阵，参数量不变。"},
    {"h = 4: four heads", "h = 4：四个头"},
    {"Four heads of d_k = 4 on the notes' sentence.", "讲义例句上的四个 d_k = 4 的头。"},
    {"h = 8: eight heads", "h = 8：八个头"},
    {"Eight heads of d_k = 2: still 4·d_model² parameters.", "八个 d_k = 2 的头：参数量仍是 4·d_model²。"},
    {"The paper's size: d_model = 512, h = 8", "论文的规模：d_model = 512，h = 8"},
    {"d_k = 64 as in the notes; 4·512² = 1,048,576 parameters, counted from the matrices for every h.",
     "与讲义一样 d_k = 64；4·512² = 1,048,576 个参数，对每个 h 都从矩阵实际计数。"},
    {"Causal mask, 4 heads", "因果掩码，4 个头"},
    {"Every head hides the later tokens: each weight matrix is lower triangular.", "每个头都遮住后面的词：每个权重矩阵都是下三角。"},
    {"Padding mask, 4 heads", "填充掩码，4 个头"},
    {"Two [PAD] tokens: every head gives them weight exactly 0.", "两个 [PAD]：每个头给它们的权重恰好为 0。"},
    // hover texts and results (the view draws its own strings: views/multihead_view.cpp)
    {"head", "头"},
    {"entropy", "熵"},
    {"total", "总计"},
    {"not computed yet", "尚未计算"},
    {"columns of head", "属于头"},
    {"attention weights of head", "注意力权重：头"},
    {"row's largest weight", "该行最大权重"},
    {"hidden by the mask", "被掩码遮住"},
    {"Trained heads: naming the referent", "训练过的头：说出指代对象"},
    {"The layer of 2 heads the build trains to name what \"it\" refers to: each head's weights, learned, and what each reads, measured on held-out sentences.",
     "构建时训练的 2 个头的层，任务是说出 \"it\" 指的是谁：每个头学到的权重，以及在留出句子上实测的每个头读什么。"},
    {"Each head runs scaled dot-product attention on its own. Trained weights: nothing told a head what to read, yet the two read different words at \"it\" (measured under each map on every held-out sentence), and both read the previous token at the word after a noun (listed under \"What each head learned\").",
     "每个头各自做缩放点积注意力。权重是训练出来的：没有人告诉各头该读什么，但两个头在 \"it\" 处读的是不同的词（每张图下方是在所有留出句子上的实测），而在名词后面一个词处，两个头都读前一个词（见“每个头学到了什么”）。"},
    {"biases", "偏置"},
    {"The trained layer's W^Q, W^K, W^V, W^O hold 4·d_model² weights, as for every h, and its biases b^Q, b^K, b^V, b^O another 4·d_model: counted from the actual matrices.",
     "训练好的层的 W^Q、W^K、W^V、W^O 共有 4·d_model² 个权重（每个 h 都一样），偏置 b^Q、b^K、b^V、b^O 另有 4·d_model 个：都从实际矩阵逐个计数。"},
    {"a model with layer norm has no layer input that W^Q multiplies directly", "带层归一化的模型没有一个直接被 W^Q 相乘的层输入"},
    // errors
    {"h must divide d_model: {0} is not a multiple of {1} (d_k = d_model / h must be a whole number)",
     "h 必须能整除 d_model：{0} 不是 {1} 的倍数（d_k = d_model / h 必须是整数）"},
};

// ---- presets ----
using MultiheadPreset = ScenePreset<MultiheadParams>;

MultiheadParams with(int d_model, int h, MaskKind mask = MaskKind::None, const char* text = nullptr) {
  MultiheadParams p;
  p.d_model = d_model;
  p.h = h;
  p.mask = mask;
  if (text) p.text = text;
  return p;
}

// The trained view's parameters: the notes' sentence, the checkpoint's sizes (complete() checks them).
MultiheadParams trained_params() {
  const train::Recipe r = checkpoint_recipe(BuildCheckpoint::Heads);
  MultiheadParams p = with(r.d_model, r.heads, MaskKind::None, kTrainedSentence);
  p.trained = true;
  return p;
}

const std::vector<MultiheadPreset>& multihead_presets() {
  static const std::vector<MultiheadPreset> kPresets = {
      {{"h1", N_("h = 1: one head, d_k = d_model"), N_("One full-width head: the baseline the notes compare against.")}, with(16, 1)},
      {{"h2", N_("h = 2: two heads"), N_("Two heads of d_k = 8: two weight matrices, the same parameter count.")}, with(16, 2)},
      {{"h4", N_("h = 4: four heads"), N_("Four heads of d_k = 4 on the notes' sentence.")}, with(16, 4)},
      {{"h8", N_("h = 8: eight heads"), N_("Eight heads of d_k = 2: still 4·d_model² parameters.")}, with(16, 8)},
      {{"paper", N_("The paper's size: d_model = 512, h = 8"),
        N_("d_k = 64 as in the notes; 4·512² = 1,048,576 parameters, counted from the matrices for every h.")}, with(512, 8)},
      {{"causal", N_("Causal mask, 4 heads"), N_("Every head hides the later tokens: each weight matrix is lower triangular.")},
       with(16, 4, MaskKind::Causal)},
      {{"padding", N_("Padding mask, 4 heads"), N_("Two [PAD] tokens: every head gives them weight exactly 0.")},
       with(16, 4, MaskKind::Padding, "The cat sat on the mat because it was tired [PAD] [PAD]")},
      {{"trained", N_("Trained heads: naming the referent"),
        N_("The layer of 2 heads the build trains to name what \"it\" refers to: each head's weights, learned, and what each reads, measured on held-out sentences.")},
       trained_params()},
  };
  return kPresets;
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<MultiheadParams>& multihead_fields() {
  using P = MultiheadParams;
  static const FieldTable<P> kFields = {
      {"text", at<&P::text>},
      {"d_model", at<&P::d_model>, 1, limits::kMaxModelDim},
      {"h", at<&P::h>, 1, limits::kMaxHeads},
      mask_field<P>(),
      {"seed", at<&P::seed>},
      weights_field<P>(),
  };
  return kFields;
}

json count_json(const MultiHeadParamCount& c) {
  return {{"h", c.heads}, {"d_k", c.d_head}, {"W_Q", c.wq}, {"W_K", c.wk}, {"W_V", c.wv}, {"W_O", c.wo}, {"biases", c.biases}, {"total", c.total()}};
}

// The results of a model as getState reports them (and as setState checks them when they come back).
json results_json(const MultiheadParams& p, const MultiheadModel& m, bool with_matrices) {
  json r;
  r["tokens"] = m.tokens;
  r["n"] = m.n();
  r["h"] = m.weights.heads;
  r["d_k"] = m.d_k();
  json count = count_json(m.count);
  count["four_d_model_squared"] = 4LL * p.d_model * p.d_model;
  r["param_count"] = count;
  json table = json::array();
  for (const MultiHeadParamCount& c : m.table) table.push_back(count_json(c));
  r["param_table"] = table;
  json heads = json::array();
  for (const HeadFocus& f : m.focus)
    heads.push_back({{"mean_entropy", f.mean_entropy}, {"mean_max_weight", f.mean_max_weight}, {"top_key", f.top_key}});
  r["heads"] = heads;
  r["weights_trained"] = m.trained;
  if (with_matrices) {
    json w = json::array();
    for (const AttentionTrace& a : m.trace.heads) w.push_back(matrix_json(a.weights()));
    r["weights"] = w;
    r["concat"] = matrix_json(m.trace.concat);
    r["output"] = matrix_json(m.trace.output);
  }
  return r;
}

}  // namespace

// 1) check the sizes, 2) text → tokens → X, 3) the h heads (core), 4) what is measured, 5) the parameter table.
Status compute_multihead(const MultiheadParams& p, const std::vector<MultiHeadParamCount>* table, MultiheadModel* out) {
  if (p.d_model < 1 || p.d_model > limits::kMaxModelDim)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"d_model", arg(1), arg(limits::kMaxModelDim), arg(p.d_model)});
  if (p.h < 1 || p.h > limits::kMaxHeads)
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"h", arg(1), arg(limits::kMaxHeads), arg(p.h)});
  if (p.d_model % p.h != 0)
    return Status::Error("h must divide d_model: {0} is not a multiple of {1} (d_k = d_model / h must be a whole number)",
                         {arg(p.d_model), arg(p.h)});
  MultiheadModel m;
  AP_TRY(tokenize(p.text, multihead_limits::kMaxTokens, &m.tokens));
  AP_TRY(embed_tokens(m.tokens, p.d_model, p.seed, /*positional=*/true, &m.X));
  AP_TRY(make_multihead_weights(p.d_model, p.h, p.seed, &m.weights));
  MaskSpec spec;
  spec.kind = p.mask;
  for (const std::string& t : m.tokens) {
    spec.key_is_pad.push_back(t == kPadToken);
    m.pad_count += t == kPadToken;
  }
  AP_TRY(multi_head_attention(m.X, m.X, m.weights, spec, &m.trace));
  m.focus = head_focus(m.trace);
  m.count = count_multihead_params(m.weights);
  if (table) m.table = *table;
  else AP_TRY(multihead_param_table(p.d_model, p.seed, &m.table));
  *out = std::move(m);
  return Status::Ok();
}

// The trained layer's: its words and X, its weights with biases, no mask; the rest as for seeded weights.
Status compute_multihead_trained(const train::TrainedLayer& layer, uint64_t seed, const std::vector<MultiHeadParamCount>* table,
                                 MultiheadModel* out) {
  MultiheadModel m;
  m.tokens = layer.words;
  m.X = layer.X;
  m.weights = layer.weights;
  AP_TRY(multi_head_attention(m.X, m.X, m.weights, MaskSpec{}, &m.trace));
  m.focus = head_focus(m.trace);
  m.count = count_multihead_params(m.weights);
  if (table) m.table = *table;
  else AP_TRY(multihead_param_table(m.weights.d_model, seed, &m.table));
  m.trained = true;
  *out = std::move(m);
  return Status::Ok();
}

MultiheadScene::MultiheadScene(bool defer) : TrainableParamScene(BuildCheckpoint::Heads) { start(defer); }

const FieldTable<MultiheadParams>& MultiheadScene::fields() const { return multihead_fields(); }
const std::vector<ScenePreset<MultiheadParams>>& MultiheadScene::preset_table() const { return multihead_presets(); }
// The parameter table depends only on d_model and the seed: reused while they stay.
Status MultiheadScene::compute(const MultiheadParams& p, MultiheadModel* out) const {
  const bool same_table = p.d_model == params_.d_model && p.seed == params_.seed && !model_.table.empty();
  const std::vector<MultiHeadParamCount>* table = same_table ? &model_.table : nullptr;
  if (!p.trained) return compute_multihead(p, table, out);
  // The trained view: the sentence through the checkpoint's model, then its layer's heads.
  train::Trainer* t = nullptr;
  AP_TRY(trained_model(&t));
  std::vector<std::string> words;
  AP_TRY(train_sentence_words(p.text, &words));
  train::TrainedLayer layer;
  AP_TRY(train::trained_layer(*t, words, 0, &layer));
  return compute_multihead_trained(layer, p.seed, table, out);
}

json MultiheadScene::results(const MultiheadParams& p, const MultiheadModel& m, bool with_matrices) const {
  json r = results_json(p, m, with_matrices);
  r["label"] = label_of(p, m, false);  // of (p, m): a document being checked is not yet installed
  if (m.trained && checkpoint_trainer()) {
    const train::Trainer& t = *checkpoint_trainer();
    r["trained"] = {{"task", t.recipe().task}, {"step", t.step()}, {"heldout_accuracy", t.heldout_accuracy()},
                    {"referent_argmax", t.referent_argmax()}, {"recipe", recipe_json(t.recipe())},
                    {"head_patterns", head_patterns_json(t.head_patterns())}};
  }
  write_checkpoint_state(r);
  return r;
}

// The trained view fixes the shapes (the checkpoint's d_model and heads) and has no mask; a field that
// disagrees is refused. The sentence is written as the model's words.
Status MultiheadScene::complete(const json& in, MultiheadParams* p) const {
  if (!p->trained) return Status::Ok();
  const train::Recipe r = trained_recipe();
  MultiheadParams fixed = *p;
  fixed.d_model = r.d_model;
  fixed.h = r.heads;
  fixed.mask = MaskKind::None;
  json mine;
  write_fields(fields(), fixed, mine);
  for (const char* k : {"d_model", "h", "mask"})
    if (const auto it = in.find(k); it != in.end() && json::parse(it->dump()) != mine[k])
      return Status::Error("{0} applies to seeded or hand-set weights; this view shows the trained model (send weights: \"random\")", {k});
  std::vector<std::string> words;
  AP_TRY(train_sentence_words(fixed.text, &words));
  fixed.text.clear();
  for (const auto& w : words) fixed.text += (fixed.text.empty() ? "" : " ") + w;
  *p = std::move(fixed);
  return Status::Ok();
}

void MultiheadScene::receive_checkpoint(const std::vector<unsigned char>& bytes) {
  take_checkpoint(bytes, [this](const MultiheadParams& p) { return apply(p); });
}

void MultiheadScene::write_params(json& doc) const {
  // Waiting for the checkpoint: the document already names the trained view (a link asks for the same).
  write_fields(fields(), shown(params_), doc);
  write_model_fields(doc, shown(params_).trained);
}

const std::vector<train::HeadPattern>& MultiheadScene::head_patterns() const {
  static const std::vector<train::HeadPattern> kNone;
  return checkpoint_trainer() ? checkpoint_trainer()->head_patterns() : kNone;
}

std::string MultiheadScene::weights_label(bool localized) const { return label_of(params_, model_, localized); }

std::string MultiheadScene::label_of(const MultiheadParams& p, const MultiheadModel& m, bool localized) const {
  if (!m.trained || !checkpoint_trainer()) return random_weights_label(p.seed, localized);
  return model_weights_label(*checkpoint_trainer(), localized);
}

train::Recipe MultiheadScene::trained_recipe() const { return checkpoint_trainer() ? checkpoint_trainer()->recipe() : checkpoint_slot().recipe(); }

const char* MultiheadScene::title() const { return N_("Multi-head attention"); }

LessonInfo MultiheadScene::lesson() const {
  return {"MultiHead(X) = Concat(head₁, …, headₕ)·W^O,   dₖ = d_model / h",
          N_("Change h (1, 2, 4, 8 …) and watch d_k = d_model / h shrink while the parameter count stays 4·d_model²."),
          N_("Each head attends in its own subspace and gets its own weights; the heads are laid side by side and W^O mixes them. More heads cost no more parameters.")};
}

const std::vector<StageInfo>& MultiheadScene::stages() const {
  static const std::vector<StageInfo> kStages = [] {
    std::vector<StageInfo> v = {
        {"split", N_("Split into h heads"), "Qᵢ = X·Wᵢ^Q,   Kᵢ = X·Wᵢ^K,   Vᵢ = X·Wᵢ^V,   dₖ = d_model / h",
         N_("The same X is projected h times, each head with its own W_i^Q, W_i^K, W_i^V of d_model × d_k: h low-dimensional subspaces instead of one wide one.")},
        {"heads", N_("Each head's weights"), "headᵢ = softmax(QᵢKᵢᵀ / √dₖ + M)·Vᵢ",
         N_("Each head runs scaled dot-product attention on its own: h matrices of attention weights from one sentence. Seeded, untrained weights: the heads differ by chance; only training makes them specialise.")},
        {"concat", N_("Concat and W^O"), "MultiHead(X) = Concat(head₁, …, headₕ)·W^O",
         N_("The heads' outputs (n × d_k each) are laid side by side: n × h·d_k = n × d_model. W^O (d_model × d_model) mixes them back into one output of X's shape.")},
        {"params", N_("The parameter count"), "3·h·(d_model·dₖ) + (h·dₖ)·d_model = 4·d_model²",
         N_("W^Q, W^K, W^V are h matrices of d_model × d_k = d_model / h columns each, W^O is d_model × d_model: counted from the actual matrices, 4·d_model² for every h.")},
    };
    return v;
  }();
  // The trained layer: its projections carry biases, and its heads learned what they read.
  static const std::vector<StageInfo> kTrained = [] {
    std::vector<StageInfo> v = kStages;
    v[0].formula = "Qᵢ = X·Wᵢ^Q + bᵢ^Q,   Kᵢ = X·Wᵢ^K + bᵢ^K,   Vᵢ = X·Wᵢ^V + bᵢ^V,   dₖ = d_model / h";
    v[1].formula = "headᵢ = softmax(QᵢKᵢᵀ / √dₖ)·Vᵢ";
    v[1].idea = N_("Each head runs scaled dot-product attention on its own. Trained weights: nothing told a head what to read, yet the two read different words at \"it\" (measured under each map on every held-out sentence), and both read the previous token at the word after a noun (listed under \"What each head learned\").");
    v[2].formula = "MultiHead(X) = Concat(head₁, …, headₕ)·W^O + b^O";
    v[3].formula = "3·h·(d_model·dₖ) + (h·dₖ)·d_model + 4·d_model = 4·d_model² + 4·d_model";
    v[3].idea = N_("The trained layer's W^Q, W^K, W^V, W^O hold 4·d_model² weights, as for every h, and its biases b^Q, b^K, b^V, b^O another 4·d_model: counted from the actual matrices.");
    return v;
  }();
  return model_.trained ? kTrained : kStages;
}

const TrPair* MultiheadScene::translations(size_t* count) const { return translation_table(kMultiheadStrings, count); }

std::vector<int> MultiheadScene::substeps() const { return {1, std::max(1, model_.weights.heads), 1, 1}; }

int MultiheadScene::focus_query() const {
  for (int i = 0; i < model_.n(); ++i)
    if (model_.tokens[static_cast<size_t>(i)] == "it" || model_.tokens[static_cast<size_t>(i)] == "它") return i;
  return model_.n() - 1;
}

// The exact numbers behind a hovered cell, with the tokens it connects.
std::string MultiheadScene::explain(int what, int i, int j) const {
  const MultiheadModel& m = model_;
  const MultiheadItem item = static_cast<MultiheadItem>(what / kMultiheadItemStride);
  const int head = what % kMultiheadItemStride;
  const int n = m.n(), dk = m.d_k(), heads = m.weights.heads;
  if (what < 0 || head >= heads || i < 0 || j < 0) return {};
  const auto tok = [&](int k) { return k >= 0 && k < n ? m.tokens[static_cast<size_t>(k)] : std::string(); };
  char buf[400];
  switch (item) {
    case MultiheadItem::X:
      if (i >= n || j >= m.X.cols()) return {};
      std::snprintf(buf, sizeof buf, "X[%d][%d] = %s   (%s “%s”)", i + 1, j + 1, fmt(m.X(i, j), 4).c_str(), tr("embedding + position of"), tok(i).c_str());
      return buf;
    case MultiheadItem::Q:
    case MultiheadItem::K:
    case MultiheadItem::V: {
      const std::vector<Mat>& M = item == MultiheadItem::Q ? m.trace.Q : item == MultiheadItem::K ? m.trace.K : m.trace.V;
      const char* name = item == MultiheadItem::Q ? "Q" : item == MultiheadItem::K ? "K" : "V";
      if (i >= n || j >= dk) return {};
      std::snprintf(buf, sizeof buf, "%s_%d[%d][%d] = %s   (%s %d, “%s”)   = Σ_t X[%d][t]·W_%d^%s[t][%d], t = 1 … %d", name, head + 1, i + 1, j + 1,
                    fmt(M[static_cast<size_t>(head)](i, j), 4).c_str(), tr("head"), head + 1, tok(i).c_str(), i + 1, head + 1, name, j + 1,
                    static_cast<int>(m.X.cols()));
      return buf;
    }
    case MultiheadItem::Weights: {
      const AttentionTrace& a = m.trace.heads[static_cast<size_t>(head)];
      if (i >= a.n || j >= a.m) return {};
      const int top = m.focus[static_cast<size_t>(head)].top_key[static_cast<size_t>(i)];
      const bool hidden = std::isinf(a.masked(i, j));
      std::snprintf(buf, sizeof buf, "%s %d: %s %d “%s” → %s %d “%s”: A = %s%s\n%s: “%s” %s", tr("attention weights of head"), head + 1, tr("query"), i + 1,
                    tok(i).c_str(), tr("key"), j + 1, tok(j).c_str(), fmt(a.weights()(i, j), 4).c_str(),
                    hidden ? (std::string("   (") + tr("hidden by the mask") + ")").c_str() : "", tr("row's largest weight"), tok(top).c_str(),
                    top >= 0 ? fmt(a.weights()(i, top), 4).c_str() : "0");
      return buf;
    }
    case MultiheadItem::Concat:
      if (i >= n || j >= m.trace.concat.cols() || dk < 1) return {};
      std::snprintf(buf, sizeof buf, "Concat[%d][%d] = head_%d[%d][%d] = %s   (%s %d, “%s”)", i + 1, j + 1, j / dk + 1, i + 1, j % dk + 1,
                    fmt(m.trace.concat(i, j), 4).c_str(), tr("columns of head"), j / dk + 1, tok(i).c_str());
      return buf;
    case MultiheadItem::Wo:
      if (i >= m.weights.Wo.rows() || j >= m.weights.Wo.cols()) return {};
      std::snprintf(buf, sizeof buf, "W^O[%d][%d] = %s   (%s %d)", i + 1, j + 1, fmt(m.weights.Wo(i, j), 4).c_str(), tr("columns of head"), i / std::max(1, dk) + 1);
      return buf;
    case MultiheadItem::Output:
      if (i >= n || j >= m.trace.output.cols()) return {};
      std::snprintf(buf, sizeof buf, "output[%d][%d] = Σ_c Concat[%d][c]·W^O[c][%d] = %s   (“%s”)", i + 1, j + 1, i + 1, j + 1,
                    fmt(m.trace.output(i, j), 4).c_str(), tok(i).c_str());
      return buf;
  }
  return {};
}

}  // namespace ap
