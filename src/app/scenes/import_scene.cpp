#include "import_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "core/number_text.h"
#include "app/scene_training.h"
#include "app/scenes/train_scene.h"
#include "core/sdpa_pipeline.h"
#include "core/train/trainer.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kImportStrings[] = {
    {"Your model's attention", "你的模型的注意力"},
    {"Every head of a layer", "一层中的每个头"},
    {"One head, with its numbers", "一个头及其数值"},
    {"Each small heatmap is one head's weights A = softmax(QKᵀ/√d_k): row i is query i, column j key j. Heads of one layer look at different things.",
     "每个小热力图是一个头的注意力权重 A = softmax(QKᵀ/√d_k)：第 i 行是 query i，第 j 列是 key j。同一层的不同头关注不同的东西。"},
    {"One head large: each row is how much query i attends to every key; in a trained model the rows sum to 1.",
     "放大一个头：每一行是 query i 对每个 key 的注意力；训练好的模型中每行之和为 1。"},
    {"Drop a .npy or .json of attention weights from your own model (shape [heads, n, n] or [layers, heads, n, n], e.g. Hugging Face output_attentions) anywhere on the page, or use Open file.",
     "把你自己模型的注意力权重（.npy 或 .json，形状 [heads, n, n] 或 [layers, heads, n, n]，例如 Hugging Face 的 output_attentions）拖到页面任意处，或点“打开文件”。"},
    {"Real heads specialise: some look at the previous token, some at the first token or punctuation, some spread evenly; the layer selector shows how this changes with depth.",
     "真实模型的头会分工：有的看前一个词，有的看第一个词或标点，有的均匀分散；用层选择器看看它如何随深度变化。"},
    {"The built-in example", "内置示例"},
    {"The weights of the scaled dot-product scene's default sentence, computed by the core: 1 layer × 1 head, seeded, not trained.",
     "缩放点积注意力场景默认句子的权重，由核心计算：1 层 × 1 头，随机种子生成，没有训练。"},
    {"these are only tokens: open the weights' file first (or both together)", "这里只有 tokens：请先打开权重文件（或两者一起打开）"},
    {"the file has {0} tokens, but the weights have n = {1}", "文件有 {0} 个 token，而权重的 n = {1}"},
    {"layer {0} head {1}", "第 {0} 层 第 {1} 头"},
    {"source '{0}' needs its weights", "来源 '{0}' 需要同时给出 weights"},
    {"A trained model: 2 layers × 2 heads", "训练过的模型：2 层 × 2 头"},
    {"The notes' sentence through a model trained on the coreference task, 2 layers of 2 heads: every head's attention, as a file of your own model would hold it.",
     "讲义里的句子经过一个在指代消解任务上训练的模型（2 层，每层 2 个头）：每个头的注意力，就像你自己模型的文件里那样。"},
    {"{0}, {1} layers × {2} heads", "{0}，{1} 层 × {2} 头"},
};

using ImportPreset = ScenePreset<int>;  // 0: the built-in example, 1: the trained model's
const std::vector<ImportPreset>& import_presets() {
  static const std::vector<ImportPreset> kPresets = {
      {{"example", N_("The built-in example"),
        N_("The weights of the scaled dot-product scene's default sentence, computed by the core: 1 layer × 1 head, seeded, not trained.")},
       0},
      {{"trained", N_("A trained model: 2 layers × 2 heads"),
        N_("The notes' sentence through a model trained on the coreference task, 2 layers of 2 heads: every head's attention, as a file of your own model would hold it.")},
       1}};
  return kPresets;
}

struct ImportChange final : SceneChange {
  ImportData data;
  ImportParams params;
  bool pending = false;  // the trained example waits for its model (the data on screen stays)
};

// "trained on coreference, 1500 steps, held-out accuracy 100.0 %, 2 layers × 2 heads" (measured: the checkpoint's).
std::string trained_label(const train::Trainer& t, bool localized) {
  const std::vector<std::string> args = {model_weights_label(t, localized), arg(t.recipe().layers), arg(t.recipe().heads)};
  return localized ? tr_format(N_("{0}, {1} layers × {2} heads"), args) : format_template("{0}, {1} layers × {2} heads", args);
}

