#include "url.h"

#include <algorithm>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "app/api.h"
#include "app/json_fields.h"
#include "core/utf8.h"

namespace ap {

using nlohmann::json;

namespace {

const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string base64url(const std::string& bytes) {
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out += kB64[(v >> k) & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest) {
    uint32_t v = uint8_t(bytes[i]) << 16;
    if (rest == 2) v |= uint8_t(bytes[i + 1]) << 8;
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    if (rest == 2) out += kB64[(v >> 6) & 63];
  }
  return out;
}

bool unbase64url(const std::string& s, std::string* out) {
  out->clear();
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    const char* p = std::strchr(kB64, c);
    if (!p || c == '\0') return false;
    acc = (acc << 6) | static_cast<uint32_t>(p - kB64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      *out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return bits < 6;  // a lone trailing character cannot be
}

// The largest side of a matrix a link may carry: the longest sentence (n, m <= limits::kMaxTokens); every
// matrix the scenes accept is within it (Q, K, V: n × d_k with d_k <= 512).
constexpr uint32_t kMaxLinkMatrixSide = static_cast<uint32_t>(limits::kMaxTokens);

void put_u16(std::string* b, uint32_t v) { *b += char(v & 0xFF); *b += char((v >> 8) & 0xFF); }

// Parameters that are the page's, or common to every scene.
bool is_layout_param(const std::string& k) {
  return k == "embed" || k == "controls" || k == "hide" || k == "present" || k == "colors" || k == "contrast" || k == "zoom";
}

// ?hide=controls,timeline: every name must be a panel; the whole list is refused otherwise.
Status parse_hidden(const std::string& val, std::vector<std::string>* out) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= val.size()) {
    size_t comma = val.find(',', start);
    if (comma == std::string::npos) comma = val.size();
    const std::string name = val.substr(start, comma - start);
    start = comma + 1;
    if (name.empty()) continue;
    bool known = false;
    for (const char* p : kHidablePanels) known = known || name == p;
    if (!known) return Status::Error("hide: {0} is not a panel (topbar, controls, formula, timeline)", {utf8_prefix(name, 40)});
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  *out = std::move(names);
  return Status::Ok();
}

// ?hosts=https://a.example,http://127.0.0.1:8001: each entry an origin (scheme, host, optional port; nothing
// after it). Only checked here: the browser's URL parser in playground.js applies the list, and a bad entry
// left there would silently lock the host out, so the learner (and the author) see why.
Status check_hosts(const std::string& val) {
  size_t start = 0;
  while (start <= val.size()) {
    size_t comma = val.find(',', start);
    if (comma == std::string::npos) comma = val.size();
    const std::string o = val.substr(start, comma - start);
    start = comma + 1;
    const size_t rest = o.rfind("https://", 0) == 0 ? 8 : o.rfind("http://", 0) == 0 ? 7 : 0;
    bool ok = rest > 0 && o.size() > rest && o.find_first_of("/?#@ \\", rest) == std::string::npos;
    if (ok && o[rest] != '[') {  // host[:port]; an IPv6 literal ([::1]:8000) is left to the browser
      const size_t colon = o.find(':', rest);
      ok = colon != rest && (colon == std::string::npos ||
                             (colon + 1 < o.size() && o.find_first_not_of("0123456789", colon + 1) == std::string::npos));
    }
    if (!ok) return Status::Error("hosts: {0} is not an http(s) origin such as https://course.example.edu", {utf8_prefix(o, 60)});
  }
  return Status::Ok();
}

// Converts one URL parameter into a document field (name and value). Explains what is wrong otherwise.
Status param_to_field(const PlaygroundState& st, const Scene& target, const std::string& key, const std::string& val,
                      std::string* field, json* value) {
  const auto number = [&](json* out) {
    char* end = nullptr;
    const double d = std::strtod(val.c_str(), &end);
    if (val.empty() || *end != '\0' || !std::isfinite(d)) return Status::Error("not a number");
    *out = d;
    return Status::Ok();
  };
  *field = key;
  if (key == "scene" || key == "lang" || key == "preset") { *value = val; return Status::Ok(); }
  if (key == "speed") return number(value);  // the animation speed (setState's speed)
  if (key == "step") {
    const size_t colon = val.find(':');
    if (colon == std::string::npos) return number(value);
    const std::string a = val.substr(0, colon), b = val.substr(colon + 1);
    char* e1 = nullptr;
    char* e2 = nullptr;
    const double i = std::strtod(a.c_str(), &e1), s = std::strtod(b.c_str(), &e2);
    if (a.empty() || b.empty() || *e1 || *e2 || !std::isfinite(i) || !std::isfinite(s)) return Status::Error("not a number");
    *value = {{"index", i}, {"sub", s}};
    return Status::Ok();
  }
  (void)st;
  for (const UrlParam& p : target.url_params()) {
    if (key != p.name) continue;
    *field = p.field;
    switch (p.kind) {
      case UrlKind::String: *value = val; return Status::Ok();
      case UrlKind::Number: return number(value);
      case UrlKind::Bool: *value = val != "0" && val != "false"; return Status::Ok();
      case UrlKind::Json: {
        if (json_nesting_depth(val.data(), val.size()) > kMaxJsonDepth) return Status::Error("not valid JSON");
        *value = json::parse(val, nullptr, false);
        if (value->is_discarded()) return Status::Error("not valid JSON");
        return Status::Ok();
      }
      case UrlKind::Matrices: return decode_matrices(val, value);
    }
  }
  return Status::Error("unknown parameter '{0}'", {key});
}

}  // namespace

std::string url_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') out += static_cast<char>(c);
    else { out += '%'; out += hex[c >> 4]; out += hex[c & 15]; }
  }
  return out;
}

