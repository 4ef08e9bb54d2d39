// Encoder–decoders trained side by side (app/seq2seq_race.h), in slices or in workers (a host that trains here as
// a worker would): the states and commands, round-robin progress, the measurement by length on pairs every run
// excluded from its training, the same figures in workers as in slices, the fall back to slices when a worker
// fails, getState's object; and the
// bottleneck scene's use of it (results.accuracy_by_length, setState({training})).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "app/scenes/bottleneck_scene.h"
#include "app/scenes/masks_scene.h"
#include "app/seq2seq_race.h"
#include "core/train/seq2seq_checkpoint.h"
#include "core/small_seq2seq.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;
using train::Seq2SeqAttention;

// Small reversal runs: seconds' worth of the real recipes' shape in a fraction of a second.
train::Seq2SeqRecipe small(Seq2SeqAttention a, int steps = 100) { return small_reversal(a, steps); }

void run_to_end(Seq2SeqRace& race) {
  for (int k = 0; k < 100000 && race.busy(); ++k) race.slice(5.0);
}

TEST(AppSeq2SeqRace, TrainsRoundRobinThenMeasuresByLength) {
  Seq2SeqRace race;
  // 45 pairs a length: measured in slices of kRaceEvalPairs (20, 20, 5), counted, and added up
  ASSERT_TRUE(race.configure({small(Seq2SeqAttention::None), small(Seq2SeqAttention::Additive, 150)}, {3, 5, 8}, 45).ok);
  EXPECT_EQ(race.state(), Seq2SeqRace::State::Idle);
  EXPECT_FALSE(race.slice(5.0));  // nothing to do while idle
  EXPECT_EQ(race.total_steps(), 250);
  ASSERT_TRUE(race.command("start").ok);
  // Round-robin by share of budget: after a few slices both runs are about as far along their own budgets.
  while (race.done_steps() < 100) race.slice(1.0);
  const double a = static_cast<double>(race.run(0).step) / 100, b = static_cast<double>(race.run(1).step) / 150;
  std::printf("after %d steps: run 0 at %.3f of its budget, run 1 at %.3f\n", race.done_steps(), a, b);
  EXPECT_NEAR(a, b, 0.05);
  // Pause stops the slices; start goes on from there.
  race.pause();
  const int at = race.done_steps();
  EXPECT_FALSE(race.slice(5.0));
  EXPECT_EQ(race.done_steps(), at);
  ASSERT_TRUE(race.start().ok);
  run_to_end(race);
  ASSERT_EQ(race.state(), Seq2SeqRace::State::Done);
  ASSERT_TRUE(race.measured());
  EXPECT_EQ(race.run(0).step, 100);
  EXPECT_EQ(race.run(1).step, 150);
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(race.tokens_by_length(k).size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_GE(race.tokens_by_length(k)[i], 0.0);
      EXPECT_LE(race.tokens_by_length(k)[i], 1.0);
      EXPECT_LE(race.sentences_by_length(k)[i], race.tokens_by_length(k)[i] + 1e-12);  // a whole string right has every word right
    }
  }
  EXPECT_GT(race.train_seconds(), 0.0);
  // The measurement equals held_out_scores over the same pairs (length_set), computed again here.
  std::vector<train::Seq2SeqPair> pairs = train::length_set(*race.trainer(1), {5}, 45);
  double tok = 0, sent = 0;
  train::held_out_scores(race.trainer(1)->model(), pairs, &tok, &sent);
  EXPECT_EQ(race.tokens_by_length(1)[1], tok);
  EXPECT_EQ(race.sentences_by_length(1)[1], sent);
  // getState's object.
  const json j = race.json();
  EXPECT_EQ(j["state"], "done");
  EXPECT_EQ(j["step"], 250);
  EXPECT_EQ(j["runs"][1]["attention"], "additive");
  EXPECT_EQ(j["runs"][0]["curve"].size(), 3u);  // steps 0, 50, 100
  EXPECT_EQ(j["lengths"], json({3, 5, 8}));
  // Start when done changes nothing; reset goes back to nothing trained.
  ASSERT_TRUE(race.command("start").ok);
  EXPECT_EQ(race.state(), Seq2SeqRace::State::Done);
  ASSERT_TRUE(race.command("reset").ok);
  EXPECT_EQ(race.state(), Seq2SeqRace::State::Idle);
  EXPECT_EQ(race.runs(), 0);
  EXPECT_FALSE(race.measured());
}

