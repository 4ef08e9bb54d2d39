// The frame function and the page layout: top bar, controls, flow strip, stage view, formula, timeline.
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowDisplayIndex, BringWindowToDisplayFront: the controls above the scene

#include <algorithm>
#include <cmath>
#include <string>

#include "app/api.h"
#include "app/i18n.h"
#include "platform/text_field.h"
#include "ui/ui_state.h"
#include "widgets/heatmap.h"
#include "widgets/matrix_view.h"
#include "widgets/text_fit.h"

namespace ap {

namespace {

void apply_style(float zoom, bool presenter) {
  ImGuiStyle& s = ImGui::GetStyle();
  s = ImGuiStyle();
  ImGui::StyleColorsLight(&s);
  s.WindowRounding = 0.f;
  s.FrameRounding = 4.f;
  s.GrabRounding = 4.f;
  s.WindowBorderSize = 0.f;
  s.FramePadding = ImVec2(8, 5);
  s.ItemSpacing = ImVec2(8, 7);
  s.Colors[ImGuiCol_WindowBg] = ImVec4(0.975f, 0.975f, 0.98f, 1.f);
  s.Colors[ImGuiCol_ChildBg] = ImVec4(1, 1, 1, 1);
  s.Colors[ImGuiCol_Text] = ImVec4(0.12f, 0.12f, 0.14f, 1.f);
  s.Colors[ImGuiCol_TextDisabled] = ImVec4(0.40f, 0.40f, 0.45f, 1.f);
  s.Colors[ImGuiCol_Button] = ImVec4(0.86f, 0.89f, 0.95f, 1.f);
  s.Colors[ImGuiCol_ButtonHovered] = ImVec4(0.74f, 0.81f, 0.95f, 1.f);
  s.Colors[ImGuiCol_ButtonActive] = ImVec4(0.60f, 0.70f, 0.93f, 1.f);
  s.Colors[ImGuiCol_FrameBg] = ImVec4(0.89f, 0.90f, 0.93f, 1.f);
  s.Colors[ImGuiCol_FrameBgHovered] = ImVec4(0.82f, 0.86f, 0.94f, 1.f);
  s.Colors[ImGuiCol_CheckMark] = ImVec4(0.20f, 0.40f, 0.85f, 1.f);
  s.Colors[ImGuiCol_NavHighlight] = ImVec4(0.95f, 0.55f, 0.05f, 1.f);  // visible keyboard focus
  if (presenter) {
    // A projector washes out light greys: pure black text, darker secondary text, borders that show.
    s.Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);
    s.Colors[ImGuiCol_Text] = ImVec4(0, 0, 0, 1);
    s.Colors[ImGuiCol_TextDisabled] = ImVec4(0.22f, 0.22f, 0.26f, 1.f);
    s.Colors[ImGuiCol_Border] = ImVec4(0.15f, 0.15f, 0.2f, 0.9f);
    s.Colors[ImGuiCol_Button] = ImVec4(0.78f, 0.83f, 0.95f, 1.f);
    s.Colors[ImGuiCol_FrameBg] = ImVec4(0.84f, 0.86f, 0.91f, 1.f);
    s.FrameBorderSize = 1.f;
    s.ChildBorderSize = 1.5f;
  }
  s.ScaleAllSizes(zoom);
}

// Timeline and view shortcuts, for lecturers with a keyboard (F1 lists them). They apply when no text
// is being typed, no widget holds the keyboard, and keyboard navigation is not under way in the controls
// (Tab moves into the controls, Escape comes back). The scene's own keys come after the shell's.
void handle_keys(PlaygroundState& st, UiState& ui, ViewContext& ctx, bool scene_focused) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive() || ui.view(st).holds_keyboard() || text_overlay_open()) return;
  if (key_pressed(Key::Escape)) { ui.show_help = false; close_lesson_map(st, ui); return; }
  // The lesson map holds the focus while it is open: G closes it again; in the welcome Enter starts lesson 1.
  if ((ui.show_lessons || st.welcome) && key_pressed(Key::G)) { close_lesson_map(st, ui); return; }
  if (st.welcome && key_pressed(Key::Enter)) { start_first_lesson(st, ui); return; }
  // Another window has the keyboard (Tab moved into the controls): its keys are ImGui's navigation, even on
  // the first arrow press, before the navigation highlight shows. The lesson map (and the welcome) holds the
  // focus but lets the page's own keys through: language, text size, presenter mode, full screen, help.
  const bool map_open = ui.show_lessons || st.welcome;
  if (!scene_focused && !map_open) return;
  const bool shift = io.KeyShift;
  if (key_pressed(Key::F1) || (shift && key_pressed(Key::Slash))) ui.show_help = !ui.show_help;
  if (key_pressed(Key::L)) set_lang(lang() == Lang::En ? Lang::Zh : Lang::En);
  if (key_pressed(Key::T)) set_presenter(st, !st.presenter);
  if (key_pressed(Key::F)) platform_toggle_fullscreen();
  if (key_pressed(Key::Plus)) st.ui_scale = std::min(PlaygroundState::kMaxUiScale, st.ui_scale + 0.1f);
  if (key_pressed(Key::Minus)) st.ui_scale = std::max(PlaygroundState::kMinUiScale, st.ui_scale - 0.1f);
  if (map_open || !scene_focused) return;  // the scene's keys wait until the map is closed
  Timeline& t = st.timeline();
  if (key_pressed(Key::Space)) t.toggle_play();
  if (key_pressed(Key::Right, true)) shift ? t.step_sub(1) : t.step_stage(1);
  if (key_pressed(Key::Left, true)) shift ? t.step_sub(-1) : t.step_stage(-1);
  // Presentation clickers send PageDown / PageUp; ↓ / ↑ step one cell or row like Shift+→ / Shift+←.
  if (key_pressed(Key::PageDown, true)) t.step_stage(1);
  if (key_pressed(Key::PageUp, true)) t.step_stage(-1);
  if (key_pressed(Key::Down, true)) t.step_sub(1);
  if (key_pressed(Key::Up, true)) t.step_sub(-1);
  // Speed: ] doubles it, [ halves it (the timeline clamps to 0.1 … 16×).
  if (key_pressed(Key::BracketRight)) t.set_speed(t.speed() * 2.0);
  if (key_pressed(Key::BracketLeft)) t.set_speed(t.speed() * 0.5);
  if (key_pressed(Key::Home)) t.home();
  if (key_pressed(Key::End)) t.end();
  for (int k = 0; k < std::min(9, t.stage_count()); ++k)
    if (digit_pressed(k + 1)) t.set_stage(k, true);
  if (key_pressed(Key::C)) st.show_controls = !st.show_controls;
  if (key_pressed(Key::R)) t.restart();
  if (key_pressed(Key::S)) {  // next scene, in the registry's order
    const size_t next = (static_cast<size_t>(st.current) + 1) % st.scenes.size();
    switch_scene(st, st.scenes[next]->id());
  }
  // The lesson path: N / P next / previous scene (at its first stage), G the lesson map.
  if (key_pressed(Key::N)) step_lesson(st, 1);
  if (key_pressed(Key::P)) step_lesson(st, -1);
  if (key_pressed(Key::G)) ui.show_lessons = true;
  if (key_pressed(Key::E)) ui.show_export = !ui.show_export;
  if (key_pressed(Key::Tab) && st.show_controls) ImGui::SetWindowFocus("controls");
  ctx.keys_free = true;
  ui.view(st).keys(ctx);
}