json results_json(const ImportData& d, const ImportParams& p, bool with_matrices) {
  json r;
  r["layers"] = d.w.layers;
  r["heads"] = d.w.heads;
  r["n"] = d.w.n;
  r["max_row_sum_dev"] = d.max_row_sum_dev;
  r["rows_sum_to_one"] = d.max_row_sum_dev <= 1e-3;
  r["min"] = d.min_value;
  r["max"] = d.max_value;
  if (!d.label.empty()) r["label"] = d.label;
  if (with_matrices) r["shown"] = matrix_json(d.w.at(p.layer, p.head));
  return r;
}

}  // namespace

// The SDPA scene's default sentence through the core: its weights A (n × n) as one layer of one head.
Status import_example(ImportData* out) {
  SdpaModel m;
  AP_TRY(build_sdpa(SdpaParams{}, &m));
  ImportData d;
  d.w.layers = d.w.heads = 1;
  d.w.n = static_cast<int>(m.trace.weights().rows());
  d.w.maps = {m.trace.weights()};
  d.w.tokens = m.query_tokens;
  d.source = "example";
  measure_import(&d);
  *out = std::move(d);
  return Status::Ok();
}

// The notes' sentence through the trained model (core/train/trainer.h: attention_of): maps[l · H + h], n × n.
Status import_trained(train::Trainer& t, ImportData* out) {
  std::vector<std::string> words;
  AP_TRY(train_sentence_words(kTrainedSentence, &words, t.recipe().task));
  train::SentenceAttention a;
  AP_TRY(t.attention_of(words, &a));
  ImportData d;
  d.w.layers = a.layers;
  d.w.heads = a.heads;
  d.w.n = static_cast<int>(words.size());
  d.w.maps = std::move(a.maps);
  d.w.tokens = words;
  d.source = "trained";
  d.label = trained_label(t, false);
  measure_import(&d);
  *out = std::move(d);
  return Status::Ok();
}

// |Σ_j w_ij − 1| over every row of every map (double sums), and the value range.
void measure_import(ImportData* d) {
  double dev = 0;
  float lo = 0, hi = 0;
  bool first = true;
  for (const Mat& m : d->w.maps) {
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      double s = 0;
      for (Eigen::Index j = 0; j < m.cols(); ++j) {
        const float v = m(i, j);
        s += v;
        lo = first ? v : std::min(lo, v);
        hi = first ? v : std::max(hi, v);
        first = false;
      }
      dev = std::max(dev, std::fabs(s - 1.0));
    }
  }
  d->max_row_sum_dev = dev;
  d->min_value = lo;
  d->max_value = hi;
  d->negative = lo < 0;
}

ImportScene::ImportScene(bool defer) {
  size_t count = 0;
  const TrPair* io = array_io_translations(&count);
  add_translations(io, count);
  if (defer) defer_first_model();
  else build_first();
}

// The scene opens on the trained example (2 layers × 2 heads with its tokens, what a file of a real model
// holds): the built-in 1 × 1 head, which always builds, is on screen while the model loads, and stays, with
// the reason, if it cannot load.
void ImportScene::build_first() {
  Status s = import_example(&data_);  // the default sentence always builds
  (void)s;
  labels_ = data_.w.tokens;
  first_model();
  pending_ = true;
  pending_params_ = {};
  example_.want();
}

const char* ImportScene::title() const { return N_("Your model's attention"); }

LessonInfo ImportScene::lesson() const {
  return {"A^h = softmax(Q^h·K^hᵀ/√dₖ),   h = 1 … H,  in every layer",
          N_("Drop a .npy or .json of attention weights from your own model (shape [heads, n, n] or [layers, heads, n, n], e.g. Hugging Face output_attentions) anywhere on the page, or use Open file."),
          N_("Real heads specialise: some look at the previous token, some at the first token or punctuation, some spread evenly; the layer selector shows how this changes with depth.")};
}

