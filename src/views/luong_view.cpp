// View of the scene "Luong: multiplicative attention": the controls (the two sentences, the score shown, the
// sizes, the encoder gain, the seed) and, stage by stage, the encoder and decoder states, one decoder step's
// three scores side by side, the three alignment matrices, and the comparison with Bahdanau. It draws what
// the scene holds (core/seq2seq.h); it computes nothing.
#include "views/luong_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/number_text.h"
#include "platform/platform.h"
#include "platform/text_field.h"
#include "widgets/colormap.h"
#include "widgets/math_text.h"
#include "widgets/matrix_view.h"
#include "widgets/section.h"
#include "widgets/text_fit.h"
#include "widgets/seed_input.h"
#include "widgets/table_headers.h"
#include "views/checkpoint_fetch.h"
#include "views/race_panel.h"
#include "views/weights_choice.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/luong_scene.cpp).
const TrPair kLuongViewStrings[] = {
    {"Notice: dot needs no parameter at all, but only works when d_s = d_enc; at these sizes general adds {0} numbers, concat {1} and Bahdanau's additive score {2}.",
     "注意：dot 完全不需要参数，但只在 d_s = d_enc 时可用；在这些尺寸下，general 增加 {0} 个数，concat 增加 {1} 个，Bahdanau 的加性打分增加 {2} 个。"},
    {"colours", "颜色"},
    {"source sentence (encoder input)", "源句（编码器输入）"},
    {"target sentence (teacher forcing)", "目标句（教师强制）"},
    {"Teacher forcing: step t reads the reference word y_t-1 (<s> at t = 1), not a guess: the decoder has no output layer.",
     "教师强制：第 t 步读入参考译文的词 y_t-1（t = 1 时为 <s>），而不是自己的猜测：这个解码器没有输出层。"},
    {"Weights are seeded, not trained: they show how the scores compute, not a trained translation's alignment.",
     "权重由随机种子生成，没有训练：展示的是评分如何计算，而不是训练后翻译模型的对齐。"},
    {"score shown", "突出显示的评分"},
    {"trained (toy translation, three models)", "训练过的（玩具翻译，三个模型）"},
    {"score shown (its model's states)", "突出显示的评分（显示其模型的状态）"},
    {"Teacher forcing: step t reads the reference word y_t-1 (<s> at t = 1); the last step emits </s>. Each score is its own trained model: its own encoder, decoder and weights.",
     "教师强制：第 t 步读入参考译文的词 y_t-1（t = 1 时为 <s>）；最后一步输出 </s>。每种评分是一个单独训练的模型：有自己的编码器、解码器和权重。"},
    {"Trained here: the three scores on the same data", "在这里训练：三种评分，同样的数据"},
    {"Each: a unidirectional GRU encoder and a GRU decoder of {0} units, {1} steps of {2} sentences of the toy translation, {3}, seed {4} (the build's recipe); measured on {5} held-out sentences it never saw.",
     "每个模型：{0} 维的单向 GRU 编码器和 GRU 解码器，在玩具翻译上训练 {1} 步、每步 {2} 个句子，{3}，种子 {4}（与构建时的配方相同）；在 {5} 个从未见过的留出句子上测量。"},
    {"words right", "词正确率"},
    {"sentences right", "句子正确率"},
    {"words aligned", "词对齐率"},
    {"steps to 95 %", "达到 95 % 的步数"},
    {"not yet", "尚未达到"},
    {"Notice: {0} reached 95 % of words right first (step {1}); the largest weight of a word lies on its source word in {2} (dot), {3} (general), {4} (concat) of cases.",
     "注意：{0} 最先达到 95 % 的词正确率（第 {1} 步）；词的最大权重落在其源词上的比例：dot {2}、general {3}、concat {4}。"},
    {"all three", "全部三种"},
    {"embedding width d_emb", "嵌入宽度 d_emb"},
    {"encoder width d_h", "编码器宽度 d_h"},
    {"decoder width d_s", "解码器宽度 d_s"},
    {"concat width d_a", "concat 隐层宽度 d_a"},
    {"encoder gain g", "编码器增益 g"},
    {"source tokens", "源词数"},
    {"target steps", "目标步数"},
    {"encoder states h_j (unidirectional RNN)", "编码器状态 h_j（单向 RNN）"},
    {"decoder states s_t (computed first)", "解码器状态 s_t（先计算）"},
    {"s_t depends only on s_t-1 and y_t-1, not on the attention: all three scores use the very same s_t.",
     "s_t 只依赖 s_t-1 和 y_t-1，不依赖注意力：三种评分用的是完全相同的 s_t。"},
    {"emits", "输出"},
    {"score e_tj", "分数 e_tj"},
    {"weight α_tj", "权重 α_tj"},
    {"peak", "峰值"},
    {"not defined for these sizes", "在这些尺寸下没有定义"},
    {"dot needs d_s = d_enc: s_t has {0} numbers, h_j has {1}, so s_t^T h_j is undefined. general's W_a ({0} × {1}) bridges the sizes; concat works for any sizes.",
     "dot 要求 d_s = d_enc：s_t 有 {0} 个数，h_j 有 {1} 个，所以 s_t^T h_j 没有定义。general 的 W_a（{0} × {1}）可以连接两种尺寸；concat 对任何尺寸都可用。"},
    {"rows: decoder steps t (the word being emitted); columns: source words j; each row sums to 1",
     "行：解码步 t（正在输出的词）；列：源词 j；每行之和为 1"},
    {"the notes' three differences", "讲义中的三点区别"},
    {"Bahdanau (additive, 2014)", "Bahdanau（加性，2014）"},
    {"Luong (multiplicative, 2015)", "Luong（乘性，2015）"},
    {"in this scene", "本场景中"},
    {"1. which decoder state scores", "1. 用哪个解码器状态打分"},
    {"s_t-1, the previous state; s_t is updated after attending", "s_t-1，前一步的状态；注意力之后才更新 s_t"},
    {"s_t, the current state, computed before attending", "s_t，当前状态，在注意力之前算出"},
    {"2. encoder", "2. 编码器"},
    {"bidirectional RNN: h_j = [forward h_j; backward h_j]", "双向 RNN：h_j = [前向 h_j; 后向 h_j]"},
    {"unidirectional RNN: h_j sees only x_1 … x_j", "单向 RNN：h_j 只看到 x_1 … x_j"},
    {"3. score function", "3. 评分函数"},
    {"additive: v_a^T tanh(W_a s_t-1 + U_a h_j)", "加性：v_a^T tanh(W_a s_t-1 + U_a h_j)"},
    {"dot s_t^T h_j (simplest), general, concat", "dot s_t^T h_j（最简单）、general、concat"},
    {"after attending", "注意力之后"},
    {"s_t = f(s_t-1, y_t-1, c_t)", "s_t = f(s_t-1, y_t-1, c_t)"},
    {"h~_t = tanh(W_c [c_t; s_t]) predicts y_t", "h~_t = tanh(W_c [c_t; s_t]) 用来预测 y_t"},
    {"parameters of each score function (these sizes)", "每种评分函数的参数（当前尺寸）"},
    {"parameters", "参数"},
    {"needs", "要求"},
    {"defined here", "此处可用"},
    {"teacher forcing: y_t-1 → y_t", "教师强制：y_t-1 → y_t"},
    {"largest weight", "最大权重"},
    {"s_1 … s_{0}: computed in stage 1, before any score", "s_1 … s_{0}：在第 1 阶段、任何评分之前算出"},
    {"d_s = d_enc", "d_s = d_enc"},
    {"any sizes", "任意尺寸"},
    {"additive (Bahdanau)", "加性（Bahdanau）"},
    {"shared by the three scores: the decoder and the attentional state", "三种评分共用：解码器与注意力状态"},
    {"yes", "是"},
    {"no", "否"},
};
}  // namespace

