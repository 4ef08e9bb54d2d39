#include "bottleneck_scene.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <utility>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "core/embedding.h"
#include "core/number_text.h"
#include "core/tokenizer.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kBottleneckStrings[] = {
    {"The Seq2Seq bottleneck", "Seq2Seq 的信息瓶颈"},
    {"Type a longer sentence (or raise L_max) and watch the bars of the first words drop in stage 3; then give c more room with d_h.",
     "输入更长的句子（或调大 L_max），在第 3 阶段看开头几个词的柱子变低；再用 d_h 给 c 更多空间。"},
    {"The mean R² from the one vector c falls as the sentence grows, under the bound d_h/(L·d_in); read from every h_j, as attention does, it stays high.",
     "只从一个向量 c 读出的平均 R² 随句子变长而下降，低于上界 d_h/(L·d_in)；像注意力那样从每个 h_j 读出，它一直很高。"},
    {"The encoder reads the sentence", "编码器逐词读入句子"},
    {"c: the whole sentence in d_h numbers", "c：整句话只剩 d_h 个数"},
    {"What c still holds, word by word", "c 还记得每个词的多少"},
    {"As the sentence grows", "句子变长时"},
    {"Trained: accuracy against length", "训练后：准确率与长度"},
    {"The papers' measurement, trained here: the same GRU encoder and decoder learn to reverse strings of 4 to 24 symbols, once reading only c and once with attention, on the same data and the same budget; then each is tested on strings it never saw, length by length.",
     "论文里的测量，在这里训练：同样的 GRU 编码器和解码器学习把 4 到 24 个符号的串倒过来，一个只读 c，一个用注意力，数据和训练预算都相同；然后在它们从未见过的串上逐个长度测试。"},
    {"{0} symbols, {1} held-out strings: {2}\nwords right {3}, whole strings right {4}", "{0} 个符号，{1} 个留出串：{2}\n词正确 {3}，整串正确 {4}"},
    {"with attention", "有注意力"},
    {"without attention (c only)", "无注意力（只读 c）"},
    {"An RNN encoder reads one token per step: each new state h_t mixes the token x_t into the previous state, so older tokens are overwritten little by little.",
     "RNN 编码器每步读一个词：新的状态 h_t 把词 x_t 混入之前的状态，较早的词一点点被覆盖。"},
    {"Seq2Seq hands the decoder only the last state, the context vector c: n·d_in source numbers squeezed into d_h numbers — the information bottleneck.",
     "Seq2Seq 只把最后一个状态交给解码器，即上下文向量 c：n·d_in 个源数字被压进 d_h 个数——这就是信息瓶颈。"},
    {"A linear probe, fitted on many random sentences of this length, tries to read each token back: from c alone (Seq2Seq) or from that position's own state h_j (what an attention decoder can read).",
     "一个线性探针在许多同样长度的随机句子上拟合，尝试把每个词读回来：只从 c 读（Seq2Seq），或从该位置自己的状态 h_j 读（注意力解码器能读到的）。"},
    {"The mean over positions, for every length: from c it falls under d_h/(L·d_in), from the h_j it stays high. Attention gives each decoder step its own context c_t = Σ_j α_tj h_j.",
     "对位置取平均，每个长度一个点：从 c 读出的下降到 d_h/(L·d_in) 以下，从 h_j 读出的一直很高。注意力让解码器每一步都有自己的上下文向量 c_t = Σ_j α_tj h_j。"},
    {"The notes' sentence", "讲义中的句子"},
    {"12 French words into 32 numbers: the last words survive in c, the first ones fade.",
     "12 个法语词压进 32 个数：最后几个词留在 c 里，开头的词逐渐消失。"},
    {"A short sentence", "一个短句"},
    {"3 tokens × 8 = 24 numbers fit in c's 32: nothing needs to be lost.", "3 个词 × 8 = 24 个数，装得进 c 的 32 个数：不必丢失任何信息。"},
    {"The same sentence in Chinese", "同一句话的中文"},
    {"One token per Chinese character: 11 tokens, the same fading.", "每个汉字一个词元：11 个词元，同样在消退。"},
    {"A wider c", "更宽的 c"},
    {"d_h = 64: twice the room, the bound doubles, yet a long sentence still does not fit.", "d_h = 64：空间加倍，上界也加倍，但长句仍然装不下。"},
    {"A forgetful encoder", "健忘的编码器"},
    {"Gain 0.5: old states fade fast, c keeps only the last two or three words.", "增益 0.5：旧状态迅速衰减，c 只记得最后两三个词。"},
    {"sentence", "句子"},
    {"vocabulary", "词表大小"},
    {"x_{0}[{1}] = {2}: seeded embedding of “{3}” (untrained, N(0, 1))", "x_{0}[{1}] = {2}：“{3}” 的种子词向量（未训练，N(0, 1)）"},
    {"h_{0}[{1}] = tanh({2}) = {3}   after reading “{4}”", "h_{0}[{1}] = tanh({2}) = {3}   读完 “{4}” 之后"},
    {"c[{0}] = h_{1}[{0}] = {2}", "c[{0}] = h_{1}[{0}] = {2}"},
    {"position {0} (“{1}” in your sentence), L = {2}\nR² from c = {3}   R² from h_{0} = {4}\nmean cosine: from c {5}, from h_{0} {6}",
     "位置 {0}（你的句子中的 “{1}”），L = {2}\n从 c 读出的 R² = {3}   从 h_{0} 读出的 R² = {4}\n平均余弦：从 c {5}，从 h_{0} {6}"},
    {"L = {0}: mean R² from c = {1}, from h_j = {2}, bound = {3}", "L = {0}：从 c 读出的平均 R² = {1}，从 h_j = {2}，上界 = {3}"},
    {"the sentence has {0} tokens; the probe measures lengths up to L_max = {1}: shorten it or raise L_max (at most {2})",
     "句子有 {0} 个词元；探针只测量到 L_max = {1} 的长度：请缩短句子或调大 L_max（最多 {2}）"},
};