std::string url_decode(const std::string& s, bool* ok) {
  std::string out;
  *ok = true;
  const auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') out += ' ';
    else if (s[i] == '%') {
      if (i + 2 >= s.size() || hex(s[i + 1]) < 0 || hex(s[i + 2]) < 0) { *ok = false; return s; }
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else out += s[i];
  }
  return out;
}

std::string encode_matrices(const json& matrices) {
  std::string b;
  b += static_cast<char>(matrices.size());
  for (auto it = matrices.begin(); it != matrices.end(); ++it) {
    const json& m = it.value();
    const uint32_t rows = static_cast<uint32_t>(m.size()), cols = rows ? static_cast<uint32_t>(m[0].size()) : 0;
    b += static_cast<char>(it.key().size());
    b += it.key();
    put_u16(&b, rows);
    put_u16(&b, cols);
    for (const json& row : m)
      for (const json& v : row) {
        const float f = v.is_number() ? v.get<float>() : -INFINITY;
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        for (int k = 0; k < 4; ++k) b += static_cast<char>((bits >> (8 * k)) & 0xFF);
      }
  }
  return "v1." + base64url(b);
}

// Every size below is computed in 64 bits and checked against the bytes that remain BEFORE anything is built:
// in wasm32 size_t is 32 bits, and a header claiming 32768 × 32768 (rows·cols·4 = 2^32) wrapped to 0 there,
// passed the check and read far past the buffer.
Status decode_matrices(const std::string& text, json* out) {
  if (text.rfind("v1.", 0) != 0) return Status::Error("matrices: unknown format (expected v1.…)");
  std::string b;
  if (!unbase64url(text.substr(3), &b)) return Status::Error("matrices: not base64url");
  size_t p = 0;  // invariant: p <= b.size()
  const auto left = [&]() { return static_cast<uint64_t>(b.size() - p); };
  const auto need = [&](uint64_t k) { return k <= left(); };
  if (!need(1)) return Status::Error("matrices: truncated");
  const int count = static_cast<uint8_t>(b[p++]);
  json mats = json::object();
  for (int c = 0; c < count; ++c) {
    if (!need(1)) return Status::Error("matrices: truncated");
    const size_t len = static_cast<uint8_t>(b[p++]);
    if (!need(static_cast<uint64_t>(len) + 4)) return Status::Error("matrices: truncated");
    const std::string name = b.substr(p, len);
    p += len;
    const uint32_t rows = uint8_t(b[p]) | (uint8_t(b[p + 1]) << 8), cols = uint8_t(b[p + 2]) | (uint8_t(b[p + 3]) << 8);
    p += 4;
    if (!utf8_valid(name)) return Status::Error("matrices: truncated");
    const std::string shown = utf8_prefix(name, 40);
    // Only 0 × 0 is empty (what encode_matrices writes for []): 65535 rows of no columns would build 65535
    // JSON rows out of four bytes.
    if ((rows == 0) != (cols == 0))
      return Status::Error("matrices: {0} is {1} × {2}; only a 0 × 0 matrix may be empty", {shown, arg(rows), arg(cols)});
    if (rows > kMaxLinkMatrixSide || cols > kMaxLinkMatrixSide)
      return Status::Error("matrices: {0} is {1} × {2}; the limit is {3} × {3}", {shown, arg(rows), arg(cols), arg(kMaxLinkMatrixSide)});
    const uint64_t values = static_cast<uint64_t>(rows) * cols;  // <= 2^32: no overflow in 64 bits
    if (values > left() / 4)
      return Status::Error("matrices: {0} is {1} × {2} but only {3} values follow",
                           {shown, arg(rows), arg(cols), arg(static_cast<long long>(left() / 4))});
    json m = json::array();
    for (uint32_t i = 0; i < rows; ++i) {
      json row = json::array();
      for (uint32_t j = 0; j < cols; ++j) {
        uint32_t bits = 0;
        for (int k = 0; k < 4; ++k) bits |= static_cast<uint32_t>(uint8_t(b[p++])) << (8 * k);
        float f;
        std::memcpy(&f, &bits, 4);
        if (std::isfinite(f)) row.push_back(f); else row.push_back(nullptr);
      }
      m.push_back(std::move(row));
    }
    mats[name] = std::move(m);
  }
  if (p != b.size()) return Status::Error("matrices: {0} bytes left over", {arg(static_cast<long long>(b.size() - p))});
  *out = std::move(mats);
  return Status::Ok();
}

