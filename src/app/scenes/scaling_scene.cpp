#include "scaling_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "core/number_text.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kScalingStrings[] = {
    {"Raise d_k with and without the division by √d_k and watch the spread of the scores and the largest weight.",
     "分别在除以和不除以 √d_k 的情况下增大 d_k，观察分数的分布范围和最大权重。"},
    {"Without scaling the variance of q·k grows as d_k and softmax turns one-hot; ÷√d_k keeps the variance near 1.",
     "不缩放时 q·k 的方差随 d_k 增大，softmax 变成 one-hot；除以 √d_k 让方差保持在 1 附近。"},
    {"Why divide by √d_k", "为什么要除以 √d_k"},
    {"Dot products q·k", "点积 q·k"},
    {"Their spread grows with dₖ", "点积的方差随 d_k 增大"},
    {"Divided by √dₖ", "除以 √d_k 之后"},
    {"What softmax does with it", "Softmax 的反应"},
    {"q and k have independent N(0, 1) components: each product q_i·k_i has mean 0 and variance 1, and q·k adds d_k of them.",
     "q 和 k 的各分量独立、服从 N(0, 1)：每个乘积 q_i·k_i 均值为 0、方差为 1，q·k 是 d_k 个这样的乘积之和。"},
    {"The variance of a sum of d_k independent terms is d_k: the dots spread as √d_k.",
     "d_k 个独立项之和的方差是 d_k：点积的离散程度按 √d_k 增长。"},
    {"Dividing by √d_k brings the variance back to 1, whatever d_k is.",
     "除以 √d_k 后方差回到 1，与 d_k 无关。"},
    {"Unscaled scores push softmax towards one-hot as d_k grows (its gradients vanish); scaled ones keep it soft.",
     "不缩放时，d_k 越大 Softmax 越接近 one-hot（梯度消失）；缩放后仍保持平滑。"},
    {"d_k = 64 (the default)", "d_k = 64（默认）"},
    {"d_k = 4: little difference", "d_k = 4：差别很小"},
    {"d_k = 512: saturation", "d_k = 512：饱和"},
    {"128 keys", "128 个 Key"},
    {"d_k = 64, as in the Transformer base model (512 / 8 heads).", "d_k = 64，与 Transformer base 模型相同（512 / 8 头）。"},
    {"With small d_k the scaling hardly matters: √4 = 2.", "d_k 很小时缩放影响不大：√4 = 2。"},
    {"Unscaled, the dots spread ±70: softmax puts nearly all weight on one key.",
     "不缩放时点积分布在 ±70 左右：Softmax 几乎把全部权重给了一个 Key。"},
    {"More keys: the uniform entropy ln 128 ≈ 4.85 is the ceiling.", "更多 Key：均匀分布的熵 ln 128 ≈ 4.85 是上限。"},
    {"samples", "样本数"},
    {"keys", "Key 数"},
    {"measured", "实测"},
    {"variance", "方差"},
    {"mean", "均值"},
    {"scaled ÷√d_k", "缩放 ÷√d_k"},
    {"largest softmax weight", "Softmax 最大权重"},
    {"softmax entropy (nats)", "Softmax 熵（nats）"},
    {"count", "个数"},
    {"bin", "区间"},
    {"of", "共"},
    {"at d_k", "当 d_k ="},
};


using ScalingPreset = ScenePreset<ScalingParams>;

const std::vector<ScalingPreset>& scaling_presets() {
  static const std::vector<ScalingPreset> kPresets = [] {
    std::vector<ScalingPreset> v;
    v.push_back({{"dk64", N_("d_k = 64 (the default)"), N_("d_k = 64, as in the Transformer base model (512 / 8 heads).")}, {}});
    ScalingParams p;
    p.d_k = 4;
    v.push_back({{"dk4", N_("d_k = 4: little difference"), N_("With small d_k the scaling hardly matters: √4 = 2.")}, p});
    p.d_k = 512;
    p.samples = 2000;
    v.push_back({{"dk512", N_("d_k = 512: saturation"), N_("Unscaled, the dots spread ±70: softmax puts nearly all weight on one key.")}, p});
    p = ScalingParams{};
    p.n_keys = 128;
    v.push_back({{"keys128", N_("128 keys"), N_("More keys: the uniform entropy ln 128 ≈ 4.85 is the ceiling.")}, p});
    return v;
  }();
  return kPresets;
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<ScalingParams>& scaling_fields() {
  using P = ScalingParams;
  static const FieldTable<P> kFields = {
      {"d_k", at<&P::d_k>, 1, scaling_limits::kMaxDk},
      {"samples", at<&P::samples>, scaling_limits::kMinSamples, scaling_limits::kMaxSamples},
      {"n_keys", at<&P::n_keys>, scaling_limits::kMinKeys, scaling_limits::kMaxKeys},
      {"seed", at<&P::seed>},
  };
  return kFields;
}

json histogram_json(const Histogram& h) {
  return {{"lo", h.lo}, {"hi", h.hi}, {"counts", h.counts}, {"under", h.under}, {"over", h.over}};
}

json results_json(const ScalingResult& r) {
  json sweep = json::array();
  for (const auto& p : r.sweep)
    sweep.push_back({{"d_k", p.d_k}, {"var_raw", p.var_raw}, {"var_scaled", p.var_scaled},
                     {"max_weight_raw", p.max_weight_raw}, {"max_weight_scaled", p.max_weight_scaled},
                     {"entropy_raw", p.entropy_raw}, {"entropy_scaled", p.entropy_scaled}});
  return {{"mean_raw", r.mean_raw}, {"var_raw", r.var_raw}, {"mean_scaled", r.mean_scaled},
          {"var_scaled", r.var_scaled}, {"hist_raw", histogram_json(r.hist_raw)},
          {"hist_scaled", histogram_json(r.hist_scaled)}, {"sweep", sweep}, {"sweep_queries", r.sweep_queries},
          {"max_entropy", r.max_entropy}};
}

}  // namespace