const TrPair* LuongView::strings(size_t* count) { return translation_table(kLuongViewStrings, count); }

namespace {

constexpr ImU32 kPending = IM_COL32(236, 236, 240, 255);   // a cell not computed yet
constexpr ImU32 kBar = IM_COL32(80, 110, 200, 255);
const LuongScore kScores[] = {LuongScore::Dot, LuongScore::General, LuongScore::Concat};

ImU32 dim_text() { return ImGui::GetColorU32(ImGuiCol_TextDisabled); }
ImU32 ink() { return ImGui::GetColorU32(ImGuiCol_Text); }

// A labelled grid of coloured cells, drawn with the draw list (numbers when they fit). Column labels take two
// staggered lines, so a label may be two cells wide. Rows at or past `reveal_rows` are "not computed yet".
struct Grid {
  const Mat* m = nullptr;
  std::string title;  // math text
  const std::vector<std::string>* rows = nullptr;
  const std::vector<std::string>* cols = nullptr;
  ColorScale scale = ColorScale::Diverging;
  float lo = -1.f, hi = 1.f;
  int reveal_rows = 1 << 30;
  int hl_row = -1;
  bool chosen = false;
  float max_cell = 40.f;
};
struct GridHover {
  int i = -1, j = -1;
};

GridHover draw_grid(const Grid& g, ImVec2 size) {
  GridHover hv;
  const Mat& m = *g.m;
  const int R = static_cast<int>(m.rows()), C = static_cast<int>(m.cols());
  const float fs = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  float lw = 0;
  if (g.rows)
    for (const auto& s : *g.rows) lw = std::max(lw, ImGui::CalcTextSize(s.c_str()).x);
  lw = g.rows ? std::min(lw + 8.f, fs * 6.f) : 0.f;
  const float title_h = g.title.empty() ? 0.f : fs + 6.f;
  const float head_h = g.cols ? 2.f * fs + 4.f : 0.f;
  const float cell = std::max(2.f, std::min({g.max_cell, (size.x - lw) / std::max(1, C), (size.y - title_h - head_h) / std::max(1, R)}));
  const ImVec2 g0(o.x + lw, o.y + title_h + head_h), g1(g0.x + C * cell, g0.y + R * cell);
  if (!g.title.empty()) draw_math_text(dl, ImVec2(o.x + lw, o.y), g.chosen ? chosen_color() : ink(), g.title.c_str(), fs);
  if (g.cols)
    for (int j = 0; j < C && j < static_cast<int>(g.cols->size()); ++j) {
      const std::string s = fit_text((*g.cols)[static_cast<size_t>(j)], 2.f * cell - 4.f);
      const float w = ImGui::CalcTextSize(s.c_str()).x;
      const float x = std::clamp(g0.x + (j + 0.5f) * cell - w * 0.5f, o.x, g0.x + C * cell - w);  // inside the grid's width
      dl->AddText(ImVec2(x, o.y + title_h + (j % 2) * fs), dim_text(), s.c_str());
    }
  MatrixViewResult drawn;  // for the page's report of what is on screen (getState().view.matrices)
  drawn.grid_min = g0;
  drawn.grid_max = g1;
  drawn.cell_w = drawn.cell_h = cell;
  drawn.rows = R;
  drawn.cols = C;
  drawn.col_labels = g.cols ? std::min(C, static_cast<int>(g.cols->size())) : 0;
  drawn.row_labels = g.rows && cell >= fs * 0.8f ? std::min(R, static_cast<int>(g.rows->size())) : 0;
  if (g.rows)
    for (int i = 0; i < R && i < static_cast<int>(g.rows->size()); ++i) {
      if (cell < fs * 0.8f) break;
      const std::string s = fit_text((*g.rows)[static_cast<size_t>(i)], lw - 6.f);
      dl->AddText(ImVec2(o.x + lw - 4.f - ImGui::CalcTextSize(s.c_str()).x, g0.y + i * cell + (cell - fs) * 0.5f),
                  i == g.hl_row ? chosen_color() : ink(), s.c_str());
    }
  const bool numbers = cell >= fs * 2.3f;
  drawn.numbered = numbers;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      const ImVec2 a(g0.x + j * cell, g0.y + i * cell), b(a.x + cell, a.y + cell);
      if (i >= g.reveal_rows) {
        dl->AddRectFilled(a, b, kPending);
        continue;
      }
      const ImU32 bg = colormap(g.scale, colormap_t(m(i, j), g.lo, g.hi));
      dl->AddRectFilled(a, b, bg);
      if (numbers) {
        const std::string t = fmt(m(i, j), 2);
        const float w = ImGui::CalcTextSize(t.c_str()).x;
        if (w < cell - 2.f) dl->AddText(ImVec2(a.x + (cell - w) * 0.5f, a.y + (cell - fs) * 0.5f), text_color_on(bg), t.c_str());
      }
    }
  dl->AddRect(g0, g1, g.chosen ? chosen_color() : IM_COL32(180, 180, 190, 255), 0.f, 0, g.chosen ? 2.f : 1.f);
  if (g.hl_row >= 0 && g.hl_row < R)
    dl->AddRect(ImVec2(g0.x, g0.y + g.hl_row * cell), ImVec2(g1.x, g0.y + (g.hl_row + 1) * cell), chosen_color(), 0.f, 0, 2.f);
  if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(g0, g1)) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    hv.i = std::clamp(static_cast<int>((mp.y - g0.y) / cell), 0, R - 1);
    hv.j = std::clamp(static_cast<int>((mp.x - g0.x) / cell), 0, C - 1);
    if (hv.i >= g.reveal_rows) hv = {};
    else dl->AddRect(ImVec2(g0.x + hv.j * cell, g0.y + hv.i * cell), ImVec2(g0.x + (hv.j + 1) * cell, g0.y + (hv.i + 1) * cell), ink(), 0.f, 0, 2.f);
  }
  matrix_view_record(g.title, drawn, g.lo, g.hi);
  ImGui::Dummy(ImVec2(std::max(lw + C * cell, size.x), title_h + head_h + R * cell));
  return hv;
}