const std::vector<StageInfo>& ImportScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"heads", N_("Every head of a layer"), "A^h = softmax(Q^h·K^hᵀ/√dₖ),   h = 1 … H",
       N_("Each small heatmap is one head's weights A = softmax(QKᵀ/√d_k): row i is query i, column j key j. Heads of one layer look at different things.")},
      {"head", N_("One head, with its numbers"), "Σⱼ Aᵢⱼ = 1",
       N_("One head large: each row is how much query i attends to every key; in a trained model the rows sum to 1.")},
  };
  return kStages;
}

const std::vector<PresetInfo>& ImportScene::presets() const { return preset_infos(import_presets()); }
const TrPair* ImportScene::translations(size_t* count) const { return translation_table(kImportStrings, count); }

std::string ImportScene::token(int i) const {
  return i >= 0 && static_cast<size_t>(i) < labels_.size() ? labels_[static_cast<size_t>(i)] : std::to_string(i + 1);
}

void ImportScene::write_params(json& doc) const {
  if (pending_) {  // waiting for the trained example: the document already names it (a link asks for the same)
    doc["source"] = "trained";
    doc["layer"] = pending_params_.layer;
    doc["head"] = pending_params_.head;
    return;
  }
  doc["source"] = data_.source;
  doc["layer"] = params_.layer;
  doc["head"] = params_.head;
  doc["tokens"] = data_.w.tokens;
  doc["weights"] = attention_weights_json(data_.w);
}

void ImportScene::write_results(json& doc, bool with_matrices) const {
  doc["results"] = results_json(data_, params_, with_matrices);
  doc["checkpoint"] = example_.state_name();  // the trained example's model: none, loading, loaded, failed
  if (example_.state() == Checkpoint::Failed) doc["checkpoint_error"] = example_.error().message;
}

namespace {
// Every field, once (app/param_fields.h). All are read by prepare's own rules: the data first (a preset, new
// weights, or new tokens for the weights on screen), then layer and head within that data's sizes. Only the
// view and the source go in a link: the weights are too big for an address (they travel in setState, or as a
// file), so a link restores the built-in and the trained examples, and names a file it cannot carry.
const FieldTable<ImportParams>& import_fields() {
  static const FieldTable<ImportParams> kFields = {
      {"source", by_scene, UrlKind::String},  // a link restores "example" and "trained"; a file's name asks for its weights
      {"layer", by_scene, UrlKind::Number},
      {"head", by_scene, UrlKind::Number},
      {"tokens", by_scene, UrlKind::Json, nullptr, false},
      {"weights", by_scene, UrlKind::Json, nullptr, false},
  };
  return kFields;
}
}  // namespace

const std::vector<UrlParam>& ImportScene::url_params() const {
  static const std::vector<UrlParam> kParams = url_params_of(import_fields());
  return kParams;
}

