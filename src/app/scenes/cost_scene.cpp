// CostScene, part 1 of 2: its parameters, presets, stages, state document and hover texts; the measurement
// (sweep, fits, the P-lane model, the worker pool) is in cost_measure.cpp.
#include "cost_scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "core/matrix.h"
#include "core/number_text.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kCostStrings[] = {
    {"Run the sweep over n and compare the measured times of attention and of an RNN; then start the parallel workers.",
     "在 n 上运行扫描，比较注意力和 RNN 的实测时间；然后启动并行 worker。"},
    {"Attention costs O(n²·d) but has O(1) sequential steps, so it spreads over workers; an RNN costs O(n·d²) in n dependent steps.",
     "注意力的代价是 O(n²·d)，但顺序步数是 O(1)，因此能分给多个 worker；RNN 的代价是 O(n·d²)，要走 n 个相互依赖的步骤。"},
    {"Cost: attention vs RNN", "代价：注意力 vs RNN"},
    {"The complexity table", "复杂度表"},
    {"Counts as n grows", "随 n 增长的计数"},
    {"Measured on this device", "在本设备上实测"},
    {"P parallel lanes", "P 条并行通道"},
    {"n steps against one", "n 步对 1 步"},
    {"Memory: naive against tiled", "内存：朴素 vs 分块"},
    {"Self-attention does n²·d multiply-adds but needs no step to wait for another; a recurrent layer does n·d² in n steps that must run one after another.",
     "自注意力做 n²·d 次乘加，但没有哪一步需要等待另一步；循环层做 n·d² 次乘加，分成 n 个必须依次执行的步骤。"},
    {"Attention does fewer multiply-adds than the RNN while n < d; past n = d it does more, and the gap grows as n/d.",
     "当 n < d 时注意力的乘加比 RNN 少；超过 n = d 后更多，差距按 n/d 增长。"},
    {"One thread measures work: attention's time grows as n² (slope ≈ 2 on log–log axes), the RNN's as n (slope ≈ 1).",
     "单线程测量的是工作量：注意力的时间按 n² 增长（对数坐标下斜率 ≈ 2），RNN 按 n 增长（斜率 ≈ 1）。"},
    {"With P lanes the work divides by P, but the RNN's n dependent steps do not: attention wins once P is large enough.",
     "有 P 条通道时工作量除以 P，但 RNN 的 n 个相互依赖的步骤不能并行：P 足够大时注意力胜出。"},
    {"The RNN hands its hidden state down n times; attention connects every pair in one step: token 1 reaches token n in n hops against 1.",
     "RNN 把隐藏状态依次传递 n 次；注意力一步连接所有词对：从第 1 个词到第 n 个词，n 跳对 1 跳。"},
    {"Naive attention stores the n×n score matrix (4·n² bytes); tiled attention with an online softmax never does, and goes on where it no longer fits.",
     "朴素注意力要存 n×n 分数矩阵（4·n² 字节）；带在线 softmax 的分块注意力从不存它，在放不下之后还能继续。"},
    {"n = 512, d = 64 (the default)", "n = 512，d = 64（默认）"},
    {"Short sequences: n < d", "短序列：n < d"},
    {"Long sequences: n = 4096", "长序列：n = 4096"},
    {"A GPU: P = 10,000 lanes", "GPU：P = 10,000 条通道"},
    {"A sentence of 512 tokens and a head of width 64: attention already does 8× the RNN's multiply-adds.",
     "512 个词、宽度 64 的头：注意力的乘加已是 RNN 的 8 倍。"},
    {"32 tokens with d = 512: attention does fewer multiply-adds than the RNN (n < d).",
     "32 个词、d = 512：注意力的乘加比 RNN 少（n < d）。"},
    {"4096 tokens: the score matrix alone takes 64 MB, and attention does 64× the RNN's work.",
     "4096 个词：仅分数矩阵就占 64 MB，注意力的工作量是 RNN 的 64 倍。"},
    {"With 10,000 lanes attention finishes in a few steps while the RNN still waits for its 4096 steps.",
     "有 10,000 条通道时，注意力很快完成，RNN 仍要等它的 4096 步。"},
    {"layer", "层"},
    {"self-attention", "自注意力"},
    {"recurrent", "循环"},
    {"convolutional", "卷积"},
    {"sequential operations", "顺序操作数"},
    {"maximum path length", "最大路径长度"},
    {"multiply-adds", "乘加次数"},
    {"naive attention", "朴素注意力"},
    {"tiled attention", "分块注意力"},
    {"Elman RNN", "Elman RNN"},
    {"GRU", "GRU"},
    {"quick", "快速"},
    {"finished", "已完成"},
    {"cancelled", "已取消"},
    {"slope", "斜率"},
    {"memory", "内存"},
    {"stopped", "已停止"},
    {"per call", "每次调用"},
    {"median of", "中位数，次数"},
    {"attention", "注意力"},
    {"step", "步"},
    {"steps", "步"},
    {"work / P", "工作量 / P"},
    {"depth × step", "深度 × 单步"},
    {"depth-bound: more lanes do not help", "受深度限制：更多通道也没用"},
    {"work-bound", "受工作量限制"},
    {"runs", "次数"},
    {"formula", "公式"},
    {"sweep must be \"start\" or \"cancel\", got {0}", "sweep 必须是 \"start\" 或 \"cancel\"，实际为 {0}"},
    {"the table does not match what n, d and k give", "table 与 n、d、k 给出的值不一致"},
    {"speed-up", "加速比"},
    {"attention: rows split", "注意力：按行切分"},
    {"GRU: units split, a hand-off per step", "GRU：按单元切分，每步交接一次"},
    {"same output as one worker", "输出与单个工作线程相同"},
    {"OUTPUT DIFFERS from one worker", "输出与单个工作线程不同"},
    {"parallel workers are not available here", "此环境没有可用的并行工作线程"},
    {"the parallel workers are busy or gone", "并行工作线程正忙或已不存在"},
    {"a parallel job took longer than {0} s and was stopped", "一个并行任务超过 {0} 秒，已停止"},
    {"a parallel job reported no time", "一个并行任务没有报告时间"},
    {"a parallel worker failed: {0}", "一个并行工作线程出错：{0}"},
    {"workers must be \"start\" or \"cancel\", got {0}", "workers 必须是 \"start\" 或 \"cancel\"，实际为 {0}"},
};