void set_hover(ViewContext& ctx, int what, const GridHover& h) {
  if (h.i < 0 || h.j < 0) return;
  ctx.hover_what = what;
  ctx.hover_i = h.i;
  ctx.hover_j = h.j;
}

// A framed explanation where a score function is not defined (dot with d_s != d_enc).
void undefined_panel(const LuongParams& p, LuongScore k, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float fs = ImGui::GetFontSize();
  draw_math_text(dl, o, dim_text(), (std::string(tr(LuongScene::score_title(k))) + ":  " + LuongScene::score_formula(k)).c_str(), fs);
  dl->AddRect(ImVec2(o.x, o.y + fs * 1.6f), ImVec2(o.x + size.x, o.y + size.y), IM_COL32(200, 200, 205, 255), 4.f);
  ImGui::SetCursorScreenPos(ImVec2(o.x + fs * 0.5f, o.y + fs * 2.2f));
  ImGui::PushTextWrapPos(o.x + size.x - fs * 0.5f - ImGui::GetWindowPos().x);  // local to the window
  ImGui::TextDisabled("%s", tr("not defined for these sizes"));
  const std::string msg = tr_format(N_("dot needs d_s = d_enc: s_t has {0} numbers, h_j has {1}, so s_t^T h_j is undefined. general's W_a ({0} × {1}) bridges the sizes; concat works for any sizes."),
                                          {std::to_string(p.d_s), std::to_string(p.d_h)});
  text_wrapped("%s", msg.c_str());
  ImGui::PopTextWrapPos();
  ImGui::SetCursorScreenPos(o);
  ImGui::Dummy(size);
}

}  // namespace

// A sentence field: what is typed goes to the scene (a refused sentence stays, beside its message).
void LuongView::sentence_field(ViewContext& ctx, const char* label, const char* id, std::string* value) {
  ImGui::TextUnformatted(tr(label));
  const std::string hid = std::string("##") + id;
  ImGui::SetNextItemWidth(-1);
  TextFieldOptions o;
  o.max_bytes = 1023;
  o.accessible_name = tr(label);
  if (ap::text_field(hid.c_str(), value, o)) (void)edit_.submit(ctx.st, scene_, id);
}

