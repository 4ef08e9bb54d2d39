#include "sdpa_scene.h"

#include <algorithm>

#include "app/scenes/sdpa_cell_text.h"
#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scenes/sdpa_presets.h"
#include "app/scene_presets.h"
#include "app/scenes/train_scene.h"
#include "app/weights_label.h"
#include "core/tokenizer.h"

namespace ap {

using nlohmann::json;

namespace {

// The stage facts, in one place: timeline, flow strip, formula panel, help and getState read them here.
const std::vector<StageInfo>& stage_table() {
  static const std::vector<StageInfo> kStages = {
      {"qkv", N_("Q, K, V"), "Q = X·W^Q     K = X·W^K     V = X·W^V",
       N_("Query: what am I looking for?  Key: what can I offer?  Value: what do I contain?")},
      {"scores", N_("Scores Q·Kᵀ"), "S = Q·Kᵀ     Sᵢⱼ = qᵢ·kⱼ = Σₜ qᵢₜ kⱼₜ",
       N_("One dot product per cell: how well query i matches key j.")},
      {"scale", N_("Scale ÷√dₖ"), "S / √dₖ",
       N_("With unit-variance q and k, q·k has variance dₖ; dividing by √dₖ brings it back to 1, so softmax does not saturate.")},
      {"mask", N_("Mask"), "S / √dₖ + M,     Mᵢⱼ ∈ {0, −∞}",
       N_("Hidden positions get −∞ before softmax, so their weights become exactly 0.")},
      {"softmax", N_("Softmax"), "Aᵢⱼ = exp(zᵢⱼ − maxᵢ) / Σⱼ exp(zᵢⱼ − maxᵢ)",
       N_("Row by row: exponentials, their sum, then divide. Each row of A sums to 1.")},
      {"weighted_sum", N_("Weighted sum A·V"), "output = A·V     outᵢ = Σⱼ Aᵢⱼ vⱼ",
       N_("Each output row is a weighted mix of the value rows, not the value of the best key.")},
      {"output", N_("Output"), "Attention(Q, K, V) = softmax(QKᵀ / √dₖ + M) · V",
       N_("Q and K only decide the weights; what gets summed is V.")},
  };
  return kStages;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& t : v) s += (s.empty() ? "" : " ") + t;
  return s;
}

// build_sdpa, plus the scene's rule for hand-set Q, K, V: the sentence is what their labels spell, so the
// document never holds a sentence that disagrees with the matrices.
Status build_model(const SdpaParams& p, SdpaModel* out) {
  SdpaModel m;
  AP_TRY(build_sdpa(p, &m));
  if (m.params.source == QkvSource::Custom) {
    m.params.text = join(m.query_tokens);
    m.params.query_labels = m.query_tokens;
    m.params.key_labels = m.key_tokens;
  }
  *out = std::move(m);
  return Status::Ok();
}

struct SdpaChange final : SceneChange {
  SdpaModel model;
  // The trained view: installed (trained), or waiting for the checkpoint (pending: words and layer only).
  bool trained = false, pending = false;
  std::vector<std::string> words;
  int layer = 0;
  train::TrainedQkv qkv;
};

// One layer of a trained model as hand-set Q, K, V (labelled by the words, no mask), built by the scene's
// usual pipeline.
Status trained_model(const train::TrainedQkv& q, int layer, SdpaModel* out) {
  SdpaParams p;
  p.source = QkvSource::Custom;
  p.mask = MaskKind::None;
  p.Q = q.Q[static_cast<size_t>(layer)];
  p.K = q.K[static_cast<size_t>(layer)];
  p.V = q.V[static_cast<size_t>(layer)];
  p.query_labels = p.key_labels = q.words;
  return build_model(p, out);
}

// Every parameter, once: the document, the link and the known fields (app/param_fields.h). The ones marked
// by_scene follow the scene's rules that span fields (the sentence against hand-set Q, K, V, the trained
// view): prepare and write_params read and write them by hand; the rest are read after those rules.
const FieldTable<SdpaParams>& sdpa_fields() {
  using P = SdpaParams;
  static const FieldTable<P> kFields = {
      {"source", by_scene, UrlKind::String},
      {"text", by_scene, UrlKind::String},
      {"tokens", by_scene, UrlKind::Json},
      {"key_tokens", by_scene, UrlKind::Json},
      {"d_model", at<&P::d_model>, 1, limits::kMaxModelDim},
      Field<P>{"d_k", at<&P::d_k>, 1, limits::kMaxHeadDim}.by_scene(),  // from the sentence only: else Q's width
      {"seed", at<&P::seed>},
      {"positional", at<&P::positional>},
      {"pad_to", at<&P::pad_to>, 0, limits::kMaxTokens},
      mask_field<P>(),
      {"matrices", by_scene, UrlKind::Matrices, "m"},
      {"weights", by_scene, UrlKind::String},
      {"layer", by_scene, UrlKind::Number},
      {"recipe", by_scene, UrlKind::Json},
  };
  return kFields;
}

// Fields that shape only seeded or hand-set Q, K, V.
const char* const kRandomOnlyFields[] = {"source", "d_model", "seed", "positional", "pad_to"};

const char* const kInputMatrices[] = {"Q", "K", "V"};
const char* const kResultMatrices[] = {"scores", "scaled", "masked", "weights", "output"};

const Mat& result_matrix(const SdpaModel& m, const std::string& name) {
  const AttentionTrace& t = m.trace;
  if (name == "Q") return m.Q;
  if (name == "K") return m.K;
  if (name == "V") return m.V;
  if (name == "scores") return t.scores;
  if (name == "scaled") return t.scaled;
  if (name == "masked") return t.masked;
  if (name == "weights") return t.weights();
  return t.output;
}

// Derived fields are accepted when they agree with what the other fields give, and refused otherwise.
Status check_derived(const json& in, const SdpaModel& m, bool qkv_derived) {
  const AttentionTrace& t = m.trace;
  const struct { const char* name; int value; } ints[] = {{"n", t.n}, {"m", t.m}, {"d_v", t.d_v}, {"d_k", t.d_k}};
  for (const auto& f : ints) {
    const auto it = in.find(f.name);
    if (it == in.end()) continue;
    if (!it->is_number() || it->get<double>() != f.value)
      return Status::Error("{0} is {1}, but the other fields give {2}", {f.name, quote_json(*it), arg(f.value)});
  }
  if (const auto it = in.find("fully_masked_rows"); it != in.end()) {
    json fm = json::array();
    for (int i = 0; i < t.n; ++i)
      if (t.softmax.fully_masked[static_cast<size_t>(i)]) fm.push_back(i);
    if (*it != fm) return Status::Error("{0} is {1}, but the other fields give {2}", {"fully_masked_rows", quote_json(*it), quote_json(fm)});
  }
  if (const auto it = in.find("tokens"); it != in.end() && *it != json(m.query_tokens))
    return Status::Error("tokens {0} and text {1} disagree: the sentence splits into {2}",
                         {quote_json(*it), quote_json(m.params.text), quote_json(m.query_tokens)});
  if (const auto it = in.find("key_tokens"); it != in.end() && *it != json(m.key_tokens))
    return Status::Error("{0} is {1}, but the other fields give {2}", {"key_tokens", quote_json(*it), quote_json(m.key_tokens)});
  if (const auto it = in.find("matrices"); it != in.end()) {
    for (auto mt = it->begin(); mt != it->end(); ++mt) {
      const bool input = mt.key() == "Q" || mt.key() == "K" || mt.key() == "V";
      if (input && !qkv_derived) continue;  // hand-set: they are the input, not a result
      std::string where;
      if (!matrix_agrees(mt.value(), result_matrix(m, mt.key()), 1e-5, &where))
        return Status::Error("matrices.{0} does not match what the other fields give ({1})", {mt.key(), where});
    }
  }
  return Status::Ok();
}

}  // namespace

