#include "view.h"

#include <algorithm>

#include "app/i18n.h"

namespace ap {

namespace {
// Strings that several views draw (each view's own are in its file).
const TrPair kSharedStrings[] = {
    {"(stretched)", "（已拉伸）"},
    {"Sentence", "句子"},
    {"limit", "上限"},
    {"add position codes (sin/cos)", "加入位置编码（sin/cos）"},
    {"Cancel", "取消"},
    {"the trained model could not be fetched: {0}", "无法获取训练所得的模型：{0}"},
};
}  // namespace

const TrPair* shared_view_strings(size_t* count) { return translation_table(kSharedStrings, count); }

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