// Random (seeded) or the build's three trained models; the label says which, with their held-out figures.
void LuongView::weights_controls(ViewContext& ctx) {
  bool trained = false;
  if (weights_radios(tr("trained (toy translation, three models)"), scene_.trained_pending() || scene_.params().trained, false, &trained)) {
    LuongParams p = scene_.params();
    p.trained = trained;
    if (p.trained) {  // the models' own words: the notes' sentences, lowercased (the grammar's)
      p.source = LuongScene::trained_opening().source;
      p.target = LuongScene::trained_opening().target;
    } else {
      p.source = LuongParams{}.source;
      p.target = LuongParams{}.target;
    }
    (void)report_result(ctx.st, "weights", scene_.apply(p));
    edit_.forget();
  }
  weights_label_line(scene_.trained_pending(), scene_.weights_label());
}

// The trained view's checkpoint (views/checkpoint_fetch.h), then the fields: from the controls and the stage
// alike (with the controls hidden, a phone, the stage alone asks).
void LuongView::sync(ViewContext& ctx) {
  fetch_checkpoint(scene_, ctx.st, &failures_seen_, scene_.model().trained);
  edit_.sync(scene_);
}

void LuongView::controls(ViewContext& ctx) {
  sync(ctx);
  const float fs = ImGui::GetFontSize();
  const auto apply = [&](const char* key) { (void)edit_.submit(ctx.st, scene_, key); };
  const bool trained = scene_.model().trained;
  ImGui::Spacing();
  edit_.release_fields({"##source", "##target"});
  sentence_field(ctx, N_("source sentence (encoder input)"), "source", &edit_.p.source);
  sentence_field(ctx, N_("target sentence (teacher forcing)"), "target", &edit_.p.target);
  weights_controls(ctx);
  const LuongModel& m = scene_.model();
  ImGui::TextDisabled("%s: n = %d   %s: T = %d", tr("source tokens"), m.run.n, tr("target steps"), m.run.T);
  ImGui::TextUnformatted(tr(trained ? "score shown (its model's states)" : "score shown"));
  ImGui::SetNextItemWidth(-1);
  LuongScore shown_kind;
  const bool one = parse_luong_score_name(edit_.p.score, &shown_kind);
  if (ImGui::BeginCombo("##score", one ? tr(LuongScene::score_title(shown_kind)) : tr("all three"))) {
    if (ImGui::Selectable((std::string(tr("all three")) + "###all").c_str(), !one)) {
      edit_.p.score = "all";
      apply("score");
    }
    for (LuongScore k : kScores) {
      const bool usable = k != LuongScore::Dot || edit_.p.d_s == edit_.p.d_h;
      std::string label = tr(LuongScene::score_title(k));
      if (!usable) label += std::string("  (") + tr("d_s = d_enc") + ")";
      if (ImGui::Selectable((label + "###" + luong_score_name(k)).c_str(), one && k == shown_kind, usable ? 0 : ImGuiSelectableFlags_Disabled)) {
        edit_.p.score = luong_score_name(k);
        apply("score");
      }
    }
    ImGui::EndCombo();
  }
  if (trained) {  // the sizes and seed are the seeded model's: the trained ones have their own
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", tr("Teacher forcing: step t reads the reference word y_t-1 (<s> at t = 1); the last step emits </s>. Each score is its own trained model: its own encoder, decoder and weights."));
    ImGui::PopStyleColor();
    return;
  }
  const float field = fs * 7.f;
  const auto int_field = [&](const char* label, const char* id, int* v, int step) {
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt((std::string(tr(label)) + "###" + id).c_str(), v, step, step * 4)) apply(id);
  };
  int_field(N_("embedding width d_emb"), "d_emb", &edit_.p.d_emb, 4);
  int_field(N_("encoder width d_h"), "d_h", &edit_.p.d_h, 4);
  int_field(N_("decoder width d_s"), "d_s", &edit_.p.d_s, 4);
  int_field(N_("concat width d_a"), "d_a", &edit_.p.d_a, 4);
  float gain = static_cast<float>(edit_.p.gain);
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderFloat((std::string(tr("encoder gain g")) + "###gain").c_str(), &gain, 0.f, static_cast<float>(s2s_limits::kMaxGain), "%.2f")) {
    edit_.p.gain = std::round(static_cast<double>(gain) * 100.0) / 100.0;
    apply("gain");
  }
  if (seed_input(tr("seed"), "seed", &edit_.p.seed, field)) {
    apply("seed");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr("Teacher forcing: step t reads the reference word y_t-1 (<s> at t = 1), not a guess: the decoder has no output layer."));
  text_wrapped("%s", tr("Weights are seeded, not trained: they show how the scores compute, not a trained translation's alignment."));
  ImGui::PopStyleColor();
}

