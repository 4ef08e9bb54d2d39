// The URL codec: the state document as a query string, both ways.
//
//   ?scene=sdpa&lang=zh&source=projection&text=I%20love%20cats&d_model=16&d_k=4&seed=42&positional=1
//    &pad_to=0&mask=none&step=6
// Each scene lists its parameters (Scene::url_params) and how each travels (UrlKind). Hand-set matrices
// travel as one compact, versioned fragment: m=v1.<base64url of the binary below>, little-endian:
//   u8 count, then per matrix: u8 name length, name bytes, u16 rows, u16 cols, rows·cols float32 (row-major).
// `step` is a stage index (shown complete) or "index:sub". The short links of before keep working
// (?preset=cats&lang=zh), and so do embed=1 and controls=0/1, which set the page's layout.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

#include "app/state.h"

namespace ap {

// Steps 1–2 of apply_url_query, which changes only the page's layout (embed, zoom, hide, …): the query split,
// %-decoded and checked, the target scene chosen (scene=), and each of its parameters turned into the state
// document's field. Nothing is applied to a scene yet; every problem found so far is in `problems`.
struct UrlQuery {
  const Scene* target = nullptr;                             // the scene the fields are for
  nlohmann::json doc = nlohmann::json::object();            // field → value, as setState takes them
  std::vector<std::pair<std::string, nlohmann::json>> fields;  // the same, in the query's order
  std::vector<std::string> problems;                         // English, one per refused parameter
  // A bare visit: nothing beyond the language and the display (lang, zoom, present, colors, contrast), so
  // the page opens with the welcome; `welcome=1` / `welcome=0` in the link ask for it or not (-1: unsaid).
  bool bare = true;
  int welcome = -1;
};
UrlQuery read_url_query(PlaygroundState& st, const std::string& query);

// Applies a query ("?lang=zh&preset=cats…", the '?' optional). The whole document is tried first; when it
// is refused, each parameter is tried alone on top of those accepted so far, and each bad one is reported
// on screen (key "url") and skipped. A link to a view (not bare) closes the welcome; welcome=0/1 sets it.
void apply_url_query(PlaygroundState& st, const std::string& query);

// The query (without '?') that restores the current view: scene, language, parameters, step.
std::string state_to_query(const PlaygroundState& st);
// The page's layout as a query ("embed=1&hide=controls,timeline", or ""): kept in the address bar with the
// view, so that an embed reloads as it was embedded.
std::string layout_query(const PlaygroundState& st);
// The panels ?hide= may name, comma-separated.
extern const char* const kHidablePanels[4];  // "topbar", "controls", "formula", "timeline"

std::string url_encode(const std::string& s);           // RFC 3986 unreserved characters kept
std::string url_decode(const std::string& s, bool* ok);  // '+' is a space; false on a bad % escape

// The matrices fragment: {"Q": [[…]], …} <-> "v1.<base64url>".
std::string encode_matrices(const nlohmann::json& matrices);
Status decode_matrices(const std::string& text, nlohmann::json* matrices);

}  // namespace ap
