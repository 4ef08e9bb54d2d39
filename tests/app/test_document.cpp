// The state document (app/api.h, app/scene.h): for every scene and every preset, setState(getState())
// restores the same document and the same results, also on a state that showed something else; the URL
// codec round-trips the same document; contradictory or disagreeing fields are refused, naming both, and
// leave the state unchanged; the SDPA presets still give the getState taken before scenes existed
// (tests/app/golden/, written by the foundation build).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/scenes/sdpa_scene.h"
#include "app/url.h"
#include "core/checkpoint_bytes.h"
#include "helpers.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

// The document without what describes the page rather than the view.
json view_of(const PlaygroundState& st) {
  json j = state(st, true);
  for (const char* k : {"errors", "frames", "view", "hover"}) j.erase(k);
  return j;
}

struct Case {
  std::string scene, preset;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.scene << "/" << c.preset; }

// What the page's view does for a trained view: hands the fetched checkpoint over (the SDPA preset "it-trained").
void settle(PlaygroundState& st) {
  SdpaScene* s = st.get<SdpaScene>();
  if (s && s->checkpoint() == SdpaScene::Checkpoint::Wanted) {
    const auto& b = default_checkpoint_bytes();
    test::deliver_checkpoint(*s, std::vector<unsigned char>(b.begin(), b.end()));
  }
}

std::vector<Case> every_preset() {
  PlaygroundState st;
  std::vector<Case> v;
  for (const auto& s : st.scenes)
    for (const auto& p : s->presets()) v.push_back({s->id(), p.id});
  return v;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.scene + "_" + info.param.preset;
  for (char& c : n) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class AppDocument : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    // The long sentence's round trips: natively and in wasm (its preset still builds here, below).
    if (test::kSanitized && GetParam().preset == "long" &&
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()).rfind("EveryPresetBuilds", 0) != 0)
      GTEST_SKIP() << "the long sentence's round trips: run natively and in wasm";
  }
  void TearDown() override { set_lang(Lang::En); }
  // A state showing the case: its scene, its preset, a stage in the middle.
  void open(PlaygroundState& st) {
    const json r = parse(set_state_json(st, json{{"scene", GetParam().scene}, {"preset", GetParam().preset}}.dump()));
    ASSERT_EQ(r.value("ok", false), true) << r.dump();
    settle(st);
    ASSERT_EQ(parse(set_state_json(st, R"({"step": {"index": 1, "sub": 2}})")).value("ok", false), true);
  }
};

TEST_P(AppDocument, EveryPresetBuildsWithoutAMessage) {
  PlaygroundState st;
  open(st);
  EXPECT_TRUE(st.errors.empty());
  EXPECT_EQ(str(state(st)["scene"]), GetParam().scene);
}

TEST_P(AppDocument, SetStateOfGetStateIsAcceptedAndChangesNothing) {
  PlaygroundState st;
  open(st);
  const json before = view_of(st);
  const json r = parse(set_state_json(st, get_state_json(st, true)));
  EXPECT_EQ(r.value("ok", false), true) << r.dump().substr(0, 300);
  EXPECT_EQ(view_of(st), before);
}

TEST_P(AppDocument, GetStateRestoresTheViewOnAStateThatShowedSomethingElse) {
  PlaygroundState a;
  open(a);
  set_lang(Lang::Zh);
  const std::string doc = get_state_json(a, true);
  const json want = view_of(a);
  set_lang(Lang::En);
  // Another view entirely: every other scene and preset, another stage, English.
  PlaygroundState b;
  ASSERT_EQ(parse(set_state_json(b, R"({"scene": "sdpa", "text": "a completely different sentence here", "d_k": 3, "mask": "causal"})")).value("ok", false), true);
  const json r = parse(set_state_json(b, doc));
  ASSERT_EQ(r.value("ok", false), true) << r.dump().substr(0, 300);
  settle(b);
  EXPECT_EQ(view_of(b), want);
  EXPECT_EQ(lang(), Lang::Zh);
}