SoftmaxCursor softmax_cursor(int done, int n) {
  SoftmaxCursor c;
  n = std::max(1, n);
  done = std::clamp(done, 0, n * kSoftmaxPhases);
  c.running = done < n * kSoftmaxPhases;
  c.row = std::min(done / kSoftmaxPhases, n - 1);
  c.phase = c.running ? static_cast<SoftmaxPhase>(done - c.row * kSoftmaxPhases) : SoftmaxPhase::Divide;
  c.rows_done = done / kSoftmaxPhases;
  c.rows_with_exps = (done + kSoftmaxPhases - 1) / kSoftmaxPhases;
  c.rows_with_sum = (done + 1) / kSoftmaxPhases;
  return c;
}

SdpaScene::SdpaScene(bool defer) {
  if (defer) defer_first_model();
  else build_first();
}

void SdpaScene::build_first() {
  Status s = build_model(SdpaParams{}, &model_);  // the default sentence always builds
  (void)s;
  first_model();
  timeline.end();
}

const char* SdpaScene::title() const { return N_("Scaled dot-product attention"); }
LessonInfo SdpaScene::lesson() const {
  return {"Attention(Q, K, V) = softmax(QKᵀ/√dₖ)·V",
          N_("Type a sentence and step through the timeline: click a row of the scores to follow one query through scale, softmax and the weighted sum."),
          N_("Each output row is a weighted average of the V rows; the weights of a row are non-negative and sum to 1.")};
}
const std::vector<StageInfo>& SdpaScene::stages() const { return stage_table(); }

