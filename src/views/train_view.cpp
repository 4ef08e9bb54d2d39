// View of the scene "Watch attention learn": the controls (sentence, Train / Pause / Reset / one step, layers,
// learning rate, steps, seed), the honest label of the weights, the loss and held-out accuracy curves (the plot
// widget) and every layer's attention of the sentence with its "it" row highlighted, redrawn with each report.
// It draws what the scene holds (the trainer's reports); it computes nothing.
#include "views/train_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/number_text.h"
#include "core/train/coref.h"
#include "platform/text_field.h"
#include "views/head_patterns_list.h"
#include "views/train_panel.h"
#include "widgets/colormap.h"
#include "widgets/matrix_view.h"
#include "widgets/plot.h"
#include "widgets/section.h"
#include "widgets/seed_input.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/train_scene.cpp).
const TrPair kTrainViewStrings[] = {
    {"Train", "训练"},
    {"Pause", "暂停"},
    {"Reset", "重置"},
    {"One step", "单步"},
    {"learning rate", "学习率"},
    {"held-out accuracy", "留出集准确率"},
    {"argmax on the referent", "最大权重在所指名词上"},
    {"steps/s", "步/秒"},
    {"training loss", "训练损失"},
    {"target 95 %", "目标 95 %"},
    {"Press Train to start.", "按“训练”开始。"},
    {"Preparing the model…", "正在准备模型……"},
    {"Notice: the loss went from {0} at step {1} to {2} at step {3}; on held-out examples it never trained on, {4} % are right.",
     "注意：损失从第 {1} 步的 {0} 变为第 {3} 步的 {2}；在从未训练过的留出样本上，{4} % 答对。"},
    {"Point at the referent (coreference)", "指向所指名词（指代消解）"},
    {"Why several heads?", "为什么要多个头？"},
    {"What each head learned", "每个头学到了什么"},
    {"the \"it\" row and the rows after a noun, measured on every held-out sentence", "\"it\" 那一行和名词后面一个词那几行，在全部留出句子上测量"},
    {"after a noun", "名词后面一个词处"},
    {"on the noun before", "在前面那个名词上"},
    {"on the other noun", "在另一个名词上"},
    {"referent is the animal", "所指是动物"},
    {"referent is the place", "所指是地点"},
    {"Measured when the run ends, on all held-out sentences.", "训练结束时在全部留出句子上测量。"},
    {"any head on the referent", "某个头的最大权重在所指名词上"},
    {"Induction heads: copy what followed (2 layers)", "归纳头：复制后面跟着的词元（2 层）"},
    {"Why two layers?", "为什么要两层？"},
    {"One layer cannot: the key at the position after the earlier copy holds that position's own letter, not \"the letter before me was X\", so no query can find it by content. Layer 1's previous-token head writes the letter before into each position; layer 2's query (the current letter) then matches it and copies what is there (K-composition: the induction head).",
     "一层做不到：前一次出现之后那个位置的 key 只包含该位置自己的字母，而不是“我前面的字母是 X”，所以没有 query 能按内容找到它。第 1 层的“前一个词元”头把前一个字母写进每个位置；第 2 层的 query（当前字母）随后与之匹配，并复制那里的内容（K 组合：归纳头）。"},
    {"Sequence", "序列"},
    {"the weights of each layer (causal)", "每层的权重（因果）"},
    {"the weights measured on the held-out sequences at the last evaluation", "在最近一次评估时于留出序列上测得的权重"},
    {"measured on {0} held-out sequences during the run, on all {1} at the end", "训练中在 {0} 个留出序列上测量，结束时在全部 {1} 个上测量"},
    {"some head on the token to copy", "某个头的最大权重在要复制的词元上"},
    {"Tokens the model knows:", "模型认识的词元："},
    {"measured on {0} held-out sentences during the run, on all {1} at the end",
     "训练中在 {0} 个留出句子上测量，结束时在全部 {1} 个上测量"},
    {"In one layer the query at \"it\" is computed from \"it\" and its position only: it has not yet read the adjective that follows (\"tired\" or \"wide\"), so its weights over the two nouns cannot depend on it. In two layers, layer 1 lets \"it\" read the adjective; layer 2's query at \"it\" then carries it and points at the right noun.",
     "在一层里，\"it\" 处的 query 只由 \"it\" 和它的位置算出：它还没有读到后面的形容词（\"tired\" 或 \"wide\"），所以它在两个名词上的权重不可能随形容词改变。两层时，第 1 层让 \"it\" 读到形容词；第 2 层 \"it\" 处的 query 带着这个信息，指向正确的名词。"},
    {"the \"it\" row of each layer", "每层 \"it\" 那一行"},
    {"attention of layer {0}", "第 {0} 层的注意力"},
    {"attention of layer {0}, head {1}", "第 {0} 层第 {1} 个头的注意力"},
    {"Words the model knows:", "模型认识的词："},
    {"The training worker could not start; the weights on screen stay as they were.", "训练 worker 无法启动；屏幕上的权重保持不变。"},
};
}  // namespace