TEST(AppSeq2SeqRace, TheSameRecipesGiveTheSameWeights) {
  Seq2SeqRace a, b;
  ASSERT_TRUE(a.configure({small(Seq2SeqAttention::Additive, 60)}, {4}, 5).ok);
  ASSERT_TRUE(b.configure({small(Seq2SeqAttention::Additive, 60)}, {4}, 5).ok);
  ASSERT_TRUE(a.start().ok);
  ASSERT_TRUE(b.start().ok);
  run_to_end(a);
  for (int k = 0; k < 100000 && b.busy(); ++k) b.slice(0.5);  // other slices, the same steps
  EXPECT_EQ(a.trainer(0)->evaluated_weights(), b.trainer(0)->evaluated_weights());
  EXPECT_EQ(a.tokens_by_length(0), b.tokens_by_length(0));
}

// A race host that trains each run here, a chunk of units per poll, its recipe sent as bytes and its reports
// packed and unpacked as a worker's are (src/program/web_race_host.cpp's protocol, without the browser).
class LocalRaceHost final : public RaceHost {
 public:
  int begin(const train::Seq2SeqRecipe& r, const std::vector<int>& lengths, int per_length) override {
    if (refuse) return 0;
    std::vector<uint8_t> bytes;
    train::write_seq2seq_recipe(r, &bytes);
    train::Seq2SeqRecipe read;
    if (!train::read_seq2seq_recipe(bytes.data(), bytes.size(), &read).ok) return 0;
    Run& run = runs[++next];
    if (!run.run.init(read, lengths, per_length).ok) return 0;
    return next;
  }
  void run(int h) override { runs[h].running = true; }
  void pause(int h) override { runs[h].running = false; }
  void end(int h) override { runs.erase(h), ++ended; }
  bool poll(int h, train::RunReport* out, std::vector<uint8_t>* checkpoint, std::string* error) override {
    if (h == fail) {
      *error = "the training worker did not load";
      return false;
    }
    Run& r = runs.at(h);
    if (!r.running || r.sent_done) return false;
    for (int k = 0; k < 7 && r.run.advance(); ++k) {
    }
    if (h == poison && r.run.trainer().step() >= 52)  // a parameter turned NaN: the next step diverges
      r.run.trainer().model().params()[0].value.setConstant(std::nanf(""));
    std::vector<double> packed;
    train::RunReport report = train::make_run_report(r.run, 0.001 * h);
    if (h == lie) report.step = r.run.trainer().recipe().steps + 1;  // more steps than the race asked for
    train::encode_run_report(report, &packed);
    EXPECT_TRUE(train::decode_run_report(packed.data(), packed.size(), out).ok);
    if (r.run.done()) {
      r.sent_done = true;
      train::write_seq2seq_checkpoint(r.run.trainer(), checkpoint);
    }
    return true;
  }
  struct Run {
    train::Seq2SeqRun run;
    bool running = false, sent_done = false;
  };
  std::map<int, Run> runs;
  int next = 0, ended = 0;
  bool refuse = false;
  int fail = -1;  // a handle whose worker fails at its first poll
  int lie = -1;   // a handle whose worker reports a step past its recipe's
  int poison = -1;  // a handle whose run diverges once past step 52 (its last evaluation: step 50)
};

// The host of one test, unset when it ends.
struct HostForTest {
  explicit HostForTest(RaceHost* h) { set_race_host(h); }
  ~HostForTest() { set_race_host(nullptr); }
};

