// View of the scene "Bahdanau (additive) attention": the controls (source and target sentences, d_emb, d_h,
// d_s, d_a, seed) and, stage by stage, the bidirectional encoder's states, every parameter with its shape,
// one decoder step (s_t-1, the scores e_t and weights α_t as bars over the source words, c_t, the alignment
// so far), and the whole alignment matrix. It draws what the scene holds (core/seq2seq.h); it computes
// nothing but the maxima that scale its bars.
#include "views/bahdanau_view.h"

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
#include "widgets/text_fit.h"
#include "widgets/seed_input.h"
#include "widgets/tooltip.h"
#include "widgets/section.h"
#include "widgets/table_headers.h"
#include "views/checkpoint_fetch.h"
#include "views/race_panel.h"
#include "views/weights_choice.h"

namespace ap {

namespace {
// The strings this view draws (its scene's own, for getState and errors, are in app/scenes/bahdanau_scene.cpp).
const TrPair kBahdanauViewStrings[] = {
    {"The build's recipe, trained here ({0} steps of {1} sentences, {2}, seed {3}); when it is done the trained view shows this page's model, and Reset brings the build's back.",
     "构建时的配方在这里再训练一次（{0} 步、每步 {1} 个句子，{2}，种子 {3}）；训练完后，训练视图显示本页训练出的模型，按“重置”换回构建时的模型。"},
    {"trained in this page", "在本页中训练"},
    {"Notice: the attention costs {0} of the model's {1} numbers ({2} %): W_a, U_a and v_a are all it takes to let every decoder step weigh every h_j.",
     "注意：注意力只占模型 {1} 个数中的 {0} 个（{2} %）：有了 W_a、U_a 和 v_a，解码器的每一步就能给每个 h_j 加权。"},
    {"entries", "元素个数"},
    {"in this model", "本模型中"},
    {"in the encoder", "编码器中"},
    {"in the attention", "注意力中"},
    {"in the decoder", "解码器中"},
    {"source sentence", "源句"},
    {"target sentence (the reference the decoder reads)", "目标句（解码器读入的参考译文）"},
    {"Teacher forcing: at step t the decoder reads the reference word y_t-1, not its own guess.",
     "Teacher forcing：第 t 步解码器读入的是参考译文的词 y_t-1，而不是它自己的猜测。"},
    {"Weights are seeded, not trained: an untrained alignment is not a translation alignment.",
     "权重是随机种子生成的，没有训练：未经训练的对齐不是翻译的对齐。"},
    {"Width of the word embeddings (source and target), 1 to 64", "词嵌入的宽度（源句与目标句），1 到 64"},
    {"Width of each encoder direction; h_j has 2·d_h numbers", "编码器每个方向的宽度；h_j 有 2·d_h 个数"},
    {"Width of the decoder state s_t", "解码器状态 s_t 的宽度"},
    {"Width of the attention's hidden layer tanh(W_a s_t-1 + U_a h_j)", "注意力隐藏层 tanh(W_a s_t-1 + U_a h_j) 的宽度"},
    {"Every weight comes from this seed", "所有权重都由这个种子生成"},
    {"parameter", "参数"},
    {"role", "作用"},
    {"in all", "合计"},
    {"The word embeddings are seeded look-ups here, not learned parameters.", "这里的词嵌入是按种子查表得到的，不是学习得到的参数。"},
    {"alignment so far", "目前的对齐"},
    {"(teacher forcing)", "（teacher forcing）"},
    {"largest", "最大"},
    {"each row sums to 1", "每行之和为 1"},
    {"untrained: not a translation alignment", "未经训练：不是翻译的对齐"},
    {"numbers in the parameters, all seeded, none trained", "个参数数值，全部由种子生成，没有训练"},
    {"numbers in the parameters, all learned", "个参数数值，全部经过学习"},
    {"trained (toy translation)", "训练过的（玩具翻译）"},
    {"trained: the alignment the model learned", "训练过的：模型学到的对齐"},
    {"The trained model reads the toy grammar's words (a few dozen a side): another word is refused by name. Its sizes are its own: d_emb 16, two GRUs of 16, d_s 32, d_a 16.",
     "训练过的模型只认识玩具语法里的词（每种语言几十个）：其他词会被指名拒绝。它的尺寸是它自己的：d_emb 16，两个宽 16 的 GRU，d_s 32，d_a 16。"},
    {"Two GRUs read the source, one left to right (→h_j), one right to left (←h_j); joined, h_j = [→h_j; ←h_j]. Trained: each state keeps what the decoder will need of word j.",
     "两个 GRU 读源句，一个从左到右（→h_j），一个从右到左（←h_j）；拼接后 h_j = [→h_j; ←h_j]。训练之后：每个状态保留解码器需要的第 j 个词的信息。"},
    {"Row t is α_t: where step t looked to write its word. Trained on the toy translation: the rows cross where French puts the adjective after the noun (\"chat noir\" → \"black cat\"). The notes' sentence was never trained on.",
     "第 t 行是 α_t：第 t 步为写出它的词看向了哪里。在玩具翻译上训练后：在法语把形容词放在名词之后的地方，各行交叉（“chat noir” → “black cat”）。讲义里的这句话从未参与训练。"},
    {"decoder step t (row) × source word j (column)", "解码步 t（行）× 源词 j（列）"},
};
}  // namespace

const TrPair* BahdanauView::strings(size_t* count) { return translation_table(kBahdanauViewStrings, count); }

namespace {



std::string dims(long long r, long long c) { return std::to_string(r) + " × " + std::to_string(c); }

// Where a hovered cell of a matrix view goes: the scene's explain(what, i, j).
void hover_to(ViewContext& ctx, const MatrixViewResult& r, BahdanauItem item, int row_override = -1) {
  if (r.hover_i < 0 || r.hover_j < 0) return;
  ctx.hover_what = static_cast<int>(item);
  ctx.hover_i = row_override >= 0 ? row_override : r.hover_i;
  ctx.hover_j = r.hover_j;
}

std::string join_range(const std::vector<std::string>& toks, int from, int to) {
  std::string s;
  for (int k = from; k <= to; ++k) s += (k > from ? " " : "") + toks[static_cast<size_t>(k)];
  return s;
}

}  // namespace

BahdanauView::~BahdanauView() { heatmap_release(this); }


// A one-line sentence field; true when it changed `text`.
bool BahdanauView::sentence_field(ViewContext& ctx, const char* label, const char* id, std::string* text) {
  (void)ctx;
  ImGui::TextUnformatted(tr(label));
  ImGui::SetNextItemWidth(-1);
  TextFieldOptions o;
  o.max_bytes = 2047;
  o.accessible_name = tr(label);
  const bool changed = text_field(id, text, o);
  return changed;
}

void BahdanauView::sync(ViewContext& ctx) {
  fetch_checkpoint(scene_, ctx.st, &failures_seen_, scene_.model().trained);
  edit_.sync(scene_);
}

// Random (seeded) or the build's trained model; the label says which, with what the model was measured on.
void BahdanauView::weights_controls(ViewContext& ctx) {
  bool trained = false;
  if (weights_radios(tr("trained (toy translation)"), scene_.trained_pending() || scene_.params().trained, false, &trained)) {
    BahdanauParams p = scene_.params();
    p.trained = trained;
    if (p.trained) {  // the model's own words: the notes' sentences, lowercased (the grammar's)
      p.source = BahdanauScene::trained_opening().source;
      p.target = BahdanauScene::trained_opening().target;
    }
    (void)report_result(ctx.st, "weights", scene_.apply(p));
    edit_.forget();
  }
  weights_label_line(scene_.trained_pending(), scene_.weights_label());
}

// Folded until asked for (open while it trains): the build's recipe trained in the page, its curve, and what it
// did to the view.
void BahdanauView::training_panel(ViewContext& ctx) {
  Seq2SeqRace& race = scene_.race();
  const float fs = ImGui::GetFontSize();
  if (race.busy() || !scene_.training_error().ok) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
  if (!ImGui::CollapsingHeader((std::string(tr("Train this model again")) + "###bahdanau_train_panel").c_str())) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  const train::Seq2SeqRecipe& r = race.recipes().front();
  text_wrapped("%s", tr_format(N_("The build's recipe, trained here ({0} steps of {1} sentences, {2}, seed {3}); when it is done the trained view shows this page's model, and Reset brings the build's back."),
                               {std::to_string(r.steps), std::to_string(r.batch), rate_schedule_text(r), std::to_string(r.seed)}).c_str());
  ImGui::PopStyleColor();
  race_buttons(ctx, race, "bahdanau", tr("Train"));
  race_faults(race, {{tr("this page's model"), accent_cool()}});
  race_curves(race, {{tr("trained in this page"), accent_cool()}}, ImVec2(ImGui::GetContentRegionAvail().x, fs * 10.f), "bahdanau_race");
  if (!scene_.training_error().ok) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(flag_color(Flag::Failure)));
    text_wrapped("%s", tr_format(N_("These weights could not be shown: {0}"), {localize(scene_.training_error())}).c_str());
    ImGui::PopStyleColor();
  }
}

