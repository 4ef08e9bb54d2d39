// One-click presets: the seeds' worked examples and a few sentences.
#pragma once
#include <string>
#include <vector>

#include "core/sdpa_pipeline.h"

namespace ap {

struct Preset {
  const char* id;      // used in URLs: ?preset=cats
  const char* title;   // English; tr() gives the Chinese
  const char* note;    // what to look at (English; tr())
  SdpaParams params;
};

const std::vector<Preset>& presets();
const Preset* find_preset(const std::string& id);

}  // namespace ap
