#include "bahdanau_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "app/weights_label.h"
#include "core/train/seq2seq_checkpoint.h"
#include "core/embedding.h"
#include "core/number_text.h"
#include "core/tokenizer.h"

namespace ap {

using nlohmann::json;

const char* const kBahdanauStartToken = "<s>";

namespace {

const TrPair kBahdanauStrings[] = {
    // the trained model's parameters and label
    {"attention, decoder side: s_t-1 W_a, once per step", "注意力，解码器一侧：s_t-1 W_a，每步一次"},
    {"attention, encoder side: h_j U_a, once per sentence", "注意力，编码器一侧：h_j U_a，每句一次"},
    {"backward GRU: biases", "反向 GRU：偏置"},
    {"backward GRU: reads the word x_j (update, reset, candidate)", "反向 GRU：读入词 x_j（更新门、重置门、候选）"},
    {"backward GRU: the next state into the update and reset gates", "反向 GRU：把后一个状态送入更新门和重置门"},
    {"backward GRU: the reset next state into the candidate", "反向 GRU：把重置后的后一个状态送入候选"},
    {"decoder GRU: biases", "解码器 GRU：偏置"},
    {"decoder GRU: reads [y_t-1; c_t]", "解码器 GRU：读入 [y_t-1; c_t]"},
    {"decoder GRU: s_t-1 into the update and reset gates", "解码器 GRU：把 s_t-1 送入更新门和重置门"},
    {"decoder GRU: the reset s_t-1 into the candidate", "解码器 GRU：把重置后的 s_t-1 送入候选"},
    {"decoder: s_0 = tanh([→h_n; ←h_1] W + b)", "解码器：s_0 = tanh([→h_n; ←h_1] W + b)"},
    {"decoder: s_0's bias", "解码器：s_0 的偏置"},
    {"forward GRU: biases", "正向 GRU：偏置"},
    {"forward GRU: reads the word x_j (update, reset, candidate)", "正向 GRU：读入词 x_j（更新门、重置门、候选）"},
    {"forward GRU: the previous state into the update and reset gates", "正向 GRU：把前一个状态送入更新门和重置门"},
    {"forward GRU: the reset previous state into the candidate", "正向 GRU：把重置后的前一个状态送入候选"},
    {"output: [s_t; c_t] W + b scores every target word", "输出：[s_t; c_t] W + b 给每个目标词打分"},
    {"output: bias", "输出：偏置"},
    {"source word embeddings, learned", "源语言词嵌入，学习得到"},
    {"target word embeddings, learned", "目标语言词嵌入，学习得到"},
    {"trained in this page on the toy translation (French → English), {0} steps: held-out {1} of words right, {2} of words aligned to their source word",
     "在本页中在玩具翻译（法语 → 英语）上训练了 {0} 步：留出数据上 {1} 的词正确，{2} 的词对齐到它的源词"},
    {"trained on the toy translation (French → English), {0} steps: held-out {1} of words right, {2} of words aligned to their source word",
     "在玩具翻译（法语 → 英语）上训练了 {0} 步：留出数据上 {1} 的词正确，{2} 的词对齐到它的源词"},
    {"Bahdanau (additive) attention", "Bahdanau 注意力（加性注意力）"},
    {"Step through the decoder steps t and watch α_t move over the source words; then change the seed: an untrained alignment changes with it.",
     "逐个走过解码步 t，看 α_t 在源句的词上移动；再换一个随机种子：未经训练的对齐会随之改变。"},
    {"Every step t gets its own attention weights α_t and its own context vector c_t = Σ_j α_tj h_j, computed with the PREVIOUS decoder state s_t-1: no single fixed vector any more.",
     "每一步 t 都有自己的注意力权重 α_t 和自己的上下文向量 c_t = Σ_j α_tj h_j，用的是解码器的前一个状态 s_t-1：不再是单一的固定向量。"},
    {"Bidirectional encoder", "双向编码器"},
    {"Parameters and their shapes", "参数及其形状"},
    {"Decoder step t", "解码第 t 步"},
    {"The whole alignment matrix", "完整的对齐矩阵"},
    {"Two RNNs read the source, one left to right (→h_j), one right to left (←h_j); joined, h_j = [→h_j; ←h_j] sees the whole sentence, centred on word j.",
     "两个 RNN 读源句：一个从左到右（→h_j），一个从右到左（←h_j）；拼接后的 h_j = [→h_j; ←h_j] 看到整句，以第 j 个词为中心。"},
    {"W_a, U_a and v_a are the attention's learnable parameters: it transforms the two vectors separately, then adds them (additive attention).",
     "W_a、U_a 和 v_a 是注意力的可学习参数：先把两个向量分别线性变换，再相加（加性注意力）。"},
    {"The decoder attends with its previous state s_t-1: one score per source word, softmax into weights that sum to 1, and a new context vector c_t at every step.",
     "解码器用前一个状态 s_t-1 计算注意力：每个源词一个分数，softmax 成和为 1 的权重，每一步都得到一个新的上下文向量 c_t。"},
    {"Row t is α_t: how much step t looks at each source word. With random weights this is the mechanism, not a translation alignment; with the trained model the rows cross where French and English order the words differently.",
     "第 t 行就是 α_t：第 t 步对每个源词的关注程度。随机权重下这里展示的是机制，不是翻译的对齐；换成训练过的模型，法语和英语词序不同的地方，对齐就会交叉。"},
    {"The notes' sentence: Le chat noir … → The black cat …", "讲义中的句子：Le chat noir … → The black cat …"},
    {"Twelve source words, thirteen target words: one α_t per target word.", "12 个源词、13 个目标词：每个目标词一个 α_t。"},
    {"Three words", "三个词"},
    {"Le chat noir → The black cat: small enough to read every number.", "Le chat noir → The black cat：小到可以看清每个数。"},
    {"Chinese source", "中文源句"},
    {"Each Chinese character is one source token.", "每个汉字是一个源词元。"},
    {"Another seed", "换一个种子"},
    {"The same sentences with seed 7: the alignment changes, because nothing here is learned.", "同样的句子、种子 7：对齐变了，因为这里什么都没学。"},
    {"A wide attention layer", "更宽的注意力层"},
    {"d_a = 64: more hidden units in tanh(W_a s_t-1 + U_a h_j); the scores keep about the same spread.",
     "d_a = 64：tanh(W_a s_t-1 + U_a h_j) 中有更多隐藏单元；分数的分布范围大致不变。"},
    {"forward RNN: reads the word x_j", "前向 RNN：读入词 x_j"},
    {"forward RNN: carries the previous state", "前向 RNN：传递前一个状态"},
    {"forward RNN: bias", "前向 RNN：偏置"},
    {"backward RNN: reads the word x_j", "后向 RNN：读入词 x_j"},
    {"backward RNN: carries the next state", "后向 RNN：传递后一个状态"},
    {"backward RNN: bias", "后向 RNN：偏置"},
    {"attention, decoder side: W_a s_t-1, once per step", "注意力，解码器一侧：W_a s_t-1，每步一次"},
    {"attention, encoder side: U_a h_j, once per sentence", "注意力，编码器一侧：U_a h_j，每句一次"},
    {"attention: turns tanh(…) into one score e_tj", "注意力：把 tanh(…) 变成一个分数 e_tj"},
    {"decoder: s_0 = tanh(W_init · mean of h_j)", "解码器：s_0 = tanh(W_init · h_j 的均值)"},
    {"decoder: carries s_t-1 to s_t", "解码器：把 s_t-1 传到 s_t"},
    {"decoder: reads [y_t-1; c_t]", "解码器：读入 [y_t-1; c_t]"},
    {"decoder: bias", "解码器：偏置"},
    {"{0} has no words: type at least one", "{0} 没有词：请至少输入一个"},
    {"{0} has {1} tokens; the limit is {2}", "{0} 有 {1} 个词元；上限是 {2}"},
    {"source", "源句"},
    {"target", "目标句"},
    {"decoder step", "解码步"},
    {"reads the reference word", "读入参考词"},
    {"produces", "生成"},
    {"forward RNN has read", "前向 RNN 已读"},
    {"backward RNN has read", "后向 RNN 已读"},
    {"forward half", "前向一半"},
    {"backward half", "后向一半"},
    {"word", "词"},
    // hover texts (the view draws its own strings: views/bahdanau_view.cpp)
    {"shape", "形状"},
};

using BahdanauPreset = ScenePreset<BahdanauParams>;

const std::vector<BahdanauPreset>& bahdanau_presets() {
  static const std::vector<BahdanauPreset> kPresets = [] {
    std::vector<BahdanauPreset> v;
    BahdanauParams notes;
    v.push_back({{"notes", N_("The notes' sentence: Le chat noir … → The black cat …"),
                  N_("Twelve source words, thirteen target words: one α_t per target word.")},
                 notes});
    BahdanauParams small = notes;
    small.source = "Le chat noir";
    small.target = "The black cat";
    small.d_h = 3;
    small.d_s = 4;
    small.d_a = 3;
    small.d_emb = 4;
    v.push_back({{"three-words", N_("Three words"), N_("Le chat noir → The black cat: small enough to read every number.")}, small});
    BahdanauParams zh = notes;
    zh.source = "黑猫坐在红地毯上";
    zh.target = "The black cat sat on the red carpet";
    v.push_back({{"chinese", N_("Chinese source"), N_("Each Chinese character is one source token.")}, zh});
    BahdanauParams seed = notes;
    seed.seed = 7;
    v.push_back({{"seed-7", N_("Another seed"), N_("The same sentences with seed 7: the alignment changes, because nothing here is learned.")},
                 seed});
    BahdanauParams wide = notes;
    wide.d_a = 64;
    v.push_back({{"wide", N_("A wide attention layer"),
                  N_("d_a = 64: more hidden units in tanh(W_a s_t-1 + U_a h_j); the scores keep about the same spread.")},
                 wide});
    return v;
  }();
  return kPresets;
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<BahdanauParams>& bahdanau_fields() {
  using P = BahdanauParams;
  static const FieldTable<P> kFields = {
      {"source", at<&P::source>},
      {"target", at<&P::target>},
      {"d_emb", at<&P::d_emb>, 1, bahdanau_limits::kMaxWidth},
      {"d_h", at<&P::d_h>, 1, bahdanau_limits::kMaxWidth},
      {"d_s", at<&P::d_s>, 1, bahdanau_limits::kMaxWidth},
      {"d_a", at<&P::d_a>, 1, bahdanau_limits::kMaxWidth},
      {"seed", at<&P::seed>},
      weights_field<P>(),
  };
  return kFields;
}

// A sentence's tokens, with the field named in the message when it has none or too many.
Status bahdanau_sentence_tokens(const std::string& text, const char* field, std::vector<std::string>* out) {
  std::vector<std::string> t;
  const Status s = tokenize(text, limits::kMaxTokens, &t);
  if (!s.ok) {
    if (s.code && std::strcmp(s.code, "the text has no tokens: type at least one word") == 0)
      return Status::Error("{0} has no words: type at least one", {field});
    return s;  // invalid UTF-8, too many bytes, over limits::kMaxTokens: the tokenizer's own message
  }
  if (static_cast<int>(t.size()) > bahdanau_limits::kMaxWords)
    return Status::Error("{0} has {1} tokens; the limit is {2}", {field, arg(static_cast<long long>(t.size())), arg(bahdanau_limits::kMaxWords)});
  *out = std::move(t);
  return Status::Ok();
}

// The encoder's parameters and the core's list of the attention's and decoder's, each with its shape in
// symbols and its role.
std::vector<BahdanauParamRow> param_rows(const BiRnnWeights& enc, const BahdanauWeights& w) {
  const auto shape = [](const char* name, const Mat& m) { return ParamShape{name, static_cast<int>(m.rows()), static_cast<int>(m.cols())}; };
  std::vector<BahdanauParamRow> rows = {
      {shape("→W_x", enc.fwd.Wx), "d_h × d_emb", N_("forward RNN: reads the word x_j")},
      {shape("→W_h", enc.fwd.Wh), "d_h × d_h", N_("forward RNN: carries the previous state")},
      {shape("→b", enc.fwd.b), "d_h × 1", N_("forward RNN: bias")},
      {shape("←W_x", enc.bwd.Wx), "d_h × d_emb", N_("backward RNN: reads the word x_j")},
      {shape("←W_h", enc.bwd.Wh), "d_h × d_h", N_("backward RNN: carries the next state")},
      {shape("←b", enc.bwd.b), "d_h × 1", N_("backward RNN: bias")},
  };
  struct Known { const char* name; const char* dims; const char* role; };
  static const Known kKnown[] = {
      {"W_a", "d_a × d_s", N_("attention, decoder side: W_a s_t-1, once per step")},
      {"U_a", "d_a × d_enc", N_("attention, encoder side: U_a h_j, once per sentence")},
      {"v_a", "d_a × 1", N_("attention: turns tanh(…) into one score e_tj")},
      {"W_init", "d_s × d_enc", N_("decoder: s_0 = tanh(W_init · mean of h_j)")},
      {"W_s", "d_s × d_s", N_("decoder: carries s_t-1 to s_t")},
      {"W_in", "d_s × (d_emb + d_enc)", N_("decoder: reads [y_t-1; c_t]")},
      {"b_s", "d_s × 1", N_("decoder: bias")},
  };
  for (const ParamShape& s : bahdanau_param_shapes(w)) {
    BahdanauParamRow r{s, "", ""};
    for (const Known& k : kKnown)
      if (s.name == k.name) { r.dims = k.dims; r.role = k.role; }
    rows.push_back(r);
  }
  return rows;
}

json results_json(const BahdanauModel& m, bool with_matrices) {
  json r;
  r["n"] = m.run.n;
  r["T"] = m.run.T;
  r["d_enc"] = m.weights.d_enc;
  r["source_tokens"] = m.source_tokens;
  r["target_tokens"] = m.target_tokens;
  r["decoder_reads"] = m.decoder_reads;
  json params = json::array();
  long long total = 0;
  for (const BahdanauParamRow& p : m.params) {
    params.push_back({{"name", p.shape.name}, {"rows", p.shape.rows}, {"cols", p.shape.cols}, {"shape", p.dims}});
    total += static_cast<long long>(p.shape.rows) * p.shape.cols;
  }
  r["params"] = params;
  r["param_count"] = total;
  r["trained"] = m.trained;
  if (with_matrices) {
    r["alignment"] = matrix_json(m.run.alignment);
    r["scores"] = matrix_json(m.run.scores);
    r["contexts"] = matrix_json(m.run.contexts);
  }
  return r;
}

}  // namespace

Status compute_bahdanau(const BahdanauParams& p, BahdanauModel* out) {
  const int lim = bahdanau_limits::kMaxWidth;
  const struct { const char* name; int v; } sizes[] = {{"d_emb", p.d_emb}, {"d_h", p.d_h}, {"d_s", p.d_s}, {"d_a", p.d_a}};
  for (const auto& s : sizes)
    if (s.v < 1 || s.v > lim) return Status::Error("{0} must be between {1} and {2}, got {3}", {s.name, arg(1), arg(lim), arg(s.v)});
  BahdanauModel m;
  // 1) words: n source tokens, T target tokens; step t reads the reference word y_{t-1} (teacher forcing)
  AP_TRY(bahdanau_sentence_tokens(p.source, "source", &m.source_tokens));
  AP_TRY(bahdanau_sentence_tokens(p.target, "target", &m.target_tokens));
  m.decoder_reads.push_back(kBahdanauStartToken);
  for (size_t k = 0; k + 1 < m.target_tokens.size(); ++k) m.decoder_reads.push_back(m.target_tokens[k]);
  // 2) seeded embeddings, no position code (the RNNs read in order): X n × d_emb, Y_prev T × d_emb
  AP_TRY(embed_tokens(m.source_tokens, p.d_emb, p.seed, false, &m.X));
  AP_TRY(embed_tokens(m.decoder_reads, p.d_emb, p.seed, false, &m.Y_prev));
  // 3) bidirectional encoder: H n × 2·d_h
  AP_TRY(make_birnn_weights(p.d_emb, p.d_h, bahdanau_limits::kGain, p.seed, &m.encoder));
  AP_TRY(birnn_encode(m.X, m.encoder, &m.encoded));
  // 4) attention and decoder, T steps
  AP_TRY(make_bahdanau_weights(2 * p.d_h, p.d_emb, p.d_s, p.d_a, p.seed, &m.weights));
  AP_TRY(bahdanau_decode(m.encoded.H, m.Y_prev, m.weights, &m.run));
  // 5) each step's terms (W_a s_{t-1}, U_a h_j, tanh(…)) for the step view and the hover arithmetic
  for (int k = 0; k < m.run.T; ++k) {
    BahdanauAttend a;
    AP_TRY(bahdanau_attend(m.run.queries.row(k).transpose(), m.encoded.H, m.weights, &a));
    m.steps.push_back(std::move(a));
  }
  m.params = param_rows(m.encoder, m.weights);
  *out = std::move(m);
  return Status::Ok();
}

// The trained view: the sentences through the build's model (core/train/seq2seq_trainer.h: Seq2SeqTrainer::align,
// teacher forcing on the target given), every quantity of the seeded view filled from that run. The model's
// words are the toy grammar's, lowercased; a word outside them is refused by name. Its last step is EOS.
Status compute_bahdanau_trained(const BahdanauParams& p, const train::Seq2SeqTrainer& t, BahdanauModel* out) {
  BahdanauModel m;
  std::vector<std::string> source, target;
  AP_TRY(bahdanau_sentence_tokens(p.source, "source", &source));
  AP_TRY(bahdanau_sentence_tokens(p.target, "target", &target));
  train::Seq2SeqAlignment& a = m.trained_run;
  AP_TRY(t.align(source, target, &a));
  m.trained = true;
  m.source_tokens = a.source;
  m.target_tokens = a.target;
  m.target_tokens.push_back("</s>");  // the step that ends the sentence attends too
  m.decoder_reads = a.reads;
  m.X = a.X;
  m.Y_prev = a.Y_prev;
  const int n = static_cast<int>(a.source.size()), T = static_cast<int>(a.alpha.rows());
  const int d_h = static_cast<int>(a.H_fwd.cols());
  m.encoder.fwd.d_h = m.encoder.bwd.d_h = d_h;
  m.encoder.fwd.d_in = m.encoder.bwd.d_in = static_cast<int>(a.X.cols());
  m.encoded.fwd.H = a.H_fwd;
  m.encoded.bwd.H = a.H_bwd;
  m.encoded.H = a.H;
  m.weights.d_enc = static_cast<int>(a.H.cols());
  m.weights.va = a.v_a.col(0);
  BahdanauRun& r = m.run;
  r.n = n;
  r.T = T;
  r.s0 = a.s0.row(0).transpose();
  r.queries = a.queries;
  r.states = a.states;
  r.scores = a.scores;
  r.alignment = a.alpha;
  r.contexts = a.contexts;
  r.score_max.resize(T);
  r.exp_sum.resize(T);
  for (int k = 0; k < T; ++k) {
    r.score_max(k) = a.score_max[static_cast<size_t>(k)];
    r.exp_sum(k) = a.exp_sum[static_cast<size_t>(k)];
    BahdanauAttend at;
    at.query = a.query_part.row(k).transpose();
    at.keys = a.key_part;
    at.hidden = a.hidden[static_cast<size_t>(k)];
    at.e = a.scores.row(k).transpose();
    at.alpha = a.alpha.row(k).transpose();
    at.e_max = r.score_max(k);
    at.exp_sum = r.exp_sum(k);
    at.c = a.contexts.row(k).transpose();
    m.steps.push_back(std::move(at));
  }
  // The trained model's parameters as its store names them (row vectors: x·W), with their roles.
  struct Known { const char* name; const char* dims; const char* role; };
  static const Known kKnown[] = {
      {"src.emb", "V × d_emb", N_("source word embeddings, learned")},
      {"tgt.emb", "V × d_emb", N_("target word embeddings, learned")},
      {"enc.f.Wx", "d_emb × 3·d_h", N_("forward GRU: reads the word x_j (update, reset, candidate)")},
      {"enc.f.Wh_zr", "d_h × 2·d_h", N_("forward GRU: the previous state into the update and reset gates")},
      {"enc.f.Wh_n", "d_h × d_h", N_("forward GRU: the reset previous state into the candidate")},
      {"enc.f.b", "1 × 3·d_h", N_("forward GRU: biases")},
      {"enc.b.Wx", "d_emb × 3·d_h", N_("backward GRU: reads the word x_j (update, reset, candidate)")},
      {"enc.b.Wh_zr", "d_h × 2·d_h", N_("backward GRU: the next state into the update and reset gates")},
      {"enc.b.Wh_n", "d_h × d_h", N_("backward GRU: the reset next state into the candidate")},
      {"enc.b.b", "1 × 3·d_h", N_("backward GRU: biases")},
      {"init.W", "d_enc × d_s", N_("decoder: s_0 = tanh([→h_n; ←h_1] W + b)")},
      {"init.b", "1 × d_s", N_("decoder: s_0's bias")},
      {"dec.Wx", "(d_emb + d_enc) × 3·d_s", N_("decoder GRU: reads [y_t-1; c_t]")},
      {"dec.Wh_zr", "d_s × 2·d_s", N_("decoder GRU: s_t-1 into the update and reset gates")},
      {"dec.Wh_n", "d_s × d_s", N_("decoder GRU: the reset s_t-1 into the candidate")},
      {"dec.b", "1 × 3·d_s", N_("decoder GRU: biases")},
      {"att.W_a", "d_s × d_a", N_("attention, decoder side: s_t-1 W_a, once per step")},
      {"att.U_a", "d_enc × d_a", N_("attention, encoder side: h_j U_a, once per sentence")},
      {"att.v_a", "d_a × 1", N_("attention: turns tanh(…) into one score e_tj")},
      {"out.W", "(d_s + d_enc) × V", N_("output: [s_t; c_t] W + b scores every target word")},
      {"out.b", "1 × V", N_("output: bias")},
  };
  const train::ParamStore& ps = t.model().params();
  for (size_t k = 0; k < ps.size(); ++k) {
    BahdanauParamRow row{ParamShape{ps[k].name, static_cast<int>(ps[k].value.rows()), static_cast<int>(ps[k].value.cols())}, "", ""};
    for (const Known& kn : kKnown)
      if (ps[k].name == kn.name) {
        row.dims = kn.dims;
        row.role = kn.role;
      }
    m.params.push_back(row);
  }
  *out = std::move(m);
  return Status::Ok();
}

BahdanauScene::BahdanauScene(bool defer) : TrainedView<BahdanauParams>(BuildCheckpoint::Bahdanau), opens_trained_(defer) {
  start(defer);
  const Status s = race_.configure(seq2seq_checkpoint_recipes(BuildCheckpoint::Bahdanau));
  (void)s;  // the build's recipe is valid (tested)
}

// Every frame: a finished run becomes the trained view's model (its checkpoint, read in slices as the build's is); a run
// reset gives the build's model back (fetched again by the platform's cache, or trained by the desktop); the
// build's checkpoint is read a slice a frame (read_checkpoint_slice).
void BahdanauScene::poll() {
  if (read_checkpoint_slice([this](const BahdanauParams& p) { return apply(p); })) return;
  std::vector<uint8_t> b;
  if (!run_shown_ && race_.runs() == 1 && race_.checkpoint(0, &b)) {
    run_shown_ = true;
    const std::vector<unsigned char> bytes(b.begin(), b.end());
    follow_run(&bytes, params_.trained, params_, [this](const BahdanauParams& p) { return apply(p); }, &training_error_);
  } else if (run_shown_ && race_.state() == RaceState::Idle) {
    run_shown_ = false;
    training_error_ = Status::Ok();
    restore_build_checkpoint();  // (a run's model still being measured is dropped)
    if (params_.trained) (void)apply(params_);  // waits for the build's model again (must_wait)
  } else if (run_shown_ && measuring_weights()) {  // the run's model, set up and measured a slice a frame
    follow_run(nullptr, params_.trained, params_, [this](const BahdanauParams& p) { return apply(p); }, &training_error_);
  }
}

BahdanauParams BahdanauScene::trained_opening() {
  BahdanauParams p;
  const train::TranslationPair notes = train::toy_notes_pair();
  p.source = train::words_text(notes.fr);
  p.target = train::words_text(notes.en);
  p.trained = true;
  return p;
}

void BahdanauScene::build_first() {
  ParamScene::build_first();  // the seeded model: on screen until the trained one is here
  if (opens_trained_) hold_for_checkpoint(trained_opening());
}

Status BahdanauScene::check_waiting(const BahdanauParams& p) const { return check_toy_sentences(p, bahdanau_sentence_tokens); }

void BahdanauScene::receive_checkpoint(const std::vector<unsigned char>& bytes) {
  take_checkpoint(bytes, [this](const BahdanauParams& p) { return apply(p); });
}

void BahdanauScene::write_params(json& doc) const {
  // Waiting for the checkpoint: the document already names the trained view (a link asks for the same).
  write_fields(fields(), shown(params_), doc);
}

std::string BahdanauScene::weights_label(bool localized) const {
  return model_.trained ? trained_label(localized) : random_weights_label(params_.seed, localized);
}

std::string BahdanauScene::trained_label(bool localized) const {
  const train::Seq2SeqTrainer* t = checkpoint_slot().seq2seq();
  if (!t) return {};
  const train::Seq2SeqCurvePoint& c = t->curve().back();
  const char* tmpl = checkpoint_slot().from_run()
                         ? N_("trained in this page on the toy translation (French → English), {0} steps: held-out {1} of words right, {2} of words aligned to their source word")
                         : N_("trained on the toy translation (French → English), {0} steps: held-out {1} of words right, {2} of words aligned to their source word");
  const std::vector<std::string> a = {std::to_string(c.step), fmt_percent(c.accuracy), fmt_percent(c.alignment)};
  return localized ? tr_format(tmpl, a) : format_template(tmpl, a);
}

const FieldTable<BahdanauParams>& BahdanauScene::fields() const { return bahdanau_fields(); }
const std::vector<ScenePreset<BahdanauParams>>& BahdanauScene::preset_table() const { return bahdanau_presets(); }
Status BahdanauScene::compute(const BahdanauParams& p, BahdanauModel* out) const {
  if (!p.trained) return compute_bahdanau(p, out);
  train::Seq2SeqTrainer* t = nullptr;
  AP_TRY(trained_seq2seq(&t));
  return compute_bahdanau_trained(p, *t, out);
}
json BahdanauScene::results(const BahdanauParams& p, const BahdanauModel& m, bool with_matrices) const {
  (void)p;
  json r = results_json(m, with_matrices);
  if (m.trained) {
    r["label"] = trained_label(false);
    r["translation"] = m.trained_run.translation;
  }
  write_checkpoint_state(r);
  return r;
}

const char* BahdanauScene::title() const { return N_("Bahdanau (additive) attention"); }

LessonInfo BahdanauScene::lesson() const {
  return {"eₜⱼ = vₐᵀ tanh(Wₐ sₜ₋₁ + Uₐ hⱼ),   αₜ = softmax(eₜ),   cₜ = Σⱼ αₜⱼ hⱼ",
          N_("Step through the decoder steps t and watch α_t move over the source words; then change the seed: an untrained alignment changes with it."),
          N_("Every step t gets its own attention weights α_t and its own context vector c_t = Σ_j α_tj h_j, computed with the PREVIOUS decoder state s_t-1: no single fixed vector any more.")};
}

const std::vector<StageInfo>& BahdanauScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"encoder", N_("Bidirectional encoder"), "hⱼ = [→hⱼ ; ←hⱼ]",
       N_("Two RNNs read the source, one left to right (→h_j), one right to left (←h_j); joined, h_j = [→h_j; ←h_j] sees the whole sentence, centred on word j.")},
      {"params", N_("Parameters and their shapes"), "eₜⱼ = vₐᵀ tanh(Wₐ sₜ₋₁ + Uₐ hⱼ)",
       N_("W_a, U_a and v_a are the attention's learnable parameters: it transforms the two vectors separately, then adds them (additive attention).")},
      {"step", N_("Decoder step t"), "eₜⱼ = vₐᵀ tanh(Wₐ sₜ₋₁ + Uₐ hⱼ),   αₜ = softmax(eₜ),   cₜ = Σⱼ αₜⱼ hⱼ",
       N_("The decoder attends with its previous state s_t-1: one score per source word, softmax into weights that sum to 1, and a new context vector c_t at every step.")},
      {"alignment", N_("The whole alignment matrix"), "α = [α₁ ; α₂ ; … ],   Σⱼ αₜⱼ = 1",
       N_("Row t is α_t: how much step t looks at each source word. With random weights this is the mechanism, not a translation alignment; with the trained model the rows cross where French and English order the words differently.")},
  };
  return kStages;
}


