// Unit tests for the page API (app/api.h): get_state_json, set_state_json (all or nothing) and step_json.
// No exceptions: every parse uses allow_exceptions = false and every lookup is checked first.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app/api.h"
#include "app/json_fields.h"
#include "helpers.h"
#include "app/i18n.h"
#include "test_mode.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;

using nlohmann::json;



// The whole observable state except the on-screen messages.
std::string state_without_errors(const PlaygroundState& st) {
  json j = state(st);
  j.erase("errors");
  return j.dump();
}



void expect_shape(const json& m, int rows, int cols, const char* name) {
  ASSERT_TRUE(m.is_array()) << name;
  ASSERT_EQ(m.size(), static_cast<size_t>(rows)) << name;
  for (const auto& r : m) {
    ASSERT_TRUE(r.is_array()) << name;
    EXPECT_EQ(r.size(), static_cast<size_t>(cols)) << name;
  }
}

class AppApi : public ::testing::Test {
 protected:
  void TearDown() override { set_lang(Lang::En); }
  PlaygroundState st;

  // ok:true and no error field.
  void expect_ok(const std::string& request) {
    json r = parse(set_state_json(st, request));
    ASSERT_TRUE(r.is_object());
    EXPECT_EQ(r.value("ok", false), true) << request << " -> " << r.dump();
    EXPECT_FALSE(r.contains("error")) << r.dump();
  }
};

// ---- page_refusal: calls web/playground.js refused itself ------------------------------------------------------

TEST_F(AppApi, APageRefusalIsShownTranslatedAndChangesNothingElse) {
  const std::string before = state_without_errors(st);
  EXPECT_EQ(page_refusal(st, "step", "not-integer", "\"x\""), "step(k) takes a whole number from -1000 to 1000, got \"x\"");
  EXPECT_EQ(page_refusal(st, "postMessage", "unknown-method", "toString"), "unknown method toString");
  EXPECT_EQ(page_refusal(st, "setState", "not-serialisable", "cyclic"), "not serialisable: cyclic");
  ASSERT_EQ(st.errors.size(), 1u);  // one message per key: the latest refusal
  EXPECT_EQ(localize(st.errors[0].text), "setState: not serialisable: cyclic");
  set_lang(Lang::Zh);
  EXPECT_EQ(localize(st.errors[0].text), "setState：无法序列化：cyclic");
  set_lang(Lang::En);
  EXPECT_EQ(state_without_errors(st), before);
}

// ---- get_state_json -----------------------------------------------------------------------------------------

TEST_F(AppApi, GetStateOfTheDefault) {
  json j = state(st);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(str(j["scene"]), "sdpa");
  EXPECT_EQ(str(j["lang"]), "en");
  EXPECT_EQ(str(j["source"]), "projection");
  EXPECT_EQ(str(j["text"]), "The animal didn't cross the street because it was too tired");
  ASSERT_TRUE(j["tokens"].is_array());
  ASSERT_EQ(j["tokens"].size(), 11u);
  EXPECT_EQ(str(j["tokens"][1]), "animal");
  EXPECT_EQ(j["key_tokens"], j["tokens"]);
  EXPECT_EQ(num(j["n"]), 11);
  EXPECT_EQ(num(j["m"]), 11);
  EXPECT_EQ(num(j["d_model"]), 16);
  EXPECT_EQ(num(j["d_k"]), 4);
  EXPECT_EQ(num(j["d_v"]), 4);
  EXPECT_EQ(num(j["seed"]), 42);
  EXPECT_EQ(j["positional"], true);
  EXPECT_EQ(str(j["mask"]), "none");
  ASSERT_TRUE(j["step"].is_object());
  EXPECT_EQ(num(j["step"]["index"]), kSdpaStageCount - 1);
  EXPECT_EQ(num(j["step"]["count"]), kSdpaStageCount);
  EXPECT_EQ(str(j["step"]["name"]), "output");
  EXPECT_EQ(num(j["step"]["sub"]), 1);
  EXPECT_EQ(num(j["step"]["sub_count"]), 1);
  EXPECT_EQ(j["step"]["playing"], false);
  ASSERT_TRUE(j["errors"].is_array());
  EXPECT_TRUE(j["errors"].empty());
  ASSERT_TRUE(j["fully_masked_rows"].is_array());
  EXPECT_TRUE(j["fully_masked_rows"].empty());
}