const std::vector<PresetInfo>& SdpaScene::presets() const {
  static const std::vector<PresetInfo> kInfo = [] {
    std::vector<PresetInfo> v;
    v.push_back({"it-trained", N_("trained: it → animal"),
                 N_("A two-layer model trained on the coreference task (the build trains it). Its last layer decides: "
                    "\"it\" attends to \"animal\" because the model learned it. Change \"tired\" to \"wide\" and the row "
                    "moves to \"street\".")});
    for (const Preset& p : ap::presets()) v.push_back({p.id, p.title, p.note});
    return v;
  }();
  return kInfo;
}

namespace {
const TrPair kLessonStrings[] = {
    {"Type a sentence and step through the timeline: click a row of the scores to follow one query through scale, softmax and the weighted sum.",
     "输入一句话，沿时间轴一步步走：点击分数矩阵的一行，跟着一个 query 经过缩放、softmax 和加权求和。"},
    {"Each output row is a weighted average of the V rows; the weights of a row are non-negative and sum to 1.",
     "输出的每一行都是 V 各行的加权平均；一行中的权重非负且和为 1。"},
};
}  // namespace

// The SDPA scene's strings were the whole interface before scenes existed: they live in the shared table,
// apart from its lesson-map entry.
const TrPair* SdpaScene::translations(size_t* count) const { return translation_table(kLessonStrings, count); }

std::vector<int> sdpa_substeps(int n, int m) {
  n = std::max(1, n);
  m = std::max(1, m);
  return {1, n * m, 1, 1, n * kSoftmaxPhases, n, 1};
}

std::vector<int> SdpaScene::substeps() const { return sdpa_substeps(model_.trace.n, model_.trace.m); }