const TrPair* TrainView::strings(size_t* count) { return translation_table(kTrainViewStrings, count); }

TrainView::~TrainView() { heatmap_release(this); }

void TrainView::apply(ViewContext& ctx, const char* key) {
  if (!edit_.submit(ctx.st, scene_, key).ok) edit_.p = scene_.params();  // the last good values stay
}

void TrainView::controls(ViewContext& ctx) {
  edit_.sync(scene_);
  const float fs = ImGui::GetFontSize();
  edit_.release_fields({"##train_text"});
  const bool letters = edit_.p.recipe.task == train::kInductionTask;
  ImGui::Spacing();
  ImGui::TextUnformatted(tr(letters ? "Sequence" : "Sentence"));
  ImGui::SetNextItemWidth(-1);
  TextFieldOptions o;
  o.max_bytes = 512;
  o.accessible_name = tr(letters ? "Sequence" : "Sentence");
  if (text_field("##train_text", &edit_.p.text, o)) apply(ctx, "text");
  // The commands.
  const TrainRunState s = scene_.state();
  if (s == TrainRunState::Running) {
    if (ImGui::Button((std::string(tr("Pause")) + "###train_pause").c_str())) (void)report_result(ctx.st, "training", scene_.pause());
  } else if (ImGui::Button((std::string(tr("Train")) + "###train_start").c_str())) {
    if (report_result(ctx.st, "training", scene_.start()).ok) scene_.timeline.set_stage(static_cast<int>(TrainStage::Learn), true);
  }
  ImGui::SameLine();
  if (ImGui::Button((std::string(tr("One step")) + "###train_step").c_str()) && report_result(ctx.st, "training", scene_.step_once()).ok)
    scene_.timeline.set_stage(static_cast<int>(TrainStage::Learn), true);
  ImGui::SameLine();
  if (ImGui::Button((std::string(tr("Reset")) + "###train_reset").c_str())) (void)report_result(ctx.st, "training", scene_.reset());
  // The recipe: the task (with its default recipe and text), then its size (layers for coreference and
  // induction, heads for the heads experiment).
  const bool heads_task = edit_.p.recipe.task == train::kHeadsTask;
  ImGui::TextUnformatted(tr("task"));
  struct TaskChoice {
    const char* task;
    const char* name;
    train::Recipe recipe;
  };
  const TaskChoice tasks[] = {{"coref", N_("Point at the referent (coreference)"), train::Recipe{}},
                              {train::kHeadsTask, N_("Heads: name the referent (1 layer)"), train::heads_recipe(2)},
                              {train::kInductionTask, N_("Induction heads: copy what followed (2 layers)"), train::induction_recipe()}};
  for (const TaskChoice& c : tasks) {
    const bool on = edit_.p.recipe.task == c.task;
    if (ImGui::RadioButton((std::string(tr(c.name)) + "###train_task_" + c.task).c_str(), on) && !on) {
      const bool was_letters = letters;
      const uint64_t seed = edit_.p.recipe.seed;  // the task's own recipe (sizes, steps), the learner's seed
      edit_.p.recipe = c.recipe;
      edit_.p.recipe.seed = seed;
      if (was_letters != (edit_.p.recipe.task == train::kInductionTask)) edit_.p.text = train_default_text(edit_.p.recipe.task);
      apply(ctx, "task");
    }
  }
  ImGui::TextUnformatted(tr(heads_task ? "heads" : "layers"));
  for (int n : heads_task ? std::vector<int>{1, 2, 4} : std::vector<int>{1, 2}) {
    ImGui::SameLine();
    int& value = heads_task ? edit_.p.recipe.heads : edit_.p.recipe.layers;
    if (ImGui::RadioButton((std::to_string(n) + (heads_task ? "###train_heads" : "###train_layers") + std::to_string(n)).c_str(), value == n)) {
      value = n;
      apply(ctx, heads_task ? "heads" : "layers");
    }
  }
  const float field = fs * 7.f;
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputDouble((std::string(tr("learning rate")) + "###train_lr").c_str(), &edit_.p.recipe.learning_rate, 0.001, 0.01, "%.4g"))
    apply(ctx, "learning_rate");
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt((std::string(tr("steps")) + "###train_steps").c_str(), &edit_.p.recipe.steps, 100, 1000)) apply(ctx, "steps");
  if (seed_input(tr("seed"), "train_seed", &edit_.p.recipe.seed, field)) {
    apply(ctx, "seed");
  }
  // What the weights are, measured.
  ImGui::Spacing();
  text_wrapped("%s", scene_.weights_label().c_str());
  if (scene_.host_taken()) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", tr("Another scene trains on the worker now; Train starts this model again from step 0."));
    ImGui::PopTextWrapPos();
  }
  if (s == TrainRunState::Diverged) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(flag_color(Flag::Failure)), "%s", localize(scene_.report().divergence()).c_str());
  if (s == TrainRunState::Failed) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(flag_color(Flag::Failure)), "%s", tr("The training worker could not start; the weights on screen stay as they were."));
    ImGui::TextUnformatted(scene_.host_error().c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (scene_.has_report())
    text_wrapped("%s", tr_format(letters ? N_("measured on {0} held-out sequences during the run, on all {1} at the end")
                                               : N_("measured on {0} held-out sentences during the run, on all {1} at the end"),
                                             {std::to_string(scene_.report().curve_sentences), std::to_string(scene_.report().heldout_sentences)}).c_str());
  ImGui::PopStyleColor();
  if (scene_.params().recipe.task == train::kInductionTask) {
    induction_table();
    section_heading(tr("Why two layers?"));
    text_wrapped("%s", tr("One layer cannot: the key at the position after the earlier copy holds that position's own letter, not \"the letter before me was X\", so no query can find it by content. Layer 1's previous-token head writes the letter before into each position; layer 2's query (the current letter) then matches it and copies what is there (K-composition: the induction head)."));
  } else if (scene_.params().recipe.task == train::kHeadsTask) {
    head_table();
    section_heading(tr("Why several heads?"));
    text_wrapped("%s", tr("Here one layer must NAME nouns among all 40 (a classifier reads three rows' outputs): the referent at \"it\", and each noun at the word right after it. After a noun the row only needs its previous token, a local relation; the query at \"it\" has not read the adjective, so no head can point at the referent: that row must read the nouns (the candidates) and the adjective (which kind is meant). Nothing tells a head which to read: the table shows what each one learned, measured on the held-out sentences."));
  } else {
    section_heading(tr("Why two layers?"));
    text_wrapped("%s", tr("In one layer the query at \"it\" is computed from \"it\" and its position only: it has not yet read the adjective that follows (\"tired\" or \"wide\"), so its weights over the two nouns cannot depend on it. In two layers, layer 1 lets \"it\" read the adjective; layer 2's query at \"it\" then carries it and points at the right noun."));
  }
  if (ImGui::CollapsingHeader((std::string(tr(letters ? "Tokens the model knows:" : "Words the model knows:")) + "###train_vocab").c_str())) {
    std::string all;
    const auto& v = letters ? train::induction_vocabulary() : train::coref_vocabulary();
    for (size_t i = letters ? 0 : 1; i < v.size(); ++i) all += (all.empty() ? "" : ", ") + v[i];  // coref: not "<pad>"
    text_wrapped("%s", all.c_str());
  }
}

