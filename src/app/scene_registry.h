// The scenes, in the lesson's order: one line each in app/scene_list.h (views/view_registry.cpp gives each
// its view from the same list).
#pragma once
#include <memory>
#include <vector>

#include "app/scene.h"

namespace ap {

// A fresh instance of every scene at its default; registers each scene's translations. defer: each scene
// builds its first model when first used (Scene::ensure_built), not here.
std::vector<std::unique_ptr<Scene>> make_scenes(bool defer = false);

}  // namespace ap