void BahdanauView::controls(ViewContext& ctx) {
  sync(ctx);
  const bool trained = scene_.model().trained;
  // Each control changes one field of the scene's parameters; a refused value stays in its field with a message.
  const auto apply = [&](const char* key, auto set) {
    BahdanauParams p = scene_.params();
    set(p);
    (void)report_result(ctx.st, key, scene_.apply(p));
    edit_.submitted(scene_);
  };
  edit_.release_fields({"##source", "##target"});
  ImGui::Spacing();
  if (sentence_field(ctx, N_("source sentence"), "##source", &edit_.p.source))
    apply("source", [&](BahdanauParams& p) { p.source = edit_.p.source; });
  if (sentence_field(ctx, N_("target sentence (the reference the decoder reads)"), "##target", &edit_.p.target))
    apply("target", [&](BahdanauParams& p) { p.target = edit_.p.target; });
  weights_controls(ctx);
  training_panel(ctx);
  const float field = ImGui::GetFontSize() * 7.f;
  const auto int_field = [&](const char* name, int* v, int BahdanauParams::*member, const char* tip) {
    ImGui::SetNextItemWidth(field);
    if (ImGui::InputInt((std::string(name) + "###" + name).c_str(), v, 1, 4))
      apply(name, [&](BahdanauParams& p) { p.*member = *v; });
    if (ImGui::IsItemHovered()) tooltip("%s", tr(tip));
  };
  if (trained) {  // the sizes and the seed are the seeded model's: the trained one has its own
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped("%s", tr("The trained model reads the toy grammar's words (a few dozen a side): another word is refused by name. Its sizes are its own: d_emb 16, two GRUs of 16, d_s 32, d_a 16."));
    text_wrapped("%s", tr("Teacher forcing: at step t the decoder reads the reference word y_t-1, not its own guess."));
    ImGui::PopStyleColor();
    return;
  }
  int_field("d_emb", &edit_.p.d_emb, &BahdanauParams::d_emb, N_("Width of the word embeddings (source and target), 1 to 64"));
  int_field("d_h", &edit_.p.d_h, &BahdanauParams::d_h, N_("Width of each encoder direction; h_j has 2·d_h numbers"));
  int_field("d_s", &edit_.p.d_s, &BahdanauParams::d_s, N_("Width of the decoder state s_t"));
  int_field("d_a", &edit_.p.d_a, &BahdanauParams::d_a, N_("Width of the attention's hidden layer tanh(W_a s_t-1 + U_a h_j)"));
  if (seed_input(tr("seed"), "seed", &edit_.p.seed, field)) {
    apply("seed", [&](BahdanauParams& p) { p.seed = edit_.p.seed; });
  }
  if (ImGui::IsItemHovered()) tooltip("%s", tr("Every weight comes from this seed"));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped("%s", tr("Teacher forcing: at step t the decoder reads the reference word y_t-1, not its own guess."));
  text_wrapped("%s", tr("Weights are seeded, not trained: an untrained alignment is not a translation alignment."));
  ImGui::PopStyleColor();
}

