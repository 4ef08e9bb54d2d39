#include "api.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "app/presets.h"
#include "core/tokenizer.h"

namespace ap {

using nlohmann::json;

namespace {

json matrix_json(const Mat& m, bool neg_inf_as_null = false) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json r = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const float v = m(i, j);
      if (std::isfinite(v)) r.push_back(v);
      else if (neg_inf_as_null) r.push_back(nullptr);
      else r.push_back(v > 0 ? 1e38 : -1e38);  // never reached for validated inputs
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

json step_object(const PlaygroundState& st) {
  const Timeline& t = st.timeline;
  return {{"index", t.stage()},
          {"count", kStageCount},
          {"name", stage_name(t.stage())},
          {"sub", t.done_substeps()},
          {"sub_count", t.substeps(t.stage())},
          {"playing", t.playing()}};
}

// Reads a JSON value as an integer in [lo, hi]; explains what is wrong otherwise.
Status read_int(const json& v, const char* name, long long lo, long long hi, long long* out) {
  double d;
  if (v.is_number_integer() || v.is_number_unsigned()) d = v.get<double>();
  else if (v.is_number_float()) d = v.get<double>();
  else return Status::Error(std::string(name) + " must be a number, got " + v.dump());
  if (!std::isfinite(d) || d != std::floor(d)) return Status::Error(std::string(name) + " must be a whole number, got " + v.dump());
  if (d < lo || d > hi)
    return Status::Error(std::string(name) + " must be between " + std::to_string(lo) + " and " +
                         std::to_string(hi) + ", got " + v.dump());
  *out = static_cast<long long>(d);
  return Status::Ok();
}

Status read_matrix(const json& v, const std::string& name, Mat* out) {
  if (!v.is_array() || v.empty()) return Status::Error("matrices." + name + " must be a non-empty array of rows");
  if (v.size() > static_cast<size_t>(limits::kMaxTokens))
    return Status::Error("matrices." + name + " has " + std::to_string(v.size()) + " rows; the limit is " +
                         std::to_string(limits::kMaxTokens));
  const json& first = v[0];
  if (!first.is_array() || first.empty()) return Status::Error("matrices." + name + "[0] must be a non-empty array of numbers");
  const size_t cols = first.size();
  if (cols > static_cast<size_t>(limits::kMaxHeadDim))
    return Status::Error("matrices." + name + " has " + std::to_string(cols) + " columns; the limit is " +
                         std::to_string(limits::kMaxHeadDim));
  Mat m(static_cast<int>(v.size()), static_cast<int>(cols));
  for (size_t i = 0; i < v.size(); ++i) {
    const json& row = v[i];
    if (!row.is_array() || row.size() != cols)
      return Status::Error("matrices." + name + "[" + std::to_string(i) + "] must have " + std::to_string(cols) +
                           " numbers like row 0");
    for (size_t j = 0; j < cols; ++j) {
      if (!row[j].is_number())
        return Status::Error("matrices." + name + "[" + std::to_string(i) + "][" + std::to_string(j) +
                             "] is not a number: " + row[j].dump());
      m(static_cast<int>(i), static_cast<int>(j)) = static_cast<float>(row[j].get<double>());
    }
  }
  *out = std::move(m);
  return Status::Ok();
}

Status read_string_list(const json& v, const char* name, std::vector<std::string>* out) {
  if (!v.is_array()) return Status::Error(std::string(name) + " must be an array of strings");
  std::vector<std::string> r;
  for (const auto& e : v) {
    if (!e.is_string()) return Status::Error(std::string(name) + " must contain only strings, got " + e.dump());
    r.push_back(e.get<std::string>());
  }
  *out = std::move(r);
  return Status::Ok();
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& t : v) s += (s.empty() ? "" : " ") + t;
  return s;
}

// The deferred UI-side effects of a setState, applied only after the model built.
struct Pending {
  bool has_lang = false; Lang lang = Lang::En;
  bool has_step = false; int step = 0; long long sub = -1;  // sub -1: the stage complete
  bool has_playing = false; bool playing = false;
  bool has_speed = false; double speed = 1;
};

// Validates `in` against the current state into new params + pending UI changes. Changes nothing.
Status parse_partial(const PlaygroundState& st, const json& in, SdpaParams* params, Pending* pend) {
  // Quoted ASCII-escaped, so that cutting it at 60 bytes cannot split a multi-byte UTF-8 character.
  if (!in.is_object())
    return Status::Error("expects an object, got " + in.dump(-1, ' ', /*ensure_ascii=*/true).substr(0, 60));
  SdpaParams p = st.model.params;
  if (auto it = in.find("preset"); it != in.end()) {
    if (!it->is_string()) return Status::Error("preset must be a string");
    const Preset* pr = find_preset(it->get<std::string>());
    if (!pr) return Status::Error("unknown preset '" + it->get<std::string>() + "'");
    p = pr->params;
  }
  // A projection-mode model turned custom keeps its labels: the sentence's tokens.
  const auto go_custom = [&] {
    if (p.source == QkvSource::Custom) return;
    SdpaParams c = as_custom(st.model);
    c.mask = p.mask;  // fields set earlier in this call stay set
    c.pad_to = p.pad_to;
    p = std::move(c);
  };
  for (auto it = in.begin(); it != in.end(); ++it) {
    const std::string& key = it.key();
    const json& v = it.value();
    long long iv;
    if (key == "preset") continue;
    if (key == "scene") {
      if (!v.is_string() || v.get<std::string>() != "sdpa") return Status::Error("scene must be \"sdpa\" (the only scene so far)");
    } else if (key == "lang") {
      if (!v.is_string() || !parse_lang(v.get<std::string>().c_str(), &pend->lang)) return Status::Error("lang must be \"en\" or \"zh\"");
      pend->has_lang = true;
    } else if (key == "text") {
      if (!v.is_string()) return Status::Error("text must be a string");
      p.text = v.get<std::string>();
      p.source = QkvSource::Projection;
    } else if (key == "tokens" || key == "key_tokens") {
      std::vector<std::string> toks;
      AP_TRY(read_string_list(v, key.c_str(), &toks));
      if (p.source == QkvSource::Projection && key == "tokens") {
        if (toks.empty()) return Status::Error("tokens must not be empty");
        p.text = join(toks);
      } else {
        go_custom();
        // key_tokens names the keys; tokens names the queries, and the keys too when they are the same rows.
        if (key == "key_tokens") p.key_labels = toks;
        else if (p.Q.rows() != p.K.rows()) p.query_labels = toks;
        else p.query_labels = p.key_labels = toks;
      }
    } else if (key == "d_model") {
      AP_TRY(read_int(v, "d_model", 1, limits::kMaxModelDim, &iv)); p.d_model = static_cast<int>(iv);
    } else if (key == "d_k") {
      AP_TRY(read_int(v, "d_k", 1, limits::kMaxHeadDim, &iv)); p.d_k = static_cast<int>(iv);
    } else if (key == "seed") {
      AP_TRY(read_int(v, "seed", 0, 9007199254740991LL, &iv)); p.seed = static_cast<uint64_t>(iv);
    } else if (key == "pad_to") {
      AP_TRY(read_int(v, "pad_to", 0, limits::kMaxTokens, &iv)); p.pad_to = static_cast<int>(iv);
    } else if (key == "positional") {
      if (!v.is_boolean()) return Status::Error("positional must be true or false");
      p.positional = v.get<bool>();
    } else if (key == "mask") {
      if (!v.is_string() || !parse_mask_name(v.get<std::string>(), &p.mask))
        return Status::Error("mask must be \"none\", \"padding\" or \"causal\", got " + v.dump());
    } else if (key == "source") {
      if (!v.is_string()) return Status::Error("source must be \"projection\" or \"custom\"");
      const std::string s = v.get<std::string>();
      if (s == "custom") go_custom();
      else if (s == "projection") p.source = QkvSource::Projection;
      else return Status::Error("source must be \"projection\" or \"custom\", got " + v.dump());
    } else if (key == "step") {
      const json& idx = v.is_object() && v.contains("index") ? v["index"] : v;
      AP_TRY(read_int(idx, "step.index", 0, kStageCount - 1, &iv));
      pend->has_step = true; pend->step = static_cast<int>(iv);
      pend->sub = -1;
      if (v.is_object() && v.contains("sub")) {
        AP_TRY(read_int(v["sub"], "step.sub", 0, 1LL << 40, &iv));  // clamped to the stage's sub-steps
        pend->sub = static_cast<long long>(iv);
      }
    } else if (key == "playing") {
      if (!v.is_boolean()) return Status::Error("playing must be true or false");
      pend->has_playing = true; pend->playing = v.get<bool>();
    } else if (key == "speed") {
      if (!v.is_number() || !(v.get<double>() >= 0.1 && v.get<double>() <= 16)) return Status::Error("speed must be a number from 0.1 to 16");
      pend->has_speed = true; pend->speed = v.get<double>();
    } else if (key == "matrices") {
      if (!v.is_object()) return Status::Error("matrices must be an object like {\"Q\": [[...]]}");
      for (auto m = v.begin(); m != v.end(); ++m) {
        const std::string name = m.key();
        if (name != "Q" && name != "K" && name != "V")
          return Status::Error("matrices." + name + " is computed from Q, K and V; only Q, K and V can be set");
      }
      go_custom();
      for (auto m = v.begin(); m != v.end(); ++m) {
        Mat* dst = m.key() == "Q" ? &p.Q : m.key() == "K" ? &p.K : &p.V;
        AP_TRY(read_matrix(m.value(), m.key(), dst));
      }
    } else if (key == "n" || key == "m" || key == "d_v" || key == "errors" || key == "fully_masked_rows") {
      return Status::Error(key + " follows from the other fields and cannot be set");
    } else {
      return Status::Error("unknown field '" + key + "'");
    }
  }
  // d_model, d_k, seed, pad_to and positional shape the projections X·W; hand-set Q, K, V have none.
  if (p.source == QkvSource::Custom)
    for (const char* k : {"d_model", "d_k", "seed", "pad_to", "positional"})
      if (in.contains(k))
        return Status::Error(std::string(k) + " applies to Q, K, V computed from the sentence; they are set by hand now "
                             "(send source: \"projection\" or a text to go back)");
  *params = std::move(p);
  return Status::Ok();
}

}  // namespace