using BottleneckPreset = ScenePreset<BottleneckParams>;

const std::vector<BottleneckPreset>& bottleneck_presets() {
  static const std::vector<BottleneckPreset> kPresets = [] {
    std::vector<BottleneckPreset> v;
    BottleneckParams notes;
    v.push_back({{"notes", N_("The notes' sentence"), N_("12 French words into 32 numbers: the last words survive in c, the first ones fade.")}, notes});
    BottleneckParams shorter;
    shorter.text = "Le chat noir";
    v.push_back({{"short", N_("A short sentence"), N_("3 tokens × 8 = 24 numbers fit in c's 32: nothing needs to be lost.")}, shorter});
    BottleneckParams chinese;
    chinese.text = "黑猫坐在客厅的红地毯上";
    v.push_back({{"chinese", N_("The same sentence in Chinese"), N_("One token per Chinese character: 11 tokens, the same fading.")}, chinese});
    BottleneckParams wide;
    wide.d_h = 64;
    wide.n_train = 512;  // within the probe budget
    v.push_back({{"wide", N_("A wider c"), N_("d_h = 64: twice the room, the bound doubles, yet a long sentence still does not fit.")}, wide});
    BottleneckParams forgetful;
    forgetful.gain = 0.5;
    v.push_back({{"forgetful", N_("A forgetful encoder"), N_("Gain 0.5: old states fade fast, c keeps only the last two or three words.")}, forgetful});
    return v;
  }();
  return kPresets;
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<BottleneckParams>& bottleneck_fields() {
  using P = BottleneckParams;
  static const FieldTable<P> kFields = {
      {"text", at<&P::text>},
      {"d_in", at<&P::d_in>, 1, probe_limits::kMaxInput},
      {"d_h", at<&P::d_h>, 1, probe_limits::kMaxHidden},
      {"gain", at<&P::gain>, 0.0, s2s_limits::kMaxGain},
      {"seed", at<&P::seed>},
      {"vocab", at<&P::vocab>, 1, probe_limits::kMaxVocab},
      {"l_max", at<&P::l_max>, 1, probe_limits::kMaxLength},
      {"n_train", at<&P::n_train>, 1, probe_limits::kMaxSentences},
      {"n_test", at<&P::n_test>, 1, probe_limits::kMaxSentences},
      {"lambda", at<&P::lambda>, 0.0, probe_limits::kMaxLambda},
  };
  return kFields;
}

bool same_config(const ProbeConfig& a, const ProbeConfig& b) {
  return a.d_in == b.d_in && a.d_h == b.d_h && a.vocab == b.vocab && a.l_min == b.l_min && a.l_max == b.l_max &&
         a.n_train == b.n_train && a.n_test == b.n_test && a.gain == b.gain && a.lambda == b.lambda && a.seed == b.seed;
}

// The probe depends only on its configuration, not on the sentence: the last few runs are kept, so that
// typing a sentence (or building another playground state) does not refit it. Deterministic either way.
Status memo_probe(const ProbeConfig& cfg, BottleneckProbe* out) {
  static std::mutex mu;
  static std::vector<BottleneckProbe> cache;  // most recent first
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const BottleneckProbe& b : cache)
      if (same_config(b.config, cfg)) {
        *out = b;
        return Status::Ok();
      }
  }
  BottleneckProbe b;
  AP_TRY(bottleneck_probe(cfg, &b));
  std::lock_guard<std::mutex> lock(mu);
  cache.insert(cache.begin(), b);
  if (cache.size() > 4) cache.pop_back();
  *out = std::move(b);
  return Status::Ok();
}