std::string BahdanauView::step_text(const ViewContext&) const {
  const BahdanauModel& m = scene_.model();
  const int n = m.run.n, T = m.run.T, d_h = m.encoder.fwd.d_h;
  char buf[600];
  switch (static_cast<BahdanauStage>(scene_.timeline.stage())) {
    case BahdanauStage::Encoder: {
      const int k = scene_.current_position(), b = n - 1 - k;
      std::snprintf(buf, sizeof buf, "→h_%d: “%s”   ·   ←h_%d: “%s”   ·   h_j = [→h_j; ←h_j]: %d + %d = %d", k + 1,
                    join_range(m.source_tokens, 0, k).c_str(), b + 1, join_range(m.source_tokens, b, n - 1).c_str(), d_h, d_h, 2 * d_h);
      return buf;
    }
    case BahdanauStage::Params: {
      long long total = 0;
      for (const BahdanauParamRow& p : m.params) total += static_cast<long long>(p.shape.rows) * p.shape.cols;
      std::snprintf(buf, sizeof buf, "n = %d, T = %d, d_enc = 2·d_h = %d   ·   %lld %s", n, T, 2 * d_h, total,
                    tr(m.trained ? "numbers in the parameters, all learned" : "numbers in the parameters, all seeded, none trained"));
      return buf;
    }
    case BahdanauStage::Step: {
      const int k = scene_.current_step();
      int best = 0;
      m.run.alignment.row(k).maxCoeff(&best);
      std::snprintf(buf, sizeof buf, "t = %d / %d: %s y_%d = “%s” %s, %s “%s”   ·   %s α_%d,j = %s: “%s”", k + 1, T, tr("reads the reference word"), k,
                    m.decoder_reads[static_cast<size_t>(k)].c_str(), tr("(teacher forcing)"), tr("produces"),
                    m.target_tokens[static_cast<size_t>(k)].c_str(), tr("largest"), k + 1, fmt(m.run.alignment(k, best), 3).c_str(),
                    m.source_tokens[static_cast<size_t>(best)].c_str());
      return buf;
    }
    default:
      std::snprintf(buf, sizeof buf, "α: T × n = %d × %d   ·   %s   ·   %s", T, n, tr("each row sums to 1"),
                    m.trained ? scene_.weights_label().c_str() : tr("untrained: not a translation alignment"));
      return buf;
  }
}