TEST(AppSeq2SeqRace, InWorkersTheFiguresAreThoseOfSlices) {
  const std::vector<train::Seq2SeqRecipe> recipes = {small(Seq2SeqAttention::None, 60), small(Seq2SeqAttention::Additive, 80)};
  Seq2SeqRace here;
  ASSERT_TRUE(here.configure(recipes, {3, 6}, 25).ok);
  ASSERT_TRUE(here.start().ok);
  run_to_end(here);
  ASSERT_EQ(here.state(), Seq2SeqRace::State::Done);
  EXPECT_EQ(here.json()["where"], "page");

  LocalRaceHost host;
  HostForTest use(&host);
  Seq2SeqRace there;
  ASSERT_TRUE(there.configure(recipes, {3, 6}, 25).ok);
  ASSERT_TRUE(there.start().ok);
  EXPECT_TRUE(there.in_workers());
  EXPECT_EQ(there.trainer(0), nullptr);  // nothing trains here
  EXPECT_EQ(there.json()["where"], "workers");
  EXPECT_EQ(there.state(), Seq2SeqRace::State::Running);
  // Pause: the workers stop, nothing moves; start goes on.
  for (int k = 0; k < 3; ++k) there.slice(5.0);
  there.pause();
  EXPECT_FALSE(host.runs[1].running);
  const int at = there.done_steps();
  EXPECT_GT(at, 0);
  EXPECT_FALSE(there.slice(5.0));
  EXPECT_EQ(there.done_steps(), at);
  ASSERT_TRUE(there.start().ok);
  EXPECT_TRUE(host.runs[2].running);
  run_to_end(there);
  ASSERT_EQ(there.state(), Seq2SeqRace::State::Done);
  ASSERT_TRUE(there.measured());
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(there.tokens_by_length(k), here.tokens_by_length(k)) << k;
    EXPECT_EQ(there.sentences_by_length(k), here.sentences_by_length(k)) << k;
    ASSERT_EQ(there.run(k).curve.size(), here.run(k).curve.size());
    for (size_t i = 0; i < here.run(k).curve.size(); ++i) {
      const double la = there.run(k).curve[i].loss, lb = here.run(k).curve[i].loss;
      EXPECT_TRUE(la == lb || (std::isnan(la) && std::isnan(lb))) << la << " vs " << lb;  // (step 0's: NaN, no step yet)
      EXPECT_EQ(there.run(k).curve[i].accuracy, here.run(k).curve[i].accuracy);
    }
    std::vector<uint8_t> a, b;
    ASSERT_TRUE(here.checkpoint(k, &a));
    ASSERT_TRUE(there.checkpoint(k, &b));
    EXPECT_EQ(a, b) << "run " << k << "'s checkpoint";
  }
  EXPECT_EQ(there.done_steps(), 140);
  EXPECT_EQ(there.train_seconds(), 0.002);  // the slowest run's time in its worker
  EXPECT_EQ(there.json()["runs"][1]["heldout_accuracy"], here.json()["runs"][1]["heldout_accuracy"]);
  // Reset ends the workers.
  there.reset();
  EXPECT_EQ(host.ended, 2);
  EXPECT_TRUE(host.runs.empty());
}