using CostPreset = ScenePreset<CostParams>;

const std::vector<CostPreset>& cost_presets() {
  static const std::vector<CostPreset> kPresets = [] {
    std::vector<CostPreset> v;
    v.push_back({{"default", N_("n = 512, d = 64 (the default)"),
                  N_("A sentence of 512 tokens and a head of width 64: attention already does 8× the RNN's multiply-adds.")}, {}});
    CostParams p;
    p.n = 32;
    p.d = 512;
    v.push_back({{"short", N_("Short sequences: n < d"), N_("32 tokens with d = 512: attention does fewer multiply-adds than the RNN (n < d).")}, p});
    p = CostParams{};
    p.n = 4096;
    v.push_back({{"long", N_("Long sequences: n = 4096"), N_("4096 tokens: the score matrix alone takes 64 MB, and attention does 64× the RNN's work.")}, p});
    p.lanes = 10000;
    v.push_back({{"gpu", N_("A GPU: P = 10,000 lanes"), N_("With 10,000 lanes attention finishes in a few steps while the RNN still waits for its 4096 steps.")}, p});
    return v;
  }();
  return kPresets;
}

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h).
const FieldTable<CostParams>& fields() {
  using P = CostParams;
  static const FieldTable<P> kFields = {
      {"n", at<&P::n>, 1, cost::kMaxN},
      {"d", at<&P::d>, 1, cost::kMaxD},
      {"k", at<&P::k>, cost::kMinK, cost::kMaxK},
      {"P", at<&P::lanes>, 1, cost::kMaxLanes},
      {"sweep_max_n", at<&P::sweep_max_n>, cost_limits::kMinSweepN, cost_limits::kMaxSweepN},
      {"sweep_runs", at<&P::sweep_runs>, 1, cost_limits::kMaxRuns},
  };
  return kFields;
}

struct CostChange final : SceneChange {
  CostParams params;
  CostTable table;
  enum class Command { None, Start, Cancel } command = Command::None;
  Command workers = Command::None;  // the parallel measurement
};