TEST_P(AppDocument, WithoutTheResultsTheParametersAloneRestoreTheView) {
  PlaygroundState a;
  open(a);
  const json want = view_of(a);
  const json params = state_document(a, false, false, false);  // what the URL writes
  PlaygroundState b;
  ASSERT_EQ(parse(set_state_json(b, params.dump())).value("ok", false), true) << params.dump().substr(0, 300);
  settle(b);
  EXPECT_EQ(view_of(b), want);
}

TEST_P(AppDocument, TheUrlRoundTripsTheView) {
  PlaygroundState a;
  open(a);
  const json want = view_of(a);
  const std::string q = state_to_query(a);
  PlaygroundState b;
  apply_url_query(b, "?" + q);
  settle(b);
  EXPECT_TRUE(b.errors.empty()) << q << "\n" << (b.errors.empty() ? "" : localize(b.errors[0].text));
  EXPECT_EQ(view_of(b), want) << q;
}

INSTANTIATE_TEST_SUITE_P(EveryPreset, AppDocument, ::testing::ValuesIn(every_preset()), case_name);

// ---- hand-set matrices through the URL ------------------------------------------------------------------------

TEST(AppDocumentUrl, HandEditedMatricesTravelInTheVersionedFragment) {
  PlaygroundState a;
  ASSERT_EQ(parse(set_state_json(a, R"({"preset": "cats"})")).value("ok", false), true);
  ASSERT_EQ(parse(set_state_json(a, R"({"matrices": {"Q": [[1.5, -2], [0.25, 1e-3], [3, 4]]}, "mask": "causal"})")).value("ok", false), true);
  const std::string q = state_to_query(a);
  EXPECT_NE(q.find("m=v1."), std::string::npos) << q;
  PlaygroundState b;
  apply_url_query(b, q);
  EXPECT_TRUE(b.errors.empty());
  EXPECT_EQ(view_of(b), view_of(a)) << q;
  EXPECT_FLOAT_EQ(model(b).Q(1, 1), 1e-3f);
}

TEST(AppDocumentUrl, MatrixFragmentRejectsDamage) {
  json m;
  const json good = {{"Q", {{1.0, 2.0}, {3.0, 4.0}}}};
  const std::string enc = encode_matrices(good);
  ASSERT_TRUE(decode_matrices(enc, &m).ok);
  EXPECT_EQ(m, good);
  for (const std::string& bad : {std::string("v2.AAAA"), enc.substr(0, enc.size() - 3), enc + "AAAA", std::string("v1.!!"), std::string("")})
    EXPECT_FALSE(decode_matrices(bad, &m).ok) << bad;
}

TEST(AppDocumentUrl, ShortLinksOfBeforeStillWork) {
  PlaygroundState st;
  apply_url_query(st, "?preset=cats&lang=zh");
  EXPECT_TRUE(st.errors.empty());
  EXPECT_EQ(model(st).trace.d_k, 2);
  EXPECT_EQ(lang(), Lang::Zh);
  set_lang(Lang::En);
}

TEST(AppDocumentUrl, ASceneParameterOpensThatScene) {
  PlaygroundState st;
  apply_url_query(st, "?scene=scaling&d_k=256&lang=en");
  EXPECT_TRUE(st.errors.empty());
  EXPECT_STREQ(st.scene().id(), "scaling");
  EXPECT_EQ(state(st)["d_k"], 256);
}

// ---- conflicts and derived fields ------------------------------------------------------------------------------

struct Refusal {
  const char* name;
  const char* request;
  std::vector<const char*> mentions;  // the message names each
};

void PrintTo(const Refusal& r, std::ostream* os) { *os << r.name; }

class AppDocumentRefusal : public ::testing::TestWithParam<Refusal> {};

TEST_P(AppDocumentRefusal, IsRefusedNamingBothAndChangesNothing) {
  PlaygroundState st;
  ASSERT_EQ(parse(set_state_json(st, R"({"preset": "cats"})")).value("ok", false), true);
  const json before = view_of(st);
  const json r = parse(set_state_json(st, GetParam().request));
  EXPECT_EQ(r.value("ok", true), false) << r.dump();
  for (const char* m : GetParam().mentions) EXPECT_NE(str(r["error"]).find(m), std::string::npos) << m << " in " << r.dump();
  EXPECT_EQ(view_of(st), before);
}

