#include "masks_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "core/number_text.h"
#include "core/tokenizer.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kMasksStrings[] = {
    {"Pick a bug from the list (mask after softmax, wrong axis, ÷√d_model …) and compare its weights and row sums with the correct ones.",
     "从列表中选一个 bug（softmax 之后加掩码、轴用错、除以 √d_model……），把它的权重和行和与正确的对比。"},
    {"−∞ before softmax hides a key exactly and keeps every row a distribution; each bug breaks one of these, measurably.",
     "在 softmax 之前加 −∞ 能精确遮住一个 key，并让每行仍是一个分布；每个 bug 都会可测地破坏其中一点。"},
    {"Masks and a bug lab", "掩码与 bug 实验室"},
    {"Train with the bug", "带着 bug 训练"},
    {"A tiny language model trained three times on the same sequences: with the causal mask, with the mask forgotten, and with the mask applied after the softmax. Without it every position can read the next token, the very one it must predict: the training loss falls far lower. Writing on its own, the next token is not there yet.",
     "一个很小的语言模型在同样的序列上训练三次：一次带因果掩码，一次忘了掩码，一次在 softmax 之后才加掩码。没有掩码时，每个位置都能读到下一个词——正是它要预测的那个：训练损失降得低得多。可是自己生成时，下一个词还不存在。"},
    {"A padded batch", "补齐后的批次"},
    {"Padding and causal masks", "填充掩码与因果掩码"},
    {"Weights: correct and with the bug", "权重：正确的与有 bug 的"},
    {"The damage, measured", "实测的破坏"},
    {"Sentences of different lengths are padded with [PAD] to one length L, so the batch is one B × L array.",
     "长度不同的句子用 [PAD] 补齐到同一长度 L，整个批次成为一个 B × L 的数组。"},
    {"−∞ is added BEFORE softmax where a query must not see a key: [PAD] keys (padding mask) and later tokens (causal mask). e^(−∞) = 0, so hidden weights are exactly 0 and each row still sums to 1.",
     "在 softmax 之前，对 query 不应看到的 key 加上 −∞：[PAD] 的 key（填充掩码）和之后的词（因果掩码）。e^(−∞) = 0，所以被遮住的权重恰好为 0，每行之和仍为 1。"},
    {"The same scores, computed correctly and with the bug: look at the hidden cells and at the row sums.",
     "同样的分数，正确计算与带 bug 计算：看被遮住的格子和每行之和。"},
    {"Each bug is run on the same batch; its damage is measured, not asserted.", "每个 bug 都在同一批次上运行；破坏是实测的，不是断言的。"},
    {"correct", "正确"},
    {"no bug", "无 bug"},
    {"mask after softmax", "softmax 之后才加掩码"},
    {"scale after softmax", "softmax 之后才缩放"},
    {"softmax over the wrong axis", "softmax 用错了轴"},
    {"÷√d_model instead of ÷√d_k", "除以 √d_model 而非 √d_k"},
    {"causal mask forgotten", "忘了因果掩码"},
    {"causal mask transposed", "因果掩码上下颠倒"},
    {"causal mask off by one", "因果掩码错位一格"},
    {"−∞ before softmax: hidden weights are exactly 0, rows sum to 1.", "softmax 之前加 −∞：被遮住的权重恰为 0，每行和为 1。"},
    {"Hidden weights are zeroed after softmax and not renormalised: rows sum to less than 1.",
     "softmax 之后才把被遮住的权重置 0 且没有重新归一化：每行之和小于 1。"},
    {"softmax ran on unscaled scores and the weights are then divided by √d_k: rows sum to 1/√d_k, and the rows are sharper.",
     "softmax 作用在未缩放的分数上，之后才除以 √d_k：每行之和为 1/√d_k，分布也更尖锐。"},
    {"softmax over the queries (columns sum to 1): rows no longer sum to 1, and every weight mixes in other queries.",
     "softmax 沿 query 方向（每列和为 1）：行和不再为 1，每个权重都混入了其他 query。"},
    {"Scores shrink by √heads: the weights flatten (higher entropy). No damage with one head.",
     "分数缩小了 √heads 倍：权重变平（熵变大）。只有一个头时没有影响。"},
    {"Only the padding mask: every token sees the future.", "只有填充掩码：每个词都看到了未来。"},
    {"tril and triu swapped: token i sees itself and the future instead of the past.",
     "tril 与 triu 用反了：第 i 个词看到的是自己和未来，而不是过去。"},
    {"triu with diagonal 0: token i no longer sees itself, and the first token sees nothing.",
     "triu 的对角线参数为 0：第 i 个词看不到自己，第一个词什么也看不到。"},
    {"sentences", "句子"},
    {"bug", "bug"},
    {"heads", "头数"},
    {"hidden", "被遮住"},
    {"visible", "可见"},
    {"row sum", "行和"},
    {"query", "query"},
    {"key", "key"},
    {"hidden because it is [PAD]", "被遮住：它是 [PAD]"},
    {"hidden because it comes later", "被遮住：它在后面"},
    {"sentence must be between 0 and {0}, got {1}", "sentence 必须在 0 到 {0} 之间，收到的是 {1}"},
    {"bug must be one of none, mask-after-softmax, scale-after-softmax, softmax-over-columns, scale-by-d_model, causal-omitted, causal-transposed, causal-diagonal; got {0}",
     "bug 必须是 none、mask-after-softmax、scale-after-softmax、softmax-over-columns、scale-by-d_model、causal-omitted、causal-transposed、causal-diagonal 之一；收到的是 {0}"},
    {"{0} needs the causal mask on", "{0} 需要开启因果掩码"},
    {"heads must divide d_model ({0}), got {1}", "heads 必须能整除 d_model（{0}），收到的是 {1}"},
};