std::string LuongView::step_text(const ViewContext&) const {
  const LuongModel& m = scene_.model();
  const LuongParams& p = scene_.params();
  char buf[400];
  switch (static_cast<LuongStage>(scene_.timeline.stage())) {
    case LuongStage::States:
      std::snprintf(buf, sizeof buf, "n = %d, d_h = d_enc = %d   ·   T = %d, d_s = %d   ·   %s", m.run.n, p.d_h, m.run.T, p.d_s,
                    tr("s_t depends only on s_t-1 and y_t-1, not on the attention: all three scores use the very same s_t."));
      return buf;
    case LuongStage::Step:
    case LuongStage::Alignments: {
      // the step shown (stage 2), or the last row revealed so far (stage 3)
      const Timeline& tl = scene_.timeline;
      const int t = tl.stage() == static_cast<int>(LuongStage::Step) || tl.stage_complete()
                        ? scene_.shown_step()
                        : std::clamp(tl.done_substeps() - 1, 0, std::max(0, m.run.T - 1));
      std::string s = std::string(tr("step")) + " t = " + std::to_string(t + 1) + "  ·  " + tr("peak") + ":";
      for (const LuongScoreRun& r : m.run.runs) {
        Eigen::Index j = 0;
        const float a = r.alignment.row(t).maxCoeff(&j);
        s += std::string("  ") + tr(LuongScene::score_title(r.kind)) + " → " + m.source_tokens[static_cast<size_t>(j)] + " (" + fmt(a, 2) + ")";
      }
      return s;
    }
    case LuongStage::Compare:
    default: {
      const ScoreParamCounts c = score_param_counts(m);
      std::snprintf(buf, sizeof buf, "%s: dot %lld · general %lld · concat %lld · %s %lld", tr("parameters"), c.dot, c.general, c.concat,
                    tr("additive (Bahdanau)"), c.additive);
      return buf;
    }
  }
}

void LuongView::stage(ViewContext& ctx) {
  sync(ctx);
  switch (static_cast<LuongStage>(scene_.timeline.stage())) {
    case LuongStage::States: states_stage(ctx); break;
    case LuongStage::Step: step_stage(ctx); break;
    case LuongStage::Alignments: alignments_stage(ctx); break;
    case LuongStage::Compare:
    default: compare_stage(ctx); break;
  }
}

// Stage 1: H (n × d_h) row by row as the encoder reads, then the decoder states S (T × d_s) row by row.
void LuongView::states_stage(ViewContext& ctx) {
  const LuongModel& m = scene_.model();
  const float fs = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int n = m.run.n;
  const int done = scene_.timeline.stage_complete() ? 1 << 30 : scene_.timeline.done_substeps();
  // Side by side; on a narrow screen (a phone upright) one above the other. Either way each keeps cells of at
  // least 0.8 text heights (its row labels drawn) and the stage scrolls rather than shrink them (a phone sideways).
  const bool stacked = avail.x < fs * 40.f;
  const float w = stacked ? avail.x : (avail.x - fs * 2.f) * 0.5f;
  const int rows = std::max(m.run.n, m.run.T);
  const float h = std::max(stacked ? (avail.y - fs * 7.f) * 0.5f : avail.y - fs * 7.f, rows * fs * 0.8f + fs * 1.5f);
  char title[160];
  Grid g;
  g.m = &m.encoder.H;
  g.rows = &m.source_tokens;
  std::snprintf(title, sizeof title, "%s   (%d × %d)", tr("encoder states h_j (unidirectional RNN)"), n, scene_.params().d_h);
  g.title = title;
  g.reveal_rows = done;
  ImGui::BeginGroup();
  set_hover(ctx, static_cast<int>(LuongItem::Encoder), draw_grid(g, ImVec2(w, h)));
  ImGui::EndGroup();
  if (!stacked) ImGui::SameLine(0, fs * 2.f);
  Grid s;
  s.m = &m.run.states;
  s.rows = &m.target_tokens;
  std::snprintf(title, sizeof title, "%s   (%d × %d)", tr("decoder states s_t (computed first)"), m.run.T, scene_.params().d_s);
  s.title = title;
  s.reveal_rows = std::max(0, done - n);
  ImGui::BeginGroup();
  set_hover(ctx, static_cast<int>(LuongItem::Decoder), draw_grid(s, ImVec2(w, h)));
  ImGui::EndGroup();
  // Teacher forcing, spelt out: what each decoder step reads and the word it stands for.
  std::string pairs;
  for (int t = 0; t < m.run.T; ++t)
    pairs += "t = " + std::to_string(t + 1) + ": " + m.input_tokens[static_cast<size_t>(t)] + " → " + m.target_tokens[static_cast<size_t>(t)] + "    ";
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s", tr("s_t depends only on s_t-1 and y_t-1, not on the attention: all three scores use the very same s_t."));
  ImGui::Spacing();
  ImGui::TextUnformatted(tr("teacher forcing: y_t-1 → y_t"));
  text_wrapped("%s", pairs.c_str());
  ImGui::PopTextWrapPos();
}