TEST_F(AppApi, GetStateMatricesHaveTheRightShapes) {
  json j = state(st);
  ASSERT_TRUE(j.contains("matrices"));
  json& m = j["matrices"];
  expect_shape(m["Q"], 11, 4, "Q");
  expect_shape(m["K"], 11, 4, "K");
  expect_shape(m["V"], 11, 4, "V");
  expect_shape(m["scores"], 11, 11, "scores");
  expect_shape(m["scaled"], 11, 11, "scaled");
  expect_shape(m["masked"], 11, 11, "masked");
  expect_shape(m["weights"], 11, 11, "weights");
  expect_shape(m["output"], 11, 4, "output");
}

TEST_F(AppApi, GetStateMatricesMatchTheModel) {
  json m = state(st)["matrices"];
  const AttentionTrace& t = model(st).trace;
  for (int i = 0; i < 11; ++i) {
    for (int j = 0; j < 11; ++j) {
      EXPECT_FLOAT_EQ(static_cast<float>(num(m["weights"][i][j])), t.weights()(i, j));
      EXPECT_FLOAT_EQ(static_cast<float>(num(m["scores"][i][j])), t.scores(i, j));
      EXPECT_FLOAT_EQ(static_cast<float>(num(m["scaled"][i][j])), t.scaled(i, j));
    }
    for (int c = 0; c < 4; ++c) {
      EXPECT_FLOAT_EQ(static_cast<float>(num(m["Q"][i][c])), model(st).Q(i, c));
      EXPECT_FLOAT_EQ(static_cast<float>(num(m["output"][i][c])), t.output(i, c));
    }
  }
}

TEST_F(AppApi, GetStateWithoutMatrices) {
  json j = state(st, false);
  EXPECT_FALSE(j.contains("matrices"));
  EXPECT_EQ(num(j["n"]), 11);  // the rest is still there
  EXPECT_TRUE(j.contains("step"));
}

TEST_F(AppApi, MaskedMinusInfinityIsSerialisedAsNull) {
  expect_ok(R"({"mask":"causal"})");
  json m = state(st)["matrices"];
  ASSERT_TRUE(m["masked"].is_array());
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 11; ++j) {
      if (j > i) EXPECT_TRUE(m["masked"][i][j].is_null()) << i << "," << j;
      else EXPECT_TRUE(m["masked"][i][j].is_number()) << i << "," << j;
    }
  // Nothing else carries a non-number.
  for (const char* name : {"scores", "scaled", "weights", "output"})
    for (const auto& row : m[name])
      for (const auto& v : row) EXPECT_TRUE(v.is_number()) << name;
}

// ---- set_state_json: accepted -----------------------------------------------------------------------------

TEST_F(AppApi, SetDk) {
  expect_ok(R"({"d_k": 8})");
  json j = state(st);
  EXPECT_EQ(num(j["d_k"]), 8);
  EXPECT_EQ(num(j["d_v"]), 8);
  expect_shape(j["matrices"]["Q"], 11, 8, "Q");
  expect_shape(j["matrices"]["output"], 11, 8, "output");
  EXPECT_EQ(sdpa(st).generation(), 1);
}

TEST_F(AppApi, ProjectionFieldsAreRefusedWhileQkvAreHandSet) {
  expect_ok(R"({"preset":"cats"})");
  const int generation = sdpa(st).generation();
  const std::string r = set_state_json(st, R"({"d_k": 8})");
  EXPECT_NE(r.find("\"ok\":false"), std::string::npos) << r;
  EXPECT_NE(r.find("set by hand"), std::string::npos) << r;
  EXPECT_EQ(sdpa(st).generation(), generation);
  EXPECT_EQ(model(st).trace.d_k, 2);
  // Going back to the sentence in the same call makes d_k meaningful again.
  expect_ok(R"({"source":"projection","d_k": 8})");
  EXPECT_EQ(model(st).trace.d_k, 8);
}