// The trained view's texts: its encoder and decoder are GRUs, and its alignment is learned.
std::pair<const char*, const char*> BahdanauView::caption(const ViewContext& ctx) const {
  const auto base = SceneView::caption(ctx);
  if (!scene_.model().trained) return base;
  switch (static_cast<BahdanauStage>(scene_.timeline.stage())) {
    case BahdanauStage::Encoder:
      return {base.first, tr("Two GRUs read the source, one left to right (→h_j), one right to left (←h_j); joined, h_j = [→h_j; ←h_j]. Trained: each state keeps what the decoder will need of word j.")};
    case BahdanauStage::Alignment:
      return {base.first, tr("Row t is α_t: where step t looked to write its word. Trained on the toy translation: the rows cross where French puts the adjective after the noun (\"chat noir\" → \"black cat\"). The notes' sentence was never trained on.")};
    default: return base;
  }
}

void BahdanauView::stage(ViewContext& ctx) {
  sync(ctx);  // the checkpoint is fetched with the controls hidden too (a phone)
  switch (static_cast<BahdanauStage>(scene_.timeline.stage())) {
    case BahdanauStage::Encoder: encoder_stage(ctx); break;
    case BahdanauStage::Params: params_stage(); break;
    case BahdanauStage::Step: step_stage(ctx); break;
    case BahdanauStage::Alignment:
    default: alignment_stage(ctx); break;
  }
}

