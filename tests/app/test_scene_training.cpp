// The training panel of the SDPA, self-attention and multi-head scenes (app/scene_training.h) over the desktop's
// training thread: Reset shows the run's untrained start (labelled random), Train brings the view to the trained
// model — bit for bit the build's checkpoint for the build's recipe — and the "it" row follows; another seed's
// run is restored from the document by training again; a run whose host another scene took says so; bad
// recipes and commands are refused and change nothing; without a host the panel says so.
#include <gtest/gtest.h>

#include <memory>

#include "app/scene_training.h"
#include "app/scenes/multihead_scene.h"
#include "app/scenes/sdpa_scene.h"
#include "app/scenes/self_scene.h"
#include "app/scenes/train_scene.h"
#include "app/train_host.h"
#include "app/url.h"
#include "helpers.h"
#include "train_helpers.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

void open_trained(SdpaScene& s) {
  ASSERT_TRUE(s.load_preset("it-trained").ok);
  test::deliver_checkpoint(s, checkpoint_vector());
  ASSERT_TRUE(s.trained()) << s.checkpoint_error().message;
}

// The build's trained SDPA view twice: `built` stays as the build made it, `s` is the one a test trains.
struct TwoTrainedViews {
  SdpaScene built, s;
  TwoTrainedViews() {
    open_trained(built);
    open_trained(s);
  }
};

float largest_difference(const Mat& a, const Mat& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return 1e30f;
  return (a - b).cwiseAbs().maxCoeff();
}

TEST(AppSceneTraining, SdpaResetShowsTheUntrainedStartAndTrainBringsBackTheBuildModel) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();  // (the build's recipe to its end, bit for bit the build's model)
  NEEDS_THREAD_HOST();
  WithHost h;
  TwoTrainedViews v;
  const SdpaScene& built = v.built;
  SdpaScene& s = v.s;
  EXPECT_EQ(it_argmax(s), 1);  // the build's model: "it" → "animal"
  // Reset: a fresh run at step 0; its seeded weights become the view's, labelled as what they are.
  ASSERT_TRUE(s.training().reset().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.trained_qkv().step == 0 && s.training().run().has_report(); }));
  EXPECT_TRUE(s.trained());
  EXPECT_EQ(s.weights_label(false), "random, seed 1");
  json doc;
  s.write_results(doc, false);
  EXPECT_EQ(doc["training"]["state"], "idle");
  EXPECT_EQ(doc["training"]["step"], 0);
  const float untrained = largest_difference(s.model().Q, built.model().Q);
  EXPECT_GT(untrained, 0.1f);
  // Train: the view follows the run; at the end it is the build's model, bit for bit (the same recipe).
  ASSERT_TRUE(s.training().start().ok);
  EXPECT_TRUE(s.training().run().running());
  int views = 0, last_step = -1;
  ASSERT_TRUE(wait_for(s, [&] {
    if (s.trained_qkv().step != last_step) ++views, last_step = s.trained_qkv().step;
    return s.training().run().state() == TrainRunState::Done && s.trained_qkv().step == 1500;
  }, 120));
  std::printf("the view showed %d different steps of the run\n", views);
  EXPECT_GE(views, 2);  // the start and the end at least; the weights in between as the throttle lets them
  const float diff = std::max({largest_difference(s.model().Q, built.model().Q), largest_difference(s.model().K, built.model().K),
                               largest_difference(s.model().V, built.model().V)});
  std::printf("largest difference to the build's Q, K, V: %g (before training: %g)\n", diff, untrained);
  EXPECT_EQ(diff, 0.f);
  EXPECT_EQ(it_argmax(s), 1);
  EXPECT_EQ(s.weights_label(false), built.weights_label(false));
  doc = json();
  s.write_results(doc, false);
  EXPECT_EQ(doc["training"]["state"], "done");
  EXPECT_EQ(doc["training"]["step"], 1500);
  EXPECT_GE(doc["training"]["heldout_accuracy"].get<double>(), 0.95);
  EXPECT_FALSE(doc["training"]["curve"].empty());
  // Done: Train again is refused with the reason, Reset is not.
  const Status again = s.training().start();
  EXPECT_FALSE(again.ok);
  EXPECT_NE(again.message.find("finished"), std::string::npos) << again.message;
}

