#include "platform.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "platform/imgui_renderer.h"
#include "widgets/svg_snapshot.h"
#include "widgets/gl.h"

// Dear ImGui comes from Debian's source package imgui 1.86 (scripts/setup.sh pins it): its backends and
// the calls here are written for exactly that version.
static_assert(IMGUI_VERSION_NUM == 18600, "Attention Playground is built against Dear ImGui 1.86");

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/html5.h>
#endif

namespace ap {

namespace {
constexpr int kSettleFrames = 4;

// A file fetched on demand (platform_fetch_asset).
struct Asset {
  AssetState state = AssetState::None;
  std::vector<unsigned char> bytes;
  std::string error;
};
// A file picked or dropped, not yet taken (platform_take_file).
struct IncomingFile {
  std::string name;
  std::vector<unsigned char> bytes;
  std::string error;
};

// Everything the platform keeps between calls, in one place (as Dear ImGui's backends keep one backend-data
// struct).
struct PlatformData {
  // the window, its GL context, and the frame loop's callbacks (platform_run)
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  FrameFn frame = nullptr;
  bool (*before)(const FrameInfo&) = nullptr;
  bool (*busy)() = nullptr;
  bool (*only_work)() = nullptr;  // platform_set_work_turns
  void (*work)() = nullptr;
  // the loop's pacing: draw only when something changes
  Uint64 last_counter = 0;
  bool quit = false;
  bool was_busy = false;  // at the last turn (busy → not busy: the work ended, frames to show where)
  int pending_frames = kSettleFrames;  // frames still to draw although nothing moves (input settles over a few frames)
  int idle_turns = 0;                  // turns in a row without a frame
  // paced requests (platform_request_frames_paced): when one last drew, and the one that waits for its turn
  Uint64 paced_last = 0, paced_due = 0;  // performance-counter values (paced_due 0: none waits)
  int paced_frames = 0;
  FrameInfo last_drawn;                // size and pixel ratio of the last drawn frame
  // Dear ImGui 1.86 reads keys as "down this frame"; a key pressed and released between two frames (a quick
  // tap, a test driver, a slow software-rendered frame) would never be seen. A release that follows its
  // press within the same batch of events is held back to the next frame.
  std::vector<SDL_Event> deferred;
  // Keys the system repeated (SDL_KEYDOWN with `repeat`: the browser's or the desktop's own autorepeat, at the
  // delay and rate the user set) since the last drawn frame. A held key steps on by these, not by Dear ImGui's
  // timer: that one counts a key as held from frame times, so a press whose release came late to a loaded page
  // (a slow frame, a busy machine) acted twice.
  std::vector<SDL_Scancode> repeats;
  // files: fetched on demand (a handful at most: looked up by name), picked or dropped, exports asked for
  std::vector<std::pair<std::string, Asset>> assets;
  std::vector<IncomingFile> files;
  std::vector<std::string> export_requests;
  // a capture of the view: asked for, then read at the end of the next frame (top row first)
  bool capture_asked = false;
  int capture_w = 0, capture_h = 0;
  std::vector<unsigned char> capture;
  bool capture_ready = false;
};
PlatformData g;

// Size and pixel ratio now (no GL call); dt is filled in when a frame is drawn.
FrameInfo current_frame_info() {
  FrameInfo f;
  int w, h, dw, dh;
  SDL_GetWindowSize(g.window, &w, &h);
  SDL_GL_GetDrawableSize(g.window, &dw, &dh);
  f.width = w;
  f.height = h;
#ifdef __EMSCRIPTEN__
  f.dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
#else
  f.dpr = w > 0 ? static_cast<float>(dw) / w : 1.f;
#endif
  f.dpr = std::clamp(f.dpr, 0.5f, 4.f);
  return f;
}


// One turn of the loop. A frame is drawn only when something changes: input arrived (and a few frames to
// let it settle), the canvas changed size or pixel ratio, the app has something moving (an animation, a
// running measurement), or someone asked (the page API). Otherwise the turn returns at once: an idle page
// costs almost nothing, and no GL call is made.
void one_frame() {
  SDL_Event e;
  std::vector<SDL_Event> events;
  events.swap(g.deferred);
  const bool had_deferred = !events.empty();
  while (SDL_PollEvent(&e)) events.push_back(e);
  std::vector<SDL_Scancode> pressed_now;
  for (const SDL_Event& ev : events) {
    if (ev.type == SDL_KEYDOWN) pressed_now.push_back(ev.key.keysym.scancode);
    if (ev.type == SDL_KEYUP &&
        std::find(pressed_now.begin(), pressed_now.end(), ev.key.keysym.scancode) != pressed_now.end()) {
      g.deferred.push_back(ev);
      continue;
    }
    if (!g.deferred.empty() && (ev.type == SDL_KEYDOWN || ev.type == SDL_KEYUP || ev.type == SDL_TEXTINPUT)) {
      g.deferred.push_back(ev);  // keep the order of later keys (a modifier's release too) behind the held-back release
      continue;
    }
    e = ev;
    if (e.type == SDL_KEYDOWN && e.key.repeat) g.repeats.push_back(e.key.keysym.scancode);
    ImGui_ImplSDL2_ProcessEvent(&e);
    // The backend reads the modifiers from SDL_GetModState(), the state after every event already queued: a
    // Shift+→ tapped within one frame arrived as Shift released, and acted as a plain →. The event's own
    // modifiers are those of its moment.
    if (e.type == SDL_KEYDOWN || e.type == SDL_KEYUP) {
      ImGuiIO& io = ImGui::GetIO();
      const Uint16 mod = e.key.keysym.mod;
      io.KeyShift = (mod & KMOD_SHIFT) != 0;
      io.KeyCtrl = (mod & KMOD_CTRL) != 0;
      io.KeyAlt = (mod & KMOD_ALT) != 0;
      io.KeySuper = (mod & KMOD_GUI) != 0;
    }
    if (e.type == SDL_QUIT) g.quit = true;
    if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE &&
        e.window.windowID == SDL_GetWindowID(g.window))
      g.quit = true;
  }
  if (!events.empty() || had_deferred || !g.deferred.empty()) g.pending_frames = std::max(g.pending_frames, kSettleFrames);
  if (g.paced_due != 0 && SDL_GetPerformanceCounter() >= g.paced_due) {  // a paced request's turn has come
    g.paced_last = SDL_GetPerformanceCounter();
    g.paced_due = 0;
    g.pending_frames = std::max(g.pending_frames, g.paced_frames);
  }
  // The work ended (in a work turn or in a drawn frame's slice): a few frames show where it ended, a layout
  // that changed settling over two (a scrollbar).
  const bool busy = g.busy && g.busy();
  if (g.was_busy && !busy) g.pending_frames = std::max(g.pending_frames, kSettleFrames);
  g.was_busy = busy;
  FrameInfo info = current_frame_info();
  const bool resized = info.width != g.last_drawn.width || info.height != g.last_drawn.height || info.dpr != g.last_drawn.dpr;
  const bool typing = ImGui::GetIO().WantTextInput;  // the text cursor blinks
  if (!resized && !typing && g.pending_frames <= 0 && !busy) {
#ifdef __EMSCRIPTEN__
    // Idle for half a second: stop the browser's frame callbacks altogether. The page's glue
    // (web/playground.js) resumes the loop on input, on a page-API call and when the canvas is resized.
    if (++g.idle_turns > 30 && g.paced_due == 0) {  // (a paced request still waiting keeps the loop turning)
      g.idle_turns = 0;
      emscripten_pause_main_loop();
      EM_ASM({ if (window['apBridge']) window['apBridge']['paused'](); });
    }
#else
    SDL_Delay(8);  // natively nothing paces the loop when no frame is swapped
#endif
    return;
  }
  g.idle_turns = 0;
  const Uint64 now = SDL_GetPerformanceCounter();
#ifdef __EMSCRIPTEN__
  // A turn that only works: nothing drawn, nothing presented (the browser's frame callbacks pace the turns; on
  // the desktop, where nothing would pace them and a drawn frame costs little, every turn draws).
  if (!resized && !typing && g.pending_frames <= 0 && g.only_work && g.only_work() && g.last_counter != 0 &&
      double(now - g.last_counter) < kWorkDrawInterval * double(SDL_GetPerformanceFrequency())) {
    g.work();
    return;
  }
#endif
  if (g.pending_frames > 0) --g.pending_frames;
  if (g.last_counter != 0) info.dt = double(now - g.last_counter) / double(SDL_GetPerformanceFrequency());
  g.last_counter = now;
  // Dear ImGui 1.86 aborts on a zero delta ("Need a positive DeltaTime"), which headless browsers with a
  // virtual clock can produce; a long pause (idle, a tab in the background) must not jump the animation.
  info.dt = std::clamp(info.dt, 0.0001, 0.25);
  g.last_drawn = info;
  if (g.before && g.before(info)) platform_rebuild_font_texture();
  ImGui_ImplSDL2_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = static_cast<float>(info.dt);
  ImGui::NewFrame();
  g.frame(info);
  g.repeats.clear();
  ImGui::Render();
  int dw, dh;
  SDL_GL_GetDrawableSize(g.window, &dw, &dh);
  glViewport(0, 0, dw, dh);
  // The windows' own colour: the scene and the controls draw no background of their own over it (each
  // full-window fill costs a whole pass of pixels with software WebGL).
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  imgui_renderer_render(ImGui::GetDrawData(), dw, dh);
  platform_capture_after_render(dw, dh);  // only when a picture of the view was asked for (Export)
  svg_snapshot_after_render(ImGui::GetDrawData(), bg);  // only when an SVG of the view was asked for
  SDL_GL_SwapWindow(g.window);
  static bool first_frame = true;  // the startup breakdown (./build.sh bench): the first frame's work done
  if (first_frame) { first_frame = false; platform_mark("ap-frame-1"); }
}

}  // namespace

