// What scenes with their own preset table and string table share: the presets as PresetInfo (built once
// per scene), finding a preset's parameters by id, and handing the translations to the registry.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "app/json_fields.h"
#include "app/scene.h"

namespace ap {

template <class Params>
struct ScenePreset {
  PresetInfo info;
  Params params;
};

// One list per scene (per Params type), made from its table the first time.
template <class Params>
const std::vector<PresetInfo>& preset_infos(const std::vector<ScenePreset<Params>>& table) {
  static const std::vector<PresetInfo> infos = [&] {
    std::vector<PresetInfo> v;
    for (const auto& p : table) v.push_back(p.info);
    return v;
  }();
  return infos;
}

// The parameters of the preset named by `id` (a JSON string), or an error naming it.
template <class Params>
Status find_preset_params(const nlohmann::json& id, const std::vector<ScenePreset<Params>>& table, Params* out) {
  std::string name;
  AP_TRY(read_string(id, "preset", &name));
  for (const auto& p : table)
    if (name == p.info.id) {
      *out = p.params;
      return Status::Ok();
    }
  return Status::Error("unknown preset '{0}'", {name});
}

}  // namespace ap