TEST(AppSceneTraining, AnotherSeedsRunIsRestoredFromTheDocumentByTrainingAgain) {
  NEEDS_THREAD_HOST();
  WithHost h;
  SdpaScene s;
  open_trained(s);
  train::Recipe r = s.training().recipe();
  r.seed = 2;
  r.steps = test::full_or_short(300, 40);
  ASSERT_TRUE(s.training().set_recipe(r).ok);
  ASSERT_TRUE(prepare_commit(s, json{{"training", "start"}}).ok);  // setState({training: "start"})
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().state() == TrainRunState::Done && s.trained_qkv().step == r.steps; }, 120));
  const json doc = scene_doc(s, true);
  EXPECT_EQ(doc["training"]["recipe"]["seed"], 2);
  EXPECT_EQ(doc["recipe"]["seed"], 2);  // the trained view names the model it shows
  // A page that has only the build's model: the document trains the same run again, with its progress.
  SdpaScene t;
  open_trained(t);
  ASSERT_TRUE(prepare_commit(t, doc).ok);
  EXPECT_TRUE(t.training().run().running());
  ASSERT_TRUE(wait_for(t, [&] { return t.training().run().state() == TrainRunState::Done && t.trained_qkv().step == r.steps; }, 120));
  const float diff = largest_difference(t.model().Q, s.model().Q);
  std::printf("largest difference between the two pages' Q: %g\n", diff);
  EXPECT_EQ(diff, 0.f);
  EXPECT_EQ(t.weights_label(false), s.weights_label(false));
  // The document of the restored page comes back as it is (nothing to train again).
  EXPECT_TRUE(prepare_commit(t, scene_doc(t, false)).ok);
  EXPECT_FALSE(t.training().run().running());
}

TEST(AppSceneTraining, BadRecipesAndCommandsAreRefusedAndChangeNothing) {
  NEEDS_THREAD_HOST();
  WithHost h;
  SdpaScene s;
  open_trained(s);
  const train::Recipe good = s.training().recipe();
  for (double lr : {0.0, -1.0, std::nan(""), 1e9}) {
    train::Recipe r = good;
    r.learning_rate = lr;
    const Status e = s.training().set_recipe(r);
    EXPECT_FALSE(e.ok) << lr;
    EXPECT_NE(e.message.find("learning rate"), std::string::npos) << e.message;
    EXPECT_EQ(s.training().recipe(), good);
  }
  train::Recipe huge = good;
  huge.steps = 100000000;
  EXPECT_FALSE(s.training().set_recipe(huge).ok);
  train::Recipe other_task = good;
  other_task.task = "induction";
  EXPECT_FALSE(s.training().set_recipe(other_task).ok);
  const int gen = s.generation();
  const Status e = prepare_commit(s, json{{"training", "jump"}});
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.message.find("\"start\", \"pause\" or \"reset\""), std::string::npos) << e.message;
  EXPECT_FALSE(prepare_commit(s, json{{"training", {{"recipe", {{"learning_rate", 0}}}}}}).ok);
  EXPECT_FALSE(prepare_commit(s, json{{"training", 3}}).ok);
  EXPECT_EQ(s.generation(), gen);
  EXPECT_FALSE(s.training().run().started());
}

TEST(AppSceneTraining, WithoutAHostThePanelSaysSoAndTheViewStays) {
  set_train_host(nullptr);
  SdpaScene s;
  open_trained(s);
  const int gen = s.generation();
  const Status e = prepare_commit(s, json{{"training", "start"}});
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.message.find("training is not available here"), std::string::npos) << e.message;
  EXPECT_FALSE(s.training().start().ok);
  EXPECT_EQ(s.training().run().state(), TrainRunState::Failed);
  s.poll();
  EXPECT_EQ(s.generation(), gen);
  EXPECT_EQ(it_argmax(s), 1);
}

