// The scene "Watch attention learn" (app/scenes/train_scene.h) over the desktop's training thread
// (app/train_host.h): Train reaches the target on held-out pairs and the "it" row of layer 2 moves onto the
// referent; one layer does not; pause / reset / one step; the document and the link round-trip; bad input is
// refused with a message and changes nothing; without a host the scene says so and keeps working.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "app/api.h"
#include "app/scenes/train_scene.h"
#include "app/train_host.h"
#include "app/url.h"
#include "core/train/report.h"
#include "core/train/trainer.h"
#include "helpers.h"
#include "train_helpers.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

bool ok(const std::string& reply) { return parse(reply).value("ok", false); }


// Opens `query` in `b` as a link does: no problem with any parameter.
TrainScene& open_link(PlaygroundState& b, const std::string& query) {
  apply_url_query(b, query);
  EXPECT_TRUE(b.errors.empty()) << query;
  return *b.get<TrainScene>();
}


TEST(AppTrainScene, TrainReachesTheTargetAndTheItRowFollowsTheAdjective) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  NEEDS_THREAD_HOST();
  WithHost h;
  PlaygroundState st;
  TrainScene& s = *st.get<TrainScene>();
  ASSERT_TRUE(wait_for(s, [&] { return s.has_report(); }));
  EXPECT_EQ(s.state(), TrainRunState::Idle);
  EXPECT_EQ(s.weights_label(), "random, seed 1");
  const Mat before = s.shown().maps.back();
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train","training":"start"})")));
  EXPECT_EQ(s.state(), TrainRunState::Running);
  // While it runs, reports arrive with a growing step and changing maps.
  ASSERT_TRUE(wait_for(s, [&] { return s.report().step >= 100; }));
  EXPECT_GT((s.shown().maps.back() - before).cwiseAbs().maxCoeff(), 1e-3f);
  ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }, 60));
  const train::TrainReport& r = s.report();
  std::printf("    trained in the thread: %d steps, held-out accuracy %.4f (all %d), argmax %.4f, %.0f steps/s\n", r.step,
              r.heldout_accuracy, r.heldout_sentences, r.referent_argmax, s.steps_per_second());
  EXPECT_TRUE(r.evaluated_on_all);
  EXPECT_GE(r.heldout_accuracy, 0.95);
  EXPECT_GT(s.steps_per_second(), 0);
  const json t = state(st, false)["training"];
  EXPECT_EQ(t["state"], "done");
  EXPECT_EQ(t["step"], 1500);
  EXPECT_EQ(t["task"], "coref");
  EXPECT_EQ(t["recipe"]["layers"], 2);
  EXPECT_EQ(t["curve"].size(), r.curve.size());
  EXPECT_GT(t["vocabulary"].size(), 60u);
  EXPECT_EQ(state(st, false)["weights"], "trained");
  EXPECT_NE(s.weights_label().find("trained on coreference, 1500 steps, held-out accuracy"), std::string::npos) << s.weights_label();
  // "tired" → the cat (position 1); "wide" → the road (position 5); layer 2's "it" row (position 7).
  EXPECT_GT(s.shown().maps.back()(7, 1), s.shown().maps.back()(7, 5));
  ASSERT_TRUE(ok(set_state_json(st, R"({"text":"the cat didn't cross the road because it was too wide"})")));
  ASSERT_TRUE(wait_for(s, [&] { return s.shown().maps.back()(7, 5) > s.shown().maps.back()(7, 1); }));
  EXPECT_EQ(s.report().step, 1500);  // the same weights: only the sentence changed
  // The document round-trips unchanged.
  const std::string doc = get_state_json(st, true);
  ASSERT_TRUE(ok(set_state_json(st, doc)));
  EXPECT_EQ(parse(get_state_json(st, true)), parse(doc));
  EXPECT_EQ(s.state(), TrainRunState::Done);
}

TEST(AppTrainScene, OneLayerStaysNearChance) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  NEEDS_THREAD_HOST();
  WithHost h;
  PlaygroundState st;
  TrainScene& s = *st.get<TrainScene>();
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train","preset":"one-layer","weights":"trained"})")));
  ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }, 60));
  std::printf("    1 layer: held-out accuracy %.4f\n", s.report().heldout_accuracy);
  EXPECT_LE(s.report().heldout_accuracy, 0.65);
  EXPECT_EQ(s.shown().layers, 1);
}