std::string get_state_json(const PlaygroundState& st, bool include_matrices) {
  const SdpaModel& m = st.model;
  const AttentionTrace& t = m.trace;
  json j;
  j["scene"] = st.scene;
  j["lang"] = lang_code(lang());
  j["source"] = m.params.source == QkvSource::Projection ? "projection" : "custom";
  j["text"] = m.params.text;
  j["tokens"] = m.query_tokens;
  j["key_tokens"] = m.key_tokens;
  j["n"] = t.n;
  j["m"] = t.m;
  j["d_model"] = m.params.d_model;
  j["d_k"] = t.d_k;
  j["d_v"] = t.d_v;
  j["seed"] = m.params.seed;
  j["positional"] = m.params.positional;
  j["pad_to"] = m.params.pad_to;
  j["mask"] = mask_name(m.params.mask);
  j["step"] = step_object(st);
  json errs = json::array();
  for (const auto& e : st.errors) errs.push_back(e.text);
  j["errors"] = errs;
  json fm = json::array();
  for (int i = 0; i < t.n; ++i)
    if (t.softmax.fully_masked[i]) fm.push_back(i);
  j["fully_masked_rows"] = fm;
  j["frames"] = st.frames_drawn;
  j["hover"] = st.hover_text;
  j["view"] = {{"width", st.view_width}, {"height", st.view_height}, {"dpr", st.view_dpr}};
  if (include_matrices) {
    j["matrices"] = {{"Q", matrix_json(m.Q)},
                     {"K", matrix_json(m.K)},
                     {"V", matrix_json(m.V)},
                     {"scores", matrix_json(t.scores)},
                     {"scaled", matrix_json(t.scaled)},
                     {"masked", matrix_json(t.masked, true)},
                     {"weights", matrix_json(t.weights())},
                     {"output", matrix_json(t.output)}};
  }
  // Messages may quote user input (a URL's decoded bytes, a cut-off value): never let a stray invalid
  // UTF-8 byte make dump() throw (which aborts the wasm build); it becomes U+FFFD instead.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string set_state_json(PlaygroundState& st, const std::string& text) {
  const auto fail = [&](const std::string& msg) {
    report(st, "api", "setState: " + msg);
    return json{{"ok", false}, {"error", msg}}.dump(-1, ' ', false, json::error_handler_t::replace);
  };
  json in = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (in.is_discarded()) return fail("not valid JSON");
  SdpaParams params;
  Pending pend;
  Status s = parse_partial(st, in, &params, &pend);
  if (!s) return fail(s.message);
  // Only fields of the computation rebuild the model; lang, step, playing and speed do not.
  bool touches_model = false;
  for (auto it = in.begin(); it != in.end(); ++it)
    if (it.key() != "lang" && it.key() != "step" && it.key() != "playing" && it.key() != "speed" && it.key() != "scene")
      touches_model = true;
  if (touches_model) {
    SdpaModel next;
    s = build_sdpa(params, &next);
    if (!s) return fail(s.message);
    commit(st, std::move(next), "api");  // everything is valid from here on
  }
  if (in.contains("preset")) {
    const Preset* pr = find_preset(in["preset"].get<std::string>());
    st.notes.clear();
    st.notes.push_back({"preset", pr->note});
  }
  if (pend.has_lang) set_lang(pend.lang);
  if (pend.has_speed) st.timeline.set_speed(pend.speed);
  if (pend.has_step) {
    st.timeline.set_stage(pend.step, pend.sub < 0);
    if (pend.sub >= 0) st.timeline.set_stage_at(pend.step, static_cast<double>(pend.sub));
  }
  if (pend.has_playing && pend.playing != st.timeline.playing()) st.timeline.toggle_play();
  clear_report(st, "api");
  return json{{"ok", true}}.dump();
}