TEST(AppSceneTraining, ARunWhoseHostAnotherSceneTookSaysSoAndStartsAgain) {
  NEEDS_THREAD_HOST();
  WithHost h;
  SdpaScene s;
  open_trained(s);
  if (test::kPlumbing) {  // a plumbing run: the same hand-over on a shorter run (the default one ends on "animal")
    train::Recipe r = s.training().recipe();
    r.steps = 300;
    ASSERT_TRUE(s.training().set_recipe(r).ok);
  }
  ASSERT_TRUE(s.training().start().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().step() >= 25; }));
  TrainScene other;
  ASSERT_TRUE(other.start().ok);  // "Watch attention learn" trains on the same host now
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().taken(); }, 5));
  EXPECT_FALSE(s.training().run().running());
  json doc;
  s.write_results(doc, false);
  EXPECT_EQ(doc["training"]["state"], "paused");
  ASSERT_TRUE(wait_for(other, [&] { return other.report().step >= 25; }));
  // Train again: this model starts from step 0 and the other run is the one that loses the host.
  ASSERT_TRUE(s.training().start().ok);
  EXPECT_FALSE(s.training().run().taken());
  ASSERT_TRUE(wait_for(other, [&] { return other.host_taken(); }, 5));
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().state() == TrainRunState::Done; }, 120));
  if (!test::kPlumbing) EXPECT_EQ(it_argmax(s), 1);
}

TEST(AppSceneTraining, SelfAndMultiheadViewsFollowTheirRuns) {
  NEEDS_THREAD_HOST();
  WithHost h;
  SelfScene self;
  ASSERT_TRUE(prepare_commit(self, json{{"preset", "trained"}}).ok);
  test::deliver_checkpoint(self, checkpoint_vector());
  ASSERT_TRUE(self.model().trained);
  const Mat built_q = self.model().Q;
  // A plumbing run follows a shorter run of the same recipe (the Release run trains it to the build's model).
  const int self_steps = test::full_or_short(self.training().recipe().steps, 60);
  if (test::kPlumbing) {
    train::Recipe sr = self.training().recipe();
    sr.steps = self_steps;
    ASSERT_TRUE(self.training().set_recipe(sr).ok);
  }
  ASSERT_TRUE(prepare_commit(self, json{{"training", "reset"}}).ok);
  ASSERT_TRUE(wait_for(self, [&] { return self.weights_label(false) == "random, seed 1"; }));
  EXPECT_TRUE(self.model().trained);  // still the trained view: the model's weights at step 0
  EXPECT_GT(largest_difference(self.model().Q, built_q), 0.1f);
  ASSERT_TRUE(prepare_commit(self, json{{"training", "start"}}).ok);
  const std::string steps_label = std::to_string(self_steps) + " steps";
  ASSERT_TRUE(wait_for(self, [&] { return self.training().run().state() == TrainRunState::Done && self.training_error().ok &&
                                          self.weights_label(false).find(steps_label) != std::string::npos; }, 120));
  if (!test::kPlumbing) EXPECT_EQ(largest_difference(self.model().Q, built_q), 0.f);

  MultiheadScene mh;
  ASSERT_TRUE(prepare_commit(mh, json{{"preset", "trained"}}).ok);
  const auto& hb = heads_checkpoint_bytes();
  test::deliver_checkpoint(mh, std::vector<unsigned char>(hb.begin(), hb.end()));
  ASSERT_TRUE(mh.model().trained);
  train::Recipe r = mh.training().recipe();
  r.steps = test::full_or_short(400, 40);
  ASSERT_TRUE(mh.training().set_recipe(r).ok);
  ASSERT_TRUE(mh.training().reset().ok);
  ASSERT_TRUE(wait_for(mh, [&] { return mh.weights_label(false) == "random, seed 1"; }));
  EXPECT_TRUE(mh.head_patterns().empty());  // measured when the run ends
  ASSERT_TRUE(mh.training().start().ok);
  ASSERT_TRUE(wait_for(mh, [&] { return mh.training().run().state() == TrainRunState::Done && !mh.head_patterns().empty(); }, 120));
  EXPECT_EQ(mh.head_patterns().size(), 2u);
  EXPECT_NE(mh.weights_label(false).find(std::to_string(r.steps) + " steps"), std::string::npos) << mh.weights_label(false);
  json doc = scene_doc(mh);
  EXPECT_EQ(doc["results"]["trained"]["step"], r.steps);
  EXPECT_EQ(doc["training"]["recipe"]["steps"], r.steps);
}