void SdpaScene::write_params(json& doc) const {
  // The trained view (or the one waiting for the checkpoint: its document already names it, so that its
  // link and setState(getState()) ask for the same view).
  if (trained_ || pending_) {
    doc["weights"] = "trained";
    doc["text"] = join(trained_ ? qkv_.words : pending_words_);
    doc["layer"] = (trained_ ? layer_ : pending_layer_) + 1;
    doc["recipe"] = recipe_json(trained_ ? qkv_.recipe : train::Recipe{});
    if (trained_) write_train_model_fields(ck_.trainer(), training_.build_recipe(), doc);
    return;
  }
  const SdpaParams& p = model_.params;
  const bool custom = p.source == QkvSource::Custom;
  doc["source"] = custom ? "custom" : "projection";
  write_fields(sdpa_fields(), p, doc);  // mask and, kept in hand-set mode for the way back, d_model, seed …
  if (custom) {
    doc["tokens"] = model_.query_tokens;
    doc["key_tokens"] = model_.key_tokens;
    doc["matrices"]["Q"] = matrix_json(model_.Q);
    doc["matrices"]["K"] = matrix_json(model_.K);
    doc["matrices"]["V"] = matrix_json(model_.V);
  } else {
    doc["text"] = p.text;
    write_field(sdpa_fields(), "d_k", p, doc);
  }
}

void SdpaScene::write_results(json& doc, bool with_matrices) const {
  const SdpaModel& m = model_;
  const AttentionTrace& t = m.trace;
  if (!pending_) doc["text"] = m.params.text;  // (pending: the parameters hold the sentence it waits for)
  doc["tokens"] = m.query_tokens;
  doc["key_tokens"] = m.key_tokens;
  doc["n"] = t.n;
  doc["m"] = t.m;
  doc["d_k"] = t.d_k;
  doc["d_v"] = t.d_v;
  json fm = json::array();
  for (int i = 0; i < t.n; ++i)
    if (t.softmax.fully_masked[static_cast<size_t>(i)]) fm.push_back(i);
  doc["fully_masked_rows"] = fm;
  if (!trained_ && !pending_) doc["weights"] = "random";  // (a trained view writes it with its parameters)
  doc["label"] = weights_label(false);
  if (trained_) {
    json tr_doc;
    tr_doc["task"] = qkv_.recipe.task;
    tr_doc["step"] = qkv_.step;
    tr_doc["heldout_accuracy"] = qkv_.heldout_accuracy;
    tr_doc["layers"] = qkv_.layers;
    tr_doc["it"] = qkv_.it_pos;
    tr_doc["head"] = qkv_.head;
    doc["trained"] = tr_doc;
  }
  doc["checkpoint"] = ck_.state_name();
  if (ck_.state() == Checkpoint::Failed) doc["checkpoint_error"] = ck_.error().message;
  doc["training"] = training_.json();  // the training panel's run (app/scene_training.h)
  if (with_matrices) {
    json& mats = doc["matrices"];
    for (const char* k : kInputMatrices) mats[k] = matrix_json(result_matrix(m, k));
    for (const char* k : kResultMatrices) mats[k] = matrix_json(result_matrix(m, k), std::string(k) == "masked");
  }
}

const std::vector<UrlParam>& SdpaScene::url_params() const {
  static const std::vector<UrlParam> kParams = [] {
    std::vector<UrlParam> v = url_params_of(sdpa_fields());
    v.insert(v.end(), train_model_url_params().begin(), train_model_url_params().end());  // the trained model shown
    return v;
  }();
  return kParams;
}