TEST_F(AppApi, StepLangAndSpeedDoNotRebuildTheModel) {
  const int generation = sdpa(st).generation();
  expect_ok(R"({"step": 2, "speed": 2, "playing": false})");
  EXPECT_EQ(sdpa(st).generation(), generation);
  EXPECT_EQ(st.timeline().stage(), 2);
  expect_ok(R"({"mask": "causal"})");
  EXPECT_EQ(sdpa(st).generation(), generation + 1);
}

TEST_F(AppApi, SetCausalMaskZeroesTheUpperTriangle) {
  expect_ok(R"({"mask":"causal"})");
  json j = state(st);
  EXPECT_EQ(str(j["mask"]), "causal");
  json& w = j["matrices"]["weights"];
  for (int i = 0; i < 11; ++i) {
    double sum = 0;
    for (int k = 0; k < 11; ++k) {
      if (k > i) EXPECT_EQ(num(w[i][k]), 0.0) << i << "," << k;  // exactly 0
      else EXPECT_GT(num(w[i][k]), 0.0) << i << "," << k;
      sum += num(w[i][k]);
    }
    EXPECT_NEAR(sum, 1.0, 1e-5) << "row " << i;
  }
  EXPECT_DOUBLE_EQ(num(w[0][0]), 1.0);  // the first token sees only itself
}

TEST_F(AppApi, SetPresetOneQuery) {
  expect_ok(R"({"preset":"one-query"})");
  json j = state(st);
  EXPECT_EQ(num(j["n"]), 1);
  EXPECT_EQ(num(j["m"]), 3);
  EXPECT_EQ(str(j["source"]), "custom");
  json& w = j["matrices"]["weights"];
  expect_shape(w, 1, 3, "weights");
  EXPECT_NEAR(num(w[0][0]), 0.665, 5e-4);
  EXPECT_NEAR(num(w[0][1]), 0.245, 5e-4);
  EXPECT_NEAR(num(w[0][2]), 0.090, 5e-4);
  EXPECT_NEAR(num(j["matrices"]["output"][0][0]), 5.752, 5e-3);
}

TEST_F(AppApi, SetMatricesWithDifferentQueryAndKeyCounts) {
  expect_ok(R"({"matrices":{"Q":[[1,0],[0,1]], "K":[[1,0],[0,1],[1,1]], "V":[[1],[2],[3]]}})");
  json j = state(st);
  EXPECT_EQ(str(j["source"]), "custom");
  EXPECT_EQ(num(j["n"]), 2);
  EXPECT_EQ(num(j["m"]), 3);
  EXPECT_EQ(num(j["d_k"]), 2);
  EXPECT_EQ(num(j["d_v"]), 1);
  EXPECT_EQ(j["tokens"].size(), 2u);
  EXPECT_EQ(j["key_tokens"].size(), 3u);
  json& m = j["matrices"];
  expect_shape(m["scores"], 2, 3, "scores");
  expect_shape(m["weights"], 2, 3, "weights");
  expect_shape(m["output"], 2, 1, "output");
  EXPECT_DOUBLE_EQ(num(m["scores"][0][0]), 1.0);
  EXPECT_DOUBLE_EQ(num(m["scores"][0][1]), 0.0);
  EXPECT_DOUBLE_EQ(num(m["scores"][1][2]), 1.0);
  // Query 1 = [1,0]: scaled scores [1, 0, 1]/√2, weights a, b, a with a = e^{1/√2} / (2e^{1/√2} + 1).
  const double e = std::exp(1.0 / std::sqrt(2.0));
  const double a = e / (2 * e + 1), b = 1 / (2 * e + 1);
  EXPECT_NEAR(num(m["weights"][0][0]), a, 1e-6);
  EXPECT_NEAR(num(m["weights"][0][1]), b, 1e-6);
  EXPECT_NEAR(num(m["weights"][0][2]), a, 1e-6);
  EXPECT_NEAR(num(m["output"][0][0]), a * 1 + b * 2 + a * 3, 1e-5);
}