// A link of a trained view whose model the learner trained again (another seed, fewer steps) names that model:
// train_seed, train_steps, train_lr, train_step. Opened on another page it trains the same model there (the
// same bits), even when the build's checkpoint arrives after the run's first weights; a link naming a learning
// rate of 0 is refused with a message and the page shows what it would have without it.
TEST(AppSceneTraining, ALinkOfARetrainedViewTrainsTheSameModelOnAnotherPage) {
  NEEDS_THREAD_HOST();
  WithHost h;
  PlaygroundState a;
  ASSERT_TRUE(parse(set_state_json(a, R"({"scene": "sdpa", "preset": "it-trained"})")).value("ok", false));
  SdpaScene& s = sdpa(a);
  test::deliver_checkpoint(s, checkpoint_vector());
  ASSERT_TRUE(s.trained());
  EXPECT_EQ(state_to_query(a).find("train_"), std::string::npos);  // the build's model: nothing to say
  train::Recipe r = s.training().recipe();
  r.seed = 3;
  r.steps = 40;  // (a link's plumbing: a short run)
  ASSERT_TRUE(s.training().set_recipe(r).ok);
  ASSERT_TRUE(s.training().start().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().state() == TrainRunState::Done && s.trained_qkv().step == 40; }, 120));
  const std::string q = state_to_query(a);
  for (const char* k : {"train_seed=3", "train_steps=40", "train_step=40", "train_lr=0.01"})
    EXPECT_NE(q.find(k), std::string::npos) << k << " in " << q;
  PlaygroundState b;
  apply_url_query(b, "?" + q);
  EXPECT_TRUE(b.errors.empty()) << (b.errors.empty() ? "" : localize(b.errors[0].text));
  SdpaScene& t = sdpa(b);
  EXPECT_TRUE(t.training().run().started());
  ASSERT_TRUE(wait_for(t, [&] { return t.trained_qkv().step > 0 || t.training().run().state() == TrainRunState::Done; }, 120))
      << train_state_name(t.training().run().state()) << " step " << t.training().run().step() << " reports " << t.training().run().reports()
      << " trained " << t.trained() << " pending " << t.trained_pending() << " error " << t.training_error().message << " ck " << t.checkpoint_slot().state_name();
  test::deliver_checkpoint(t, checkpoint_vector());  // the build's checkpoint after the run's first weights: the run's stay
  ASSERT_TRUE(wait_for(t, [&] { return t.training().run().state() == TrainRunState::Done && t.trained_qkv().step == 40; }, 120));
  const float diff = largest_difference(t.model().Q, s.model().Q);
  std::printf("largest difference between the link's Q and the page's: %g\n", diff);
  EXPECT_EQ(diff, 0.f);
  EXPECT_EQ(state_to_query(b), q);
  // A learning rate of 0 in a link: refused with a message.
  PlaygroundState c;
  std::string bad = q;
  bad.replace(bad.find("train_lr=0.01"), 13, "train_lr=0");
  apply_url_query(c, "?" + bad);
  ASSERT_FALSE(c.errors.empty()) << bad << "\n" << state(c, false).dump().substr(0, 600);
  EXPECT_NE(localize(c.errors[0].text).find("train_lr=0"), std::string::npos) << localize(c.errors[0].text);
  EXPECT_FALSE(sdpa(c).training().run().started());
  // Part of the model's fields: refused, nothing trains.
  PlaygroundState d;
  apply_url_query(d, "?scene=sdpa&preset=it-trained&train_seed=3");
  ASSERT_FALSE(d.errors.empty());
  EXPECT_NE(localize(d.errors[0].text).find("together"), std::string::npos) << localize(d.errors[0].text);
  EXPECT_FALSE(sdpa(d).training().run().started());
}

