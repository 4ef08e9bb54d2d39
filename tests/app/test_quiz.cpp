// "Check yourself" (app/quiz.h): every scene has well-formed questions in both languages; answers go through
// the page API, are explained only once picked, are refused when they name no question or option, and do not
// disturb setState(getState()).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "app/api.h"
#include "app/quiz.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

TEST(AppQuiz, EverySceneHasWellFormedQuestionsInBothLanguages) {
  PlaygroundState st;
  for (const auto& sc : st.scenes) {
    const auto& qs = quiz_for(sc->id());
    EXPECT_GE(qs.size(), 2u) << sc->id();
    std::set<std::string> ids;
    for (const QuizQuestion& q : qs) {
      EXPECT_TRUE(ids.insert(q.id).second) << sc->id() << "/" << q.id;
      ASSERT_GE(q.options.size(), 2u) << q.id;
      EXPECT_LE(q.options.size(), 4u) << q.id;
      EXPECT_GE(q.correct, 0) << q.id;
      EXPECT_LT(q.correct, static_cast<int>(q.options.size())) << q.id;
      set_lang(Lang::Zh);
      EXPECT_STRNE(tr(q.question), q.question) << "no Chinese for: " << q.question;
      EXPECT_STRNE(tr(q.explanation), q.explanation) << "no Chinese for: " << q.explanation;
      for (const char* o : q.options) EXPECT_STRNE(tr(o), o) << "no Chinese for: " << o;
      set_lang(Lang::En);
    }
  }
}

TEST(AppQuiz, AnswersThroughThePageApiAreExplainedOnlyOncePicked) {
  PlaygroundState st;
  json s = state(st, false);
  ASSERT_EQ(str(s["scene"]), "sdpa");
  ASSERT_EQ(s["quiz"].size(), quiz_for("sdpa").size());
  EXPECT_EQ(s["quiz"][0]["picked"], -1);
  EXPECT_TRUE(s["quiz"][0]["right"].is_null());
  EXPECT_EQ(str(s["quiz"][0]["explanation"]), "") << "no answer given away before a pick";
  ASSERT_TRUE(parse(set_state_json(st, R"({"answer":{"id":"largest-weight","option":0}})")).value("ok", false));
  s = state(st, false);
  EXPECT_EQ(s["quiz"][0]["picked"], 0);
  EXPECT_EQ(s["quiz"][0]["right"], false);
  EXPECT_NE(str(s["quiz"][0]["explanation"]).find("causal attribution"), std::string::npos);
  ASSERT_TRUE(parse(set_state_json(st, R"({"answer":{"id":"largest-weight","option":1}})")).value("ok", false));
  EXPECT_EQ(state(st, false)["quiz"][0]["right"], true);
  // setState(getState()) is accepted: the quiz is a report, and the answer stays.
  ASSERT_TRUE(parse(set_state_json(st, get_state_json(st, true))).value("ok", false));
  EXPECT_EQ(quiz_pick(st, "sdpa", "largest-weight"), 1);
  // Another scene's question, naming the scene.
  ASSERT_TRUE(parse(set_state_json(st, R"({"scene":"cost","answer":{"id":"path","option":0}})")).value("ok", false));
  EXPECT_EQ(state(st, false)["quiz"][1]["right"], true);
  // -1 clears.
  ASSERT_TRUE(parse(set_state_json(st, R"({"answer":{"id":"path","option":-1}})")).value("ok", false));
  EXPECT_EQ(quiz_pick(st, "cost", "path"), -1);
}

TEST(AppQuiz, BadAnswersAreRefusedAndNothingChanges) {
  PlaygroundState st;
  ASSERT_TRUE(parse(set_state_json(st, R"({"scene":"masks","answer":{"id":"cross","option":1}})")).value("ok", false));
  const char* bad[] = {R"({"answer":{"id":"nope","option":0}})", R"({"answer":{"id":"cross","option":3}})",
                       R"({"answer":{"id":"cross","option":-2}})", R"({"answer":{"id":"cross"}})",
                       R"({"answer":"cross"})", R"({"answer":{"id":"cross","option":0,"extra":1}})",
                       R"({"answer":{"id":"largest-weight","option":0}})",  // an sdpa question, masks shown
                       R"({"n":5,"answer":{"id":"cross","option":9}})"};
  for (const char* doc : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_EQ(quiz_pick(st, "masks", "cross"), 1) << doc;
  }
}

}  // namespace
}  // namespace ap