Status SdpaScene::prepare(const json& in, std::unique_ptr<SceneChange>* out) const {
  if (!in.is_object()) return Status::Error("expects an object, got {0}", {quote_json(in)});
  // The field "training" (a command, or getState's object): the rest of the document is this scene's change.
  std::unique_ptr<TrainingChange> tc;
  json rest;
  const train::Recipe build = training_.build_recipe();
  AP_TRY(prepare_training(in, training_, ck_.trainer() ? ck_.trainer()->recipe() : build, ck_.trainer() ? ck_.trainer()->step() : build.steps,
                          &rest, &tc));
  if (tc) {
    // (The build's model asked for again: the rest is prepared at commit, once the run's model is gone.)
    if (!tc->restore_build) AP_TRY(prepare(rest, &tc->inner));
    *out = std::move(tc);
    return Status::Ok();
  }
  AP_TRY(check_table_fields(in, sdpa_fields(), {"n", "m", "d_v", "fully_masked_rows", "label", "trained", "checkpoint",
                                                "checkpoint_error"}));  // (results: accepted when they agree)

  // 0. The trained view: asked for by its preset or weights "trained", or kept while only its sentence or
  //    layer changes; any other preset, weights "random" or a field of seeded weights leaves it.
  bool want_trained = trained_ || pending_;
  bool from_preset = false;
  if (const auto it = in.find("preset"); it != in.end()) {
    from_preset = it->is_string() && it->get<std::string>() == "it-trained";
    want_trained = from_preset;
  }
  if (const auto it = in.find("weights"); it != in.end()) {
    if (!it->is_string() || (it->get<std::string>() != "trained" && it->get<std::string>() != "random"))
      return Status::Error("weights must be \"trained\" or \"random\", got {0}", {quote_json(*it)});
    if (in.contains("preset") && want_trained != (it->get<std::string>() == "trained"))
      return Status::Error("preset {0} and weights {1} disagree", {quote_json(in["preset"]), quote_json(*it)});
    want_trained = it->get<std::string>() == "trained";
  } else if (want_trained && !from_preset) {
    for (const char* k : kRandomOnlyFields) want_trained = want_trained && !in.contains(k);
    if (const auto mt = in.find("matrices"); mt != in.end() && mt->is_object())
      for (const char* k : kInputMatrices) want_trained = want_trained && !mt->contains(k);
  }
  if (want_trained) {
    for (const char* k : kRandomOnlyFields)
      if (in.contains(k))
        return Status::Error("{0} applies to seeded or hand-set weights; this view shows the trained model (send weights: \"random\")", {k});
    auto change = std::make_unique<SdpaChange>();
    // The sentence: the field, the preset's, or the one on screen; as the model's words (its vocabulary).
    std::string text = from_preset ? kTrainedSentence : trained_ ? join(qkv_.words) : pending_ ? join(pending_words_) : kTrainedSentence;
    if (const auto it = in.find("text"); it != in.end()) AP_TRY(read_string(*it, "text", &text));
    else if (const auto tk = in.find("tokens"); tk != in.end()) {
      std::vector<std::string> toks;
      AP_TRY(read_string_list(*tk, "tokens", &toks));
      text = join(toks);
    }
    AP_TRY(train_sentence_words(text, &change->words));
    const train::Recipe recipe = ck_.trainer() ? ck_.trainer()->recipe() : train::Recipe{};
    if (const auto it = in.find("recipe"); it != in.end() && json::parse(it->dump()) != json::parse(recipe_json(recipe).dump()))
      return Status::Error("the trained model on screen has the recipe {0}; another recipe's model is named by train_seed, train_steps, train_lr and train_step (the training panel trains it)",
                           {recipe_json(recipe).dump()});
    change->layer = from_preset || !(trained_ || pending_) ? recipe.layers - 1 : trained_ ? layer_ : std::max(0, pending_layer_);
    if (const auto it = in.find("layer"); it != in.end()) {
      long long l;
      AP_TRY(read_int(*it, "layer", 1, recipe.layers, &l));
      change->layer = static_cast<int>(l) - 1;
    }
    if (const auto it = in.find("mask"); it != in.end() && *it != "none")
      return Status::Error("the trained model hides no key here (its sentences have no padding): mask must be \"none\", got {0}", {quote_json(*it)});
    if (ck_.state() == Checkpoint::Failed) return ck_.error();  // read once per page: what it said stays true
    if (!ck_.trainer()) {  // 1. Not here yet: the view fetches the checkpoint, then commits this change.
      change->pending = true;
      *out = std::move(change);
      return Status::Ok();
    }
    // 2. The sentence through the model; the chosen layer as the scene's Q, K, V; results must agree.
    AP_TRY(train::trained_qkv(*ck_.trainer(), change->words, &change->qkv));
    AP_TRY(trained_model(change->qkv, change->layer, &change->model));
    AP_TRY(check_derived(in, change->model, true));
    change->trained = true;
    *out = std::move(change);
    return Status::Ok();
  }

  // 1. Where the change starts: a preset (always first, whatever the key order), or the current view.
  SdpaParams base = trained_ ? SdpaParams{} : model_.params;  // from the trained view: back to seeded weights
  SdpaModel preset_model;
  const SdpaModel* base_model = &model_;
  if (const auto it = in.find("preset"); it != in.end()) {
    std::string id;
    AP_TRY(read_string(*it, "preset", &id));
    const Preset* pr = find_preset(id);
    if (!pr) return Status::Error("unknown preset '{0}'", {id});
    AP_TRY(build_model(pr->params, &preset_model));
    base = preset_model.params;
    base_model = &preset_model;
  }

  // 2. The matrices object: Q, K, V can be set by hand; the rest are results.
  bool has_qkv = false;
  const json* mats = nullptr;
  if (const auto it = in.find("matrices"); it != in.end()) {
    if (!it->is_object()) return Status::Error("matrices must be an object like {\"Q\": [[...]]}");
    mats = &*it;
    for (auto m = it->begin(); m != it->end(); ++m) {
      const bool input = std::find_if(std::begin(kInputMatrices), std::end(kInputMatrices), [&](const char* k) { return m.key() == k; }) != std::end(kInputMatrices);
      const bool result = std::find_if(std::begin(kResultMatrices), std::end(kResultMatrices), [&](const char* k) { return m.key() == k; }) != std::end(kResultMatrices);
      if (!input && !result) return Status::Error("matrices.{0} is not a matrix of this scene (Q, K, V and their results)", {m.key()});
      has_qkv = has_qkv || input;
    }
  }

  // 3. Which source the document asks for. Fields that disagree about it are refused, never resolved by order.
  const bool explicit_source = in.contains("source");
  QkvSource src = base.source;
  if (explicit_source) {
    std::string s;
    AP_TRY(read_string(in["source"], "source", &s));
    if (s == "custom") src = QkvSource::Custom;
    else if (s == "projection") src = QkvSource::Projection;
    else return Status::Error("source must be \"projection\" or \"custom\", got {0}", {quote_json(in["source"])});
  } else if (has_qkv && in.contains("text")) {
    return Status::Error("text and matrices both set Q, K and V: send source \"custom\" with the matrices, or the text alone");
  } else if (has_qkv) {
    src = QkvSource::Custom;
  } else if (in.contains("text")) {
    src = QkvSource::Projection;
  }
  SdpaParams p;
  if (src == QkvSource::Projection) {
    // 4a. From a sentence: Q, K, V (and tokens) are results, accepted when they agree.
    p = base;
    p.source = QkvSource::Projection;
    p.Q = p.K = p.V = Mat();
    p.query_labels.clear();
    p.key_labels.clear();
    if (const auto it = in.find("text"); it != in.end()) AP_TRY(read_string(*it, "text", &p.text));
    else if (const auto tk = in.find("tokens"); tk != in.end()) {
      std::vector<std::string> toks;
      AP_TRY(read_string_list(*tk, "tokens", &toks));
      if (toks.empty()) return Status::Error("tokens must not be empty");
      p.text = join(toks);
    }
    AP_TRY(read_field(in, sdpa_fields(), "d_k", &p));
  } else {
    // 4b. Q, K, V by hand: the projection settings are kept for the way back, and may only be set together
    //     with an explicit source (a whole document); alone they would change nothing on screen.
    p = base.source == QkvSource::Custom ? base : as_custom(*base_model);
    for (const char* k : {"d_model", "seed", "positional", "pad_to"}) {
      const auto it = in.find(k);
      if (it == in.end() || explicit_source) continue;
      const json now = k == std::string("d_model") ? json(p.d_model) : k == std::string("seed") ? json(p.seed)
                     : k == std::string("positional") ? json(p.positional) : json(p.pad_to);
      if (*it != now)
        return Status::Error("{0} applies to Q, K, V computed from the sentence; they are set by hand now "
                             "(send source: \"projection\" or a text to go back)", {k});
    }
    if (const auto it = in.find("d_k"); it != in.end() && !explicit_source && !has_qkv && *it != json(p.Q.cols()))
      return Status::Error("{0} applies to Q, K, V computed from the sentence; they are set by hand now "
                           "(send source: \"projection\" or a text to go back)", {"d_k"});
    if (mats) {
      for (const char* k : kInputMatrices)
        if (const auto mt = mats->find(k); mt != mats->end())
          AP_TRY(read_matrix(*mt, std::string("matrices.") + k, limits::kMaxTokens, limits::kMaxHeadDim,
                             k[0] == 'Q' ? &p.Q : k[0] == 'K' ? &p.K : &p.V));
    }
    // Labels: tokens name the queries (and the keys too when they are the same rows), key_tokens the keys.
    std::vector<std::string> toks, ktoks;
    const bool has_tokens = in.contains("tokens"), has_ktokens = in.contains("key_tokens");
    if (has_tokens) AP_TRY(read_string_list(in["tokens"], "tokens", &toks));
    if (has_ktokens) AP_TRY(read_string_list(in["key_tokens"], "key_tokens", &ktoks));
    if (has_ktokens) p.key_labels = ktoks;
    if (has_tokens) {
      p.query_labels = toks;
      if (!has_ktokens && p.Q.rows() == p.K.rows()) p.key_labels = toks;
    }
    if (has_tokens && toks.size() != static_cast<size_t>(p.Q.rows()))
      return Status::Error("tokens has {0} labels for the {1} rows of Q", {arg(static_cast<long long>(toks.size())), arg(p.Q.rows())});
    if (has_ktokens && ktoks.size() != static_cast<size_t>(p.K.rows()))
      return Status::Error("key_tokens has {0} labels for the {1} rows of K", {arg(static_cast<long long>(ktoks.size())), arg(p.K.rows())});
    if (const auto it = in.find("text"); it != in.end()) {
      const std::vector<std::string> labels = p.query_labels.size() == static_cast<size_t>(p.Q.rows()) ? p.query_labels : std::vector<std::string>{};
      if (!it->is_string() || labels.empty() || it->get<std::string>() != join(labels))
        return Status::Error("text {0} and source \"custom\" disagree: hand-set Q, K, V are labelled by tokens; "
                             "send the text without source \"custom\" to compute Q, K, V from it", {quote_json(*it)});
    }
  }
  AP_TRY(read_table_fields(in, sdpa_fields(), &p));  // d_model, seed, positional, pad_to, mask

  // 5. Build, then check every derived field against the result.
  auto change = std::make_unique<SdpaChange>();
  AP_TRY(build_model(p, &change->model));
  AP_TRY(check_derived(in, change->model, src == QkvSource::Projection));
  *out = std::move(change);
  return Status::Ok();
}