using MasksPreset = ScenePreset<MasksParams>;

const std::vector<MasksPreset>& masks_presets() {
  static const std::vector<MasksPreset> kPresets = [] {
    std::vector<MasksPreset> v;
    const MaskBug bugs[] = {MaskBug::None, MaskBug::MaskAfterSoftmax, MaskBug::ScaleAfterSoftmax, MaskBug::SoftmaxOverColumns,
                            MaskBug::ScaleByDModel, MaskBug::CausalOmitted, MaskBug::CausalTransposed, MaskBug::CausalDiagonal};
    for (MaskBug b : bugs) {
      MasksParams p;
      p.bug = b;
      v.push_back({{mask_bug_name(b), MasksScene::bug_title(b), MasksScene::bug_effect(b)}, p});
    }
    return v;
  }();
  return kPresets;
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<MasksParams>& masks_fields() {
  using P = MasksParams;
  static const FieldTable<P> kFields = {
      {"sentences",
       [](const json& v, P* p) {
         AP_TRY(read_string_list(v, "sentences", &p->sentences));
         // the sentence shown stays within the new batch (a "sentence" field, read after this one, sets it)
         p->sentence = std::max(0, std::min<int>(p->sentence, static_cast<int>(p->sentences.size()) - 1));
         return Status::Ok();
       },
       [](const P& p, json& doc) { doc["sentences"] = p.sentences; }, UrlKind::Json},
      {"pad_to", at<&P::pad_to>, 0, lab_limits::kMaxLength},
      {"causal", at<&P::causal>},
      {"bug",
       [](const json& v, P* p) {
         if (!v.is_string() || !parse_mask_bug_name(v.get<std::string>(), &p->bug))
           return Status::Error("bug must be one of none, mask-after-softmax, scale-after-softmax, softmax-over-columns, scale-by-d_model, causal-omitted, causal-transposed, causal-diagonal; got {0}",
                                {quote_json(v)});
         return Status::Ok();
       },
       [](const P& p, json& doc) { doc["bug"] = mask_bug_name(p.bug); }, UrlKind::String},
      {"d_model", at<&P::d_model>, 1, masks_limits::kMaxDModel},
      {"heads", at<&P::heads>, 1, masks_limits::kMaxDModel},
      {"seed", at<&P::seed>},
      {"sentence", at<&P::sentence>, 0, lab_limits::kMaxBatch - 1},
  };
  return kFields;
}

json damage_json(const MaskDamage& d) {
  return {{"max_row_sum_dev", d.max_row_sum_dev}, {"max_hidden_mass", d.max_hidden_mass},
          {"mean_hidden_mass", d.mean_hidden_mass}, {"max_pad_mass", d.max_pad_mass},
          {"max_future_mass", d.max_future_mass}, {"max_weight", d.max_weight}, {"mean_peak", d.mean_peak},
          {"mean_entropy", d.mean_entropy}, {"max_output_diff", d.max_output_diff}, {"pad_leak", d.pad_leak},
          {"future_leak", d.future_leak}, {"empty_rows", d.empty_rows}};
}

// The results of a model as getState reports them (and as setState checks them when they come back).
json results_json(const MasksParams& p, const MasksModel& m, bool with_matrices) {
  const PaddedBatch& b = m.batch;
  json r;
  r["L"] = b.L;
  r["d_k"] = b.d_k;
  r["lengths"] = b.lengths;
  r["tokens"] = b.tokens;
  r["damage"] = damage_json(m.run.damage);
  r["baseline"] = damage_json(m.run.baseline);
  r["entropy_change"] = m.run.entropy_change;
  json bugs = json::array();
  for (const MaskLabRun& run : m.bugs)
    bugs.push_back({{"bug", mask_bug_name(run.bug)}, {"damage", damage_json(run.damage)}, {"entropy_change", run.entropy_change},
                    {"peak_change", run.peak_change}});
  r["bugs"] = bugs;
  if (with_matrices) {
    const size_t s = static_cast<size_t>(p.sentence);
    r["hidden"] = matrix_json(m.run.correct[s].hidden);
    r["weights_correct"] = matrix_json(m.run.correct[s].weights);
    r["weights_bug"] = matrix_json(m.run.variant[s].weights);
  }
  return r;
}

}  // namespace