TEST(AppSeq2SeqRace, WithoutWorkersOrWhenOneFailsTheRaceTrainsInSlices) {
  const std::vector<train::Seq2SeqRecipe> recipes = {small(Seq2SeqAttention::None, 30), small(Seq2SeqAttention::Additive, 30)};
  LocalRaceHost host;
  HostForTest use(&host);
  // A host that cannot begin every run: none of them in workers.
  host.refuse = true;
  Seq2SeqRace race;
  ASSERT_TRUE(race.configure(recipes).ok);
  ASSERT_TRUE(race.start().ok);
  EXPECT_FALSE(race.in_workers());
  ASSERT_NE(race.trainer(0), nullptr);
  run_to_end(race);
  EXPECT_EQ(race.state(), Seq2SeqRace::State::Done);
  // A worker that fails: the race starts again here, the reason kept and in getState.
  host.refuse = false;
  race.reset();
  ASSERT_TRUE(race.start().ok);
  ASSERT_TRUE(race.in_workers());
  host.fail = host.next;  // the second run's worker
  EXPECT_TRUE(race.slice(5.0));
  EXPECT_FALSE(race.in_workers());
  EXPECT_EQ(race.host_error(), "the training worker did not load");
  EXPECT_EQ(race.json()["host_error"], "the training worker did not load");
  EXPECT_EQ(race.state(), Seq2SeqRace::State::Running);
  EXPECT_TRUE(host.runs.empty());  // both workers ended
  run_to_end(race);
  EXPECT_EQ(race.state(), Seq2SeqRace::State::Done);
  EXPECT_EQ(race.done_steps(), 60);
  // This race stays in slices; another, whose worker reports what it did not ask for, falls back the same way.
  race.reset();
  ASSERT_TRUE(race.start().ok);
  EXPECT_FALSE(race.in_workers());
  host.fail = -1;
  host.lie = host.next + 1;  // the first run's worker of the next race
  Seq2SeqRace other;
  ASSERT_TRUE(other.configure(recipes).ok);
  ASSERT_TRUE(other.start().ok);
  ASSERT_TRUE(other.in_workers());
  EXPECT_TRUE(other.slice(5.0));
  EXPECT_FALSE(other.in_workers());
  EXPECT_EQ(other.host_error(), "the training worker sent a report this page cannot read");
  run_to_end(other);
  EXPECT_EQ(other.state(), Seq2SeqRace::State::Done);
}

// A run that diverges (in its worker) stops there, keeps the weights of its last evaluation and is measured on
// them; the race ends, says so beside the runs (fault, getState's runs[k].fault) and offers no checkpoint of it;
// the other run is not touched.
TEST(AppSeq2SeqRace, ARunThatDivergesStopsAndTheRaceSaysSo) {
  const std::vector<train::Seq2SeqRecipe> recipes = {small(Seq2SeqAttention::None, 60), small(Seq2SeqAttention::Additive, 60)};
  LocalRaceHost host;
  HostForTest use(&host);
  host.poison = host.next + 2;  // the second run's worker
  Seq2SeqRace race;
  ASSERT_TRUE(race.configure(recipes, {3, 6}, 10).ok);
  ASSERT_TRUE(race.start().ok);
  ASSERT_TRUE(race.in_workers());
  run_to_end(race);
  ASSERT_EQ(race.state(), Seq2SeqRace::State::Done);
  EXPECT_TRUE(race.in_workers());  // a divergence is the run's, not the worker's fault
  EXPECT_FALSE(race.run(0).diverged);
  EXPECT_TRUE(race.fault(0).ok);
  ASSERT_TRUE(race.run(1).diverged);
  EXPECT_EQ(race.run(1).step, 50);  // back to its last evaluation
  EXPECT_EQ(race.run(1).curve.back().step, 50);
  const Status f = race.fault(1);
  EXPECT_FALSE(f.ok);
  EXPECT_EQ(f.message, "run 2 (additive): the training diverged; it stopped, and the weights of step 50 are kept");
  EXPECT_EQ(race.fault(1, "with attention").message, "with attention: the training diverged; it stopped, and the weights of step 50 are kept");
  const json j = race.json();
  EXPECT_EQ(j["runs"][1]["diverged"], true);
  EXPECT_EQ(j["runs"][1]["fault"], f.message);
  EXPECT_FALSE(j["runs"][0].contains("fault"));
  ASSERT_TRUE(race.measured());
  ASSERT_EQ(race.tokens_by_length(1).size(), 2u);  // measured on the kept weights (finite: not the NaN ones)
  for (double x : race.tokens_by_length(1)) EXPECT_TRUE(std::isfinite(x) && x > 0) << x;
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(race.checkpoint(0, &bytes));
  EXPECT_FALSE(race.checkpoint(1, &bytes));
  EXPECT_EQ(race.run(0).step, 60);
}