void SdpaScene::commit(std::unique_ptr<SceneChange> change) {
  if (auto* tc = dynamic_cast<TrainingChange*>(change.get())) {
    commit_training(*tc, &training_);
    if (tc->restore_build) {  // the build's model again: asked for anew, the view waits for it
      ck_.restore_build();
      std::unique_ptr<SceneChange> again;
      if (prepare(tc->rest, &again).ok) commit(std::move(again));
      return;
    }
    commit(std::move(tc->inner));
    return;
  }
  auto* c = static_cast<SdpaChange*>(change.get());
  if (c->pending) {  // the model on screen stays until the checkpoint is read (receive_checkpoint)
    pending_ = true;
    pending_words_ = c->words;
    pending_layer_ = c->layer;
    ck_.want();
    return;
  }
  pending_ = false;
  trained_ = c->trained;
  if (trained_) {
    qkv_ = std::move(c->qkv);
    layer_ = c->layer;
  }
  model_ = std::move(c->model);
  model_replaced();
}

SdpaScene::~SdpaScene() = default;

void SdpaScene::receive_checkpoint(const std::vector<unsigned char>& bytes) {
  if (!ck_.receive(bytes).ok) {
    pending_ = false;
    return;
  }
  if (ck_.state() == CheckpointSlot::State::Ready) show_checkpoint();  // else read in slices (poll)
}