// The task "heads" (core/train/heads.h): one layer of two heads names the referent; at the end of the run the
// document reports what each head's "it" row reads, measured on every held-out sentence; the link carries the task.
TEST(AppTrainScene, TwoHeadsNameTheReferentAndEachHeadsPatternIsReported) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  NEEDS_THREAD_HOST();
  std::string query;
  {
    WithHost h;
    PlaygroundState st;
    TrainScene& s = *st.get<TrainScene>();
    ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train","preset":"heads-2","weights":"trained"})")));
    EXPECT_EQ(s.params().recipe.task, "heads");
    EXPECT_EQ(s.params().recipe.layers, 1);
    EXPECT_EQ(s.params().recipe.heads, 2);
    ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }, 60));
    const json t = state(st, false)["training"];
    std::printf("    heads-2 in the thread: held-out accuracy %.4f, heads: %s\n", s.report().heldout_accuracy,
                t["head_patterns"].dump().substr(0, 400).c_str());
    EXPECT_GE(s.report().heldout_accuracy, 0.95);
    EXPECT_EQ(t["task"], "heads");
    ASSERT_EQ(t["head_patterns"].size(), 2u);
    EXPECT_EQ(t["head_patterns"][0]["reads"], "animal | adjective");
    EXPECT_EQ(t["head_patterns"][1]["reads"], "adjective | place");
    EXPECT_GT(t["head_patterns"][0]["when_animal"]["animal"].get<double>(), 0.9);
    for (const json& head : t["head_patterns"]) EXPECT_EQ(head["after_noun_reads"], "previous token");  // local too
    EXPECT_EQ(s.shown().heads, 2);
    EXPECT_NE(s.weights_label().find("trained on naming the referent, 1500 steps"), std::string::npos) << s.weights_label();
    const std::string doc = get_state_json(st, true);
    ASSERT_TRUE(ok(set_state_json(st, doc)));
    EXPECT_EQ(parse(get_state_json(st, true)), parse(doc));
    query = state_to_query(st);
  }
  EXPECT_NE(query.find("task=heads"), std::string::npos) << query;
  WithHost h;
  PlaygroundState b;
  TrainScene& s = open_link(b, query);
  EXPECT_EQ(s.params().recipe.task, "heads");
  EXPECT_EQ(s.params().recipe.heads, 2);
  // Another task is refused with a message and nothing changes.
  const json reply = parse(set_state_json(b, R"({"task":"sorting"})"));
  EXPECT_FALSE(reply.value("ok", true));
  EXPECT_NE(reply.dump().find("task must be"), std::string::npos) << reply.dump();
  EXPECT_EQ(state(b, false)["training"]["task"], "heads");
}