// The task "induction": what each head does (the trainer's scores at its last evaluation, so they change while it
// trains): its relation, then the weight on the previous token, on the token after the earlier copy (induction),
// on the earlier copy itself, and on itself.
void TrainView::induction_table() {
  const train::TrainReport& r = scene_.report();
  section_heading(tr("What each head learned"));
  ImGui::PushTextWrapPos(0.f);  // the side panel is narrow
  ImGui::TextDisabled("%s", tr("the weights measured on the held-out sequences at the last evaluation"));
  ImGui::PopTextWrapPos();
  if (!scene_.has_report() || r.induction_heads.empty()) return;
  for (const train::InductionHeadScore& h : r.induction_heads) {
    ImGui::Text("%s %d, %s %d: %s %s", tr("layer"), h.layer + 1, tr("head"), h.head + 1, tr("reads"), tr(train::induction_relation(h)));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("  %s %s · %s %s · %s %s · %s %s", tr("previous token"), fmt(h.previous, 2).c_str(), tr("induction"),
                       fmt(h.induction, 2).c_str(), tr("same token"), fmt(h.same_token, 2).c_str(), tr("itself"), fmt(h.self, 2).c_str());
    ImGui::PopStyleColor();
  }
}

// What each head reads at "it" and after a noun (the trainer's measure at the end of the run, on every held-out sentence):
// per head its relation and, apart for animal and place referents, the weight on each kind of word.
void TrainView::head_table() {
  const train::TrainReport& r = scene_.report();
  section_heading(tr("What each head learned"));
  head_patterns_caption();
  if (!scene_.has_report() || r.head_patterns.empty()) {
    ImGui::TextDisabled("%s", tr("Measured when the run ends, on all held-out sentences."));
    return;
  }
  head_patterns_list(r.head_patterns);
}

