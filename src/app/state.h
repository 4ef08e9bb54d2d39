// Everything the playground remembers between frames, and the one way to change the computation:
// apply() builds a new model from new parameters and keeps the last good one if that fails.
// No ImGui, SDL or GL here: the native tests drive this exactly as the UI and the page API do.
#pragma once
#include <string>
#include <vector>

#include "app/i18n.h"
#include "app/timeline.h"
#include "core/sdpa_pipeline.h"

namespace ap {

// Messages on screen. Each has a key (what it is about: "text", "d_k", "cell", "api", "url"): a later
// success for the same key clears it, so a fixed mistake stops being reported.
struct Message {
  std::string key;
  std::string text;
};

struct PlaygroundState {
  SdpaModel model;            // the last good model: every number on screen comes from here
  Timeline timeline;
  std::vector<Message> errors;
  std::vector<Message> notes; // non-error notices (e.g. a preset's "what to look at")
  bool embed = false;         // compact layout for iframes (?embed=1)
  bool show_controls = true;
  float ui_scale = 1.0f;      // user zoom on top of the device pixel ratio
  std::string hover_text;     // the arithmetic of the cell under the mouse, as shown (empty: none)
  int frames_drawn = 0;
  int view_width = 0, view_height = 0;  // logical size of the canvas, as last drawn
  float view_dpr = 1.f;
  int generation = 0;         // bumps each time the model is replaced (caches, textures follow it)
  std::string scene = "sdpa";

  PlaygroundState();
};

// Rebuilds the model from `params`. On success: replaces the model, resizes the timeline, clears the
// message under `key`. On error: keeps everything, shows the message under `key`, returns the error.
Status apply(PlaygroundState& st, const SdpaParams& params, const std::string& key);
// The second half of apply(): installs a model that was already built.
void commit(PlaygroundState& st, SdpaModel&& model, const std::string& key);

void report(PlaygroundState& st, const std::string& key, const std::string& text);
void clear_report(PlaygroundState& st, const std::string& key);
void dismiss(PlaygroundState& st, size_t index);

// Loads a preset by id (see presets.h); unknown id -> error message.
Status load_preset(PlaygroundState& st, const std::string& id);

}  // namespace ap