// The task "induction" in the page's scene: the preset trains (in the thread) to its target, the report carries
// each head's scores (a previous-token head in layer 1, an induction head in layer 2), the sequence on screen is
// letters (typed in either case), the link round-trips, and words of another task are refused with a message.
TEST(AppTrainScene, InductionHeadsFormAndAreReported) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  NEEDS_THREAD_HOST();
  std::string query;
  {
    WithHost h;
    PlaygroundState st;
    TrainScene& s = *st.get<TrainScene>();
    ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train","preset":"induction","weights":"trained"})")));
    EXPECT_EQ(s.params().recipe.task, "induction");
    EXPECT_EQ(s.params().recipe.layers, 2);
    EXPECT_EQ(s.params().recipe.steps, 600);
    EXPECT_EQ(s.params().text, train_default_text("induction"));
    ASSERT_EQ(s.words().size(), 20u);
    ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }, 60));
    const json t = state(st, false)["training"];
    std::printf("    induction in the thread: held-out accuracy %.4f (all %d), heads: %s\n", s.report().heldout_accuracy,
                s.report().heldout_sentences, t["induction_heads"].dump().c_str());
    EXPECT_GE(s.report().heldout_accuracy, 0.95);
    EXPECT_TRUE(s.report().evaluated_on_all);
    EXPECT_EQ(t["task"], "induction");
    EXPECT_EQ(t["vocabulary"].size(), 24u);
    ASSERT_EQ(t["induction_heads"].size(), 2u);
    EXPECT_EQ(t["induction_heads"][0]["reads"], "previous token");
    EXPECT_EQ(t["induction_heads"][1]["reads"], "induction");
    EXPECT_TRUE(t["head_patterns"].empty());
    EXPECT_NE(s.weights_label().find("trained on copying a repeated sequence, 600 steps"), std::string::npos) << s.weights_label();
    // The sequence's own attention: on the second "DRAGON" (positions 14 … 18 read out), layer 2's row at each
    // letter has its largest weight on the letter after that letter's first occurrence (positions 4 … 8): the
    // induction stripe, one diagonal below the earlier copy.
    ASSERT_EQ(s.shown().maps.size(), 2u);
    for (int row = 14; row <= 18; ++row) {
      Eigen::Index best;
      s.shown().maps[1].row(row).maxCoeff(&best);
      EXPECT_EQ(best, row - 11 + 1) << row << ": " << s.shown().maps[1].row(row);
    }
    const std::string doc = get_state_json(st, true);
    ASSERT_TRUE(ok(set_state_json(st, doc)));
    EXPECT_EQ(parse(get_state_json(st, true)), parse(doc));
    query = state_to_query(st);
    // Lowercase letters are read as the tokens; a word of the coreference task is refused and nothing changes.
    ASSERT_TRUE(ok(set_state_json(st, R"({"text":"q u i d r a g o n s k u l e d r a g o n"})")));
    EXPECT_EQ(s.words(), std::vector<std::string>({"Q", "U", "I", "D", "R", "A", "G", "O", "N", "S", "K", "U", "L", "E", "D",
                                                   "R", "A", "G", "O", "N"}));
    const json refused = parse(set_state_json(st, R"({"text":"the cat"})"));
    EXPECT_FALSE(refused.value("ok", true));
    EXPECT_NE(refused.dump().find("is not a token of this model"), std::string::npos) << refused.dump();
    EXPECT_EQ(s.words().size(), 20u);
    // Back to the coreference task: the notes' sentence comes back with it.
    ASSERT_TRUE(ok(set_state_json(st, R"({"task":"coref","layers":2,"heads":1,"steps":1500})")));
    EXPECT_EQ(s.params().text, train_default_text("coref"));
  }
  EXPECT_NE(query.find("task=induction"), std::string::npos) << query;
  WithHost h;
  PlaygroundState b;
  TrainScene& s = open_link(b, query);
  EXPECT_EQ(s.params().recipe.task, "induction");
  ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }, 60));
  EXPECT_GE(s.report().heldout_accuracy, 0.95);
}

TEST(AppTrainScene, OneLayerCannotInduce) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  NEEDS_THREAD_HOST();
  WithHost h;
  PlaygroundState st;
  TrainScene& s = *st.get<TrainScene>();
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train","preset":"induction-one-layer","weights":"trained"})")));
  EXPECT_EQ(s.params().recipe.layers, 1);
  EXPECT_EQ(s.params().recipe.heads, 2);
  ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }, 60));
  std::printf("    one layer, two heads: held-out accuracy %.4f\n", s.report().heldout_accuracy);
  EXPECT_LE(s.report().heldout_accuracy, 0.6);
  const json t = state(st, false);  // kept: a range-for over a member of the temporary would read freed memory
  ASSERT_EQ(t["training"]["induction_heads"].size(), 2u);
  for (const json& head : t["training"]["induction_heads"]) EXPECT_NE(head["reads"], "induction");
}