const char* MasksScene::bug_title(MaskBug b) {
  switch (b) {
    case MaskBug::None: return N_("no bug");
    case MaskBug::MaskAfterSoftmax: return N_("mask after softmax");
    case MaskBug::ScaleAfterSoftmax: return N_("scale after softmax");
    case MaskBug::SoftmaxOverColumns: return N_("softmax over the wrong axis");
    case MaskBug::ScaleByDModel: return N_("÷√d_model instead of ÷√d_k");
    case MaskBug::CausalOmitted: return N_("causal mask forgotten");
    case MaskBug::CausalTransposed: return N_("causal mask transposed");
    case MaskBug::CausalDiagonal: return N_("causal mask off by one");
  }
  return "";
}

const char* MasksScene::bug_effect(MaskBug b) {
  switch (b) {
    case MaskBug::None: return N_("−∞ before softmax: hidden weights are exactly 0, rows sum to 1.");
    case MaskBug::MaskAfterSoftmax: return N_("Hidden weights are zeroed after softmax and not renormalised: rows sum to less than 1.");
    case MaskBug::ScaleAfterSoftmax:
      return N_("softmax ran on unscaled scores and the weights are then divided by √d_k: rows sum to 1/√d_k, and the rows are sharper.");
    case MaskBug::SoftmaxOverColumns:
      return N_("softmax over the queries (columns sum to 1): rows no longer sum to 1, and every weight mixes in other queries.");
    case MaskBug::ScaleByDModel: return N_("Scores shrink by √heads: the weights flatten (higher entropy). No damage with one head.");
    case MaskBug::CausalOmitted: return N_("Only the padding mask: every token sees the future.");
    case MaskBug::CausalTransposed: return N_("tril and triu swapped: token i sees itself and the future instead of the past.");
    case MaskBug::CausalDiagonal: return N_("triu with diagonal 0: token i no longer sees itself, and the first token sees nothing.");
  }
  return "";
}

// Tokenises the sentences, pads them, runs the chosen variant and every other one on the same batch.
Status compute_masks(const MasksParams& p, MasksModel* out) {
  if (p.sentences.empty() || static_cast<int>(p.sentences.size()) > lab_limits::kMaxBatch)
    return Status::Error("{0} must be between 1 and {1}, got {2}",
                         {"sentences", arg(lab_limits::kMaxBatch), arg(static_cast<long long>(p.sentences.size()))});
  if (p.heads < 1 || p.d_model % p.heads != 0)
    return Status::Error("heads must divide d_model ({0}), got {1}", {arg(p.d_model), arg(p.heads)});
  if (p.sentence < 0 || p.sentence >= static_cast<int>(p.sentences.size()))
    return Status::Error("sentence must be between 0 and {0}, got {1}", {arg(static_cast<long long>(p.sentences.size()) - 1), arg(p.sentence)});
  if (mask_bug_needs_causal(p.bug) && !p.causal) return Status::Error("{0} needs the causal mask on", {mask_bug_name(p.bug)});
  std::vector<std::vector<std::string>> tokens;
  for (size_t s = 0; s < p.sentences.size(); ++s) {
    std::vector<std::string> t;
    AP_TRY(tokenize(p.sentences[s], lab_limits::kMaxLength, &t));
    if (t.empty()) return Status::Error("sentence {0} is empty", {arg(static_cast<long long>(s) + 1)});
    tokens.push_back(std::move(t));
  }
  MasksModel m;
  AP_TRY(make_padded_batch(tokens, p.pad_to, p.d_model, p.heads, p.seed, &m.batch));
  AP_TRY(run_mask_lab(m.batch, p.causal, p.bug, &m.run));
  for (MaskBug b : all_mask_bugs()) {
    if (mask_bug_needs_causal(b) && !p.causal) continue;
    MaskLabRun r;
    AP_TRY(run_mask_lab(m.batch, p.causal, b, &r));
    m.bugs.push_back(std::move(r));
  }
  *out = std::move(m);
  return Status::Ok();
}