json vec_json(const Vec& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(static_cast<double>(v(i)));
  return a;
}

// The results of a model as getState reports them (and as setState checks them when they come back).
json results_json(const BottleneckParams& p, const BottleneckModel& m, bool with_matrices) {
  const int n = m.n();
  json r;
  r["n"] = n;
  r["tokens"] = m.tokens;
  r["source_numbers"] = n * p.d_in;
  r["c_numbers"] = p.d_h;
  r["c"] = vec_json(m.trace.last);
  r["work"] = m.probe.work;
  // the probe as the sentence grows: one entry per L = 1 … l_max
  json L = json::array(), fin = json::array(), rd = json::array(), bound = json::array(), cf = json::array(), cr = json::array();
  for (const ProbeLength& pl : m.probe.lengths) {
    L.push_back(pl.L);
    fin.push_back(pl.mean_r2_final);
    rd.push_back(pl.mean_r2_reader);
    bound.push_back(bottleneck_bound(p.d_h, p.d_in, pl.L));
    cf.push_back(pl.mean_cos_final);
    cr.push_back(pl.mean_cos_reader);
  }
  r["probe"] = {{"L", L}, {"mean_r2_bottleneck", fin}, {"mean_r2_reader", rd}, {"bound", bound},
                {"mean_cos_bottleneck", cf}, {"mean_cos_reader", cr}};
  // the probe at the sentence's own length
  const ProbeLength& at = m.at_sentence();
  r["at_L"] = {{"L", at.L},
               {"r2_bottleneck", at.r2_final},
               {"r2_reader", at.r2_reader},
               {"cos_bottleneck", at.cos_final},
               {"cos_reader", at.cos_reader},
               {"mean_r2_bottleneck", at.mean_r2_final},
               {"mean_r2_reader", at.mean_r2_reader},
               {"bound", bottleneck_bound(p.d_h, p.d_in, at.L)}};
  if (with_matrices) {
    r["X"] = matrix_json(m.X);
    r["H"] = matrix_json(m.trace.H);
  }
  return r;
}

}  // namespace

ProbeConfig bottleneck_probe_config(const BottleneckParams& p) {
  ProbeConfig c;
  c.d_in = p.d_in;
  c.d_h = p.d_h;
  c.vocab = p.vocab;
  c.l_min = 1;
  c.l_max = p.l_max;
  c.n_train = p.n_train;
  c.n_test = p.n_test;
  c.gain = p.gain;
  c.lambda = p.lambda;
  c.seed = p.seed;
  return c;
}

double bottleneck_bound(int d_h, int d_in, int L) {
  return std::min(1.0, static_cast<double>(d_h) / (static_cast<double>(L) * d_in));
}

// Tokenises and embeds the sentence, encodes it with the probe's encoder, and runs (or recalls) the probe.
//   1) tokens (at most probe_limits::kMaxLength, and at most L_max: the probe must measure this length)
//   2) the probe's data: its seeded encoder is the one that reads the sentence
//   3) X = seeded embeddings of the tokens (N(0, 1) like the probe's random vocabulary), H = rnn_encode(X)
//   4) the probe over random sentences, L = 1 … L_max
Status compute_bottleneck(const BottleneckParams& p, BottleneckModel* out, bool with_probe) {
  BottleneckModel m;
  AP_TRY(tokenize(p.text, probe_limits::kMaxLength, &m.tokens));
  if (m.n() > p.l_max)
    return Status::Error("the sentence has {0} tokens; the probe measures lengths up to L_max = {1}: shorten it or raise L_max (at most {2})",
                         {arg(m.n()), arg(p.l_max), arg(probe_limits::kMaxLength)});
  const ProbeConfig cfg = bottleneck_probe_config(p);
  ProbeData data;
  AP_TRY(make_probe_data(cfg, &data));  // validates the sizes and the budget
  AP_TRY(embed_tokens(m.tokens, p.d_in, p.seed, /*positional=*/false, &m.X));
  AP_TRY(rnn_encode(m.X, data.encoder, /*reverse=*/false, &m.trace));
  if (with_probe) AP_TRY(memo_probe(cfg, &m.probe));
  *out = std::move(m);
  return Status::Ok();
}