TEST(AppSeq2SeqRace, BadRecipesAndCommandsAreRefusedByName) {
  Seq2SeqRace race;
  train::Seq2SeqRecipe r = small(Seq2SeqAttention::None);
  r.learning_rate = 0;
  Status s = race.configure({r});
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("learning"), std::string::npos) << s.message;
  EXPECT_FALSE(race.configure({}).ok);
  EXPECT_FALSE(race.configure({small(Seq2SeqAttention::None)}, {0}, 5).ok);
  EXPECT_FALSE(race.configure({small(Seq2SeqAttention::None)}, {4}, 0).ok);
  s = race.command("start");  // never configured
  EXPECT_FALSE(s.ok);
  ASSERT_TRUE(race.configure({small(Seq2SeqAttention::None)}).ok);
  s = race.command("jump");
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("\"start\", \"pause\" or \"reset\""), std::string::npos) << s.message;
  json rest;
  std::string cmd;
  EXPECT_FALSE(take_race_command(json{{"training", 3}}, race, &rest, &cmd).ok);
  EXPECT_FALSE(take_race_command(json{{"training", "stop"}}, race, &rest, &cmd).ok);
  ASSERT_TRUE(take_race_command(json{{"training", json::object()}, {"x", 1}}, race, &rest, &cmd).ok);
  EXPECT_EQ(cmd, "");
  EXPECT_EQ(rest, json({{"x", 1}}));
}

TEST(AppSeq2SeqRace, ExcludedPairsAreRefusedAfterTheFirstStep) {
  train::Seq2SeqTrainer t;
  ASSERT_TRUE(t.init(small(Seq2SeqAttention::None)).ok);
  const std::vector<train::Seq2SeqPair> pairs = train::length_set(t, {4, 6}, 3);
  ASSERT_EQ(pairs.size(), 6u);
  EXPECT_EQ(pairs[0].src.size(), 4u);
  EXPECT_EQ(pairs[5].src.size(), 6u);
  ASSERT_TRUE(t.exclude(pairs).ok);
  t.advance(1);
  EXPECT_FALSE(t.exclude(pairs).ok);
}

// The bottleneck scene's last stage: the race of Seq2Seq without and with attention, its measurement by length in
// getState's results, driven by setState. Shortened recipes here; the build's reach their targets in
// test_train_seq2seq_trainer.cpp and in the browser test.
TEST(AppSeq2SeqRace, TheBottleneckSceneReportsAccuracyByLength) {
  BottleneckScene s;
  EXPECT_EQ(s.race().recipes().size(), 2u);
  EXPECT_EQ(s.race().recipes()[0].attention, Seq2SeqAttention::None);
  EXPECT_EQ(s.race().recipes()[1].attention, Seq2SeqAttention::Additive);
  EXPECT_EQ(s.race().recipes()[0], train::reversal_recipe(Seq2SeqAttention::None));
  EXPECT_EQ(s.stages().size(), 5u);
  EXPECT_FALSE(scene_doc(s)["results"].contains("accuracy_by_length"));
  ASSERT_TRUE(s.race().configure({small(Seq2SeqAttention::None), small(Seq2SeqAttention::Additive)}, {3, 8}, 8).ok);
  ASSERT_TRUE(prepare_commit(s, json{{"training", "start"}, {"d_h", 16}}).ok);
  EXPECT_EQ(s.params().d_h, 16);  // the rest of the document applies too
  EXPECT_TRUE(s.wants_time());
  for (int k = 0; k < 100000 && s.wants_time(); ++k) s.run_slice(5.0);
  const json doc = scene_doc(s);
  const json& a = doc["results"]["accuracy_by_length"];
  EXPECT_EQ(a["lengths"], json({3, 8}));
  ASSERT_EQ(a["with_attention"].size(), 2u);
  ASSERT_EQ(a["without_attention"].size(), 2u);
  EXPECT_EQ(a["pairs_per_length"], 8);
  EXPECT_EQ(a["with_attention"][1].get<double>(), s.race().tokens_by_length(1)[1]);
  EXPECT_EQ(doc["training"]["state"], "done");
  // setState(getState()) is accepted (the measurement is not restored, nor does it restart).
  ASSERT_TRUE(prepare_commit(s, doc).ok);
  EXPECT_EQ(scene_doc(s)["training"]["state"], "done");
  EXPECT_NE(s.explain(static_cast<int>(BottleneckItem::TrainedLength), 1, 1).find("with attention"), std::string::npos);
  const Status bad = prepare_commit(s, json{{"training", "begin"}});
  EXPECT_FALSE(bad.ok);
  ASSERT_TRUE(prepare_commit(s, json{{"training", "reset"}}).ok);
  EXPECT_FALSE(scene_doc(s)["results"].contains("accuracy_by_length"));
}