UrlQuery read_url_query(PlaygroundState& st, const std::string& query) {
  UrlQuery out;
  std::vector<std::string>& problems = out.problems;
  std::string q = query;
  if (!q.empty() && q[0] == '?') q.erase(0, 1);
  // 1. Split and decode; the scene parameter first, since the others are that scene's.
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::string> seen_keys;  // a key given twice: the first is used, and the page says so
  size_t start = 0;
  while (start < q.size()) {
    size_t amp = q.find('&', start);
    if (amp == std::string::npos) amp = q.size();
    const std::string pair = q.substr(start, amp - start);
    start = amp + 1;
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    bool ok1 = true, ok2 = true;
    const std::string key = url_decode(pair.substr(0, eq), &ok1);
    const std::string val = eq == std::string::npos ? "" : url_decode(pair.substr(eq + 1), &ok2);
    if (!ok1 || !ok2) {
      // The pair as it came: raw bytes that are not UTF-8 are shown %-escaped (they became U+FFFD on screen).
      const std::string shown = utf8_prefix(pair, 80);
      problems.push_back(format_template("{0}: bad % escape", {utf8_valid(shown) ? shown : url_encode(shown)}));
      continue;
    }
    if (!utf8_valid(key) || !utf8_valid(val)) { problems.push_back(format_template("{0}: not UTF-8 text", {url_encode(utf8_prefix(pair, 80))})); continue; }
    if (std::find(seen_keys.begin(), seen_keys.end(), key) != seen_keys.end()) {
      problems.push_back(localize(Status::Error("{0} is given more than once; the first value is used", {utf8_prefix(key, 40)})));
      continue;
    }
    seen_keys.push_back(key);
    if (key == "welcome") {  // the lesson map as a welcome (a bare visit opens it; tests and links may say)
      if (val == "0" || val == "1") out.welcome = val == "1";
      else problems.push_back("welcome=" + utf8_prefix(val, 80) + ": " + localize(Status::Error("welcome: {0} is not 0 or 1", {utf8_prefix(val, 40)})));
      continue;
    }
    if (key != "lang" && key != "zoom" && key != "present" && key != "colors" && key != "contrast") out.bare = false;
    if (key == "embed") { st.embed = val != "0"; st.show_controls = !st.embed; continue; }
    if (key == "controls") { st.show_controls = val != "0"; continue; }
    if (key == "present") {  // lecture mode (the presenter theme and large type)
      st.presenter = val != "0";
      if (st.presenter) st.ui_scale = std::max(st.ui_scale, 1.6f);
      continue;
    }
    if (key == "colors") {  // colour maps: default or colour-blind-safe
      if (val == "colorblind") st.colorblind = true;
      else if (val == "default") st.colorblind = false;
      else problems.push_back("colors=" + utf8_prefix(val, 80) + ": " + localize(Status::Error("colors: {0} is not default or colorblind", {utf8_prefix(val, 40)})));
      continue;
    }
    if (key == "contrast") {  // the weights' colour scale: fixed 0 … 1, or stretched to the largest weight
      if (val == "stretch") st.stretch_weights = true;
      else if (val == "fixed") st.stretch_weights = false;
      else problems.push_back("contrast=" + utf8_prefix(val, 80) + ": " + localize(Status::Error("contrast: {0} is not fixed or stretch", {utf8_prefix(val, 40)})));
      continue;
    }
    if (key == "zoom") {  // text size, 0.6 … 3 (1 = 100 %)
      char* end = nullptr;
      const double z = std::strtod(val.c_str(), &end);
      if (val.empty() || *end != '\0' || !std::isfinite(z) || z < PlaygroundState::kMinUiScale - 1e-6 ||
          z > PlaygroundState::kMaxUiScale + 1e-6) {
        problems.push_back("zoom=" + utf8_prefix(val, 80) + ": " + localize(Status::Error("zoom: the text size must be a number from 0.6 to 3")));
        continue;
      }
      st.ui_scale = static_cast<float>(z);
      if (st.presenter) st.ui_scale = std::max(st.ui_scale, 1.6f);
      continue;
    }
    if (key == "hosts") {  // the host pages whose messages the embed takes (web/playground.js applies it)
      const Status h = check_hosts(val);
      if (!h) problems.push_back("hosts=" + utf8_prefix(val, 80) + ": " + localize(h));
      continue;
    }
    if (key == "hide") {
      std::vector<std::string> hidden;
      const Status h = parse_hidden(val, &hidden);
      if (!h) { problems.push_back("hide=" + utf8_prefix(val, 80) + ": " + localize(h)); continue; }
      st.hidden = hidden;
      if (st.is_hidden("controls")) st.show_controls = false;
      continue;
    }
    if (key == "scene") params.insert(params.begin(), {key, val});
    else params.push_back({key, val});
  }
  // 2. The target scene (a bad one is reported; the others then apply to the current scene).
  const Scene* target = &st.scene();
  if (!params.empty() && params[0].first == "scene") {
    if (const Scene* s = st.find(params[0].second)) target = s;
  }
  out.target = target;
  for (const auto& [key, val] : params) {
    std::string field;
    json value;
    const Status s = param_to_field(st, *target, key, val, &field, &value);
    if (!s) { problems.push_back(key + "=" + utf8_prefix(val, 80) + ": " + localize(s)); continue; }
    if (is_layout_param(key)) continue;
    out.fields.push_back({field, value});
    out.doc[field] = value;
  }
  return out;
}