// 1. the data: a preset, new weights (with tokens), or new tokens for the current weights; 2. layer and head
// within the data; 3. results, if given, must be what these give.
Status ImportScene::prepare(const json& in, std::unique_ptr<SceneChange>* out) const {
  if (!in.is_object()) return Status::Error("expects an object, got {0}", {quote_json(in)});
  AP_TRY(check_table_fields(in, import_fields(), {"results", "checkpoint", "checkpoint_error"}));
  auto change = std::make_unique<ImportChange>();
  ImportData& d = change->data;
  ImportParams& p = change->params;
  d = data_;
  p = params_;
  bool new_data = false, trained = false;
  if (const auto it = in.find("preset"); it != in.end()) {
    int which = 0;
    AP_TRY(find_preset_params(*it, import_presets(), &which));
    trained = which == 1;
    if (!trained) AP_TRY(import_example(&d));
    new_data = true;
  }
  std::string source;
  if (const auto it = in.find("source"); it != in.end()) AP_TRY(read_string(*it, "source", &source));
  // The trained example without its weights (the preset, or a document that waited for it): from the model.
  if (!in.contains("weights") && (trained || (source == "trained" && (data_.source != "trained" || pending_)))) {
    if (example_.state() == Checkpoint::Failed) return example_.error();
    if (!example_.trainer()) {  // not here yet: the view fetches it, then this is asked for again
      // The layer and head asked for wait with it (checked against the model then; the data on screen keeps
      // its own).
      change->pending = true;
      p = {};
      long long v;
      if (const auto it = in.find("layer"); it != in.end()) {
        AP_TRY(read_int(*it, "layer", 0, io_limits::kMaxLayers - 1, &v));
        p.layer = static_cast<int>(v);
      }
      if (const auto it = in.find("head"); it != in.end()) {
        AP_TRY(read_int(*it, "head", 0, io_limits::kMaxHeads - 1, &v));
        p.head = static_cast<int>(v);
      }
      *out = std::move(change);
      return Status::Ok();
    }
    AP_TRY(import_trained(*example_.trainer(), &d));
    new_data = true;
    source.clear();
  }
  if (const auto it = in.find("weights"); it != in.end()) {
    NdArray a;
    AP_TRY(array_from_json(*it, "weights", &a));
    AP_TRY(attention_from_array(a, &d.w));
    d.source = source.empty() ? "setState" : source;
    new_data = true;
  } else if (!source.empty() && source != d.source) {
    if (source != "example") return Status::Error("source '{0}' needs its weights", {source});
    AP_TRY(import_example(&d));
    new_data = true;
  }
  if (const auto it = in.find("tokens"); it != in.end()) {
    std::vector<std::string> t;
    AP_TRY(read_string_list(*it, "tokens", &t));
    if (!t.empty() && static_cast<int>(t.size()) != d.w.n)
      return Status::Error("tokens has {0} entries, but n = {1}", {arg(static_cast<long long>(t.size())), arg(d.w.n)});
    d.w.tokens = std::move(t);
  } else if (in.contains("weights")) {
    d.w.tokens.clear();  // new weights without tokens: numbered rows
  }
  // The trained example's label stays only with its own data coming back (setState(getState())); other weights
  // are data, whatever their document calls them.
  if (in.contains("weights")) {
    bool same = d.source == "trained" && data_.source == "trained" && d.w.layers == data_.w.layers &&
                d.w.heads == data_.w.heads && d.w.n == data_.w.n && d.w.tokens == data_.w.tokens;
    for (size_t k = 0; same && k < d.w.maps.size(); ++k) same = d.w.maps[k] == data_.w.maps[k];
    d.label = same ? data_.label : std::string();
  }
  if (new_data) {
    measure_import(&d);
    p.layer = std::min(p.layer, d.w.layers - 1);
    p.head = std::min(p.head, d.w.heads - 1);
  }
  long long v;
  if (const auto it = in.find("layer"); it != in.end()) {
    AP_TRY(read_int(*it, "layer", 0, d.w.layers - 1, &v));
    p.layer = static_cast<int>(v);
  }
  if (const auto it = in.find("head"); it != in.end()) {
    AP_TRY(read_int(*it, "head", 0, d.w.heads - 1, &v));
    p.head = static_cast<int>(v);
  }
  if (const auto it = in.find("results"); it != in.end()) {
    // The trained example's label comes from the model, which a document's weights do not bring: not compared.
    json mine = json::parse(results_json(d, p, it->contains("shown")).dump());
    json theirs = json::parse(it->dump());
    mine.erase("label");
    if (theirs.is_object()) theirs.erase("label");
    if (theirs != mine) return Status::Error("results do not match what the other fields give");
  }
  *out = std::move(change);
  return Status::Ok();
}

void ImportScene::commit(std::unique_ptr<SceneChange> change) {
  auto* c = static_cast<ImportChange*>(change.get());
  if (c->pending) {
    pending_ = true;
    pending_params_ = c->params;  // the layer and head asked for (checked when the model is here)
    example_.want();
    return;
  }
  pending_ = false;
  data_ = std::move(c->data);
  params_ = c->params;
  labels_ = data_.w.tokens;
  model_replaced();
}