std::string step_json(PlaygroundState& st, int k) {
  if (k > 0) for (int i = 0; i < k && st.timeline.stage() < kStageCount - 1; ++i) st.timeline.step_stage(1);
  else if (k < 0) st.timeline.step_stage(k);
  return step_object(st).dump();
}

namespace {
std::string url_decode(const std::string& s, bool* ok) {
  std::string out;
  *ok = true;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') out += ' ';
    else if (s[i] == '%') {
      const auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
      if (i + 2 >= s.size() || hex(s[i + 1]) < 0 || hex(s[i + 2]) < 0) { *ok = false; return s; }
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else out += s[i];
  }
  return out;
}

// JSON strings must be valid UTF-8 (nlohmann's dump() throws otherwise), so decoded URL text is checked
// before it goes into one: no overlong forms, no surrogates, nothing above U+10FFFF.
bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const int len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    uint32_t v = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < len; ++k) {
      const unsigned char b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      v = (v << 6) | (b & 0x3F);
    }
    static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < kMin[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}
}  // namespace

void apply_url_query(PlaygroundState& st, const std::string& query) {
  std::string q = query;
  if (!q.empty() && q[0] == '?') q.erase(0, 1);
  json partial = json::object();
  std::vector<std::string> problems;
  size_t start = 0;
  while (start <= q.size() && !q.empty()) {
    size_t amp = q.find('&', start);
    if (amp == std::string::npos) amp = q.size();
    const std::string pair = q.substr(start, amp - start);
    start = amp + 1;
    if (pair.empty()) { if (amp >= q.size()) break; continue; }
    const size_t eq = pair.find('=');
    bool ok1, ok2;
    const std::string key = url_decode(pair.substr(0, eq), &ok1);
    const std::string val = eq == std::string::npos ? "" : url_decode(pair.substr(eq + 1), &ok2);
    if (!ok1 || (eq != std::string::npos && !ok2)) { problems.push_back(pair + ": bad % escape"); continue; }
    if (!valid_utf8(key) || !valid_utf8(val)) { problems.push_back(pair + ": not UTF-8 text"); continue; }
    if (key == "embed") { st.embed = val != "0"; st.show_controls = !st.embed; continue; }
    if (key == "controls") { st.show_controls = val != "0"; continue; }
    // Each parameter is tried alone so one bad value does not spoil the others.
    json one = json::object();
    if (key == "text" || key == "lang" || key == "mask" || key == "preset" || key == "scene" || key == "source") {
      one[key] = val;
    } else if (key == "d_model" || key == "d_k" || key == "seed" || key == "pad_to" || key == "step") {
      char* end = nullptr;
      const double d = std::strtod(val.c_str(), &end);
      if (val.empty() || *end != '\0' || !std::isfinite(d)) { problems.push_back(key + "=" + val + ": not a number"); continue; }
      one[key] = d;
    } else if (key == "positional") {
      one[key] = val != "0" && val != "false";
    } else {
      problems.push_back("unknown parameter '" + key + "'");
      continue;
    }
    // Validate this parameter on top of what is accepted so far.
    json trial = partial;
    trial.update(one);
    SdpaParams params;
    Pending pend;
    SdpaModel probe;
    Status s = parse_partial(st, trial, &params, &pend);
    if (s) s = build_sdpa(params, &probe);
    if (!s) { problems.push_back(key + "=" + val + ": " + s.message); continue; }
    partial = std::move(trial);
  }
  if (!partial.empty()) {
    const std::string r = set_state_json(st, partial.dump());
    (void)r;
  }
  if (!problems.empty()) {
    std::string msg = "URL: ";
    for (size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
    report(st, "url", msg);
  }
}

}  // namespace ap