INSTANTIATE_TEST_SUITE_P(
    Conflicts, AppDocumentRefusal,
    ::testing::Values(
        Refusal{"TextWithMatrices", R"({"matrices": {"Q": [[1,0],[0,1],[1,1]], "K": [[1,0],[0,1],[1,1]], "V": [[1,0],[0,1],[1,1]]}, "text": "hello world"})", {"text", "matrices"}},
        Refusal{"CustomSourceWithText", R"({"source": "custom", "text": "hello world"})", {"text", "custom"}},
        Refusal{"ProjectionSourceWithOtherMatrices", R"({"source": "projection", "text": "I love cats", "matrices": {"Q": [[9]]}})", {"matrices.Q", "other fields"}},
        Refusal{"WrongN", R"({"n": 4})", {"n", "3"}},
        Refusal{"WrongDv", R"({"d_v": 7})", {"d_v"}},
        Refusal{"WrongDkWithMatrices", R"({"source": "custom", "d_k": 5})", {"d_k", "2"}},
        Refusal{"WrongWeights", R"({"matrices": {"weights": [[1,0,0],[0,1,0],[0,0,1]]}})", {"matrices.weights"}},
        Refusal{"TokensDisagreeWithText", R"({"text": "a b c", "tokens": ["x", "y", "z"]})", {"tokens", "text"}},
        Refusal{"TooManyLabels", R"({"tokens": ["a", "b", "c", "d"]})", {"tokens", "rows of Q"}},
        Refusal{"UnknownScene", R"({"scene": "nope"})", {"scene", "sdpa"}},
        Refusal{"FieldOfAnotherScene", R"({"scene": "scaling", "text": "hi"})", {"text"}},
        Refusal{"StepPastTheScenesStages", R"({"scene": "scaling", "step": 6})", {"step.index", "3"}},
        Refusal{"ScalingResultsDisagree", R"({"scene": "scaling", "results": {"var_raw": 1}})", {"results"}},
        Refusal{"HugeValueRefusedBeforeFloat", R"({"matrices": {"Q": [[1e300, 0], [0, 1], [1, 1]]}})", {"too large"}},
        Refusal{"NestedTooDeep", "{\"step\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", {"nested"}}),
    [](const ::testing::TestParamInfo<Refusal>& i) { return std::string(i.param.name); });

TEST(AppDocumentSafety, FiveThousandLevelsDeepIsRefusedWithoutRecursing) {
  PlaygroundState st;
  std::string deep = "{\"step\": " + std::string(5000, '[') + "1" + std::string(5000, ']') + "}";
  const json r = parse(set_state_json(st, deep));
  EXPECT_EQ(r.value("ok", true), false);
  EXPECT_NE(str(r["error"]).find("nested"), std::string::npos) << r.dump();
}

TEST(AppDocumentSafety, DerivedFieldsThatAgreeAreAccepted) {
  PlaygroundState st;
  const json r = parse(set_state_json(st, R"({"text": "I love cats", "n": 3, "m": 3, "tokens": ["I", "love", "cats"], "key_tokens": ["I", "love", "cats"], "d_v": 4})"));
  EXPECT_EQ(r.value("ok", false), true) << r.dump();
}

TEST(AppDocumentSafety, PageReportsAreIgnored) {
  PlaygroundState st;
  const json r = parse(set_state_json(st, R"({"errors": ["x"], "frames": 99, "view": {"width": 1}, "hover": "y"})"));
  EXPECT_EQ(r.value("ok", false), true) << r.dump();
}

TEST(AppDocumentSafety, SwitchingScenesKeepsEachScenesState) {
  PlaygroundState st;
  ASSERT_EQ(parse(set_state_json(st, R"({"preset": "causal", "step": 2})")).value("ok", false), true);
  const json sdpa_view = view_of(st);
  ASSERT_EQ(parse(set_state_json(st, R"({"scene": "scaling", "d_k": 16, "step": 1})")).value("ok", false), true);
  const json scaling_view = view_of(st);
  ASSERT_EQ(parse(set_state_json(st, R"({"scene": "sdpa"})")).value("ok", false), true);
  EXPECT_EQ(view_of(st), sdpa_view);
  ASSERT_EQ(parse(set_state_json(st, R"({"scene": "scaling"})")).value("ok", false), true);
  EXPECT_EQ(view_of(st), scaling_view);
}