void apply_url_query(PlaygroundState& st, const std::string& query) {
  UrlQuery read = read_url_query(st, query);
  json& doc = read.doc;
  const auto& fields = read.fields;
  std::vector<std::string>& problems = read.problems;
  if (read.welcome >= 0) st.welcome = read.welcome == 1;
  else if (!read.bare) st.welcome = false;
  // 3. The whole document at once; if refused, each field alone on top of those accepted so far.
  if (!apply_document(st, doc, true)) {
    doc = json::object();
    for (size_t i = 0; i < fields.size(); ++i) {
      json trial = doc;
      trial[fields[i].first] = fields[i].second;
      const Status s = apply_document(st, trial, true);
      if (!s) {
        problems.push_back(fields[i].first + "=" + utf8_prefix(quote_json(fields[i].second, 80), 80) + ": " + localize(s));
        continue;
      }
      doc = std::move(trial);
    }
  }
  if (!doc.empty()) {
    const Status s = apply_document(st, doc);
    (void)s;  // validated above
  }
  if (!problems.empty()) {
    LocalText t;
    t.prefix = "URL";
    t.tmpl = "{0}";
    std::string msg;
    for (size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
    t.args = {msg};
    report(st, "url", t);
  }
}

const char* const kHidablePanels[4] = {"topbar", "controls", "formula", "timeline"};

std::string layout_query(const PlaygroundState& st) {
  std::string q;
  if (st.embed) q += "embed=1";
  if (st.presenter) q += std::string(q.empty() ? "" : "&") + "present=1";
  if (st.colorblind) q += std::string(q.empty() ? "" : "&") + "colors=colorblind";
  if (st.stretch_weights) q += std::string(q.empty() ? "" : "&") + "contrast=stretch";
  if (std::fabs(st.ui_scale - 1.f) > 0.005f) {
    char z[16];
    std::snprintf(z, sizeof z, "%.3g", static_cast<double>(st.ui_scale));  // 1.6, 0.7, 2.25
    q += std::string(q.empty() ? "" : "&") + "zoom=" + z;
  }
  if (!st.hidden.empty()) {
    std::string names;
    for (const auto& h : st.hidden) names += (names.empty() ? "" : ",") + h;
    q += std::string(q.empty() ? "" : "&") + "hide=" + url_encode(names);
  }
  return q;
}

std::string state_to_query(const PlaygroundState& st) {
  const json doc = state_document(st, false, false, false);
  const Scene& sc = st.scene();
  std::string q = "scene=" + url_encode(sc.id()) + "&lang=" + lang_code(lang());
  for (const UrlParam& p : sc.url_params()) {
    const auto it = doc.find(p.field);
    if (it == doc.end()) continue;
    std::string v;
    switch (p.kind) {
      case UrlKind::String: v = it->is_string() ? it->get<std::string>() : it->dump(); break;
      case UrlKind::Number: v = it->dump(); break;
      case UrlKind::Bool: v = it->is_boolean() && it->get<bool>() ? "1" : "0"; break;
      case UrlKind::Json: v = it->dump(-1, ' ', false, json::error_handler_t::replace); break;
      case UrlKind::Matrices: v = encode_matrices(*it); break;
    }
    q += std::string("&") + p.name + "=" + url_encode(v);
  }
  const Timeline& t = st.timeline();
  if (t.speed() != 1.0) {
    char sp[24];
    std::snprintf(sp, sizeof sp, "%.6g", t.speed());
    q += std::string("&speed=") + sp;
  }
  q += "&step=" + std::to_string(t.stage());
  if (!t.stage_complete()) q += "%3A" + std::to_string(t.done_substeps());
  return q;
}

}  // namespace ap