TEST_F(AppApi, SetStepIndexShowsThatStageComplete) {
  expect_ok(R"({"step":{"index":2}})");
  json s = state(st, false)["step"];
  EXPECT_EQ(num(s["index"]), 2);
  EXPECT_EQ(str(s["name"]), "scale");
  EXPECT_EQ(num(s["sub"]), num(s["sub_count"]));
  EXPECT_EQ(s["playing"], false);
  EXPECT_EQ(st.timeline().stage(), 2);
  EXPECT_TRUE(st.timeline().stage_complete());
}

TEST_F(AppApi, SetStepIndexAndSub) {
  expect_ok(R"({"step":{"index":1, "sub":3}})");
  json s = state(st, false)["step"];
  EXPECT_EQ(num(s["index"]), 1);
  EXPECT_EQ(str(s["name"]), "scores");
  EXPECT_EQ(num(s["sub"]), 3);
  EXPECT_EQ(num(s["sub_count"]), 121);
  EXPECT_EQ(st.timeline().stage(), 1);
  EXPECT_DOUBLE_EQ(st.timeline().sub(), 3.0);
}

TEST_F(AppApi, SetStepSubIsClampedToTheStage) {
  expect_ok(R"({"step":{"index":2, "sub":50}})");
  EXPECT_EQ(st.timeline().stage(), 2);
  EXPECT_DOUBLE_EQ(st.timeline().sub(), 1.0);
}

TEST_F(AppApi, SetStepAsAPlainNumber) {
  expect_ok(R"({"step":4})");
  EXPECT_EQ(st.timeline().stage(), 4);
  EXPECT_TRUE(st.timeline().stage_complete());
}

TEST_F(AppApi, SetLang) {
  expect_ok(R"({"lang":"zh"})");
  EXPECT_EQ(lang(), Lang::Zh);
  EXPECT_EQ(str(state(st, false)["lang"]), "zh");
  expect_ok(R"({"lang":"en"})");
  EXPECT_EQ(lang(), Lang::En);
  EXPECT_EQ(str(state(st, false)["lang"]), "en");
}

TEST_F(AppApi, SetPlayingAndSpeed) {
  expect_ok(R"({"playing":true, "speed":4})");
  EXPECT_TRUE(st.timeline().playing());
  EXPECT_DOUBLE_EQ(st.timeline().speed(), 4.0);
  EXPECT_EQ(state(st, false)["step"]["playing"], true);
  expect_ok(R"({"playing":false})");
  EXPECT_FALSE(st.timeline().playing());
}

TEST_F(AppApi, SetTextAndTokens) {
  expect_ok(R"({"text":"I love cats"})");
  EXPECT_EQ(num(state(st, false)["n"]), 3);
  expect_ok(R"({"tokens":["a","b","c","d"]})");
  json j = state(st, false);
  EXPECT_EQ(num(j["n"]), 4);
  EXPECT_EQ(str(j["text"]), "a b c d");
}

TEST_F(AppApi, TokensAndKeyTokensLabelTheirOwnSideWhenNDiffersFromM) {
  expect_ok(R"({"matrices":{"Q":[[1,0],[0,1]], "K":[[1,0],[0,1],[1,1]], "V":[[1],[2],[3]]}})");
  expect_ok(R"({"key_tokens":["a","b","c"]})");
  expect_ok(R"({"tokens":["x","y"]})");
  json j = state(st, false);
  EXPECT_EQ(j["tokens"], json({"x", "y"}));
  EXPECT_EQ(j["key_tokens"], json({"a", "b", "c"}));  // naming the queries leaves the keys alone
}

TEST_F(AppApi, TokensOfASquareCustomModelLabelBothSides) {
  expect_ok(R"({"preset":"cats"})");
  expect_ok(R"({"tokens":["we","like","dogs"]})");
  json j = state(st, false);
  EXPECT_EQ(j["tokens"], json({"we", "like", "dogs"}));
  EXPECT_EQ(j["key_tokens"], json({"we", "like", "dogs"}));
  EXPECT_EQ(str(j["source"]), "custom");
}

