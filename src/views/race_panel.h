// The controls and curves of encoder–decoders trained side by side in the page (app/seq2seq_race.h): the
// bottleneck scene's Seq2Seq without and with attention, the Luong scene's three scores.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "app/seq2seq_race.h"
#include "views/view.h"

namespace ap {

const TrPair* race_panel_strings(size_t* count);

// One run as drawn: its name (translated) and colour.
struct RaceSeries {
  const char* name;
  ImU32 color;
};

// Train / Pause / Reset and where the race stands ("step 1200 / 4000 · 6.1 s · running"), on one line or two.
void race_buttons(ViewContext& ctx, Seq2SeqRace& race, const char* id);
// Held-out token accuracy against the step, one curve per run (series[k] for run k).
void race_curves(const Seq2SeqRace& race, const std::vector<RaceSeries>& series, ImVec2 size, const char* id);

}  // namespace ap