const char* worker_state_name(WorkerMeasure::State s) {
  switch (s) {
    case WorkerMeasure::State::Idle: return "idle";
    case WorkerMeasure::State::Running: return "running";
    case WorkerMeasure::State::Finished: return "finished";
    case WorkerMeasure::State::Cancelled: return "cancelled";
    case WorkerMeasure::State::Failed: return "failed";
  }
  return "idle";
}

json worker_points_json(const std::vector<WorkerPoint>& pts) {
  json a = json::array();
  for (const WorkerPoint& p : pts) {
    if (p.samples.empty()) continue;
    a.push_back({{"workers", p.workers}, {"ms", p.ms}, {"speedup", p.speedup}, {"same_output", p.same_output},
                 {"samples", p.samples}});
  }
  return a;
}

json layer_json(const LayerCost& c) {
  return {{"macs", c.macs}, {"projection_macs", c.projection_macs}, {"score_bytes", c.score_bytes},
          {"sequential_ops", c.sequential_ops}, {"max_path_length", c.max_path_length}};
}

json table_json(const CostTable& t) {
  return {{"attention", layer_json(t.attention)}, {"recurrent", layer_json(t.recurrent)},
          {"convolutional", layer_json(t.convolutional)}};
}

const char* state_name(SweepState s) {
  switch (s) {
    case SweepState::Idle: return "idle";
    case SweepState::Running: return "running";
    case SweepState::Finished: return "finished";
    case SweepState::Cancelled: return "cancelled";
  }
  return "idle";
}

double real_clock_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Status cost_table(int n, int d, int k, CostTable* out) {
  CostTable t;
  AP_TRY(layer_cost(LayerKind::SelfAttention, n, d, k, &t.attention));
  AP_TRY(layer_cost(LayerKind::Recurrent, n, d, k, &t.recurrent));
  AP_TRY(layer_cost(LayerKind::Convolutional, n, d, k, &t.convolutional));
  *out = t;
  return Status::Ok();
}

std::vector<int> CostScene::sweep_ns(int max_n) {
  std::vector<int> v;
  for (int n = cost_limits::kMinSweepN; n <= max_n; n *= 2) v.push_back(n);
  if (v.empty() || v.back() != max_n) v.push_back(max_n);  // a max_n between two powers of 2 is measured too
  return v;
}

CostScene::CostScene(bool defer) : clock_(real_clock_ms) {
  if (defer) defer_first_model();
  else build_first();
}

void CostScene::build_first() {
  Status s = cost_table(params_.n, params_.d, params_.k, &table_);  // the defaults always compute
  (void)s;
  refresh_parallel();
  first_model();
}

const char* CostScene::title() const { return N_("Cost: attention vs RNN"); }
LessonInfo CostScene::lesson() const {
  return {"self-attention O(n²·d), O(1), O(1)   vs   RNN O(n·d²), O(n), O(n)",
          N_("Run the sweep over n and compare the measured times of attention and of an RNN; then start the parallel workers."),
          N_("Attention costs O(n²·d) but has O(1) sequential steps, so it spreads over workers; an RNN costs O(n·d²) in n dependent steps.")};
}

const std::vector<StageInfo>& CostScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"table", N_("The complexity table"), "attention O(n²·d), 1 step   ·   RNN O(n·d²), n steps",
       N_("Self-attention does n²·d multiply-adds but needs no step to wait for another; a recurrent layer does n·d² in n steps that must run one after another.")},
      {"curves", N_("Counts as n grows"), "2n²d / 2nd² = n / d",
       N_("Attention does fewer multiply-adds than the RNN while n < d; past n = d it does more, and the gap grows as n/d.")},
      {"measured", N_("Measured on this device"), "t(n) ≈ c·n^s,   s = Δ log t / Δ log n",
       N_("One thread measures work: attention's time grows as n² (slope ≈ 2 on log–log axes), the RNN's as n (slope ≈ 1).")},
      {"parallel", N_("P parallel lanes"), "T_P ≈ max(W·t_mac / P,  D·t_step)",
       N_("With P lanes the work divides by P, but the RNN's n dependent steps do not: attention wins once P is large enough.")},
      {"animation", N_("n steps against one"), "hₜ = tanh(W·xₜ + U·hₜ₋₁ + b)   vs   softmax(QKᵀ/√dₖ)·V",
       N_("The RNN hands its hidden state down n times; attention connects every pair in one step: token 1 reaches token n in n hops against 1.")},
      {"memory", N_("Memory: naive against tiled"), "naive 4·n² bytes   ·   tiled O(n·d)",
       N_("Naive attention stores the n×n score matrix (4·n² bytes); tiled attention with an online softmax never does, and goes on where it no longer fits.")},
  };
  return kStages;
}

