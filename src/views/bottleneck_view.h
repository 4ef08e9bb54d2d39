// The drawing of the scene "The Seq2Seq bottleneck" (see bottleneck_view.cpp).
#pragma once
#include <string>
#include <vector>

#include "app/scenes/bottleneck_scene.h"
#include "views/edit_buffer.h"
#include "views/view.h"

namespace ap {

class BottleneckView final : public SceneView {
 public:
  static const TrPair* strings(size_t* count);  // the view's own strings (add_view_translations)
  explicit BottleneckView(BottleneckScene& scene) : scene_(scene) {}
  ~BottleneckView() override;
  void controls(ViewContext& ctx) override;
  void stage(ViewContext& ctx) override;
  std::string step_text(const ViewContext& ctx) const override;

 private:
  void sync();
  void read_stage(ViewContext& ctx);
  void compress_stage(ViewContext& ctx);
  void probe_stage(ViewContext& ctx);
  void grow_stage(ViewContext& ctx);
  void trained_stage(ViewContext& ctx);
  BottleneckScene& scene_;
  EditBuffer<BottleneckParams> edit_;  // what the fields show (may hold a value the scene refused)
  std::string text_;                    // the sentence field
  Mat c_column_;                        // c as a d_h × 1 matrix, for the matrix view
  std::vector<std::string> unit_labels_;  // "1" … "d_h"
};

}  // namespace ap