const TrPair* BahdanauScene::translations(size_t* count) const { return translation_table(kBahdanauStrings, count); }

std::vector<int> BahdanauScene::substeps() const { return {std::max(1, model_.run.n), 1, std::max(1, model_.run.T), 1}; }

int BahdanauScene::current_position() const {
  const int n = model_.run.n;
  if (timeline.stage() != static_cast<int>(BahdanauStage::Encoder)) return n - 1;
  return std::clamp(static_cast<int>(timeline.sub()), 0, n - 1);
}

int BahdanauScene::current_step() const {
  const int T = model_.run.T;
  if (timeline.stage() != static_cast<int>(BahdanauStage::Step)) return T - 1;
  return std::clamp(static_cast<int>(timeline.sub()), 0, T - 1);
}

namespace {

// "“chat”"
std::string in_quotes(const std::string& s) { return "“" + s + "”"; }

// "x_1 … x_3 (“le chat noir”)": the words a direction of the encoder has read.
std::string words_read(const std::vector<std::string>& toks, int from, int to) {
  std::string w;
  for (int k = from; k <= to; ++k) w += (k > from ? " " : "") + toks[static_cast<size_t>(k)];
  return "x_" + std::to_string(from + 1) + " … x_" + std::to_string(to + 1) + " (" + in_quotes(w) + ")";
}

// "a·b + c·d + … (12 terms)": at most `shown` products, the rest counted.
std::string products(const std::vector<std::pair<double, double>>& terms, size_t shown, bool tanh_second) {
  std::string s;
  for (size_t k = 0; k < terms.size() && k < shown; ++k) {
    const double a = terms[k].first;  // a minus sign joins the operator: "0.70·x − 0.09·y"
    s += (k == 0 ? fmt(a, 2) : (a < 0 ? " − " : " + ") + fmt(std::abs(a), 2)) + "·" +
         (tanh_second ? "tanh(" + fmt(terms[k].second, 2) + ")" : fmt(terms[k].second, 2));
  }
  if (terms.size() > shown) s += " + … (" + std::to_string(terms.size()) + " " + tr("terms") + ")";
  return s;
}

}  // namespace

