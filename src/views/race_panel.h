// The controls and curves of encoder–decoders trained side by side in the page (app/seq2seq_race.h): the
// bottleneck scene's Seq2Seq without and with attention, the Luong scene's three scores.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "app/i18n.h"
#include "app/seq2seq_race.h"
#include "app/state.h"
#include "views/view.h"

namespace ap {

const TrPair* race_panel_strings(size_t* count);

// One run as drawn: its name (translated) and colour.
struct RaceSeries {
  const char* name;
  ImU32 color;
};

// Train / Pause / Reset and where the race stands ("step 1200 / 4000 · 6.1 s · running"), on one line or two.
// Race: a Seq2SeqRace or the masks scene's BugTraining (state(), State, command(), started(), done_steps(),
// total_steps(), state_name(), train_seconds(), in_workers()); `train` is the Train button's translated name.
// in_workers: the time is that of the runs in Web Workers (the slowest's), not of the frame loop's slices.
void race_status_line(bool started, int done, int total, const char* state, double seconds, bool in_workers);
// The recipe's rate and its schedule, translated: "learning rate 0.01, falling linearly to 0.001 from step 300".
std::string rate_schedule_text(const train::Seq2SeqRecipe& r);
template <class Race>
void race_buttons(ViewContext& ctx, Race& race, const char* id, const char* train) {
  const std::string pre = std::string("###") + id + "_race_";
  using S = typename Race::State;
  bool drawn = false;  // a button on this line already: the next one goes beside it
  if (race.state() == S::Running) {
    if (ImGui::Button((std::string(tr("Pause")) + pre + "pause").c_str())) (void)report_result(ctx.st, "training", race.command("pause"));
    drawn = true;
  } else if (race.state() != S::Measuring && race.state() != S::Done) {
    if (ImGui::Button((std::string(train) + pre + "start").c_str())) (void)report_result(ctx.st, "training", race.command("start"));
    drawn = true;
  }
  if (race.started()) {
    if (drawn) ImGui::SameLine();
    if (ImGui::Button((std::string(tr("Reset")) + pre + "reset").c_str())) (void)report_result(ctx.st, "training", race.command("reset"));
  }
  ImGui::SameLine();
  race_status_line(race.started(), race.done_steps(), race.total_steps(), Race::state_name(race.state()), race.train_seconds(),
                   race.in_workers());
}
// A line per run that went wrong (Seq2SeqRace::fault: it diverged), named as series[k] names it, in the failure
// colour, under the buttons.
void race_faults(const Seq2SeqRace& race, const std::vector<RaceSeries>& series);
// Held-out token accuracy against the step, one curve per run (series[k] for run k).
void race_curves(const Seq2SeqRace& race, const std::vector<RaceSeries>& series, ImVec2 size, const char* id);

}  // namespace ap