// Stage 2: decoder step t. The three scores of the same s_t over the same h_j, side by side: per source word
// its score e_tj and its weight α_tj as a bar (bars share one scale across the three panels).
void LuongView::step_stage(ViewContext& ctx) {
  const LuongModel& m = scene_.model();
  const LuongParams& p = scene_.params();
  const float fs = ImGui::GetFontSize();
  const int t = scene_.shown_step(), n = m.run.n;
  ImGui::Text("%s t = %d / %d:  %s \xE2\x80\x9C%s\xE2\x80\x9D,  %s \xE2\x80\x9C%s\xE2\x80\x9D", tr("step"), t + 1, m.run.T, tr("reads"),
              m.input_tokens[static_cast<size_t>(t)].c_str(), tr("emits"), m.target_tokens[static_cast<size_t>(t)].c_str());
  // s_t itself, as one strip
  const Mat st = m.run.states.row(t);
  Grid sg;
  sg.m = &st;
  sg.max_cell = fs * 1.2f;
  const ImVec2 avail0 = ImGui::GetContentRegionAvail();
  char title[64];
  std::snprintf(title, sizeof title, "sₜ  (t = %d, d_s = %d)", t + 1, p.d_s);
  sg.title = title;
  (void)draw_grid(sg, ImVec2(avail0.x, fs * 2.6f));
  ImGui::Spacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Three panels side by side where each has room for a word, a score, a bar and its weight (about 16 text
  // heights); else fewer a row (a phone: the numbers ran into each other), each n rows of 1.7 lines, scrolling.
  const float gap = fs * 1.2f;
  const int per_row = std::clamp(static_cast<int>((avail.x + gap) / (fs * 16.f + gap)), 1, 3), lines = (3 + per_row - 1) / per_row;
  const float pw = (avail.x - (per_row - 1) * gap) / per_row;
  const float ph = per_row == 3 ? avail.y - fs * 0.5f : std::max((avail.y - fs * 0.5f) / lines, fs * (3.3f + 1.7f * n));
  float amax = 1e-6f;
  for (const LuongScoreRun& r : m.run.runs) amax = std::max(amax, r.alignment.row(t).maxCoeff());
  LuongScore chosen;
  const bool one = parse_luong_score_name(p.score, &chosen);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int k = 0; k < 3; ++k) {
    if (k % per_row) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    const LuongScore kind = kScores[k];
    const LuongScoreRun* r = m.find(kind);
    if (!r) {
      undefined_panel(p, kind, ImVec2(pw, ph));
      ImGui::EndGroup();
      continue;
    }
    const bool hl = one && kind == chosen;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    draw_math_text(dl, o, hl ? chosen_color() : ink(), (std::string(tr(LuongScene::score_title(kind))) + ":  " + LuongScene::score_formula(kind)).c_str(), fs);
    const float head = fs * 1.5f;
    dl->AddText(ImVec2(o.x + pw * 0.30f, o.y + head), dim_text(), tr("score e_tj"));
    dl->AddText(ImVec2(o.x + pw * 0.52f, o.y + head), dim_text(), tr("weight α_tj"));
    const float y0 = o.y + head + fs * 1.3f;
    const float rh = std::min(fs * 1.7f, (o.y + ph - y0) / std::max(1, n));
    Eigen::Index peak = 0;
    r->alignment.row(t).maxCoeff(&peak);
    const float lab_w = pw * 0.28f, bar_x = o.x + pw * 0.52f, bar_w = pw * 0.48f - fs * 2.6f;
    for (int j = 0; j < n; ++j) {
      const float y = y0 + j * rh;
      const float a = r->alignment(t, j);
      const bool is_peak = j == peak;
      if (rh >= fs * 0.8f) {
        const std::string tok = fit_text(m.source_tokens[static_cast<size_t>(j)], lab_w - 4.f);
        dl->AddText(ImVec2(o.x, y + (rh - fs) * 0.5f), is_peak ? accent_warm() : ink(), tok.c_str());
        dl->AddText(ImVec2(o.x + pw * 0.30f, y + (rh - fs) * 0.5f), ink(), fmt(r->scores(t, j), 2).c_str());
        dl->AddText(ImVec2(bar_x + a / amax * bar_w + 4.f, y + (rh - fs) * 0.5f), ink(), fmt(a, 2).c_str());
      }
      dl->AddRectFilled(ImVec2(bar_x, y + rh * 0.15f), ImVec2(bar_x + std::max(1.f, a / amax * bar_w), y + rh * 0.85f), is_peak ? accent_warm() : kBar, 2.f);
      if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(ImVec2(o.x, y), ImVec2(o.x + pw, y + rh))) {
        set_hover(ctx, kLuongAlignItem + static_cast<int>(kind), GridHover{t, j});
        dl->AddRect(ImVec2(o.x - 2, y), ImVec2(o.x + pw, y + rh), ink(), 2.f);
      }
    }
    if (hl) dl->AddRect(ImVec2(o.x - 4, o.y - 2), ImVec2(o.x + pw + 2, y0 + n * rh + 4), chosen_color(), 4.f, 0, 2.f);
    ImGui::Dummy(ImVec2(pw, ph));
    ImGui::EndGroup();
  }
}