void SdpaScene::show_checkpoint() {
  if (!pending_) return;
  pending_ = false;
  const Status shown = show_trained(join(pending_words_), pending_layer_);
  if (!shown.ok) checkpoint_failed(shown);
}

void SdpaScene::poll() {
  // The run's newer weights: the slot's model follows (CheckpointSlot::follow_run), and a trained view on
  // screen (or waiting) is recomputed once they are installed. The build's checkpoint is read there too.
  std::vector<unsigned char> w;
  const bool fresh = training_.poll(&w);
  const bool was_reading = ck_.reading();
  if (!ck_.follow_run(fresh ? &w : nullptr, &training_error_)) {
    if (was_reading && !ck_.reading()) pending_ = false;  // the checkpoint was refused: the slot's error says why
    return;
  }
  if (was_reading && !ck_.from_run()) {  // the build's checkpoint, read: the view that waited for it
    show_checkpoint();
    return;
  }
  if (trained_ || pending_)  // (show_trained's commit ends the waiting)
    training_error_ = show_trained(join(pending_ ? pending_words_ : qkv_.words), pending_ ? pending_layer_ : layer_);
}

void SdpaScene::checkpoint_failed(const Status& error) {
  ck_.fail(error);
  pending_ = false;
}

Status SdpaScene::show_trained(const std::string& text, int layer) {
  // Within the trained view (or the one waiting) the model stays what it is; "weights": "trained" would ask for
  // the build's model by name (prepare_training).
  json doc = {{"text", text}};
  if (!trained_ && !pending_) doc["weights"] = "trained";
  if (layer >= 0) doc["layer"] = layer + 1;
  std::unique_ptr<SceneChange> c;
  AP_TRY(prepare(doc, &c));
  commit(std::move(c));
  return Status::Ok();
}

