#include "recipe.h"

#include <cmath>

#include "core/matrix.h"
#include "coref.h"
#include "heads.h"
#include "induction.h"

namespace ap {
namespace train {

double recipe_work(const Recipe& r, int seq_len) {
  const double T = seq_len, C = r.d_model;
  const double per_layer = 4.0 * T * C * C + 2.0 * T * T * C;  // one sentence, forward
  return 3.0 * per_layer * r.layers * static_cast<double>(r.batch) * static_cast<double>(r.steps);
}

int task_seq_len(const std::string& task) {
  if (task == "coref" || task == kHeadsTask) return coref_seq_len();
  if (task == kInductionTask) return kInductionSeqLen;
  return 0;
}

Status validate_recipe(const Recipe& r, int seq_len) {
  using namespace recipe_limits;
  if (!task_seq_len(r.task))
    return Status::Error("unknown training task {0} (the tasks: \"coref\", \"heads\", \"induction\")", {"\"" + r.task + "\""});
  AP_TRY(check_size(r.layers, "layers", kMaxLayers));
  AP_TRY(check_size(r.d_model, "d_model", kMaxDModel));
  AP_TRY(check_size(r.heads, "heads", kMaxHeads));
  if (r.d_model % r.heads != 0)
    return Status::Error("heads ({0}) must divide d_model ({1})", {arg(r.heads), arg(r.d_model)});
  AP_TRY(check_size(r.steps, "steps", kMaxSteps));
  AP_TRY(check_size(r.batch, "batch", kMaxBatch));
  if (r.seed > static_cast<uint64_t>(kMaxSeed))
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"seed", arg(0), arg(kMaxSeed), std::to_string(r.seed)});
  if (!std::isfinite(r.learning_rate) || r.learning_rate <= 0.0 || r.learning_rate > kMaxLearningRate)
    return Status::Error("the learning rate must be a number above 0 and at most {0}, got {1}",
                         {format_number(kMaxLearningRate), format_number(r.learning_rate)});
  const double work = recipe_work(r, seq_len);
  if (work > kMaxWork)
    return Status::Error("this recipe needs about {0} multiply-adds, more than the {1} the page trains within about a minute: "
                         "fewer steps, layers or a smaller d_model or batch",
                         {format_number(work), format_number(kMaxWork)});
  return Status::Ok();
}

}  // namespace train
}  // namespace ap
