// The seed field of a side panel: the whole seed, as a link or setState carries it (0 … limits::kMaxSeed;
// an int field showed only its low 31 bits, so seed=4294967296 read 0 and "+" made it 1), − and + by 1,
// Ctrl by 10. True when the learner changed it.
#pragma once
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/matrix.h"

namespace ap {

// label: the shown text (tr("seed")); id: the field's ImGui id, kept when the language changes.
inline bool seed_input(const char* label, const char* id, uint64_t* seed, float width) {
  static_assert(sizeof(ImU64) == sizeof(uint64_t), "ImGui's 64-bit type");
  ImU64 v = std::min<ImU64>(*seed, static_cast<ImU64>(limits::kMaxSeed));
  const ImU64 step = 1, fast = 10;
  // Wide enough for every digit (a long seed from a link is not shown cut to its first digits).
  char digits[24];
  std::snprintf(digits, sizeof digits, "%llu", static_cast<unsigned long long>(v));
  const ImGuiStyle& style = ImGui::GetStyle();
  const float buttons = 2.f * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
  ImGui::SetNextItemWidth(std::max(width, ImGui::CalcTextSize(digits).x + 2.f * style.FramePadding.x + buttons + 2.f));
  if (!ImGui::InputScalar((std::string(label) + "###" + id).c_str(), ImGuiDataType_U64, &v, &step, &fast, "%llu")) return false;
  v = std::min<ImU64>(v, static_cast<ImU64>(limits::kMaxSeed));  // typed beyond what a document carries
  if (v == *seed) return false;
  *seed = v;
  return true;
}

}  // namespace ap