// Tells screen readers where the animation is, in words and numbers, when that changes: the scene, "Step 5 of
// 7", the stage, and — when the animation is paused — the arithmetic of the sub-step on screen (the view's
// step line, e.g. "“it” max = 0.806 Σ exp = 4.496"). While it plays, only stage changes are read, so that
// a screen reader is not flooded.
void announce(PlaygroundState& st, UiState& ui, const ViewContext& ctx) {
  const Timeline& t = st.timeline();
  std::string s = std::string(tr(st.scene().title())) + ". " +
                  tr_format(N_("Step {0} of {1}"), {std::to_string(t.stage() + 1), std::to_string(t.stage_count())}) + ": " +
                  tr(st.scene().stages()[static_cast<size_t>(t.stage())].title);
  if (!t.playing()) {
    const std::string detail = ui.view(st).step_text(ctx);
    if (!detail.empty()) s += ". " + detail;
  }
  if (!st.errors.empty()) s += ". " + localize(st.errors.back().text);
  if (s != ui.announced) {
    ui.announced = s;
    platform_announce(s);
  }
}

// Presenter mode: a soft yellow disc under the mouse, so that a room sees what the lecturer points at.
void pointer_highlight(UiState& ui) {
  const ImVec2 m = ImGui::GetIO().MousePos;
  // Only once the pointer has moved over the page: before, the browser reports it at (0, 0), and a disc sat
  // on the Controls button of every projector screen.
  const ImVec2 d = ImGui::GetIO().MouseDelta;
  ui.pointer_moved = ui.pointer_moved || d.x != 0.f || d.y != 0.f;
  if (!ui.pointer_moved || !ImGui::IsMousePosValid(&m)) return;
  const float r = ImGui::GetFontSize() * 1.4f;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->AddCircleFilled(m, r, IM_COL32(255, 214, 0, 70), 32);
  dl->AddCircle(m, r, IM_COL32(230, 150, 0, 160), 32, 2.f);
}

}  // namespace