TEST_F(AppApi, RefusalMessagesStayValidUtf8) {
  // The message quotes the start of the refused value; cutting it must not split a multi-byte character,
  // or neither the reply nor the next getState could be serialised.
  for (int pad = 0; pad < 3; ++pad) {
    std::string request = "[\"" + std::string(pad, 'a');
    for (int i = 0; i < 40; ++i) request += "中";
    request += "\"]";
    const std::string reply = set_state_json(st, request);
    json r = parse(reply);
    EXPECT_EQ(r.value("ok", true), false) << reply;
    EXPECT_FALSE(str(r["error"]).empty());
    json j = state(st, false);
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["errors"].size(), 1u);
  }
}

TEST_F(AppApi, ASuccessClearsAnEarlierApiError) {
  json r = parse(set_state_json(st, R"({"d_k":0})"));
  ASSERT_EQ(r.value("ok", true), false);
  ASSERT_FALSE(state(st, false)["errors"].empty());
  expect_ok(R"({"d_k":2})");
  EXPECT_TRUE(state(st, false)["errors"].empty());
}

TEST_F(AppApi, EmptyObjectIsAccepted) {
  const std::string before = state_without_errors(st);
  expect_ok("{}");
  EXPECT_EQ(state_without_errors(st), before);
}

// ---- set_state_json: refused, nothing changes -------------------------------------------------------------

struct Refusal {
  const char* name;
  std::string request;
};

void PrintTo(const Refusal& r, std::ostream* os) { *os << r.name << ": " << r.request.substr(0, 80); }

std::string long_text() {
  std::string s = R"({"text":")";
  for (int i = 0; i < 10000; ++i) s += "word ";
  return s + "\"}";
}

class AppApiRefusal : public ::testing::TestWithParam<Refusal> {
 protected:
  void TearDown() override { set_lang(Lang::En); }
};

TEST_P(AppApiRefusal, IsRefusedAndChangesNothing) {
  PlaygroundState st;
  // Start from a state that differs from the defaults in several ways, so "reset to defaults" would show.
  ASSERT_EQ(parse(set_state_json(st, R"({"mask":"causal","d_k":3,"step":{"index":4,"sub":2}})")).value("ok", false),
            true);
  const std::string before = state_without_errors(st);
  const int generation = sdpa(st).generation();
  const Lang lang_before = lang();

  json r = parse(set_state_json(st, GetParam().request));
  ASSERT_TRUE(r.is_object());
  EXPECT_EQ(r.value("ok", true), false) << r.dump();
  ASSERT_TRUE(r.contains("error"));
  EXPECT_TRUE(r["error"].is_string());
  EXPECT_FALSE(str(r["error"]).empty());

  EXPECT_EQ(state_without_errors(st), before);
  EXPECT_EQ(sdpa(st).generation(), generation);
  EXPECT_EQ(lang(), lang_before);

  json errors = state(st, false)["errors"];
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(str(errors[0]).find(str(r["error"])), std::string::npos) << str(errors[0]);
}