Status ImportScene::import_file(const std::string& name, const std::vector<unsigned char>& bytes) {
  auto change = std::make_unique<ImportChange>();
  bool tokens_only = false;
  AP_TRY(read_import_file(name, bytes, &change->data.w, &tokens_only));
  if (tokens_only) {  // the labels of the weights imported before (a .npy holds none)
    if (is_example()) return Status::Error("these are only tokens: open the weights' file first (or both together)");
    if (change->data.w.n != data_.w.n)
      return Status::Error("the file has {0} tokens, but the weights have n = {1}", {arg(change->data.w.n), arg(data_.w.n)});
    std::vector<std::string> tokens = std::move(change->data.w.tokens);
    change->data = data_;
    change->data.w.tokens = std::move(tokens);
    change->data.source = data_.source + " + " + (name.empty() ? "tokens" : name);
    change->data.label.clear();  // other tokens: no longer what the model read
    change->params = params_;
    commit(std::move(change));
    return Status::Ok();
  }
  change->data.source = name.empty() ? "file" : name;
  measure_import(&change->data);
  change->params = {};
  commit(std::move(change));
  return Status::Ok();
}

void ImportScene::receive_checkpoint(const std::vector<unsigned char>& bytes) {
  if (!example_.receive(bytes).ok) {
    pending_ = false;
    return;
  }
  if (example_.state() == Checkpoint::Ready) show_checkpoint();  // else read in slices (poll)
}

void ImportScene::poll() {
  if (!example_.reading() || !example_.read_slice(kMeasureSliceMs)) return;
  if (example_.state() == Checkpoint::Ready)
    show_checkpoint();
  else
    pending_ = false;  // refused: the slot's error says why
}

void ImportScene::show_checkpoint() {
  if (!pending_) return;
  pending_ = false;
  json doc = {{"source", "trained"}, {"layer", pending_params_.layer}, {"head", pending_params_.head}};
  std::unique_ptr<SceneChange> c;
  Status s = prepare(doc, &c);
  if (!s.ok) {  // a layer or head the model has not: its first
    doc = {{"source", "trained"}, {"layer", 0}, {"head", 0}};
    s = prepare(doc, &c);
  }
  if (!s.ok) {
    checkpoint_failed(s);
    return;
  }
  commit(std::move(c));
}

void ImportScene::checkpoint_failed(const Status& error) {
  example_.fail(error);
  pending_ = false;
}

std::string ImportScene::source_label(bool localized) const {
  if (!data_.label.empty()) return localized && example_.trainer() ? trained_label(*example_.trainer(), true) : data_.label;
  if (is_example()) return localized ? tr("The built-in example") : "The built-in example";
  return data_.source;
}

Status ImportScene::load_preset(const std::string& id) {
  std::unique_ptr<SceneChange> c;
  AP_TRY(prepare(json{{"preset", id}}, &c));
  commit(std::move(c));
  return Status::Ok();
}

Status ImportScene::select(int layer, int head) {
  std::unique_ptr<SceneChange> c;
  AP_TRY(prepare(json{{"layer", layer}, {"head", head}}, &c));
  commit(std::move(c));
  return Status::Ok();
}

std::string ImportScene::explain(int what, int i, int j) const {
  const int head = what, layer = params_.layer;
  if (head < 0 || head >= data_.w.heads || i < 0 || j < 0 || i >= data_.w.n || j >= data_.w.n) return {};
  const Mat& m = data_.w.at(layer, head);
  double row = 0;
  for (int k = 0; k < data_.w.n; ++k) row += m(i, k);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s: %s %d “%s” → %s %d “%s” = %s\n%s %s = %s",
                tr_format(N_("layer {0} head {1}"), {arg(layer + 1), arg(head + 1)}).c_str(), tr("query"), i + 1, token(i).c_str(),
                tr("key"), j + 1, token(j).c_str(), fmt(m(i, j), 4).c_str(), tr("row sum"), token(i).c_str(), fmt(row, 4).c_str());
  return buf;
}

}  // namespace ap