std::string SdpaScene::weights_label(bool localized) const {
  if (trained_ && qkv_.step == 0) return random_weights_label(qkv_.recipe.seed, localized);  // a run reset to step 0
  if (trained_) return trained_weights_label(qkv_.step, qkv_.heldout_accuracy, localized);
  if (model_.params.source == QkvSource::Projection) return random_weights_label(model_.params.seed, localized);
  return localized ? tr("Q, K, V set by hand") : "Q, K, V set by hand";
}

Status SdpaScene::apply(const SdpaParams& params) {
  auto change = std::make_unique<SdpaChange>();  // seeded or hand-set: leaves a trained view
  AP_TRY(build_model(params, &change->model));
  commit(std::move(change));
  return Status::Ok();
}

Status SdpaScene::load_preset(const std::string& id) {
  if (id == "it-trained") {
    std::unique_ptr<SceneChange> c;
    AP_TRY(prepare(json{{"preset", id}}, &c));
    commit(std::move(c));
    timeline.end();
    return Status::Ok();
  }
  const Preset* p = find_preset(id);
  if (!p) {
    std::string known;
    for (const auto& q : ap::presets()) known += std::string(known.empty() ? "" : ", ") + q.id;
    return Status::Error("unknown preset '{0}' (known: {1})", {id, known});
  }
  AP_TRY(apply(p->params));
  timeline.end();
  return Status::Ok();
}

std::string SdpaScene::explain(int what, int i, int j) const {
  return explain_cell(model_, static_cast<MatrixId>(what), i, j);
}

}  // namespace ap
