// The page API behind window.playground (see README "Page API"), as plain functions over the state.
// The browser glue passes JSON strings in and out; the native tests call these directly.
//
// The state document: {scene, lang, step, <the scene's parameters>} plus results (getState only).
// setState(getState()) is accepted and restores that view; see Scene (app/scene.h) for what each scene adds.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "app/state.h"

namespace ap {

constexpr size_t kMaxDocumentBytes = 64u << 20;  // 64 MiB of JSON: every matrix at its limit fits

// The document of the current view. with_results adds the derived fields and results (what getState
// returns); with_matrices adds the scene's matrices; page_reports adds errors, frames, view and hover.
nlohmann::json state_document(const PlaygroundState& st, bool with_results, bool with_matrices, bool page_reports);

// Validates a (partial) document and, unless dry_run, applies it: all or nothing.
Status apply_document(PlaygroundState& st, const nlohmann::json& doc, bool dry_run = false);

// getState(): state_document(st, true, include_matrices, true) as JSON text.
// `compact`: every matrix written as {"f32": "v1.<base64url>"} (the URL's binary fragment, app/url.h), about
// 5.3 bytes a value instead of 10-16: a document at the limits (1024 × 512 Q, K, V and their 1024 × 1024
// results, about 120 MB as rows of numbers) then fits setState's 64 MB. setState reads both forms.
std::string get_state_json(const PlaygroundState& st, bool include_matrices = true, bool compact = false);

// The compact form in place, both ways. A matrix is an array of equal rows of floats (null for −∞ in a masked
// matrix); integer arrays are left as they are. Expanding refuses a malformed {"f32": …} naming its path.
void compact_matrices(nlohmann::json& doc);
Status expand_matrices(nlohmann::json& doc, const std::string& path = "");

// setState(): applies a partial document, all or nothing. Returns {"ok":true} or {"ok":false,"error":"..."};
// on error nothing changes and the message is also shown on screen (key "api"). The text is checked for
// size and nesting depth before it is parsed. `size` is 64-bit: a page's string can hold more bytes than
// wasm32's size_t counts; a document over kMaxDocumentBytes is refused by its size alone (`text` is not read,
// so the page need not copy it into the wasm heap first: web/playground.js passes no bytes then).
std::string set_state_json(PlaygroundState& st, const char* text, uint64_t size);
inline std::string set_state_json(PlaygroundState& st, const std::string& text) {
  return set_state_json(st, text.data(), text.size());
}

// k stages forward (back when negative); returns the new step object.
std::string step_json(PlaygroundState& st, int k);

// A call the page refused before it reached the app (web/playground.js: setState with what JSON cannot
// carry, step with a non-integer, an unknown postMessage method). The README promises every refusal is
// shown, so it is reported on screen (key "api", prefixed by the call) like setState's own; the wording is
// here so it is translated. `kind`: "not-serialisable", "not-object", "not-integer", "unknown-method";
// `detail` is what the page saw (the browser's error, the value, the method name). Returns the English text
// the page answers with.
std::string page_refusal(PlaygroundState& st, const std::string& call, const std::string& kind, const std::string& detail);

// {index, count, name, sub, sub_count, playing}
nlohmann::json step_object(const PlaygroundState& st);

}  // namespace ap
