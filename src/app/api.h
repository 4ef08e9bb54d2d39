// The page API behind window.playground (see README "Page API"), as plain functions over the state.
// The browser glue passes JSON strings in and out; the native tests call these directly.
#pragma once
#include <string>

#include "app/state.h"

namespace ap {

// {scene, lang, text, tokens, key_tokens, n, m, d_model, d_k, d_v, seed, positional, pad_to, source, mask,
//  step: {index, count, name, sub, sub_count, playing}, errors: [..], fully_masked_rows: [..],
//  matrices: {Q, K, V, scores, scaled, masked (null = -inf), weights, output}}
// include_matrices = false leaves "matrices" out (cheap polling).
std::string get_state_json(const PlaygroundState& st, bool include_matrices = true);

// Applies a partial state, all or nothing. Returns {"ok":true} or {"ok":false,"error":"..."}; on error
// nothing changes and the message is also shown on screen (key "api").
std::string set_state_json(PlaygroundState& st, const std::string& json);

// k stages forward (back when negative); returns the new step object.
std::string step_json(PlaygroundState& st, int k);

// Applies "?lang=zh&preset=cats&text=...&mask=causal&d_model=16&d_k=4&seed=1&pad_to=8&step=3&embed=1".
// Each bad parameter is reported on screen (key "url") and skipped; the rest still apply.
void apply_url_query(PlaygroundState& st, const std::string& query);

}  // namespace ap