bool platform_init(const char* title, int width, int height) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER | SDL_INIT_EVENTS) != 0) {
    std::fprintf(stderr, "SDL_Init failed: %s\n", SDL_GetError());
    return false;
  }
#ifdef __EMSCRIPTEN__
  // WebGL2 = OpenGL ES 3.0; the GLSL of shaders/ gets "#version 300 es".
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  const char* glsl_version = "#version 300 es";
  // Keys go to the canvas' document; let the page keep Tab for its own focus order outside the iframe.
  SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
#else
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  const char* glsl_version = "#version 330 core";
#endif
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
  const Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  g.window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  if (!g.window) {
    std::fprintf(stderr, "SDL_CreateWindow failed: %s\n", SDL_GetError());
    return false;
  }
  g.gl = SDL_GL_CreateContext(g.window);
  if (!g.gl) {
    std::fprintf(stderr, "OpenGL context failed: %s\n", SDL_GetError());
    return false;
  }
  SDL_GL_MakeCurrent(g.window, g.gl);
  SDL_GL_SetSwapInterval(1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  io.IniFilename = nullptr;  // no imgui.ini: the layout is computed, and the web build has no filesystem
  ImGui_ImplSDL2_InitForOpenGL(g.window, g.gl);
  (void)glsl_version;  // the shaders get their #version line from widgets/gl_program.cpp
  if (!imgui_renderer_init()) {
    std::fprintf(stderr, "the interface's shaders failed to compile\n");
    return false;
  }
  return true;
}