const std::vector<PresetInfo>& CostScene::presets() const {
  return preset_infos(cost_presets());
}

const TrPair* CostScene::translations(size_t* count) const {
  return translation_table(kCostStrings, count);
}

std::vector<int> CostScene::substeps() const {
  const int anim = std::max(2, std::min(params_.n, cost_limits::kAnimTokens));
  return {1, 1, 1, 1, anim, 1};
}

void CostScene::write_params(json& doc) const { write_fields(fields(), params_, doc); }

void CostScene::write_results(json& doc, bool) const {
  doc["table"] = table_json(table_);
  json m;
  m["state"] = warming_ ? "running" : state_name(sweep_state());
  m["warming_up"] = warming_;
  m["quick"] = quick_;  // the quick measurement stage 3 runs by itself (n ≤ 1024, one run), not the full sweep
  m["fraction"] = sweep_fraction();
  m["d"] = measured_d_;
  m["longest_slice_ms"] = longest_slice_ms_;
  json curves = json::array();
  if (started_ && !warming_) {
    const auto& cfg = sweep_.config();
    const auto& res = sweep_.results();
    for (size_t c = 0; c < res.size(); ++c) {
      json pts = json::array();
      for (const SweepPoint& pt : res[c].points) {
        if (pt.state != PointState::Measured) continue;
        pts.push_back({{"n", pt.n}, {"ms", pt.median_ms}, {"samples", pt.samples.size()}, {"calls", pt.calls},
                       {"macs_per_call", pt.macs_per_call}, {"memory_bytes", pt.memory_bytes}});
      }
      json cv = {{"kind", kernel_kind_name(cfg.curves[c].kind)}, {"impl", kernel_impl_name(cfg.curves[c].impl)},
                 {"points", pts}, {"stopped", res[c].stopped}, {"reason", res[c].stopped ? res[c].reason.message : ""}};
      if (c < fits_.size() && fits_[c].ok)
        cv["fit"] = {{"slope", fits_[c].fit.slope}, {"r2", fits_[c].fit.r2}, {"points", fits_[c].fit.points},
                     {"min_n", cost_limits::kMinFitN}, {"ns_per_mac", fits_[c].ns_per_mac}};
      else
        cv["fit"] = nullptr;
      curves.push_back(cv);
    }
  }
  m["curves"] = curves;
  const CostParallel& par = parallel_;
  m["parallel"] = {{"P", params_.lanes},
                   {"measured", par.measured},
                   {"attention_ms", par.attention.time_ns / 1e6},
                   {"rnn_ms", par.recurrent.time_ns / 1e6},
                   {"attention_depth_bound", par.attention.depth_bound},
                   {"rnn_depth_bound", par.recurrent.depth_bound},
                   {"ns_per_mac_attention", par.ns_per_mac_attention},
                   {"ns_per_mac_rnn", par.ns_per_mac_rnn},
                   {"ns_per_step_attention", par.ns_per_step_attention},
                   {"ns_per_step_rnn", par.ns_per_step_rnn},
                   {"crossover_P", par.crossover_lanes}};
  const WorkerMeasure& w = workers_;
  m["workers"] = {{"state", worker_state_name(w.state)},
                  {"pool", w.pool},
                  {"max_workers", w.max_workers},
                  {"n_attention", w.n_attention},
                  {"n_gru", w.n_gru},
                  {"d", w.d},
                  {"reps_attention", w.reps_attention},
                  {"reps_gru", w.reps_gru},
                  {"jobs_done", w.jobs_done},
                  {"jobs_total", w.jobs_total},
                  {"attention", worker_points_json(w.attention)},
                  {"gru", worker_points_json(w.gru)},
                  {"handoff_us", w.handoff_us},
                  {"error", w.error.ok ? "" : w.error.message}};
  doc["measured"] = m;
}

