#include "api.h"

#include <algorithm>

#include "app/json_fields.h"
#include "app/quiz.h"
#include "app/url.h"
#include "core/utf8.h"

namespace ap {

using nlohmann::json;

namespace {

// Fields every document may hold, whatever the scene.
bool is_common(const std::string& k) {
  return k == "scene" || k == "lang" || k == "step" || k == "playing" || k == "speed" || k == "answer" || k == "welcome";
}
// What getState reports about the page: accepted back and ignored (they describe the page, not the view).
bool is_page_report(const std::string& k) {
  return k == "errors" || k == "frames" || k == "view" || k == "hover" || k == "quiz" || k == "fonts";
}

std::string known_scenes(const PlaygroundState& st) {
  std::string s;
  for (const auto& sc : st.scenes) s += std::string(s.empty() ? "" : ", ") + sc->id();
  return s;
}

std::string reply_error(const std::string& msg) {
  return json{{"ok", false}, {"error", msg}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

json step_object(const PlaygroundState& st) {
  const Timeline& t = st.timeline();
  const auto& stages = st.scene().stages();
  return {{"index", t.stage()},
          {"count", t.stage_count()},
          {"name", stages[static_cast<size_t>(t.stage())].id},
          {"sub", t.done_substeps()},
          {"sub_count", t.substeps(t.stage())},
          {"playing", t.playing()}};
}

json state_document(const PlaygroundState& st, bool with_results, bool with_matrices, bool page_reports) {
  json j = json::object();
  const Scene& sc = st.scene();
  if (with_results) sc.write_results(j, with_matrices);
  sc.write_params(j);  // after the results: a parameter wins where both write a field
  j["scene"] = sc.id();
  j["lang"] = lang_code(lang());
  j["step"] = step_object(st);
  j["speed"] = st.timeline().speed();  // the animation speed (1 = a stage in about 6 s); setState takes it back
  if (page_reports) {
    j["errors"] = error_texts(st);
    j["welcome"] = st.welcome;  // the lesson map open as a welcome (a bare visit); setState takes it back
    j["frames"] = st.frames_drawn;
    j["hover"] = hover_text(st);
    j["quiz"] = quiz_report(st);  // the learner's answers to "Check yourself" (progress, not a view)
    j["view"] = {{"width", st.view_width}, {"height", st.view_height}, {"dpr", st.view_dpr}, {"matrices", json::array()}};
    for (const auto& m : st.view_matrices)
      j["view"]["matrices"].push_back({{"id", m.id}, {"x", m.x}, {"y", m.y}, {"w", m.w}, {"h", m.h},
                                       {"cell_w", m.cell_w}, {"cell_h", m.cell_h}, {"numbers", m.numbers},
                                       {"rows", m.rows}, {"cols", m.cols}, {"row_labels", m.row_labels},
                                       {"col_labels", m.col_labels}, {"lo", m.lo}, {"hi", m.hi}, {"clipped", m.clipped}});
    j["view"]["cut"] = json::array();
    for (const auto& c : st.view_cut) j["view"]["cut"].push_back({{"id", c.first}, {"hidden_px", c.second}});
    const auto& f = st.fonts;  // Chinese beyond the interface's own (ui/font_loader.cpp)
    j["fonts"] = {{"ui_requested", f.ui_requested}, {"ui_loaded", f.ui_loaded}, {"extra_requested", f.extra_requested}, {"extra_loaded", f.extra_loaded}, {"extra_glyphs", f.extra_glyphs},
                  {"rebuilds", f.rebuilds}, {"last_rebuild_ms", f.last_rebuild_ms}, {"missing", f.missing}, {"error", f.error}};
  }
  return j;
}

Status apply_document(PlaygroundState& st, const json& in, bool dry_run) {
  if (!in.is_object()) return Status::Error("expects an object, got {0}", {quote_json(in)});
  // 1. The scene the document is about (the current one unless it says).
  Scene* target = &st.scene();
  if (const auto it = in.find("scene"); it != in.end()) {
    std::string id;
    AP_TRY(read_string(*it, "scene", &id));
    target = st.find(id);
    if (!target) return Status::Error("unknown scene '{0}' (known: {1})", {id, known_scenes(st)});
  }
  // 2. The common fields, validated against that scene.
  Lang lng = lang();
  const bool has_lang = in.contains("lang");
  if (has_lang && (!in["lang"].is_string() || !parse_lang(in["lang"].get<std::string>().c_str(), &lng)))
    return Status::Error("lang must be \"en\" or \"zh\", got {0}", {quote_json(in["lang"])});
  long long step = -1, sub = -1;
  if (const auto it = in.find("step"); it != in.end()) {
    const json& idx = it->is_object() && it->contains("index") ? (*it)["index"] : *it;
    AP_TRY(read_int(idx, "step.index", 0, target->timeline.stage_count() - 1, &step));
    if (it->is_object() && it->contains("sub"))
      AP_TRY(read_int((*it)["sub"], "step.sub", 0, 1LL << 40, &sub));  // clamped to the stage's sub-steps
  }
  // `playing` at the top, or inside `step` as getState reports it (so that setState(getState()) keeps a
  // playing animation playing); both given and different is a contradiction.
  bool playing = false;
  bool has_playing = in.contains("playing");
  if (has_playing) AP_TRY(read_bool(in["playing"], "playing", &playing));
  if (const auto it = in.find("step"); it != in.end() && it->is_object() && it->contains("playing")) {
    bool step_playing = false;
    AP_TRY(read_bool((*it)["playing"], "step.playing", &step_playing));
    if (has_playing && step_playing != playing)
      return Status::Error("playing ({0}) and step.playing ({1}) disagree", {playing ? "true" : "false", step_playing ? "true" : "false"});
    playing = step_playing;
    has_playing = true;
  }
  double speed = 1;
  const bool has_speed = in.contains("speed");
  if (has_speed) AP_TRY(read_number(in["speed"], "speed", 0.1, 16, &speed));
  bool welcome = false;
  const bool has_welcome = in.contains("welcome");
  if (has_welcome) AP_TRY(read_bool(in["welcome"], "welcome", &welcome));
  const auto answer = in.find("answer");  // "Check yourself": {id, option} for the target scene
  if (answer != in.end()) AP_TRY(check_answer(st, target->id(), *answer));
  // 3. The scene's own fields: validated and built, nothing installed yet.
  json own = json::object();
  for (auto it = in.begin(); it != in.end(); ++it)
    if (!is_common(it.key()) && !is_page_report(it.key())) own[it.key()] = it.value();
  std::unique_ptr<SceneChange> change;
  if (!own.empty()) AP_TRY(target->prepare(own, &change));
  if (dry_run) return Status::Ok();
  // 4. Everything is valid: install.
  switch_scene(st, target->id());
  if (change) target->commit(std::move(change));
  if (has_lang) set_lang(lng);
  if (has_welcome) st.welcome = welcome;
  Timeline& t = target->timeline;
  if (has_speed) t.set_speed(speed);
  if (step >= 0) {
    if (sub < 0) t.set_stage(static_cast<int>(step), true);
    else t.set_stage_at(static_cast<int>(step), static_cast<double>(sub));
  }
  if (has_playing && playing != t.playing()) t.toggle_play();
  if (answer != in.end())
    AP_TRY(answer_question(st, target->id(), (*answer)["id"].get<std::string>(), (*answer)["option"].get<int>()));
  return Status::Ok();
}

namespace {
// Rows of floats (or null, −∞), at least one row and one column, all rows alike.
bool is_float_matrix(const json& v) {
  if (!v.is_array() || v.empty() || !v[0].is_array() || v[0].empty()) return false;
  const size_t cols = v[0].size();
  for (const json& row : v) {
    if (!row.is_array() || row.size() != cols) return false;
    for (const json& e : row)
      if (!e.is_number_float() && !e.is_null()) return false;
  }
  return true;
}
}  // namespace

void compact_matrices(json& doc) {
  if (is_float_matrix(doc)) {
    doc = json{{"f32", encode_matrices(json{{"", doc}})}};
    return;
  }
  if (doc.is_object() || doc.is_array())
    for (auto& e : doc) compact_matrices(e);
}

Status expand_matrices(json& doc, const std::string& path) {
  if (doc.is_object() && doc.size() == 1 && doc.contains("f32")) {
    const json& f = doc["f32"];
    json mats;
    if (!f.is_string() || !decode_matrices(f.get<std::string>(), &mats) || mats.size() != 1 || !mats.contains(""))
      return Status::Error("{0}: a compact matrix is {\"f32\": \"v1.…\"} as getState({matrices: 'compact'}) writes it",
                           {path.empty() ? std::string("the document") : path});
    doc = std::move(mats[""]);
    return Status::Ok();
  }
  if (doc.is_object()) {
    for (auto it = doc.begin(); it != doc.end(); ++it) AP_TRY(expand_matrices(it.value(), path.empty() ? it.key() : path + "." + it.key()));
  } else if (doc.is_array()) {
    for (size_t i = 0; i < doc.size(); ++i) AP_TRY(expand_matrices(doc[i], path + "[" + std::to_string(i) + "]"));
  }
  return Status::Ok();
}

std::string get_state_json(const PlaygroundState& st, bool include_matrices, bool compact) {
  json doc = state_document(st, true, include_matrices, true);
  if (compact) compact_matrices(doc);
  // Messages may quote user input: never let a stray invalid UTF-8 byte make dump() throw (which aborts
  // the wasm build); it becomes U+FFFD instead.
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string set_state_json(PlaygroundState& st, const char* text, uint64_t size) {
  const auto fail = [&](const Status& s) {
    report(st, "api", local_text(s, "setState"));
    return reply_error(s.message);
  };
  if (size > kMaxDocumentBytes)
    return fail(Status::Error("the document is {0} MB; the limit is {1} MB",
                              {arg(static_cast<long long>(size >> 20)), arg(static_cast<long long>(kMaxDocumentBytes >> 20))}));
  // The parser is recursive: a document nested thousands deep would exhaust the stack before it failed.
  if (!text) return fail(Status::Error("not valid JSON"));
  if (json_nesting_depth(text, static_cast<size_t>(size)) > kMaxJsonDepth)
    return fail(Status::Error("the document is nested more than {0} levels deep", {arg(kMaxJsonDepth)}));
  json in = json::parse(text, text + static_cast<size_t>(size), nullptr, /*allow_exceptions=*/false);
  if (in.is_discarded()) return fail(Status::Error("not valid JSON"));
  if (const Status e = expand_matrices(in); !e) return fail(e);
  const Status s = apply_document(st, in);
  if (!s) return fail(s);
  clear_report(st, "api");
  return json{{"ok", true}}.dump();
}

std::string page_refusal(PlaygroundState& st, const std::string& call, const std::string& kind, const std::string& detail) {
  const std::string d = utf8_prefix(detail, 80);
  Status s = kind == "not-serialisable" ? Status::Error("not serialisable: {0}", {d})
             : kind == "not-object"     ? Status::Error("expects an object, got {0}", {d})
             : kind == "not-integer"    ? Status::Error("step(k) takes a whole number from -1000 to 1000, got {0}", {d})
                                        : Status::Error("unknown method {0}", {d});
  report(st, "api", local_text(s, utf8_prefix(call, 40)));
  return s.message;
}

std::string step_json(PlaygroundState& st, int k) {
  Timeline& t = st.timeline();
  if (k > 0) for (int i = 0; i < k && t.stage() < t.stage_count() - 1; ++i) t.step_stage(1);
  else if (k < 0) t.step_stage(k);
  return step_object(st).dump();
}

}  // namespace ap