void platform_rebuild_font_texture() {
  imgui_renderer_fonts();
}

void platform_request_frames(int n) { g.pending_frames = std::max(g.pending_frames, n); }

void platform_request_frames_paced(int n, double min_interval_s) {
  const Uint64 now = SDL_GetPerformanceCounter();
  const Uint64 next = g.paced_last + static_cast<Uint64>(min_interval_s * static_cast<double>(SDL_GetPerformanceFrequency()));
  if (g.paced_last == 0 || now >= next) {
    g.paced_last = now;
    g.paced_due = 0;
    platform_request_frames(n);
    return;
  }
  if (g.paced_due == 0) g.paced_frames = 0;
  g.paced_due = next;  // drawn then: the news that came meanwhile, the newest included
  g.paced_frames = std::max(g.paced_frames, n);
}

void platform_set_work_turns(bool (*only_work)(), void (*work)()) {
  g.only_work = only_work;
  g.work = work;
}

void platform_run(FrameFn frame, bool (*before_new_frame)(const FrameInfo&), bool (*busy)()) {
  g.frame = frame;
  g.before = before_new_frame;
  g.busy = busy;
#ifdef __EMSCRIPTEN__
  emscripten_set_main_loop(one_frame, 0, true);
#else
  while (!g.quit) one_frame();
#endif
}

void platform_shutdown() {
  imgui_renderer_shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_GL_DeleteContext(g.gl);
  SDL_DestroyWindow(g.window);
  SDL_Quit();
}

namespace {
// Pressed in this frame; with `repeat`, also repeated by the system since the last frame (PlatformData::repeats).
bool pressed(SDL_Scancode sc, bool repeat) {
  return ImGui::IsKeyPressed(sc, false) || (repeat && std::find(g.repeats.begin(), g.repeats.end(), sc) != g.repeats.end());
}
}  // namespace