BottleneckScene::BottleneckScene(bool defer) {
  start(defer);
  const Status s = race_.configure({train::reversal_recipe(train::Seq2SeqAttention::None), train::reversal_recipe(train::Seq2SeqAttention::Additive)},
                                   bottleneck_race::lengths(), bottleneck_race::kMeasurePerLength);
  (void)s;  // the build's recipes are valid (tested)
}

const FieldTable<BottleneckParams>& BottleneckScene::fields() const { return bottleneck_fields(); }
const std::vector<ScenePreset<BottleneckParams>>& BottleneckScene::preset_table() const { return bottleneck_presets(); }
Status BottleneckScene::compute(const BottleneckParams& p, BottleneckModel* out) const { return compute_bottleneck(p, out); }
json BottleneckScene::results(const BottleneckParams& p, const BottleneckModel& m, bool with_matrices) const { return results_json(p, m, with_matrices); }

void BottleneckScene::build_first() {
  Status s = compute_bottleneck(params_, &model_, /*with_probe=*/false);  // the defaults always compute
  (void)s;
  probe_pending_ = true;
  first_model();
}

const BottleneckModel& BottleneckScene::model() const {
  if (probe_pending_) {
    probe_pending_ = false;
    // Logically const: the probe is part of the model the scene always had (as Scene::ensure_built).
    Status s = memo_probe(bottleneck_probe_config(params_), &const_cast<BottleneckModel&>(model_).probe);  // the defaults always compute
    (void)s;
  }
  return model_;
}

const char* BottleneckScene::title() const { return N_("The Seq2Seq bottleneck"); }

LessonInfo BottleneckScene::lesson() const {
  return {"c = hₙ,   mean R²(c) ≤ dₕ / (n·dᵢₙ)",
          N_("Type a longer sentence (or raise L_max) and watch the bars of the first words drop in stage 3; then give c more room with d_h."),
          N_("The mean R² from the one vector c falls as the sentence grows, under the bound d_h/(L·d_in); read from every h_j, as attention does, it stays high.")};
}

const std::vector<StageInfo>& BottleneckScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"read", N_("The encoder reads the sentence"), "hₜ = tanh(W_x xₜ + W_h hₜ₋₁ + b),   h₀ = 0",
       N_("An RNN encoder reads one token per step: each new state h_t mixes the token x_t into the previous state, so older tokens are overwritten little by little.")},
      {"compress", N_("c: the whole sentence in d_h numbers"), "c = hₙ:   n·dᵢₙ  →  dₕ",
       N_("Seq2Seq hands the decoder only the last state, the context vector c: n·d_in source numbers squeezed into d_h numbers — the information bottleneck.")},
      {"probe", N_("What c still holds, word by word"), "R²ⱼ = 1 − error / variance,   c → xⱼ   vs   hⱼ → xⱼ",
       N_("A linear probe, fitted on many random sentences of this length, tries to read each token back: from c alone (Seq2Seq) or from that position's own state h_j (what an attention decoder can read).")},
      {"grow", N_("As the sentence grows"), "mean R²(c) ≤ dₕ / (L·dᵢₙ)",
       N_("The mean over positions, for every length: from c it falls under d_h/(L·d_in), from the h_j it stays high. Attention gives each decoder step its own context c_t = Σ_j α_tj h_j.")},
      {"trained", N_("Trained: accuracy against length"), "c = hₙ   vs   cₜ = Σⱼ αₜⱼ hⱼ",
       N_("The papers' measurement, trained here: the same GRU encoder and decoder learn to reverse strings of 4 to 24 symbols, once reading only c and once with attention, on the same data and the same budget; then each is tested on strings it never saw, length by length.")},
  };
  return kStages;
}


