#include "weights_label.h"

#include "app/i18n.h"
#include "core/number_text.h"
#include "core/train/heads.h"
#include "core/train/induction.h"

namespace ap {

std::string trained_weights_label(int step, double acc, bool localized, const std::string& task) {
  const char* t = task == train::kHeadsTask       ? N_("trained on naming the referent, {0} steps, held-out accuracy {1} %")
                  : task == train::kInductionTask ? N_("trained on copying a repeated sequence, {0} steps, held-out accuracy {1} %")
                                                  : N_("trained on coreference, {0} steps, held-out accuracy {1} %");
  return format_template(localized ? tr(t) : t, {std::to_string(step), fmt(100.0 * acc, 1)});
}

std::string random_weights_label(uint64_t seed, bool localized) {
  const char* t = N_("random, seed {0}");
  return format_template(localized ? tr(t) : t, {std::to_string(seed)});
}

}  // namespace ap