// ---- every stage of every scene has its words -------------------------------------------------------------------

TEST(AppDocumentStages, EveryStageHasAnIdTitleFormulaIdeaAndChinese) {
  PlaygroundState st;
  for (const auto& s : st.scenes) {
    EXPECT_EQ(static_cast<int>(s->stages().size()), s->timeline.stage_count()) << s->id();
    for (const StageInfo& g : s->stages()) {
      for (const char* f : {g.id, g.title, g.formula, g.idea}) EXPECT_TRUE(f && *f) << s->id();
      set_lang(Lang::Zh);
      EXPECT_STRNE(tr(g.title), g.title) << s->id() << ": " << g.title;
      EXPECT_STRNE(tr(g.idea), g.idea) << s->id() << ": " << g.idea;
      set_lang(Lang::En);
    }
    set_lang(Lang::Zh);
    EXPECT_STRNE(tr(s->title()), s->title());
    for (const PresetInfo& p : s->presets()) {
      EXPECT_STRNE(tr(p.title), p.title) << p.id;
      EXPECT_STRNE(tr(p.note), p.note) << p.id;
    }
    set_lang(Lang::En);
  }
}

// ---- golden getState per SDPA preset, taken before the refactor ------------------------------------------------

json read_golden(const std::string& name) {
  std::ifstream f(std::string(AP_TEST_DATA) + "/app/golden/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str(), nullptr, false);
}

void expect_close(const json& got, const json& want, const std::string& where) {
  if (want.is_number()) {
    ASSERT_TRUE(got.is_number()) << where;
    // Relative 1e-5: the golden files were written natively; wasm sums some dot products in another order.
    EXPECT_NEAR(got.get<double>(), want.get<double>(), 1e-5 * std::max(1.0, std::fabs(want.get<double>()))) << where;
  } else if (want.is_array()) {
    ASSERT_TRUE(got.is_array() && got.size() == want.size()) << where;
    for (size_t i = 0; i < want.size(); ++i) expect_close(got[i], want[i], where + "[" + std::to_string(i) + "]");
  } else if (want.is_object()) {
    for (auto it = want.begin(); it != want.end(); ++it) {
      ASSERT_TRUE(got.contains(it.key())) << where << "." << it.key();
      expect_close(got[it.key()], it.value(), where + "." + it.key());
    }
  } else {
    EXPECT_EQ(got, want) << where;
  }
}

class AppGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(AppGolden, GetStateMatchesTheFoundationBuild) {
  if (GetParam() == "long") LARGE_SIZES_NOT_UNDER_SANITIZERS();  // (22 MB of numbers walked in the test file)
  const json want = read_golden("sdpa_" + GetParam() + ".json");
  ASSERT_TRUE(want.is_object()) << GetParam();
  PlaygroundState st;
  if (GetParam() != "default") {
    ASSERT_TRUE(load_preset(st, GetParam()).ok);
  }
  json got = state(st, true);
  if (want.contains("matrix_stats")) {  // the 512-token preset: sums instead of 22 MB of numbers
    json stats;
    for (auto it = got["matrices"].begin(); it != got["matrices"].end(); ++it) {
      double sum = 0, sumsq = 0;
      for (const auto& r : it.value())
        for (const auto& x : r) {
          if (x.is_number()) { sum += x.get<double>(); sumsq += x.get<double>() * x.get<double>(); }
        }
      json row0 = json::array();
      for (size_t j = 0; j < std::min<size_t>(8, it.value()[0].size()); ++j) row0.push_back(it.value()[0][j]);
      stats[it.key()] = {{"rows", it.value().size()}, {"cols", it.value()[0].size()}, {"sum", sum}, {"sumsq", sumsq}, {"row0", row0}};
    }
    got["matrix_stats"] = stats;
    got.erase("matrices");
  }
  expect_close(got, want, GetParam());
}

INSTANTIATE_TEST_SUITE_P(SdpaPresets, AppGolden,
                         ::testing::Values("default", "animal", "cats", "one-query", "causal", "padding", "chinese", "long"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& c : n) if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace ap