ScalingScene::ScalingScene(bool defer) { start(defer); }

const FieldTable<ScalingParams>& ScalingScene::fields() const { return scaling_fields(); }
const std::vector<ScenePreset<ScalingParams>>& ScalingScene::preset_table() const { return scaling_presets(); }
Status ScalingScene::compute(const ScalingParams& p, ScalingResult* out) const { return compute_scaling(p, out); }
json ScalingScene::results(const ScalingParams&, const ScalingResult& m, bool) const { return results_json(m); }

void ScalingScene::build_first() {
  // The defaults always compute, and always to the same result (SeededRng): computed once per program, so a
  // fresh state (a test, a fuzz input, a reset) does not redo the ~12 ms of draws.
  static const ScalingResult defaults = [] {
    ScalingResult r;
    (void)compute_scaling(ScalingParams{}, &r);
    return r;
  }();
  params_ = ScalingParams{};
  model_ = defaults;
  first_model();
  timeline.end();
}

const char* ScalingScene::title() const { return N_("Why divide by √d_k"); }
LessonInfo ScalingScene::lesson() const {
  return {"Var(q·k) = dₖ,   Var(q·k/√dₖ) = 1",
          N_("Raise d_k with and without the division by √d_k and watch the spread of the scores and the largest weight."),
          N_("Without scaling the variance of q·k grows as d_k and softmax turns one-hot; ÷√d_k keeps the variance near 1.")};
}

const std::vector<StageInfo>& ScalingScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"dots", N_("Dot products q·k"), "q·k = Σᵢ qᵢ kᵢ,     qᵢ, kᵢ ~ N(0, 1)",
       N_("q and k have independent N(0, 1) components: each product q_i·k_i has mean 0 and variance 1, and q·k adds d_k of them.")},
      {"raw", N_("Their spread grows with dₖ"), "Var(q·k) = Σᵢ Var(qᵢkᵢ) = dₖ",
       N_("The variance of a sum of d_k independent terms is d_k: the dots spread as √d_k.")},
      {"scaled", N_("Divided by √dₖ"), "Var(q·k / √dₖ) = dₖ / dₖ = 1",
       N_("Dividing by √d_k brings the variance back to 1, whatever d_k is.")},
      {"softmax", N_("What softmax does with it"), "softmax(q·Kᵀ)  vs  softmax(q·Kᵀ / √dₖ)",
       N_("Unscaled scores push softmax towards one-hot as d_k grows (its gradients vanish); scaled ones keep it soft.")},
  };
  return kStages;
}

const TrPair* ScalingScene::translations(size_t* count) const {
  return translation_table(kScalingStrings, count);
}

std::vector<int> ScalingScene::substeps() const { return {1, 1, 1, 1}; }

std::string ScalingScene::explain(int what, int i, int) const {
  char buf[256];
  const auto bin_text = [&](const Histogram& h, const char* name) -> std::string {
    const int bins = static_cast<int>(h.counts.size());
    if (i < 0 || i >= bins) return {};
    const double w = (h.hi - h.lo) / bins, a = h.lo + i * w, b = a + w;
    const int total = static_cast<int>(model_.dots_raw.size());
    std::snprintf(buf, sizeof buf, "%s\n%s [%s, %s): %s %d %s %d (%s%%)", name, tr("bin"), fmt(a, 2).c_str(), fmt(b, 2).c_str(),
                  tr("count"), h.counts[static_cast<size_t>(i)], tr("of"), total,
                  fmt(100.0 * h.counts[static_cast<size_t>(i)] / std::max(1, total), 1).c_str());
    return buf;
  };
  switch (static_cast<ScalingItem>(what)) {
    case ScalingItem::HistRaw: return bin_text(model_.hist_raw, "q·k");
    case ScalingItem::HistScaled: return bin_text(model_.hist_scaled, "q·k / √d_k");
    case ScalingItem::SweepMaxWeight:
    case ScalingItem::SweepEntropy:
    case ScalingItem::SweepVariance: {
      if (i < 0 || i >= static_cast<int>(model_.sweep.size())) return {};
      const ScalingSweepPoint& p = model_.sweep[static_cast<size_t>(i)];
      std::snprintf(buf, sizeof buf, "%s %d\n%s: %s  %s / %s\n%s: %s / %s\n%s: %s / %s", tr("at d_k"), p.d_k,
                    tr("variance"), fmt(p.var_raw, 2).c_str(), fmt(p.var_scaled, 3).c_str(), tr("scaled ÷√d_k"),
                    tr("largest softmax weight"), fmt(p.max_weight_raw, 3).c_str(), fmt(p.max_weight_scaled, 3).c_str(),
                    tr("softmax entropy (nats)"), fmt(p.entropy_raw, 3).c_str(), fmt(p.entropy_scaled, 3).c_str());
      return buf;
    }
  }
  return {};
}

}  // namespace ap