// The masks scene's last stage: the causal LM trained with its mask and with the mask forgotten
// (app/bug_training.h), driven by setState, reported as results.bug_training. A shortened budget here; the
// build's recipe is measured in test_train_mask_bug_lm.cpp and in the browser test.
TEST(AppSeq2SeqRace, TheMasksSceneTrainsWithTheBug) {
  MasksScene s;
  EXPECT_EQ(s.stages().size(), 5u);
  EXPECT_EQ(s.race().recipe(), train::BugLabRecipe{});
  train::BugLabRecipe r;
  r.steps = 50;
  ASSERT_TRUE(s.race().configure(r).ok);
  EXPECT_EQ(scene_doc(s)["training"]["state"], "idle");
  EXPECT_FALSE(scene_doc(s)["results"].contains("bug_training"));
  EXPECT_FALSE(prepare_commit(s, json{{"training", "train"}}).ok);
  ASSERT_TRUE(prepare_commit(s, json{{"training", "start"}}).ok);
  EXPECT_TRUE(s.wants_time());
  ASSERT_TRUE(prepare_commit(s, json{{"training", "pause"}}).ok);
  EXPECT_FALSE(s.wants_time());
  ASSERT_TRUE(prepare_commit(s, json{{"training", "start"}}).ok);
  for (int k = 0; k < 100000 && s.wants_time(); ++k) s.run_slice(5.0);
  const json doc = scene_doc(s);
  EXPECT_EQ(doc["training"]["state"], "done");
  EXPECT_EQ(doc["training"]["step"], 150);  // three runs of 50
  const json& b = doc["results"]["bug_training"];
  EXPECT_EQ(b["bug"], "causal_forgotten");
  EXPECT_EQ(b["train_loss_correct"].get<double>(), s.race().run(0).train_loss());
  EXPECT_EQ(b["train_loss_bug"].get<double>(), s.race().run(1).train_loss());
  EXPECT_EQ(b["generation_accuracy_bug"].get<double>(), s.race().generation(1));
  EXPECT_EQ(b["prompts"], train::kBugLabPrompts);
  EXPECT_EQ(doc["training"]["runs"][1]["mask"], "forgotten");
  EXPECT_EQ(doc["training"]["runs"][2]["mask"], "after_softmax");
  EXPECT_EQ(b["mask_after_softmax"]["train_loss"].get<double>(), s.race().run(2).train_loss());
  EXPECT_EQ(b["mask_after_softmax"]["generation_accuracy"].get<double>(), s.race().generation(2));
  EXPECT_EQ(b["mask_after_softmax"]["teacher_forced_accuracy"].get<double>(), s.race().teacher_forced(2));
  // Measured a batch of prompts a slice: the same figures as each model measured whole, once trained alone.
  for (int k = 0; k < BugTraining::kRuns; ++k) {
    train::BugLabRun alone;
    ASSERT_TRUE(alone.init(r, BugTraining::kMasks[k]).ok);
    alone.advance(r.steps);
    EXPECT_EQ(s.race().teacher_forced(k), alone.teacher_forced_accuracy(train::kBugLabPrompts)) << "run " << k;
    EXPECT_EQ(s.race().generation(k), alone.generation_accuracy(train::kBugLabPrompts)) << "run " << k;
    EXPECT_EQ(s.race().sample(k).written, alone.generate_sample(0).written) << "run " << k;
  }
  ASSERT_TRUE(prepare_commit(s, doc).ok);  // getState back: accepted, nothing restarts
  EXPECT_EQ(scene_doc(s)["training"]["state"], "done");
  ASSERT_TRUE(prepare_commit(s, json{{"training", "reset"}}).ok);
  EXPECT_FALSE(scene_doc(s)["results"].contains("bug_training"));
}

}  // namespace
}  // namespace ap