std::string TrainView::step_text(const ViewContext&) const {
  const train::TrainReport& r = scene_.report();
  char buf[300];
  std::snprintf(buf, sizeof buf, "%s %d / %d   ·   %s %s   ·   %s %s %%   ·   %s %s   ·   %s", tr("step"), scene_.has_report() ? r.step : 0,
                scene_.params().recipe.steps, tr("loss"), scene_.has_report() && std::isfinite(r.loss) ? fmt(r.loss, 4).c_str() : "–",
                tr("held-out accuracy"), scene_.has_report() ? fmt(100.0 * r.heldout_accuracy, 1).c_str() : "–", tr("steps/s"),
                fmt(scene_.steps_per_second(), 0).c_str(), tr(train_state_name(scene_.state())));
  return buf;
}

void TrainView::stage(ViewContext& ctx) {
  edit_.sync(scene_);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  // Stage 1 (the task): the sentence's attention in every layer, large. Stage 2 (learning): the curves beside it.
  if (static_cast<TrainStage>(scene_.timeline.stage()) == TrainStage::Task) {
    maps(ctx, avail.x, avail.y);
    return;
  }
  const bool side = avail.x > fs * 40.f;
  const float cw = side ? avail.x * 0.42f : avail.x;
  // Stacked, each plot keeps at least 7 lines (title, ticks, axis labels and a plot area: the plot widget drops
  // them below about 6, as on a projector at 2× text); a shorter stage scrolls to the maps below.
  const float ch = side ? avail.y : std::max(avail.y * 0.45f, fs * 18.f);
  ImGui::BeginGroup();
  curves(ctx, cw, ch);
  ImGui::EndGroup();
  if (side) ImGui::SameLine(0, fs);
  ImGui::BeginGroup();
  maps(ctx, side ? avail.x - cw - fs * 1.5f : avail.x, side ? avail.y : avail.y - ch - fs);  // a margin: the right map kept its border
  ImGui::EndGroup();
}

