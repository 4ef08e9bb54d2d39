// "Check yourself": after each scene, two or three questions from the lecture notes' misconceptions and
// follow-ups (常见误区与追问). The learner picks an option; the answer is explained only then.
//
// Questions are data (quiz.cpp), per scene id; answers live in the PlaygroundState (progress, not part of a
// view: links do not carry them). The page API reports them as `quiz` and takes `answer: {id, option}`.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/status.h"

namespace ap {

struct PlaygroundState;

struct QuizQuestion {
  const char* id;                    // unique within its scene, e.g. "largest-weight"
  const char* question;              // N_() English
  std::vector<const char*> options;  // N_() English, 2 .. 4
  int correct;                       // index into options
  const char* explanation;           // N_() English, shown after an answer
};

const std::vector<QuizQuestion>& quiz_for(const std::string& scene_id);  // empty: none for that scene
const TrPair* quiz_translations(size_t* count);

// Records the learner's pick (option -1 clears it). Unknown question or option: an error, nothing changes.
Status answer_question(PlaygroundState& st, const std::string& scene_id, const std::string& question_id, int option);
Status check_answer(const PlaygroundState& st, const std::string& scene_id, const nlohmann::json& answer);  // {id, option}
// -1: not answered yet.
int quiz_pick(const PlaygroundState& st, const std::string& scene_id, const std::string& question_id);
// The current scene's questions for getState: [{id, question, options, picked, right (null until picked)}].
nlohmann::json quiz_report(const PlaygroundState& st);

}  // namespace ap