std::string BahdanauScene::explain(int what, int i, int j) const {
  const BahdanauModel& m = model_;
  const int n = m.run.n, T = m.run.T, d_h = m.encoder.fwd.d_h;
  const auto& src = m.source_tokens;
  char buf[900];
  switch (static_cast<BahdanauItem>(what)) {
    case BahdanauItem::Forward:
    case BahdanauItem::Backward:
    case BahdanauItem::Joined: {
      if (i < 0 || i >= n || j < 0) return {};
      bool fwd = static_cast<BahdanauItem>(what) == BahdanauItem::Forward;
      int unit = j;
      if (static_cast<BahdanauItem>(what) == BahdanauItem::Joined) {
        if (j >= 2 * d_h) return {};
        fwd = j < d_h;
        unit = fwd ? j : j - d_h;
      } else if (j >= d_h) {
        return {};
      }
      const RnnTrace& tr_ = fwd ? m.encoded.fwd : m.encoded.bwd;
      const std::string read = fwd ? words_read(src, 0, i) : words_read(src, i, n - 1);
      if (m.trained) {  // a GRU: the new state mixes the old one and the candidate by the update gate
        const train::Seq2SeqAlignment& a = m.trained_run;
        const Mat& z = fwd ? a.z_fwd : a.z_bwd;
        const Mat& cand = fwd ? a.n_fwd : a.n_bwd;
        if (i >= z.rows() || unit >= z.cols()) return {};
        const std::string half = static_cast<BahdanauItem>(what) == BahdanauItem::Joined
                                     ? std::string("h_") + std::to_string(i + 1) + "[" + std::to_string(j + 1) + "] = " +
                                           tr(fwd ? "forward half" : "backward half") + ", "
                                     : std::string();
        std::snprintf(buf, sizeof buf, "%s%sh_%d[%d] = (1 − z)·h_prev + z·n = %s   (GRU: z = %s, n = %s)\n%s %s", half.c_str(),
                      fwd ? "→" : "←", i + 1, unit + 1, fmt(tr_.H(i, unit), 3).c_str(), fmt(z(i, unit), 3).c_str(),
                      fmt(cand(i, unit), 3).c_str(), tr(fwd ? "forward RNN has read" : "backward RNN has read"), read.c_str());
        return buf;
      }
      const std::string half = static_cast<BahdanauItem>(what) == BahdanauItem::Joined
                                   ? std::string("h_") + std::to_string(i + 1) + "[" + std::to_string(j + 1) + "] = " +
                                         tr(fwd ? "forward half" : "backward half") + ", "
                                   : std::string();
      std::snprintf(buf, sizeof buf, "%s%sh_%d[%d] = tanh(%s) = %s\n%s %s", half.c_str(), fwd ? "→" : "←", i + 1, unit + 1,
                    fmt(tr_.pre(i, unit), 3).c_str(), fmt(tr_.H(i, unit), 3).c_str(),
                    tr(fwd ? "forward RNN has read" : "backward RNN has read"), read.c_str());
      return buf;
    }
    case BahdanauItem::Score:
    case BahdanauItem::Alignment: {
      if (i < 0 || i >= T || j < 0 || j >= n) return {};
      const BahdanauAttend& a = m.steps[static_cast<size_t>(i)];
      const int t = i + 1;
      std::vector<std::pair<double, double>> terms;
      for (int k = 0; k < a.query.size(); ++k) terms.push_back({m.weights.va(k), a.query(k) + a.keys(j, k)});
      // The softmax's own max and Σ exp(e − max) (core/seq2seq.h BahdanauRun), not recomputed here.
      const double e = m.run.scores(i, j), top = m.run.score_max(i), sum = m.run.exp_sum(i);
      std::snprintf(buf, sizeof buf,
                    "%s t = %d: %s %s, %s %s  ·  %s j = %d %s\n"
                    "e_%d,%d = v_a · tanh(W_a s_%d + U_a h_%d) = %s = %s\n"
                    "α_%d,%d = exp(e − max e_%d) / Σ_j exp(e_%d,j − max e_%d) = %s / %s = %s",
                    tr("decoder step"), t, tr("reads the reference word"), in_quotes(m.decoder_reads[static_cast<size_t>(i)]).c_str(), tr("produces"),
                    in_quotes(m.target_tokens[static_cast<size_t>(i)]).c_str(), tr("word"), j + 1, in_quotes(src[static_cast<size_t>(j)]).c_str(),
                    t, j + 1, t - 1, j + 1, products(terms, 4, true).c_str(), fmt(e, 3).c_str(), t, j + 1, t, t, t,
                    fmt(std::exp(e - top), 3).c_str(), fmt(sum, 3).c_str(), fmt(m.run.alignment(i, j), 3).c_str());
      return buf;
    }
    case BahdanauItem::Context: {
      if (i < 0 || i >= T || j < 0 || j >= m.run.contexts.cols()) return {};
      std::vector<std::pair<double, double>> terms;
      for (int k = 0; k < n; ++k) terms.push_back({m.run.alignment(i, k), m.encoded.H(k, j)});
      std::snprintf(buf, sizeof buf, "c_%d[%d] = Σ_j α_%d,j · h_j[%d] = %s = %s", i + 1, j + 1, i + 1, j + 1,
                    products(terms, 4, false).c_str(), fmt(m.run.contexts(i, j), 3).c_str());
      return buf;
    }
  }
  return {};
}

}  // namespace ap