// Stage 3: the three T × n alignments side by side, row by row; one colour scale (0 … the largest weight).
void LuongView::alignments_stage(ViewContext& ctx) {
  const LuongModel& m = scene_.model();
  const LuongParams& p = scene_.params();
  const float fs = ImGui::GetFontSize();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Three side by side where each keeps cells of at least 0.8 text heights (row labels drawn, up to 6 text
  // heights of them); otherwise fewer a row, each tall enough for cells of 1.6 text heights, and the stage scrolls
  // (a phone).
  const float gap = fs * 1.2f, min_w = fs * 6.f + static_cast<float>(m.run.n) * fs * 0.8f;
  const int per_row = std::clamp(static_cast<int>((avail.x + gap) / (min_w + gap)), 1, 3), lines = (3 + per_row - 1) / per_row;
  const float pw = (avail.x - (per_row - 1) * gap) / per_row;
  const float ph = std::max((avail.y - fs * 2.5f) / lines, static_cast<float>(m.run.T) * fs * (per_row < 3 ? 1.6f : 0.8f) + fs * 5.5f);
  const int reveal = scene_.timeline.stage_complete() ? 1 << 30 : scene_.timeline.done_substeps();
  float amax = 1e-6f;
  for (const LuongScoreRun& r : m.run.runs) amax = std::max(amax, r.alignment.maxCoeff());
  const float top = weights_top(ctx.st, amax);
  LuongScore chosen;
  const bool one = parse_luong_score_name(p.score, &chosen);
  for (int k = 0; k < 3; ++k) {
    if (k % per_row) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    const LuongScore kind = kScores[k];
    const LuongScoreRun* r = m.find(kind);
    if (!r) {
      undefined_panel(p, kind, ImVec2(pw, ph));
    } else {
      Grid g;
      g.m = &r->alignment;
      g.rows = &m.target_tokens;
      g.cols = &m.source_tokens;
      g.scale = ColorScale::Sequential;
      g.lo = 0.f;
      g.hi = top;
      g.reveal_rows = reveal;
      g.chosen = one && kind == chosen;
      g.title = std::string(tr(LuongScene::score_title(kind))) + ":  " + LuongScene::score_formula(kind);
      set_hover(ctx, kLuongAlignItem + static_cast<int>(kind), draw_grid(g, ImVec2(pw, ph - fs * 1.5f)));
      ImGui::TextDisabled("%s %s", tr("largest weight"), fmt(r->alignment.maxCoeff(), 2).c_str());
    }
    ImGui::EndGroup();
  }
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s   (%s 0 … %s)", tr("rows: decoder steps t (the word being emitted); columns: source words j; each row sums to 1"),
                      weights_caption(ctx.st, tr("colours")).c_str(), fmt(top, 2).c_str());
  ImGui::PopTextWrapPos();
}

// Stage 4: the notes' three differences as a table, and the parameters each score function needs here.
// The three trained here, side by side (app/seq2seq_race.h): the commands, the measured table, the curves.
void LuongView::race_section(ViewContext& ctx) {
  Seq2SeqRace& race = scene_.race();
  const float fs = ImGui::GetFontSize();
  section_heading(tr("Trained here: the three scores on the same data"));
  const train::Seq2SeqRecipe& r = race.recipes().front();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr_format(N_("Each: a unidirectional GRU encoder and a GRU decoder of {0} units, {1} steps of {2} sentences of the toy translation, {3}, seed {4} (the build's recipe); measured on {5} held-out sentences it never saw."),
                               {std::to_string(r.d_h), std::to_string(r.steps), std::to_string(r.batch), rate_schedule_text(r),
                                std::to_string(r.seed), std::to_string(train::kSeq2SeqHeldout)}).c_str());
  ImGui::PopStyleColor();
  race_buttons(ctx, race, "luong", tr("Train all"));
  const std::vector<RaceSeries> names = {{tr("dot"), series_color(0)}, {tr("general"), series_color(1)}, {tr("concat"), series_color(2)}};
  race_faults(race, names);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  const float table_w = ImGui::GetContentRegionAvail().x;
  if (ImGui::BeginTable("race", 5, flags)) {
    table_setup_columns({{tr("score"), 1.f}, {tr("words right"), 1.f}, {tr("sentences right"), 1.f}, {tr("words aligned"), 1.f}, {tr("steps to 95 %"), 1.f}},
                        table_w);
    table_headers_wrapped();
    for (int k = 0; k < 3; ++k) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(tr(LuongScene::score_title(kScores[k])));
      const bool have = k < race.runs() && !race.run(k).curve.empty();  // (step 0's evaluation comes with a later report)
      const train::Seq2SeqCurvePoint* last = have ? &race.run(k).curve.back() : nullptr;
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(last ? fmt_percent(last->accuracy).c_str() : "–");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(last ? fmt_percent(last->sentences).c_str() : "–");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(last ? fmt_percent(last->alignment).c_str() : "–");
      ImGui::TableNextColumn();
      const int at = race.steps_to(k, 0.95);
      ImGui::TextUnformatted(!have ? "–" : at >= 0 ? std::to_string(at).c_str() : tr("not yet"));
    }
    ImGui::EndTable();
  }
  race_curves(race, names, ImVec2(ImGui::GetContentRegionAvail().x, fs * 12.f), "luong_race");
  if (race.state() == Seq2SeqRace::State::Done) {
    int first = -1;
    for (int k = 0; k < 3; ++k)
      if (race.steps_to(k, 0.95) >= 0 && (first < 0 || race.steps_to(k, 0.95) < race.steps_to(first, 0.95))) first = k;
    if (first >= 0)
      text_wrapped("%s", tr_format(N_("Notice: {0} reached 95 % of words right first (step {1}); the largest weight of a word lies on its source word in {2} (dot), {3} (general), {4} (concat) of cases."),
                                   {tr(LuongScene::score_title(kScores[first])), std::to_string(race.steps_to(first, 0.95)),
                                    fmt_percent(race.run(0).curve.back().alignment), fmt_percent(race.run(1).curve.back().alignment),
                                    fmt_percent(race.run(2).curve.back().alignment)}).c_str());
  }
}

