#include "view.h"

namespace ap {

std::pair<const char*, const char*> SceneView::caption(const ViewContext& ctx) const {
  const Scene& sc = ctx.st.scene();
  const StageInfo& s = sc.stages()[static_cast<size_t>(sc.timeline.stage())];
  return {s.formula, tr(s.idea)};
}

}  // namespace ap