void set_presenter(PlaygroundState& st, bool on) {
  if (on == st.presenter) return;
  st.presenter = on;
  // Large type for a room; back to the learner's own size afterwards.
  if (on) {
    st.ui_scale_before_presenter = st.ui_scale;
    st.ui_scale = std::max(st.ui_scale, 1.6f);
  } else {
    st.ui_scale = st.ui_scale_before_presenter;
  }
}

float applied_ui_scale(const PlaygroundState& st, const FrameInfo& f) {
  if (f.width <= 0 || f.height <= 0) return st.ui_scale;
  const float fits = std::max(1.f, std::min(static_cast<float>(f.width) / 320.f, static_cast<float>(f.height) / 300.f));
  return std::min(st.ui_scale, fits);
}

bool ui_prepare_fonts(PlaygroundState& st, UiState& ui, const FrameInfo& f) {
  const float zoom = applied_ui_scale(st, f);
  // Rasterise at most at 3× (a 2× screen with 1.5× text): beyond that the atlas would outgrow the
  // 4096-texel textures of some phones; ImGui then scales the glyphs up a little instead.
  const float scale = std::min(f.dpr * zoom, 3.f);
  if (scale == ui.font_scale && zoom == ui.font_zoom && !fonts_rebuild_pending(ui) && ui.style_presenter == st.presenter) return false;
  // Startup: the heatmap shader compiles in the GPU process while the first atlas is built here.
  if (ui.font_scale == 0.f) {
    heatmap_prepare();
    add_view_translations();  // (the views are made in the first frame; the atlas wants their strings now)
  }
  fonts_rebuild(st, ui, scale, zoom);
  if (ui.font_scale == 0.f) platform_mark("ap-fonts-ready");  // the first atlas
  apply_style(zoom, st.presenter);
  ui.style_presenter = st.presenter;
  ui.font_scale = scale;
  ui.font_zoom = zoom;
  return true;
}

// Busy for a reason other than the scene's work spread over frames: something on screen moves or must settle.
static bool busy_drawing(const PlaygroundState& st, const UiState& ui) {
  return ui.style_presenter != st.presenter || st.frames_drawn < 3 || st.timeline().playing() || ui.zoom_dragging ||
         ui.font_scale != std::min(ui.frame.dpr * applied_ui_scale(st, ui.frame), 3.f) || ui.font_zoom != applied_ui_scale(st, ui.frame);
}

bool ui_busy(const PlaygroundState& st, const UiState& ui) { return busy_drawing(st, ui) || st.scene().wants_time(); }

bool ui_only_work(const PlaygroundState& st, const UiState& ui) { return st.scene().wants_time() && !busy_drawing(st, ui); }

// A scene with work spread over frames (a race, a measurement sweep) gets a slice; every scene reads its news.
static void scene_work(PlaygroundState& st, double slice_ms) {
  if (st.scene().wants_time()) st.scene().run_slice(slice_ms);
  for (auto& scene : st.scenes) scene->poll();
}

void ui_work(PlaygroundState& st) { scene_work(st, kWorkSliceMs); }

void ui_shutdown(UiState& ui) {
  ui.views.clear();
  heatmap_shutdown();
}

