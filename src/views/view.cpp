#include "view.h"

#include <algorithm>

#include "app/i18n.h"

namespace ap {

std::pair<const char*, const char*> SceneView::caption(const ViewContext& ctx) const {
  const Scene& sc = ctx.st.scene();
  const StageInfo& s = sc.stages()[static_cast<size_t>(sc.timeline.stage())];
  return {s.formula, tr(s.idea)};
}

float weights_top(const PlaygroundState& st, float largest) {
  return st.stretch_weights ? std::max(1e-6f, std::min(1.f, largest)) : 1.f;
}

std::string weights_caption(const PlaygroundState& st, const char* what) {
  return st.stretch_weights ? std::string(what) + " " + tr("(stretched)") : std::string(what);
}

}  // namespace ap