bool key_pressed(Key k, bool repeat) {
  SDL_Scancode sc = SDL_SCANCODE_UNKNOWN;
  switch (k) {
    case Key::Space: sc = SDL_SCANCODE_SPACE; break;
    case Key::Left: sc = SDL_SCANCODE_LEFT; break;
    case Key::Right: sc = SDL_SCANCODE_RIGHT; break;
    case Key::Up: sc = SDL_SCANCODE_UP; break;
    case Key::Down: sc = SDL_SCANCODE_DOWN; break;
    case Key::PageUp: sc = SDL_SCANCODE_PAGEUP; break;
    case Key::PageDown: sc = SDL_SCANCODE_PAGEDOWN; break;
    case Key::BracketLeft: sc = SDL_SCANCODE_LEFTBRACKET; break;
    case Key::BracketRight: sc = SDL_SCANCODE_RIGHTBRACKET; break;
    case Key::Home: sc = SDL_SCANCODE_HOME; break;
    case Key::End: sc = SDL_SCANCODE_END; break;
    case Key::Escape: sc = SDL_SCANCODE_ESCAPE; break;
    case Key::Tab: sc = SDL_SCANCODE_TAB; break;
    case Key::F1: sc = SDL_SCANCODE_F1; break;
    case Key::L: sc = SDL_SCANCODE_L; break;
    case Key::C: sc = SDL_SCANCODE_C; break;
    case Key::R: sc = SDL_SCANCODE_R; break;
    case Key::M: sc = SDL_SCANCODE_M; break;
    case Key::S: sc = SDL_SCANCODE_S; break;
    case Key::N: sc = SDL_SCANCODE_N; break;
    case Key::P: sc = SDL_SCANCODE_P; break;
    case Key::G: sc = SDL_SCANCODE_G; break;
    case Key::T: sc = SDL_SCANCODE_T; break;
    case Key::F: sc = SDL_SCANCODE_F; break;
    case Key::E: sc = SDL_SCANCODE_E; break;
    case Key::Plus: return pressed(SDL_SCANCODE_EQUALS, repeat) || pressed(SDL_SCANCODE_KP_PLUS, repeat);
    case Key::Minus: return pressed(SDL_SCANCODE_MINUS, repeat) || pressed(SDL_SCANCODE_KP_MINUS, repeat);
    case Key::Slash: sc = SDL_SCANCODE_SLASH; break;
    case Key::Enter: return pressed(SDL_SCANCODE_RETURN, repeat) || pressed(SDL_SCANCODE_KP_ENTER, repeat);
  }
  return pressed(sc, repeat);
}

bool digit_pressed(int d) {
  if (d < 1 || d > 9) return false;
  return ImGui::IsKeyPressed(SDL_SCANCODE_1 + (d - 1), false) || ImGui::IsKeyPressed(SDL_SCANCODE_KP_1 + (d - 1), false);
}

#ifdef __EMSCRIPTEN__
namespace {
// A string that JavaScript wrote into the heap (allocateUTF8: malloc'd UTF-8, 0 when out of memory), copied
// out and freed.
std::string take_js_string(int address) {
  char* s = reinterpret_cast<char*>(address);
  std::string out = s ? s : "";
  free(s);
  return out;
}
}  // namespace

std::string platform_url_query() { return take_js_string(EM_ASM_INT({ return allocateUTF8(window.location.search || ""); })); }
void platform_frame_drawn() { EM_ASM({ if (window['apBridge']) window['apBridge']['frameDrawn'](); }); }
void platform_mark(const char* name) {
  EM_ASM({ if (window.performance && performance.mark) performance.mark(UTF8ToString($0)); }, name);
}
void platform_announce(const std::string& text) {
  EM_ASM({ if (window['apBridge']) window['apBridge']['announce'](UTF8ToString($0)); }, text.c_str());
}
void platform_set_document_lang(const char* code) {
  EM_ASM({ if (window['apBridge']) window['apBridge']['setLang'](UTF8ToString($0)); }, code);
}
bool platform_prefers_chinese() {
  return EM_ASM_INT({
    var l = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    return String(l).toLowerCase().indexOf('zh') === 0 ? 1 : 0;
  }) != 0;
}
bool platform_in_frame() { return EM_ASM_INT({ return window.parent !== window ? 1 : 0; }) != 0; }
#endif