MasksScene::MasksScene(bool defer) {
  start(defer);
  const Status s = race_.configure(train::BugLabRecipe{});
  (void)s;  // the build's recipe is valid (tested)
}

const FieldTable<MasksParams>& MasksScene::fields() const { return masks_fields(); }
const std::vector<ScenePreset<MasksParams>>& MasksScene::preset_table() const { return masks_presets(); }
Status MasksScene::compute(const MasksParams& p, MasksModel* out) const { return compute_masks(p, out); }
json MasksScene::results(const MasksParams& p, const MasksModel& m, bool with_matrices) const { return results_json(p, m, with_matrices); }

const char* MasksScene::title() const { return N_("Masks and a bug lab"); }
LessonInfo MasksScene::lesson() const {
  return {"A = softmax(QKᵀ/√dₖ + M),   Mᵢⱼ ∈ {0, −∞}",
          N_("Pick a bug from the list (mask after softmax, wrong axis, ÷√d_model …) and compare its weights and row sums with the correct ones."),
          N_("−∞ before softmax hides a key exactly and keeps every row a distribution; each bug breaks one of these, measurably.")};
}

const std::vector<StageInfo>& MasksScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"batch", N_("A padded batch"), "B × L,   L = max(len₁ … len_B),   [PAD] → L",
       N_("Sentences of different lengths are padded with [PAD] to one length L, so the batch is one B × L array.")},
      {"masks", N_("Padding and causal masks"), "Mᵢⱼ = −∞  (kⱼ = [PAD]),   Mᵢⱼ = −∞  (j > i)",
       N_("−∞ is added BEFORE softmax where a query must not see a key: [PAD] keys (padding mask) and later tokens (causal mask). e^(−∞) = 0, so hidden weights are exactly 0 and each row still sums to 1.")},
      {"weights", N_("Weights: correct and with the bug"), "A = softmax(QKᵀ/√dₖ + M)",
       N_("The same scores, computed correctly and with the bug: look at the hidden cells and at the row sums.")},
      {"damage", N_("The damage, measured"), "Σⱼ Aᵢⱼ = 1,   Mᵢⱼ = −∞  →  Aᵢⱼ = 0",
       N_("Each bug is run on the same batch; its damage is measured, not asserted.")},
      {"training", N_("Train with the bug"), "p(xₜ₊₁ | x₁ … xₜ)   vs   p(xₜ₊₁ | x₁ … xₙ)",
       N_("A tiny language model trained three times on the same sequences: with the causal mask, with the mask forgotten, and with the mask applied after the softmax. Without it every position can read the next token, the very one it must predict: the training loss falls far lower. Writing on its own, the next token is not there yet.")},
  };
  return kStages;
}


const TrPair* MasksScene::translations(size_t* count) const { return translation_table(kMasksStrings, count); }

std::vector<int> MasksScene::substeps() const { return {1, 1, 1, 1, 1}; }

void MasksScene::write_results(json& doc, bool with_matrices) const {
  RaceParamScene::write_results(doc, with_matrices);
  if (race_.done()) doc["results"]["bug_training"] = race_.results();
}

std::string MasksScene::explain(int what, int i, int j) const {
  const size_t s = static_cast<size_t>(params_.sentence);
  if (s >= model_.run.correct.size()) return {};
  const LabAttention& c = model_.run.correct[s];
  const LabAttention& v = model_.run.variant[s];
  const int L = static_cast<int>(c.hidden.rows());
  if (i < 0 || j < 0 || i >= L || j >= L) return {};
  const auto& toks = model_.batch.tokens[s];
  const bool pad = model_.batch.key_is_pad[s][static_cast<size_t>(j)] != 0;
  const bool hidden = c.hidden(i, j) > 0.5f;
  char buf[480];
  const char* why = !hidden ? tr("visible") : pad ? tr("hidden because it is [PAD]") : tr("hidden because it comes later");
  double row_c = 0, row_v = 0;
  for (int k = 0; k < L; ++k) { row_c += c.weights(i, k); row_v += v.weights(i, k); }
  std::snprintf(buf, sizeof buf, "%s %d “%s” → %s %d “%s”: %s\nA %s = %s   (%s %s)\nA %s = %s   (%s %s)", tr("query"), i + 1,
                toks[static_cast<size_t>(i)].c_str(), tr("key"), j + 1, toks[static_cast<size_t>(j)].c_str(), why, tr("correct"),
                fmt(c.weights(i, j), 4).c_str(), tr("row sum"), fmt(row_c, 4).c_str(), tr(bug_title(params_.bug)),
                fmt(v.weights(i, j), 4).c_str(), tr("row sum"), fmt(row_v, 4).c_str());
  (void)what;
  return buf;
}

}  // namespace ap