// →H, ←H and H = [→H ←H] side by side, the rows labelled with the source words; the current sub-step's rows
// outlined: →h_k has read up to word k, ←h_{n-1-k} from word n-1-k on.
void BahdanauView::encoder_stage(ViewContext& ctx) {
  const BahdanauModel& m = scene_.model();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const int n = m.run.n, d_h = m.encoder.fwd.d_h, k = scene_.current_position();
  // In a row; on a phone (compact) →H and ←H side by side and H below them the whole width (in a row their
  // 8 columns had 5-pixel cells and every third label). Rows keep their label height there (cells not square).
  const bool stacked = ctx.compact;
  const float gap = fs * 1.2f;
  const float h = stacked ? std::max((avail.y - fs * 4.f) * 0.5f, n * fs * 1.1f + fs * 2.f) : avail.y - fs * 3.f;
  const float w_half = stacked ? (avail.x - gap) * 0.5f : (avail.x - 2 * gap) * 0.25f;
  MatrixView v;
  v.square = !stacked;
  v.row_labels = &m.source_tokens;
  v.scale = ColorScale::Diverging;
  v.lo = -1.f;
  v.hi = 1.f;
  v.decimals = 2;
  v.m = &m.encoded.fwd.H;
  v.key = {this, 0, scene_.generation()};
  v.title = "→H  (" + dims(n, d_h) + ")";
  v.hl_row = k;
  ImGui::BeginGroup();
  hover_to(ctx, matrix_view(v, ImVec2(w_half, h)), BahdanauItem::Forward);
  ImGui::EndGroup();
  ImGui::SameLine(0, gap);
  v.m = &m.encoded.bwd.H;
  v.key = {this, 1, scene_.generation()};
  v.title = "←H  (" + dims(n, d_h) + ")";
  v.hl_row = n - 1 - k;
  ImGui::BeginGroup();
  hover_to(ctx, matrix_view(v, ImVec2(w_half, h)), BahdanauItem::Backward);
  ImGui::EndGroup();
  if (!stacked) ImGui::SameLine(0, gap);
  v.m = &m.encoded.H;
  v.key = {this, 2, scene_.generation()};
  v.title = "H = [→H  ←H]  (" + dims(n, 2 * d_h) + ")";
  v.hl_row = -1;
  ImGui::BeginGroup();
  hover_to(ctx, matrix_view(v, ImVec2(stacked ? avail.x : avail.x - 2 * (w_half + gap), h)), BahdanauItem::Joined);
  ImGui::EndGroup();
  ImGui::Spacing();
  color_legend(ColorScale::Diverging, -1.f, 1.f, std::min(avail.x * 0.4f, fs * 20.f), "tanh ∈ (−1, 1)");
}

// Every parameter: its name, its shape in symbols and in numbers, how many numbers, what it does.
void BahdanauView::params_stage() {
  const BahdanauModel& m = scene_.model();
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  long long total = 0, group[3] = {0, 0, 0};
  const float fs = ImGui::GetFontSize();
  // On a narrow stage (a phone) the symbolic shape column goes (its numbers stay) and the roles wrap: the fixed
  // columns alone were wider than the screen.
  const bool narrow = ImGui::GetContentRegionAvail().x < fs * 40.f;
  const float table_w = ImGui::GetContentRegionAvail().x;
  if (ImGui::BeginTable("params", narrow ? 4 : 5, flags)) {
    // Shares of the width; none narrower than its header's longest word ("paramete" / "r" on a phone).
    if (narrow)
      table_setup_columns({{tr("parameter"), 3.5f}, {tr("in this model"), 4.5f}, {tr("entries"), 3.f}, {tr("role"), 9.f}}, table_w);
    else
      table_setup_columns({{tr("parameter"), 5.f}, {tr("shape"), 10.f}, {tr("in this model"), 6.f}, {tr("entries"), 5.f}, {tr("role"), 14.f}},
                          table_w);
    table_headers_wrapped();
    for (size_t r = 0; r < m.params.size(); ++r) {
      const BahdanauParamRow& p = m.params[r];
      const long long count = static_cast<long long>(p.shape.rows) * p.shape.cols;
      total += count;
      // The seeded model's names (→W_x … W_a) or the trained one's (src.emb, enc.f.Wx … att.W_a)
      const std::string& nm = p.shape.name;
      const bool attention = nm == "W_a" || nm == "U_a" || nm == "v_a" || nm.rfind("att.", 0) == 0;
      const bool encoder = m.trained ? nm.rfind("enc.", 0) == 0 || nm == "src.emb" : r < 6;
      group[encoder ? 0 : attention ? 1 : 2] += count;
      ImGui::TableNextRow();
      if (attention) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, chosen_fill());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(p.shape.name.c_str());
      if (!narrow) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(p.dims);
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(dims(p.shape.rows, p.shape.cols).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%lld", count);
      ImGui::TableNextColumn();
      text_wrapped("%s", tr(p.role));  // within its column (an 800×480 embed cut "once per ste")
    }
    ImGui::EndTable();
  }
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0.f);
  ImGui::Text("%s %lld  =  %s %lld + %s %lld + %s %lld", tr("in all"), total, tr("in the encoder"), group[0], tr("in the attention"), group[1],
              tr("in the decoder"), group[2]);
  ImGui::TextDisabled("%s", tr("The word embeddings are seeded look-ups here, not learned parameters."));
  // What to notice, read off the counts just summed.
  ImGui::TextUnformatted(tr_format(N_("Notice: the attention costs {0} of the model's {1} numbers ({2} %): W_a, U_a and v_a are all it takes to let every decoder step weigh every h_j."),
                                   {std::to_string(group[1]), std::to_string(total), fmt(total ? 100.0 * group[1] / total : 0.0, 1)}).c_str());
  ImGui::PopTextWrapPos();
}