void ui_frame(PlaygroundState& st, UiState& ui, const FrameInfo& f) {
  set_colormap_colorblind(st.colorblind);  // the state (and the link, ?colors=) holds it; widgets read it
  // Drawn in Chinese only from an atlas that has it (a switch made during this frame included); English
  // meanwhile, while the font is on its way, or for good when it could not be loaded (font_loader.cpp).
  set_chinese_drawable(ui.font_follow.chinese_in_atlas);
  ui.frame = f;
  st.view_width = f.width;
  st.view_height = f.height;
  st.view_dpr = f.dpr;
  heatmap_begin_frame();
  matrix_views_begin_frame();
  cut_items_begin_frame();
  if (ui.views.size() != st.scenes.size()) ui.views = make_views(st);
  if (ui.document_lang != lang_code(lang())) {  // tell the page (screen readers) when it changes
    ui.document_lang = lang_code(lang());
    platform_set_document_lang(ui.document_lang.c_str());
  }
  st.timeline().advance(f.dt);
  scene_work(st, kFrameSliceMs);
  fonts_follow_text(st, ui);
  // `ready`: the browser asks for this frame, so the one before is on screen (the bare WebGL2 page of
  // ./build.sh bench counts its first frame the same way). A page that starts in Chinese is ready once its
  // font is in: until then the loading notice stays over the canvas.
  if (st.frames_drawn >= 1 && !ui.told_ready && !fonts_chinese_pending(st, ui)) {
    ui.told_ready = true;
    platform_frame_drawn();
  }

  const float W = static_cast<float>(f.width), H = static_cast<float>(f.height);
  ui.compact = W < 760.f;
  ui.one_row_timeline = !ui.compact && H < 520.f;
  // The controls are a drawer over the scene on a narrow screen and on a short one (a phone held sideways:
  // beside the scene they left it 110 px of height and the matrices 1-pixel cells).
  const bool drawer = ui.compact || H < 440.f;
  if (st.frames_drawn == 0 && drawer) st.show_controls = false;  // phones start with the animation
  const float fs = ImGui::GetFontSize();
  // As tall as a button and the window's padding, whatever the text size (fs + 20 clipped the buttons at 1.7×).
  const float top_h = st.is_hidden("topbar") ? 0.f : std::max(fs + 20.f, ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y);
  if (top_h > 0) top_bar(st, ui, top_h);

  ViewContext ctx{st, {ui.fonts.body, ui.fonts.formula, ui.fonts.small, ui.fonts.generation}, ui.compact, W, H};
  SceneView& view = ui.view(st);
  const bool overlay = drawer;
  const float side_w = overlay ? W : std::min(330.f * ui.font_zoom, W * 0.34f);
  const bool controls = st.show_controls;
  const float scene_x = controls && !overlay ? side_w : 0.f;

  // Scene: flow strip, formula, stage view, timeline.
  ImGui::SetNextWindowPos(ImVec2(scene_x, top_h));
  ImGui::SetNextWindowSize(ImVec2(W - scene_x, H - top_h));
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  // No background: the frame is cleared to WindowBg already (platform.cpp), and filling the window again
  // costs a whole pass of pixels with software WebGL (bench_page: the frame interval while animating).
  ImGui::Begin("scene", nullptr, fixed | ImGuiWindowFlags_NoNavInputs | ImGuiWindowFlags_NoBackground);
  handle_keys(st, ui, ctx, ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) ||
                               !ImGui::IsWindowFocused(ImGuiFocusedFlags_AnyWindow));
  messages_panel(st);
  ImGui::PushID(st.scene().id());
  if (const float fh = view.flow_height(ctx); fh > 0) view.flow(ctx, fh);
  if (!st.is_hidden("formula")) formula_panel(ui, ctx);
  const bool show_timeline = !st.is_hidden("timeline");
  const float timeline_h = !show_timeline ? 0.f : ImGui::GetFrameHeightWithSpacing() * (ui.compact ? 3.f : ui.one_row_timeline ? 1.f : 2.f) +
                           ImGui::GetStyle().ItemSpacing.y * 2.f + ImGui::GetStyle().WindowPadding.y;
  ImGui::BeginChild("stage", ImVec2(0, -timeline_h), false, ImGuiWindowFlags_NoNavInputs);
  // A short screen (a phone held sideways, an 800×480 embed) left the stage 150–250 px: matrices of 2-pixel cells
  // and plots without their axes. The stage's content region is then at least kMinStageHeight tall, so every
  // view, reading GetContentRegionAvail(), lays out for that height without a rule of its own, and the stage
  // scrolls over what was drawn (not ImGui's explicit content size: that would also fix the scroll extent and
  // leave anything drawn lower out of reach). Taller stages (a laptop, a projector) are unchanged.
  constexpr float kMinStageHeight = 360.f;
  {
    ImRect& region = ImGui::GetCurrentWindow()->ContentRegionRect;
    region.Max.y = std::max(region.Max.y, region.Min.y + kMinStageHeight);
  }
  // The stage is white already: a view's own child windows inside it paint nothing under their contents.
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0, 0, 0, 0));
  view.stage(ctx);
  start_prompt(st);
  ImGui::PopStyleColor();
  ImGui::EndChild();
  ImGui::PopID();
  if (show_timeline) timeline_panel(st, ui);
  ImGui::End();

  if (controls) {
    ImGui::SetNextWindowPos(ImVec2(0, top_h));
    ImGui::SetNextWindowSize(ImVec2(side_w, H - top_h));
    // A visible scrollbar: at 720 px the controls are taller than the window (NoDecoration hid it).
    // Beside the scene it lies on the cleared frame (no background of its own); over the scene (compact
    // layouts) it needs one.
    // Beside the scene, never brought to the front by a click: with no background of its own, a click on it
    // used to lift it over an open dialog (export, share, help, lesson map) and its buttons were drawn
    // through the dialog's text (the monkey test's screenshot). Over the scene it comes to the front as a
    // window does, and it must lie above the scene: ImGui puts a window that is created with
    // NoBringToFrontOnFocus at the back, so after a start beside the scene (desktop, then a phone's
    // width) it is lifted once over the scene here.
    ImGui::Begin("controls", nullptr,
                 (fixed & ~ImGuiWindowFlags_NoBringToFrontOnFocus & ~ImGuiWindowFlags_NoScrollbar) |
                     ImGuiWindowFlags_NoFocusOnAppearing |
                     (overlay ? 0 : ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoBringToFrontOnFocus));
    if (overlay) {
      ImGuiWindow* const self = ImGui::GetCurrentWindow();
      ImGuiWindow* const scene = ImGui::FindWindowByName("scene");
      if (scene && ImGui::FindWindowDisplayIndex(self) < ImGui::FindWindowDisplayIndex(scene))
        ImGui::BringWindowToDisplayFront(self);
    }
    controls_panel(st, ui, ctx);
    ImGui::End();
  }
  // A mouse click on a button or slider in the controls hands the keyboard back to the scene, so that
  // the arrow keys step the animation again (text fields keep it while they are being typed into).
  if (ImGui::IsMouseReleased(0) && !ImGui::GetIO().WantTextInput && !view.holds_keyboard() &&
      !ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId))
    ui.focus_scene = true;
  if (ui.focus_scene) { ImGui::SetWindowFocus("scene"); ui.focus_scene = false; }
  hover_panel(st, ctx);
  if (st.presenter) pointer_highlight(ui);
  if (ui.show_lessons || st.welcome) lesson_map(st, ui);
  if (ui.show_share) share_dialog(st, ui);
  files_poll(st, ui);  // picked or dropped files, export requests, the PNG of the view
  if (ui.show_export) export_dialog(st, ui);
  page_sync(st, ui);
  if (ui.show_help) help_panel(st, ui);
  announce(st, ui, ctx);
  text_fields_end_frame();
  st.view_matrices.clear();
  for (const DrawnMatrix& d : matrix_views_drawn()) {
    const MatrixViewResult& r = d.r;
    st.view_matrices.push_back({d.id, r.grid_min.x, r.grid_min.y, r.grid_max.x - r.grid_min.x, r.grid_max.y - r.grid_min.y,
                                r.cell_w, r.cell_h, r.numbered, r.clipped, r.rows, r.cols, r.row_labels, r.col_labels,
                                d.lo, d.hi});
  }
  st.view_cut.clear();
  for (const CutItem& c : cut_items()) st.view_cut.emplace_back(c.id, c.hidden_px);
  ++st.frames_drawn;
  set_chinese_drawable(true);  // outside a frame (the page API, the link) Chinese is Chinese
}

}  // namespace ap