// The loss (log axis) above, the held-out accuracy and the argmax rate below, over the steps (views/train_panel.h).
void TrainView::curves(ViewContext&, float width, float height) {
  run_curves(scene_.run(), scene_.params().recipe.steps, width, height, "train");
}

// Every layer's (and head's) weights for the sentence, the "it" row highlighted; the row above each map.
void TrainView::maps(ViewContext& ctx, float width, float height) {
  const train::SentenceAttention& a = scene_.shown();
  const std::vector<std::string>& words = scene_.words();
  const float fs = ImGui::GetFontSize();
  ImGui::TextUnformatted(tr(scene_.params().recipe.task == train::kInductionTask ? "the weights of each layer (causal)"
                                                                               : "the \"it\" row of each layer"));
  if (a.maps.empty() || a.maps[0].rows() != static_cast<Eigen::Index>(words.size())) {
    // Before the run's first report (the worker loading: a second or two) the model's step 0 is not here yet.
    ImGui::TextDisabled("%s", tr(scene_.run().has_report() ? "Press Train to start." : "Preparing the model…"));
    return;
  }
  const int count = a.layers * a.heads;
  // Two layers side by side, both in view; on a phone (compact: two 11-pixel maps with every other label) one
  // above the other, each as wide as the screen.
  const int cols = std::max(1, std::min(count, ctx.compact ? 1 : 2));
  const int rows = (count + cols - 1) / cols;
  // At least 9 lines tall (a phone held sideways left 4-pixel cells): a shorter area scrolls the stage.
  // One above the other, each is tall enough for cells of 1.4 text heights, every label drawn (the stage scrolls).
  const float min_h = cols == 1 && count > 1 ? fs * 6.f + static_cast<float>(words.size()) * fs * 1.4f : fs * 9.f;
  const float w = (width - fs * (cols - 1)) / cols, h = std::max((height - fs * 2.f) / rows, min_h);
  int it = -1;
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] == "it") it = static_cast<int>(i);
  for (int k = 0; k < count; ++k) {
    const int layer = k / a.heads, head = k % a.heads;
    if (k % cols != 0) ImGui::SameLine(0, fs);
    ImGui::BeginGroup();
    MatrixView v;
    v.m = &a.maps[static_cast<size_t>(k)];
    v.key = {this, k, scene_.report_version()};
    v.title = a.heads > 1 ? tr_format(N_("attention of layer {0}, head {1}"), {std::to_string(layer + 1), std::to_string(head + 1)})
                          : tr_format(N_("attention of layer {0}"), {std::to_string(layer + 1)});
    v.row_labels = &words;
    v.col_labels = &words;
    v.scale = ColorScale::Sequential;
    v.lo = 0.f;
    v.hi = 1.f;
    v.hl_row = it;
    v.max_cell_w = v.max_cell_h = 3.f * fs;  // a short sentence: cells large enough for every label
    const MatrixViewResult r = matrix_view(v, ImVec2(w, h));
    if (r.hover_i >= 0 && r.hover_j >= 0) {
      ctx.hover_what = layer * 16 + head;
      ctx.hover_i = r.hover_i;
      ctx.hover_j = r.hover_j;
    }
    ImGui::EndGroup();
  }
}

}  // namespace ap