TEST(AppTrainScene, PauseResetAndOneStep) {
  NEEDS_THREAD_HOST();
  WithHost h;
  PlaygroundState st;
  TrainScene& s = *st.get<TrainScene>();
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train","steps":3000})")));
  ASSERT_TRUE(wait_for(s, [&] { return s.has_report(); }));
  ASSERT_TRUE(s.step_once().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Paused; }));
  EXPECT_EQ(s.report().step, 1);
  ASSERT_TRUE(s.start().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.report().step >= 50; }));
  ASSERT_TRUE(ok(set_state_json(st, R"({"training":"pause"})")));
  EXPECT_EQ(s.state(), TrainRunState::Paused);
  // The host stops after the chunk it is in (its report and the pause's own come then); under a sanitizer
  // a chunk can take longer than a second, so wait for reports to stop (2 s without one), then watch.
  {
    auto quiet_since = std::chrono::steady_clock::now();
    int version = s.report_version();
    const auto t0 = quiet_since;
    while (std::chrono::steady_clock::now() - quiet_since < std::chrono::seconds(2) &&
           std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60)) {
      s.poll();
      if (s.report_version() != version) version = s.report_version(), quiet_since = std::chrono::steady_clock::now();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  const int at = s.report().step;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  s.poll();
  EXPECT_EQ(s.report().step, at) << "paused: no more steps";
  EXPECT_LT(at, 3000);
  // A paused run's document round-trips and does not restart it.
  ASSERT_TRUE(ok(set_state_json(st, get_state_json(st, true))));
  EXPECT_EQ(s.state(), TrainRunState::Paused);
  EXPECT_EQ(s.report().step, at);
  ASSERT_TRUE(ok(set_state_json(st, R"({"training":"reset"})")));
  ASSERT_TRUE(wait_for(s, [&] { return s.has_report(); }));
  EXPECT_EQ(s.report().step, 0);
  EXPECT_EQ(s.state(), TrainRunState::Idle);
  EXPECT_EQ(state(st, false)["weights"], "random");
}

TEST(AppTrainScene, BadInputIsRefusedWithAMessageAndNothingChanges) {
  NEEDS_THREAD_HOST();
  WithHost h;
  PlaygroundState st;
  TrainScene& s = *st.get<TrainScene>();
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train"})")));
  ASSERT_TRUE(wait_for(s, [&] { return s.has_report(); }));
  const auto scene_doc = [&] {  // the scene's document without the page's messages
    json j = state(st, true);
    j.erase("errors");
    return j;
  };
  const json before = scene_doc();
  const std::string bad[] = {
      R"({"learning_rate":0})",   R"({"learning_rate":-0.1})", R"({"learning_rate":5})",  R"({"learning_rate":"fast"})",
      R"({"learning_rate":null})", R"({"steps":0})",           R"({"steps":1000000})",    R"({"layers":0})",
      R"({"layers":9})",          R"({"heads":3})",            R"({"d_model":64,"layers":4,"steps":20000,"batch":128})",
      R"({"weights":"pretty"})",  R"({"training":"fly"})",     R"({"training":7})",       R"({"training":{"state":"done"}})",
      R"({"task":"sorting"})",    R"({"task":"induction","text":"the cat"})", R"({"task":"induction","steps":20000})",
      R"({"text":"the unicorn didn't cross the road because it was too tired"})",
      R"({"text":"the cat slept"})", R"({"text":""})",         R"({"zzz":1})",            R"({"results":{"it":3}})",
  };
  for (const std::string& doc : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_FALSE(str(r["error"]).empty()) << doc;
    EXPECT_TRUE(scene_doc() == before) << doc;
    EXPECT_FALSE(st.errors.empty()) << doc;
  }
  EXPECT_NE(str(parse(set_state_json(st, R"({"text":"the unicorn didn't cross the road because it was too tired"})"))["error"]).find("\"unicorn\""),
            std::string::npos);
  EXPECT_NE(str(parse(set_state_json(st, R"({"learning_rate":0})"))["error"]).find("learning rate"), std::string::npos);
  // In Chinese.
  set_lang(Lang::Zh);
  EXPECT_NE(message(st, "api").find("学习率"), std::string::npos) << message(st, "api");
  set_lang(Lang::En);
}

TEST(AppTrainScene, LinkRestoresTheTrainedView) {
  NEEDS_THREAD_HOST();
  std::string query;
  {
    WithHost h;
    PlaygroundState a;
    ASSERT_TRUE(ok(set_state_json(a, R"({"scene":"train","steps":200,"seed":4,"learning_rate":0.02,"weights":"trained"})")));
    TrainScene& s = *a.get<TrainScene>();
    ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }));
    query = state_to_query(a);
  }
  EXPECT_NE(query.find("weights=trained"), std::string::npos) << query;
  EXPECT_NE(query.find("lr=0.02"), std::string::npos) << query;
  WithHost h;
  PlaygroundState b;
  TrainScene& s = open_link(b, query);
  EXPECT_EQ(s.params().recipe.seed, 4u);
  ASSERT_TRUE(wait_for(s, [&] { return s.state() == TrainRunState::Done; }));
  EXPECT_EQ(s.report().step, 200);
  EXPECT_EQ(state_to_query(b), query);
}