// ---- files loaded on demand ----
namespace {
Asset* find_asset(const std::string& name) {
  for (auto& [n, a] : g.assets)
    if (n == name) return &a;
  return nullptr;
}
}  // namespace

#ifdef __EMSCRIPTEN__
}  // namespace ap
// Called by the fetch started in platform_fetch_asset: the file's bytes (malloc'ed by JavaScript, freed here)
// or an error text.
extern "C" EMSCRIPTEN_KEEPALIVE void ap_asset_arrived(int slot, unsigned char* data, int size, const char* error) {
  using namespace ap;
  if (slot < 0 || slot >= static_cast<int>(g.assets.size())) { std::free(data); return; }
  Asset& a = g.assets[static_cast<size_t>(slot)].second;
  if (error) {
    a.state = AssetState::Failed;
    a.error = error;
  } else {
    a.state = AssetState::Ready;
    a.bytes.assign(data, data + size);
  }
  std::free(data);
  platform_request_frames(2);
}
namespace ap {

void platform_fetch_asset(const char* name) {
  if (find_asset(name)) return;
  g.assets.push_back({name, Asset{AssetState::Pending, {}, {}}});
  const int slot = static_cast<int>(g.assets.size()) - 1;
  // web/playground.js fetches it and calls ap_asset_arrived (then wakes the page).
  EM_ASM({ if (window['apBridge']) window['apBridge']['fetchAsset']($0, UTF8ToString($1)); }, slot, name);
}
#else
void platform_fetch_asset(const char* name) {
  if (find_asset(name)) return;
  Asset a;
  const std::string path = std::string(AP_ASSET_DIR) + "/" + name;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    unsigned char buf[65536];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) a.bytes.insert(a.bytes.end(), buf, buf + got);
    std::fclose(f);
    a.state = AssetState::Ready;
  } else {
    a.state = AssetState::Failed;
    a.error = path + ": cannot be read";
  }
  g.assets.push_back({name, std::move(a)});
}
#endif

AssetState platform_asset(const char* name, std::vector<unsigned char>* bytes, std::string* error) {
  Asset* a = find_asset(name);
  if (!a) return AssetState::None;
  const AssetState s = a->state;
  if (s == AssetState::Ready) {
    *bytes = std::move(a->bytes);
    a->bytes = {};
    a->state = AssetState::None;  // handed over
  }
  if (s == AssetState::Failed) *error = a->error;
  return s;
}

#ifdef __EMSCRIPTEN__
void platform_replace_url(const std::string& query) {
  EM_ASM({ if (window['apBridge']) window['apBridge']['replaceUrl'](UTF8ToString($0)); }, query.c_str());
}
std::string platform_page_url() {
  return take_js_string(EM_ASM_INT({ return allocateUTF8(window['apBridge'] ? window['apBridge']['pageUrl']() : ""); }));
}
void platform_post_event(const std::string& json) {
  EM_ASM({ if (window['apBridge']) window['apBridge']['postEvent'](UTF8ToString($0)); }, json.c_str());
}
bool platform_copy_text(const std::string& text) {
  return EM_ASM_INT({ return window['apBridge'] && window['apBridge']['copyText'](UTF8ToString($0)) ? 1 : 0; }, text.c_str()) != 0;
}
void platform_toggle_fullscreen() {
  // The browser allows full screen only inside an input event: the page does it at the next one (the key's
  // release, the button's mouse-up).
  EM_ASM({ if (window['apBridge']) window['apBridge']['toggleFullscreen'](); });
}
#else
void platform_toggle_fullscreen() {
  const bool full = (SDL_GetWindowFlags(g.window) & SDL_WINDOW_FULLSCREEN_DESKTOP) != 0;
  SDL_SetWindowFullscreen(g.window, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
}
void platform_replace_url(const std::string&) {}
std::string platform_page_url() { return {}; }
void platform_post_event(const std::string&) {}
bool platform_copy_text(const std::string& text) { return SDL_SetClipboardText(text.c_str()) == 0; }
#endif

#ifndef __EMSCRIPTEN__
bool platform_prefers_chinese() {
  const char* l = std::getenv("LANG");
  return l && (l[0] == 'z' || l[0] == 'Z') && (l[1] == 'h' || l[1] == 'H');
}
std::string platform_url_query() { return {}; }
bool platform_in_frame() { return false; }
void platform_frame_drawn() {}
void platform_mark(const char*) {}
void platform_announce(const std::string&) {}
void platform_set_document_lang(const char*) {}
#endif

// ---- files in and out (issue 8): the file chooser, dropped files, downloads, a capture of the view ----

#ifdef __EMSCRIPTEN__
}  // namespace ap
// Called by web/playground.js when a file was picked or dropped: its bytes (malloc'ed by JavaScript, freed
// here) or an error text (then data is 0).
extern "C" EMSCRIPTEN_KEEPALIVE void ap_file_arrived(const char* name, unsigned char* data, int size, const char* error) {
  using namespace ap;
  IncomingFile f;
  f.name = name ? name : "";
  if (error) f.error = error;
  else if (data && size > 0) f.bytes.assign(data, data + size);
  std::free(data);
  g.files.push_back(std::move(f));
  platform_request_frames(2);
}
namespace ap {

bool platform_pick_file(const char* accept) {
  return EM_ASM_INT({ return window['apBridge'] && window['apBridge']['pickFile'](UTF8ToString($0)) ? 1 : 0; }, accept) != 0;
}
std::string platform_download(const char* filename, const std::vector<unsigned char>& bytes, const char* mime, std::string* error) {
  const int ok = EM_ASM_INT({ return window['apBridge'] && window['apBridge']['download'](UTF8ToString($0), $1, $2, UTF8ToString($3)) ? 1 : 0; },
                            filename, bytes.data(), static_cast<int>(bytes.size()), mime);
  if (!ok && error) *error = "the browser refused the download";
  return {};
}
#else
bool platform_pick_file(const char*) { return false; }
std::string platform_download(const char* filename, const std::vector<unsigned char>& bytes, const char*, std::string* error) {
  FILE* f = std::fopen(filename, "wb");
  if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
    if (f) std::fclose(f);
    if (error) *error = std::string(filename) + ": cannot be written";
    return {};
  }
  std::fclose(f);
  return std::string("./") + filename;  // the current directory
}
#endif