INSTANTIATE_TEST_SUITE_P(
    AppApi, AppApiRefusal,
    ::testing::Values(
        Refusal{"NotJson", "{d_k: 4"},
        Refusal{"Garbage", "hello"},
        Refusal{"Empty", ""},
        Refusal{"Array", "[1, 2]"},
        Refusal{"Number", "4"},
        Refusal{"DkZero", R"({"d_k":0})"},
        Refusal{"DkString", R"({"d_k":"4"})"},
        Refusal{"DkFraction", R"({"d_k":2.5})"},
        Refusal{"DkTooLarge", R"({"d_k":513})"},
        Refusal{"DkNegative", R"({"d_k":-1})"},
        Refusal{"DkNull", R"({"d_k":null})"},
        Refusal{"EmptyText", R"({"text":""})"},
        Refusal{"TextNotString", R"({"text":5})"},
        Refusal{"TenThousandWords", long_text()},
        Refusal{"LoneSurrogate", "{\"text\":\"a\\udc00b\"}"},
        Refusal{"UnknownMask", R"({"mask":"diagonal"})"},
        Refusal{"UnknownField", R"({"foo":1})"},
        Refusal{"DerivedFieldN", R"({"n":3})"},
        Refusal{"SetWeights", R"({"matrices":{"weights":[[1]]}})"},
        Refusal{"MatrixString", R"({"matrices":{"Q":[["abc"]]}})"},
        Refusal{"MatrixNull", R"({"matrices":{"Q":[[null]]}})"},
        Refusal{"MatrixEmpty", R"({"matrices":{"Q":[]}})"},
        Refusal{"MatrixNotRows", R"({"matrices":{"Q":[1,2]}})"},
        Refusal{"MatrixRagged", R"({"matrices":{"Q":[[1,2],[3]]}})"},
        Refusal{"MatrixTooLarge", R"({"matrices":{"Q":[[1e300]]}})"},
        Refusal{"QKColumnMismatch", R"({"matrices":{"Q":[[1,2,3]], "K":[[1,2],[3,4]], "V":[[1],[2]]}})"},
        Refusal{"KVRowMismatch", R"({"matrices":{"Q":[[1,2]], "K":[[1,2],[3,4]], "V":[[1]]}})"},
        Refusal{"StepOutOfRange", R"({"step":{"index":99}})"},
        Refusal{"StepNegative", R"({"step":-1})"},
        Refusal{"StepSubNegative", R"({"step":{"index":1,"sub":-1}})"},
        Refusal{"OtherScene", R"({"scene":"other"})"},
        Refusal{"UnknownLang", R"({"lang":"xx"})"},
        Refusal{"UnknownPreset", R"({"preset":"nope"})"},
        Refusal{"SpeedOutOfRange", R"({"speed":100})"},
        Refusal{"PlayingNotBool", R"({"playing":1})"},
        // All or nothing: the good fields of a refused request are not applied either.
        Refusal{"GoodLangBadDk", R"({"lang":"zh","d_k":0})"},
        Refusal{"GoodMaskBadField", R"({"mask":"none","foo":1})"},
        Refusal{"GoodStepBadText", R"({"step":{"index":0},"text":""})"}),
    [](const ::testing::TestParamInfo<Refusal>& info) { return std::string(info.param.name); });

// ---- step_json ----------------------------------------------------------------------------------------------

TEST_F(AppApi, StepJsonMovesByStagesAndClamps) {
  // The default state is at the last stage, complete.
  json s = parse(step_json(st, -2));
  EXPECT_EQ(num(s["index"]), kSdpaStageCount - 3);
  EXPECT_EQ(str(s["name"]), "softmax");
  EXPECT_EQ(s["playing"], false);
  EXPECT_EQ(num(s["sub"]), num(s["sub_count"]));  // shown complete

  s = parse(step_json(st, 1));
  EXPECT_EQ(num(s["index"]), kSdpaStageCount - 2);
  EXPECT_EQ(str(s["name"]), "weighted_sum");
  EXPECT_EQ(num(s["sub"]), 0);  // starts the stage and plays it
  EXPECT_EQ(s["playing"], true);

  s = parse(step_json(st, -100));
  EXPECT_EQ(num(s["index"]), 0);
  EXPECT_EQ(num(s["count"]), kSdpaStageCount);

  s = parse(step_json(st, 3));
  EXPECT_EQ(num(s["index"]), 3);

  s = parse(step_json(st, 100));
  EXPECT_EQ(num(s["index"]), kSdpaStageCount - 1);
  EXPECT_EQ(st.timeline().stage(), kSdpaStageCount - 1);

  // The returned object is the one get_state reports.
  EXPECT_EQ(s, state(st, false)["step"]);
}

TEST_F(AppApi, StepJsonZeroChangesNothing) {
  st.timeline().set_stage_at(1, 5);
  json s = parse(step_json(st, 0));
  EXPECT_EQ(num(s["index"]), 1);
  EXPECT_EQ(num(s["sub"]), 5);
  EXPECT_EQ(st.timeline().stage(), 1);
  EXPECT_DOUBLE_EQ(st.timeline().sub(), 5.0);
}