// A host that trains synchronously, in the caller's thread, and keeps only its newest report (as both real
// hosts do): a begin() followed by run() before the page polls leaves a first report past step 0.
class SyncHost final : public TrainHost {
 public:
  const char* name() const override { return "sync"; }
  void begin(const train::Recipe& r, const std::vector<std::string>& w, bool) override {
    words_ = w;
    ASSERT_TRUE(t_.init(r).ok);
    publish();
  }
  void run(int until) override {
    t_.advance(std::min(until, t_.step() + 30) - t_.step());
    publish();
  }
  void pause() override { publish(); }
  void show(const std::vector<std::string>& w) override {
    words_ = w;
    publish();
  }
  bool poll(train::TrainReport* out, std::string*) override {
    if (!fresh_) return false;
    fresh_ = false;
    *out = report_;
    return true;
  }

 private:
  void publish() {
    train::SentenceAttention a;
    ASSERT_TRUE(t_.attention_of(words_, &a).ok);
    report_ = train::make_report(t_, a);
    fresh_ = true;
  }
  train::Trainer t_;
  std::vector<std::string> words_;
  train::TrainReport report_;
  bool fresh_ = false;
};

// Regression (CI, the hidden-tab browser test): the step-0 report of begin() and the first chunk's report
// arrived between two frames, only the newer was kept, and the scene waited for a step-0 report for ever.
TEST(AppTrainScene, AFirstReportPastStepZeroIsTaken) {
  SyncHost host;
  set_train_host(&host);
  {
    PlaygroundState st;
    ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train","steps":3000})")));
    TrainScene& s = *st.get<TrainScene>();
    ASSERT_TRUE(ok(set_state_json(st, R"({"training":"start"})")));  // before any poll: begin's report is replaced
    s.poll();
    ASSERT_TRUE(s.has_report());
    EXPECT_EQ(s.report().step, 30);
    EXPECT_EQ(state(st, false)["training"]["step"], 30);
  }
  set_train_host(nullptr);
}

TEST(AppTrainScene, WithoutAHostTheSceneSaysSoAndKeepsWorking) {
  set_train_host(nullptr);
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"train"})")));
  TrainScene& s = *st.get<TrainScene>();
  EXPECT_EQ(s.state(), TrainRunState::Failed);
  const json r = parse(set_state_json(st, R"({"training":"start"})"));
  EXPECT_FALSE(r.value("ok", true));
  EXPECT_NE(str(r["error"]).find("not available"), std::string::npos);
  EXPECT_TRUE(ok(set_state_json(st, get_state_json(st, true))));
  EXPECT_TRUE(ok(set_state_json(st, R"({"layers":1})")));
}

}  // namespace
}  // namespace ap