bool platform_take_file(std::string* name, std::vector<unsigned char>* bytes, std::string* error) {
  if (g.files.empty()) return false;
  IncomingFile f = std::move(g.files.front());
  g.files.erase(g.files.begin());
  *name = std::move(f.name);
  *bytes = std::move(f.bytes);
  *error = std::move(f.error);
  return true;
}

void platform_request_capture() {
  g.capture_asked = true;
  platform_request_frames(2);
}

// glReadPixels gives the bottom row first: rows are flipped so that row 0 is the top of the view.
void platform_capture_after_render(int fb_width, int fb_height) {
  if (!g.capture_asked || fb_width <= 0 || fb_height <= 0) return;
  g.capture_asked = false;
  const size_t row = static_cast<size_t>(fb_width) * 4;
  std::vector<unsigned char> px(row * static_cast<size_t>(fb_height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, fb_width, fb_height, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  g.capture.resize(px.size());
  for (int y = 0; y < fb_height; ++y)
    std::copy(px.begin() + static_cast<long>(row * static_cast<size_t>(fb_height - 1 - y)),
              px.begin() + static_cast<long>(row * static_cast<size_t>(fb_height - y)), g.capture.begin() + static_cast<long>(row * static_cast<size_t>(y)));
  for (size_t k = 3; k < g.capture.size(); k += 4) g.capture[k] = 255;  // the canvas is opaque
  g.capture_w = fb_width;
  g.capture_h = fb_height;
  g.capture_ready = true;
  platform_request_frames(2);
}

bool platform_take_capture(int* width, int* height, std::vector<unsigned char>* rgba) {
  if (!g.capture_ready) return false;
  g.capture_ready = false;
  *width = g.capture_w;
  *height = g.capture_h;
  *rgba = std::move(g.capture);
  g.capture = {};
  return true;
}

#ifdef __EMSCRIPTEN__
}  // namespace ap
extern "C" EMSCRIPTEN_KEEPALIVE void ap_export_request(const char* what) {
  if (what) ap::g.export_requests.push_back(what);
  ap::platform_request_frames(4);
  EM_ASM({ if (window['apBridge']) window['apBridge']['wake'](); });  // the loop may be paused: a call from the page is no input event
}
namespace ap {
#endif
bool platform_take_export_request(std::string* what) {
  if (g.export_requests.empty()) return false;
  *what = g.export_requests.front();
  g.export_requests.erase(g.export_requests.begin());
  return true;
}

}  // namespace ap