// Issue 14, item 4: getState reports step.playing; setState read only a top-level playing, so
// setState(getState()) stopped a playing animation.
TEST_F(AppApi, SetStateOfGetStateKeepsAnAnimationPlaying) {
  expect_ok(R"({"step":{"index":2,"sub":0},"playing":true,"speed":2})");
  ASSERT_TRUE(st.timeline().playing());
  expect_ok(get_state_json(st));
  EXPECT_TRUE(st.timeline().playing());
  EXPECT_DOUBLE_EQ(st.timeline().speed(), 2.0);
  expect_ok(R"({"step":{"index":2,"playing":false}})");
  EXPECT_FALSE(st.timeline().playing());
  const std::string before = state_without_errors(st);
  json r = parse(set_state_json(st, R"({"playing":true,"step":{"index":1,"playing":false}})"));
  EXPECT_EQ(r.value("ok", true), false);
  EXPECT_NE(r.value("error", "").find("disagree"), std::string::npos) << r.dump();
  EXPECT_EQ(state_without_errors(st), before);
}

// Issue 14, item 5: at the documented limits (n = m = 1024, d_k = d_v = 512) getState was 121 MB and
// setState(getState()) was refused (64 MB). The compact form fits and restores the same view.
TEST_F(AppApi, TheDocumentAtTheLimitsRoundTripsInCompactForm) {
  LARGE_SIZES_NOT_UNDER_SANITIZERS();
  const int n = limits::kMaxTokens, d = limits::kMaxHeadDim;
  Mat q(n, d), k(n, d), v(n, d);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d; ++j) {
      q(i, j) = static_cast<float>(((i * 31 + j * 7) % 97) - 48) / 97.f;
      k(i, j) = static_cast<float>(((i * 13 + j * 11) % 89) - 44) / 89.f;
      v(i, j) = static_cast<float>(((i * 5 + j * 3) % 83) - 41) / 83.f;
    }
  json doc = {{"matrices", {{"Q", matrix_json(q)}, {"K", matrix_json(k)}, {"V", matrix_json(v)}}}, {"mask", "causal"}};
  expect_ok(doc.dump());
  const std::string full = get_state_json(st, true, false);
  const std::string compact = get_state_json(st, true, true);
  std::printf("document at the limits: %.1f MB as rows, %.1f MB compact (limit %.0f MB)\n", full.size() / 1048576.0,
              compact.size() / 1048576.0, kMaxDocumentBytes / 1048576.0);
  EXPECT_GT(full.size(), kMaxDocumentBytes);  // why the compact form exists
  ASSERT_LT(compact.size(), kMaxDocumentBytes);
  PlaygroundState other;
  json r = parse(set_state_json(other, compact));
  ASSERT_EQ(r.value("ok", false), true) << r.dump().substr(0, 300);
  EXPECT_EQ(get_state_json(other, true, true), compact);
  // The compact form of one matrix is read back exactly; a malformed one is refused, naming its place.
  json m = {{"Q", {{"f32", "v1.AAAA"}}}};
  r = parse(set_state_json(st, json{{"matrices", m}}.dump()));
  EXPECT_EQ(r.value("ok", true), false);
  EXPECT_NE(r.value("error", "").find("matrices.Q: a compact matrix"), std::string::npos) << r.dump();
}

// Issue 14, item 6: an oversized document is refused by its size alone, before its bytes are read (the page
// passes none: the wasm heap would otherwise grow to hold a copy).
TEST_F(AppApi, AnOversizedDocumentIsRefusedByItsSizeAlone) {
  const std::string before = state_without_errors(st);
  json r = parse(set_state_json(st, nullptr, (400ull << 20)));
  EXPECT_EQ(r.value("ok", true), false);
  EXPECT_NE(r.value("error", "").find("the document is 400 MB; the limit is 64 MB"), std::string::npos) << r.dump();
  EXPECT_NE(message(st, "api").find("400 MB"), std::string::npos);  // shown on screen too
  r = parse(set_state_json(st, nullptr, (5ull << 30)));  // more than wasm32's size_t counts
  EXPECT_NE(r.value("error", "").find("the document is 5120 MB"), std::string::npos) << r.dump();
  EXPECT_EQ(state_without_errors(st), before);
}

}  // namespace
}  // namespace ap
