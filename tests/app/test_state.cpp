// Unit tests for the playground state (app/state.h): on-screen messages by key, and scenes that build their
// first model when first used. The SDPA scene's own tests (its default, apply, presets): test_sdpa_scene.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <string>

#include "app/scenes/masks_scene.h"
#include "app/state.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;

// ---- messages ---------------------------------------------------------------------------------------------

TEST(AppState, ReportReplacesTheTextOfTheSameKey) {
  PlaygroundState st;
  report(st, "url", "first");
  report(st, "cell", "other");
  report(st, "url", "second");
  ASSERT_EQ(st.errors.size(), 2u);
  EXPECT_EQ(st.errors[0].key, "url");
  EXPECT_EQ(localize(st.errors[0].text), "second");  // replaced in place
  EXPECT_EQ(st.errors[1].key, "cell");
  EXPECT_EQ(localize(st.errors[1].text), "other");
}

TEST(AppState, ReportCapsTheListDroppingTheOldest) {
  PlaygroundState st;
  for (int i = 0; i < 8; ++i) report(st, "k" + std::to_string(i), "message " + std::to_string(i));
  ASSERT_EQ(st.errors.size(), 6u);
  EXPECT_EQ(st.errors.front().key, "k2");
  EXPECT_EQ(st.errors.back().key, "k7");
  EXPECT_EQ(find_message(st, "k0"), nullptr);
  EXPECT_EQ(find_message(st, "k1"), nullptr);
}

TEST(AppState, ClearReportAndDismiss) {
  PlaygroundState st;
  report(st, "a", "A");
  report(st, "b", "B");
  report(st, "c", "C");
  clear_report(st, "b");
  ASSERT_EQ(st.errors.size(), 2u);
  EXPECT_EQ(st.errors[0].key, "a");
  EXPECT_EQ(st.errors[1].key, "c");
  clear_report(st, "missing");
  EXPECT_EQ(st.errors.size(), 2u);
  dismiss(st, 0);
  ASSERT_EQ(st.errors.size(), 1u);
  EXPECT_EQ(st.errors[0].key, "c");
  dismiss(st, 5);  // out of range: ignored
  EXPECT_EQ(st.errors.size(), 1u);
}

// ---- first models on first use ----------------------------------------------------------------------------

// The page builds only the scene it opens on; another scene's first model is built when it is first used
// (startup time, issue 8), and it is then the same model a scene built at once has.
TEST(AppState, ScenesBuildTheirFirstModelWhenFirstUsed) {
  PlaygroundState st;
  int built = 0;
  for (const auto& s : st.scenes) {
    if (s->built()) ++built;
    // Until then the timeline still has one sub-step per stage.
    EXPECT_EQ(s->timeline.stage_count(), static_cast<int>(s->stages().size())) << s->id();
  }
  (void)st.scene();
  built = 0;
  for (const auto& s : st.scenes) built += s->built() ? 1 : 0;
  EXPECT_EQ(built, 1);
  EXPECT_TRUE(st.scene().built());
  EXPECT_STREQ(st.scene().id(), PlaygroundState::kDefaultScene);
  Scene* masks = st.find("masks");
  ASSERT_NE(masks, nullptr);
  EXPECT_TRUE(masks->built());
  EXPECT_EQ(masks->generation(), 0);
  nlohmann::json lazy = nlohmann::json::object(), eager = nlohmann::json::object();
  masks->write_results(lazy, true);
  MasksScene direct;  // built at once
  direct.write_results(eager, true);
  EXPECT_EQ(lazy.dump(), eager.dump());
  EXPECT_EQ(masks->timeline.stage_count(), direct.timeline.stage_count());
  EXPECT_EQ(masks->timeline.total(), direct.timeline.total());
}

}  // namespace
}  // namespace ap