// One row per source word: e_tj as a bar either side of 0 and α_tj as a bar from 0, both scaled to their
// largest magnitude over every step (so steps compare); the largest α_t outlined.
float BahdanauView::score_bars(ViewContext& ctx, int k, ImVec2 size) {
  const BahdanauModel& m = scene_.model();
  const int n = m.run.n;
  const float fs = ImGui::GetFontSize();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float e_max = std::max(1e-6f, m.run.scores.cwiseAbs().maxCoeff());
  const float a_max = std::max(1e-6f, m.run.alignment.maxCoeff());  // the bars' length
  const float a_top = weights_top(ctx.st, a_max);                   // their colour
  float label_w = fs * 2.f;
  for (const std::string& t : m.source_tokens) label_w = std::max(label_w, ImGui::CalcTextSize(t.c_str()).x + fs * 0.6f);
  label_w = std::min(label_w, size.x * 0.22f);
  const float num_w = fs * 3.2f;
  const float col_w = (size.x - label_w - 2 * num_w - fs) * 0.5f;
  const float head_h = fs * 1.5f;
  const float row_h = std::clamp((size.y - head_h - fs * 1.4f) / std::max(1, n), 4.f, fs * 1.7f);
  const float e_x0 = o.x + label_w, a_x0 = e_x0 + col_w + num_w + fs;
  // headers: the two quantities in math text
  char head[64];
  std::snprintf(head, sizeof head, "eₜⱼ   (t = %d)", k + 1);
  draw_math_text(dl, ImVec2(e_x0, o.y), ink, head, fs);
  std::snprintf(head, sizeof head, "αₜⱼ = softmax(eₜ)ⱼ");
  draw_math_text(dl, ImVec2(a_x0, o.y), ink, head, fs);
  int best = 0;
  m.run.alignment.row(k).maxCoeff(&best);
  const float y0 = o.y + head_h;
  const float e_zero = e_x0 + col_w * 0.5f;
  double sum = 0;
  for (int j = 0; j < n; ++j) {
    const float y = y0 + j * row_h, ty = y + (row_h - fs) * 0.5f;
    const std::string& tok = m.source_tokens[static_cast<size_t>(j)];
    if (row_h >= fs * 0.9f) {
      dl->PushClipRect(ImVec2(o.x, y), ImVec2(o.x + label_w - fs * 0.3f, y + row_h), true);
      const float tw = ImGui::CalcTextSize(tok.c_str()).x;
      dl->AddText(ImVec2(o.x + label_w - fs * 0.3f - tw, ty), j == best ? ink : faint, tok.c_str());
      dl->PopClipRect();
    }
    const float e = m.run.scores(k, j), a = m.run.alignment(k, j);
    sum += a;
    const float pad = std::max(1.f, row_h * 0.15f);
    const float ex = e_zero + (col_w * 0.5f) * e / e_max;
    dl->AddRectFilled(ImVec2(std::min(e_zero, ex), y + pad), ImVec2(std::max(e_zero, ex), y + row_h - pad),
                      colormap(ColorScale::Diverging, colormap_t(e, -e_max, e_max)));
    const float ax = a_x0 + col_w * a / a_max;
    dl->AddRectFilled(ImVec2(a_x0, y + pad), ImVec2(std::max(a_x0 + 1.f, ax), y + row_h - pad),
                      colormap(ColorScale::Sequential, colormap_t(a, 0.f, a_top)));
    if (j == best) dl->AddRect(ImVec2(a_x0 - 1, y + pad - 1), ImVec2(ax + 1, y + row_h - pad + 1), highlight_color(), 0, 0, 2.f);
    if (row_h >= fs * 0.9f) {
      dl->AddText(ImVec2(e_x0 + col_w + fs * 0.3f, ty), faint, fmt(e, 2).c_str());
      dl->AddText(ImVec2(a_x0 + col_w + fs * 0.3f, ty), j == best ? ink : faint, fmt(a, 3).c_str());
    }
  }
  dl->AddLine(ImVec2(e_zero, y0), ImVec2(e_zero, y0 + n * row_h), faint);
  const float bottom = y0 + n * row_h + fs * 0.2f;
  const std::string total = "Σⱼ αₜⱼ = " + fmt(sum, 3);
  draw_math_text(dl, ImVec2(a_x0, bottom), faint, total.c_str(), fs);
  // Hover: the row under the mouse explains its score and weight.
  ImGui::SetCursorScreenPos(ImVec2(o.x, y0));
  ImGui::InvisibleButton("bars", ImVec2(std::max(1.f, size.x), std::max(1.f, n * row_h)));
  if (ImGui::IsItemHovered()) {
    const int j = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.y - y0) / row_h), 0, n - 1);
    dl->AddRect(ImVec2(o.x, y0 + j * row_h), ImVec2(o.x + size.x, y0 + (j + 1) * row_h), IM_COL32(20, 20, 20, 255));
    ctx.hover_what = static_cast<int>(BahdanauItem::Score);
    ctx.hover_i = k;
    ctx.hover_j = j;
  }
  ImGui::SetCursorScreenPos(ImVec2(o.x, bottom + fs * 1.4f));
  ImGui::Dummy(ImVec2(size.x, 0));
  return bottom + fs * 1.4f;
}