const std::vector<UrlParam>& CostScene::url_params() const {
  static const std::vector<UrlParam> kParams = url_params_of(fields());
  return kParams;
}

Status CostScene::prepare(const json& in, std::unique_ptr<SceneChange>* out) const {
  CostParams p = params_;
  AP_TRY(read_fields(in, fields(), cost_presets(), {"sweep", "workers", "table", "measured"}, &p));
  auto change = std::make_unique<CostChange>();
  if (const auto it = in.find("sweep"); it != in.end()) {
    const std::string cmd = it->is_string() ? it->get<std::string>() : std::string();
    if (cmd == "start") change->command = CostChange::Command::Start;
    else if (cmd == "cancel") change->command = CostChange::Command::Cancel;
    else return Status::Error("sweep must be \"start\" or \"cancel\", got {0}", {quote_json(*it)});
  }
  if (const auto it = in.find("workers"); it != in.end()) {
    const std::string cmd = it->is_string() ? it->get<std::string>() : std::string();
    if (cmd == "start") {
      const WorkerPool* wp = pool();
      if (!wp || wp->max_workers() < 1) return Status::Error("parallel workers are not available here");
      change->workers = CostChange::Command::Start;
    } else if (cmd == "cancel") {
      change->workers = CostChange::Command::Cancel;
    } else {
      return Status::Error("workers must be \"start\" or \"cancel\", got {0}", {quote_json(*it)});
    }
  }
  change->params = p;
  AP_TRY(cost_table(p.n, p.d, p.k, &change->table));
  if (const auto it = in.find("table"); it != in.end() && json::parse(it->dump()) != table_json(change->table))
    return Status::Error("the table does not match what n, d and k give");
  // `measured` describes this device's measurement: accepted and ignored (it is redone, not restored).
  *out = std::move(change);
  return Status::Ok();
}

void CostScene::commit(std::unique_ptr<SceneChange> change) {
  auto* c = static_cast<CostChange*>(change.get());
  params_ = c->params;
  table_ = c->table;
  refresh_parallel();
  if (c->command == CostChange::Command::Start) (void)start_sweep();
  else if (c->command == CostChange::Command::Cancel) cancel_sweep();
  if (c->workers == CostChange::Command::Start) (void)start_workers();
  else if (c->workers == CostChange::Command::Cancel) cancel_workers();
  model_replaced();
}

Status CostScene::apply(const CostParams& p) {
  json doc = {{"n", p.n}, {"d", p.d}, {"k", p.k}, {"P", p.lanes}, {"sweep_max_n", p.sweep_max_n}, {"sweep_runs", p.sweep_runs}};
  std::unique_ptr<SceneChange> change;
  AP_TRY(prepare(doc, &change));
  commit(std::move(change));
  return Status::Ok();
}

// ---- the measurement clock (the measurement itself: cost_measure.cpp) -----------------------------------

void CostScene::set_clock(SweepClock clock) { clock_ = clock ? std::move(clock) : SweepClock(real_clock_ms); }

// ---- hover -----------------------------------------------------------------------------------------------------