// The panel trains the view's own model: only seed, steps and learning rate change; sizes, batch and the other
// scene's fields are refused by name. After a run finished, a document naming another model still trains it;
// after a failed worker, Reset begins again.
TEST(AppSceneTraining, OnlySeedStepsAndLearningRateChangeAndAFinishedRunDoesNotBlockADocument) {
  NEEDS_THREAD_HOST();
  WithHost h;
  SdpaScene s;
  open_trained(s);
  const train::Recipe good = s.training().recipe();
  for (const json& bad : {json{{"layers", 1}}, json{{"heads", 4}}, json{{"batch", 8}}, json{{"preset", "one-layer"}}, json{{"text", "a b"}}}) {
    const Status e = prepare_commit(s, json{{"training", {{"recipe", bad}}}});
    EXPECT_FALSE(e.ok) << bad.dump();
    EXPECT_EQ(s.training().recipe(), good) << bad.dump();
  }
  train::Recipe one = good;
  one.layers = 1;
  EXPECT_NE(s.training().set_recipe(one).message.find("only its seed, steps and learning rate"), std::string::npos);
  // A run of 100 steps to its end, then a document naming a model of 50 steps: trained, although the panel's run is done.
  train::Recipe r = good;
  r.steps = 100;
  ASSERT_TRUE(s.training().set_recipe(r).ok);
  ASSERT_TRUE(s.training().start().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().state() == TrainRunState::Done && s.trained_qkv().step == 100; }, 120));
  EXPECT_FALSE(s.training().start().ok);  // this recipe's run is finished
  json doc = {{"train_seed", 5}, {"train_steps", 50}, {"train_lr", 0.01}, {"train_step", 50}};
  ASSERT_TRUE(prepare_commit(s, doc).ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().state() == TrainRunState::Done && s.trained_qkv().step == 50; }, 120));
  EXPECT_EQ(s.trained_qkv().recipe.seed, 5u);
}

// The build's model comes back when the trained view is asked for by name: after Reset (step 0 on screen), the
// preset "it-trained" shows the build's checkpoint again, and the run's weights stop going to the view.
TEST(AppSceneTraining, ThePresetBringsBackTheBuildsModelAfterARun) {
  NEEDS_THREAD_HOST();
  WithHost h;
  TwoTrainedViews v;
  const SdpaScene& built = v.built;
  SdpaScene& s = v.s;
  ASSERT_TRUE(s.training().reset().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.trained_qkv().step == 0 && s.training().run().has_report(); }, 120));
  ASSERT_TRUE(s.load_preset("it-trained").ok);
  EXPECT_TRUE(s.trained_pending());  // asked for again: the view waits for the build's checkpoint
  test::deliver_checkpoint(s, checkpoint_vector());
  ASSERT_TRUE(s.trained());
  EXPECT_EQ(s.trained_qkv().step, 1500);
  EXPECT_EQ(largest_difference(s.model().Q, built.model().Q), 0.f);
  EXPECT_EQ(s.weights_label(false), built.weights_label(false));
  for (int k = 0; k < 20; ++k) s.poll();  // the paused run sends nothing more to the view
  EXPECT_EQ(s.trained_qkv().step, 1500);
}

// "Watch attention learn" opened for the first time while a panel trains: the panel's run goes on; the scene
// waits and says so, and its Train starts its own run.
TEST(AppSceneTraining, OpeningWatchAttentionLearnDoesNotStopAPanelsRun) {
  NEEDS_THREAD_HOST();
  WithHost h;
  SdpaScene s;
  open_trained(s);
  train::Recipe r = s.training().recipe();
  r.steps = 3000;
  ASSERT_TRUE(s.training().set_recipe(r).ok);
  ASSERT_TRUE(s.training().start().ok);
  TrainScene other(/*defer=*/true);
  other.ensure_built();  // the learner opens the scene
  for (int k = 0; k < 50; ++k) s.poll();
  EXPECT_FALSE(s.training().run().taken());
  EXPECT_TRUE(other.host_taken());
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().step() >= 50; }));
  ASSERT_TRUE(other.start().ok);
  ASSERT_TRUE(wait_for(s, [&] { return s.training().run().taken(); }, 5));
  ASSERT_TRUE(wait_for(other, [&] { return other.report().step >= 25; }));
}

}  // namespace
}  // namespace ap