const TrPair* BottleneckScene::translations(size_t* count) const { return translation_table(kBottleneckStrings, count); }

std::vector<int> BottleneckScene::substeps() const { return {std::max(1, model_.n()), 1, 1, 1, 1}; }

void BottleneckScene::write_results(json& doc, bool with_matrices) const {
  json r = results_json(params_, model(), with_matrices);
  // The race's measurement once done: held-out token (and sentence) accuracy by source length.
  if (race_.measured()) {
    r["accuracy_by_length"] = {{"lengths", race_.lengths()},
                               {"with_attention", race_.tokens_by_length(1)},
                               {"without_attention", race_.tokens_by_length(0)},
                               {"sentences_with_attention", race_.sentences_by_length(1)},
                               {"sentences_without_attention", race_.sentences_by_length(0)},
                               {"pairs_per_length", race_.per_length()}};
  }
  doc["results"] = r;
  doc["training"] = race_.json();
}

const std::vector<int>& bottleneck_race::lengths() {
  static const std::vector<int> kLengths = {4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24};
  return kLengths;
}

std::string BottleneckScene::explain(int what, int i, int j) const {
  const BottleneckModel& m = model();
  const int n = m.n();
  const auto tok = [&](int t) { return m.tokens[static_cast<size_t>(t)]; };
  switch (static_cast<BottleneckItem>(what)) {
    case BottleneckItem::Source:
      if (i < 0 || i >= n || j < 0 || j >= m.X.cols()) return {};
      return tr_format(N_("x_{0}[{1}] = {2}: seeded embedding of “{3}” (untrained, N(0, 1))"),
                  {std::to_string(i + 1), std::to_string(j + 1), fmt(m.X(i, j), 3), tok(i)});
    case BottleneckItem::State:
      if (i < 0 || i >= n || j < 0 || j >= m.trace.H.cols()) return {};
      return tr_format(N_("h_{0}[{1}] = tanh({2}) = {3}   after reading “{4}”"),
                  {std::to_string(i + 1), std::to_string(j + 1), fmt(m.trace.pre(i, j), 3), fmt(m.trace.H(i, j), 3), tok(i)});
    case BottleneckItem::Context:
      if (j < 0 || j >= m.trace.last.size()) return {};
      return tr_format(N_("c[{0}] = h_{1}[{0}] = {2}"), {std::to_string(j + 1), std::to_string(n), fmt(m.trace.last(j), 3)});
    case BottleneckItem::Position: {
      const ProbeLength& at = m.at_sentence();
      if (i < 0 || i >= at.L) return {};
      const size_t k = static_cast<size_t>(i);
      return tr_format(N_("position {0} (“{1}” in your sentence), L = {2}\nR² from c = {3}   R² from h_{0} = {4}\nmean cosine: from c {5}, from h_{0} {6}"),
                  {std::to_string(i + 1), tok(i), std::to_string(at.L), fmt(at.r2_final[k], 3), fmt(at.r2_reader[k], 3),
                   fmt(at.cos_final[k], 3), fmt(at.cos_reader[k], 3)});
    }
    case BottleneckItem::Length: {
      if (i < 0 || i >= static_cast<int>(m.probe.lengths.size())) return {};
      const ProbeLength& pl = m.probe.lengths[static_cast<size_t>(i)];
      return tr_format(N_("L = {0}: mean R² from c = {1}, from h_j = {2}, bound = {3}"),
                  {std::to_string(pl.L), fmt(pl.mean_r2_final, 3), fmt(pl.mean_r2_reader, 3),
                   fmt(bottleneck_bound(params_.d_h, params_.d_in, pl.L), 3)});
    }
    case BottleneckItem::TrainedLength: {
      if (!race_.measured() || i < 0 || i >= static_cast<int>(race_.lengths().size()) || j < 0 || j > 1) return {};
      const size_t k = static_cast<size_t>(i);
      return tr_format(N_("{0} symbols, {1} held-out strings: {2}\nwords right {3}, whole strings right {4}"),
                       {std::to_string(race_.lengths()[k]), std::to_string(race_.per_length()),
                        tr(j ? N_("with attention") : N_("without attention (c only)")), fmt_percent(race_.tokens_by_length(j)[k]),
                        fmt_percent(race_.sentences_by_length(j)[k])});
    }
  }
  return {};
}

}  // namespace ap
