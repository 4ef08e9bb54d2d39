// The training panel that the SDPA, self-attention and multi-head views share (app/scene_training.h): the learner
// trains the model the view shows again — Train / Pause / Reset / one step, seed, steps, learning rate — and
// reads the step, the loss, the held-out accuracy, the rate and the curves while the view follows the weights.
// The curves are the ones "Watch attention learn" draws (run_curves).
#pragma once
#include <string>

#include "app/scene_training.h"
#include "views/view.h"

namespace ap {

const TrPair* training_panel_strings(size_t* count);  // its own strings (add_view_translations)

// `id`: the ImGui id prefix of the scene ("sdpa" …); `install_error`: the scene's last weights that could not be
// shown (training_error()). `edit`: the recipe the fields show (may hold a value the panel refused).
void training_panel(ViewContext& ctx, SceneTraining& t, const Status& install_error, train::Recipe* edit, const char* id);

// The loss (log axis) above, the held-out accuracy and the argmax rate below, over the steps of `run`, then a
// line on what to notice. `steps`: the x axis's end.
void run_curves(const TrainRun& run, int steps, float width, float height, const char* id);

}  // namespace ap