void LuongView::compare_stage(ViewContext& ctx) {
  race_section(ctx);
  const LuongModel& m = scene_.model();
  const LuongParams& p = scene_.params();
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  section_heading(tr("the notes' three differences"));
  char here[160];
  const float table_w = ImGui::GetContentRegionAvail().x;
  if (ImGui::BeginTable("differences", 4, flags)) {
    table_setup_columns({{"", 0.8f}, {tr("Bahdanau (additive, 2014)"), 1.4f}, {tr("Luong (multiplicative, 2015)"), 1.4f}, {tr("in this scene"), 1.f}},
                        table_w);
    table_headers_wrapped();
    const auto row = [&](const char* what, const char* b, const char* l, const std::string& h) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      text_wrapped("%s", tr(what));
      ImGui::TableNextColumn();
      text_wrapped("%s", tr(b));
      ImGui::TableNextColumn();
      text_wrapped("%s", tr(l));
      ImGui::TableNextColumn();
      text_wrapped("%s", h.c_str());
    };
    std::snprintf(here, sizeof here, "%s", tr_format(N_("s_1 … s_{0}: computed in stage 1, before any score"), {std::to_string(m.run.T)}).c_str());
    row(N_("1. which decoder state scores"), N_("s_t-1, the previous state; s_t is updated after attending"),
        N_("s_t, the current state, computed before attending"), here);
    std::snprintf(here, sizeof here, "d_enc = d_h = %d;  %s: 2 · %d = %d", p.d_h, tr("bidirectional"), p.d_h, 2 * p.d_h);
    row(N_("2. encoder"), N_("bidirectional RNN: h_j = [forward h_j; backward h_j]"), N_("unidirectional RNN: h_j sees only x_1 … x_j"), here);
    std::string scores;
    for (LuongScore k : m.available) scores += std::string(scores.empty() ? "" : ", ") + tr(LuongScene::score_title(k));
    row(N_("3. score function"), N_("additive: v_a^T tanh(W_a s_t-1 + U_a h_j)"), N_("dot s_t^T h_j (simplest), general, concat"), scores);
    row(N_("after attending"), N_("s_t = f(s_t-1, y_t-1, c_t)"), N_("h~_t = tanh(W_c [c_t; s_t]) predicts y_t"), "");
    ImGui::EndTable();
  }
  section_heading(tr("parameters of each score function (these sizes)"));
  const ScoreParamCounts c = score_param_counts(m);
  LuongScore chosen;
  const bool one = parse_luong_score_name(p.score, &chosen);
  if (ImGui::BeginTable("params", 5, flags)) {
    table_setup_columns({{tr("score"), 1.f}, {tr("parameters"), 2.f}, {tr("numbers"), 0.8f}, {tr("needs"), 1.f}, {tr("defined here"), 0.8f}},
                        table_w);
    table_headers_wrapped();
    const auto shapes = [&](const std::vector<ParamShape>& v, const char* part) {
      std::string s;
      for (const ParamShape& ps : v)
        if (ps.name.find(part) != std::string::npos || ps.name == part)
          s += (s.empty() ? "" : ",  ") + ps.name + "  " + std::to_string(ps.rows) + " × " + std::to_string(ps.cols);
      return s;
    };
    const auto row = [&](const char* name, bool hl, const std::string& params, long long count, const char* needs, bool usable) {
      ImGui::TableNextRow();
      if (hl) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, chosen_fill());
      ImGui::TableNextColumn();
      text_wrapped("%s", tr(name));
      ImGui::TableNextColumn();
      text_wrapped("%s", params.empty() ? tr("none") : params.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%lld", count);
      ImGui::TableNextColumn();
      text_wrapped("%s", tr(needs));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(usable ? tr("yes") : tr("no"));
    };
    const bool dot_ok = std::find(m.available.begin(), m.available.end(), LuongScore::Dot) != m.available.end();
    row(N_("dot"), one && chosen == LuongScore::Dot, "", c.dot, N_("d_s = d_enc"), dot_ok);
    row(N_("general"), one && chosen == LuongScore::General, shapes(m.run.params, "(general)"), c.general, N_("any sizes"), true);
    row(N_("concat"), one && chosen == LuongScore::Concat, shapes(m.run.params, "(concat)"), c.concat, N_("any sizes"), true);
    std::string add;
    for (const char* nm : {"W_a", "U_a", "v_a"}) {
      const std::string s = shapes(m.bahdanau_params, nm);
      if (!s.empty()) add += (add.empty() ? "" : ",  ") + s;
    }
    row(N_("additive (Bahdanau)"), false, add, c.additive, N_("any sizes"), true);
    ImGui::EndTable();
  }
  ImGui::Spacing();
  std::string shared;
  for (const ParamShape& ps : m.run.params)
    if (ps.name.find('(') == std::string::npos) shared += (shared.empty() ? "" : ",   ") + ps.name + "  " + std::to_string(ps.rows) + " × " + std::to_string(ps.cols);
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextDisabled("%s:  %s", tr("shared by the three scores: the decoder and the attentional state"), shared.c_str());
  // What to notice, read off the table just drawn.
  ImGui::TextUnformatted(tr_format(N_("Notice: dot needs no parameter at all, but only works when d_s = d_enc; at these sizes general adds {0} numbers, concat {1} and Bahdanau's additive score {2}."),
                                   {std::to_string(c.general), std::to_string(c.concat), std::to_string(c.additive)}).c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace ap