// Decoder step t = k+1: the bars of e_t and α_t (left), the alignment so far (right), s_{t-1} and c_t below.
void BahdanauView::step_stage(ViewContext& ctx) {
  const BahdanauModel& m = scene_.model();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  const int k = scene_.current_step(), n = m.run.n, T = m.run.T;
  const long long version = static_cast<long long>(scene_.generation()) * 4096 + k;
  const float vectors_h = fs * 5.8f;
  const float top_h = avail.y - vectors_h;
  // The bars beside the alignment so far; on a phone (compact) above it, each the whole width (beside each
  // other the bars were slivers and the alignment labelled every other row).
  const bool stacked = ctx.compact;
  const float left_w = stacked ? avail.x + fs : avail.x * 0.5f;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float bars_bottom = score_bars(ctx, k, ImVec2(left_w - fs, stacked ? std::max(top_h * 0.5f, n * fs * 1.6f + fs * 3.f) : top_h));
  // the alignment so far: rows 1 … t
  ImGui::SetCursorScreenPos(stacked ? ImVec2(top.x, bars_bottom + fs * 0.5f) : ImVec2(top.x + left_w + fs, top.y));
  MatrixView a = alignment_view(ctx, 3);
  a.reveal = static_cast<double>(k + 1) * n;
  a.hl_row = k;
  a.title = std::string(tr("alignment so far")) + "  α  (" + dims(T, n) + ")";
  const ImVec2 a_area = stacked ? ImVec2(avail.x, std::max(T * fs * 1.3f + fs * 6.f, fs * 12.f)) : ImVec2(avail.x - left_w - fs, top_h - fs * 0.5f);
  // Rows shorter than the text (a projector at 2× text: every other word) label in the small font, all of them.
  if (T > 0 && (a_area.y - fs * 6.f) / static_cast<float>(T) < fs * 0.95f) a.font = ctx.fonts.small;
  const MatrixViewResult ra = matrix_view(a, a_area);
  if (ra.hover_i >= 0 && ra.hover_i <= k) hover_to(ctx, ra, BahdanauItem::Alignment);
  // s_{t-1} and c_t as one-row matrices, right below the taller of the two
  const float below = std::max(bars_bottom, ra.grid_max.y + fs * 0.8f);
  ImGui::SetCursorScreenPos(ImVec2(top.x, stacked ? below : std::min(below, top.y + top_h)));
  s_prev_ = m.run.queries.row(k);
  context_ = m.run.contexts.row(k);
  MatrixView v;
  v.scale = ColorScale::Diverging;
  v.lo = -1.f;
  v.hi = 1.f;
  v.max_cell_w = fs * 3.2f;
  v.max_cell_h = fs * 1.6f;
  char title[96];
  v.m = &s_prev_;
  v.key = {this, 4, version};
  std::snprintf(title, sizeof title, "sₜ₋₁ = s%s  (1 × %d)", subscript(k).c_str(), static_cast<int>(s_prev_.cols()));
  v.title = title;
  (void)matrix_view(v, ImVec2(avail.x, fs * 2.7f));
  v.m = &context_;
  v.key = {this, 5, version};
  std::snprintf(title, sizeof title, "cₜ = Σⱼ αₜⱼ hⱼ = c%s  (1 × %d)", subscript(k + 1).c_str(), static_cast<int>(context_.cols()));
  v.title = title;
  hover_to(ctx, matrix_view(v, ImVec2(avail.x, fs * 2.7f)), BahdanauItem::Context, k);
}