std::string CostScene::explain(int what, int i, int j) const {
  char buf[640];
  switch (static_cast<CostItem>(what)) {
    case CostItem::MeasuredPoint:
    case CostItem::MemoryPoint: {
      const auto& res = sweep_.results();
      if (!started_ || warming_ || i < 0 || i >= static_cast<int>(res.size())) return {};
      const auto& pts = res[static_cast<size_t>(i)].points;
      if (j < 0 || j >= static_cast<int>(pts.size()) || pts[static_cast<size_t>(j)].state != PointState::Measured) return {};
      const SweepPoint& pt = pts[static_cast<size_t>(j)];
      const char* names[] = {N_("naive attention"), N_("tiled attention"), N_("Elman RNN"), N_("GRU")};
      std::snprintf(buf, sizeof buf, "%s, n = %d, d = %d\n%s ms %s (%s %zu)\n%s MAC/call, %s %s MB",
                    tr(names[std::min(i, 3)]), pt.n, measured_d_, fmt(pt.median_ms, 3).c_str(), tr("per call"),
                    tr("median of"), pt.samples.size(), format_number(static_cast<double>(pt.macs_per_call)).c_str(),
                    tr("memory"), fmt(pt.memory_bytes / 1048576.0, 2).c_str());
      return buf;
    }
    case CostItem::CurvePoint: {
      const long long n = j, d = params_.d, k = params_.k;
      if (n < 1 || i < 0 || i > 5) return {};
      switch (i) {
        case 0:
          std::snprintf(buf, sizeof buf, "%s, n = %lld, d = %lld\n2·n²·d = 2·%lld²·%lld = %s %s", tr("self-attention"), n, d, n, d,
                        format_number(static_cast<double>(attention_macs(n, d))).c_str(), tr("multiply-adds"));
          break;
        case 1:
          std::snprintf(buf, sizeof buf, "%s, n = %lld, d = %lld\nn·d·(d + d) = %lld·%lld·%lld = %s %s", tr("recurrent"), n, d, n, d,
                        2 * d, format_number(static_cast<double>(elman_macs(n, d, d))).c_str(), tr("multiply-adds"));
          break;
        case 2:
          std::snprintf(buf, sizeof buf, "%s, n = %lld, d = %lld, k = %lld\nk·n·d² = %lld·%lld·%lld² = %s %s", tr("convolutional"), n,
                        d, k, k, n, d, format_number(static_cast<double>(conv_macs(n, d, k))).c_str(), tr("multiply-adds"));
          break;
        case 3:
          std::snprintf(buf, sizeof buf, "%s, n = %lld\n%s: %lld", tr("self-attention"), n, tr("sequential operations"),
                        sequential_ops(LayerKind::SelfAttention, n));
          break;
        case 4:
          std::snprintf(buf, sizeof buf, "%s, n = %lld\n%s: n = %lld", tr("recurrent"), n, tr("sequential operations"),
                        sequential_ops(LayerKind::Recurrent, n));
          break;
        default:
          std::snprintf(buf, sizeof buf, "%s, n = %lld, k = %lld\n%s: ⌈log_k n⌉ = %lld", tr("convolutional"), n, k,
                        tr("maximum path length"), max_path_length(LayerKind::Convolutional, n, k));
          break;
      }
      return buf;
    }
    case CostItem::ParallelPoint: {
      if (i < 0 || i > 1 || j < 1) return {};
      const CostParallel q = parallel_at(j);
      const WorkDepthTime& t = i == 0 ? q.attention : q.recurrent;
      const double step = i == 0 ? q.ns_per_step_attention : q.ns_per_step_rnn;
      const long long depth = i == 0 ? 1 : params_.n;
      std::snprintf(buf, sizeof buf, "%s, P = %d\nT = max(%s, %s) = max(%s, %lld × %s) = %s ms\n%s", tr(i == 0 ? "self-attention" : "recurrent"), j,
                    tr("work / P"), tr("depth × step"), fmt(t.work_ns / 1e6, 4).c_str(), depth, fmt(step / 1e6, 4).c_str(),
                    fmt(t.time_ns / 1e6, 4).c_str(),
                    t.depth_bound ? tr("depth-bound: more lanes do not help") : tr("work-bound"));
      return buf;
    }
    case CostItem::WorkerPoint: {
      const auto& pts = i == 0 ? workers_.attention : workers_.gru;
      for (const WorkerPoint& pt : pts)
        if (pt.workers == j && pt.ms > 0) {
          std::snprintf(buf, sizeof buf, "%s, W = %d (%s)\n%s ms (%s %zu), %s %s×\n%s", tr(i == 0 ? "attention: rows split" : "GRU: units split, a hand-off per step"),
                        j, workers_.pool.c_str(), fmt(pt.ms, 4).c_str(), tr("median of"), pt.samples.size(), tr("speed-up"),
                        fmt(pt.speedup, 3).c_str(), pt.same_output ? tr("same output as one worker") : tr("OUTPUT DIFFERS from one worker"));
          return buf;
        }
      return {};
    }
  }
  return {};
}

}  // namespace ap