// The whole α: T × n, rows the target words (step t produces word t), columns the source words.
// The alignment α (T × n) as attention weights: a row per decoder step (target word), a column per source
// word, on the weights' scale; `id` names its texture.
MatrixView BahdanauView::alignment_view(const ViewContext& ctx, int id) const {
  const BahdanauModel& m = scene_.model();
  MatrixView a;
  a.m = &m.run.alignment;
  a.key = {this, id, scene_.generation()};
  a.row_labels = &m.target_tokens;
  a.col_labels = &m.source_tokens;
  a.scale = ColorScale::Sequential;
  a.lo = 0.f;
  a.hi = weights_top(ctx.st, m.run.alignment.maxCoeff());
  return a;
}

void BahdanauView::alignment_stage(ViewContext& ctx) {
  const BahdanauModel& m = scene_.model();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float fs = ImGui::GetFontSize();
  MatrixView a = alignment_view(ctx, 6);
  a.title = "α  (" + dims(m.run.T, m.run.n) + "):  " + tr("decoder step t (row) × source word j (column)");
  // Every target word labels its row. Where the rows are shorter than the text (a projector at 2× text labelled
  // every other word; a long sentence on a phone): the small font, and cells as wide as the width allows and as
  // high as the labels (not square: square ones narrowed by many columns would shorten the rows again); where even
  // that is taller than the stage, the matrix grows and the stage scrolls.
  const float h = avail.y - fs * 3.f;
  if (matrix_view_labelled_height(a, avail.x) > h) {
    a.font = ctx.fonts.small;
    a.square = false;
  }
  hover_to(ctx, matrix_view(a, ImVec2(avail.x, std::max(h, matrix_view_labelled_height(a, avail.x)))), BahdanauItem::Alignment);
  ImGui::Spacing();
  color_legend(ColorScale::Sequential, 0.f, a.hi, std::min(avail.x * 0.4f, fs * 20.f), weights_caption(ctx.st, "α").c_str());
  const char* note = tr(scene_.model().trained ? "trained: the alignment the model learned" : "untrained: not a translation alignment");
  (void)same_line_if_fits(ImGui::CalcTextSize(note).x, fs * 2.f);
  ImGui::PushTextWrapPos(0.f);  // below the legend where the line is too short (a phone)
  ImGui::TextDisabled("%s", note);
  ImGui::PopTextWrapPos();
}

}  // namespace ap
