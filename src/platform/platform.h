// The only place that knows about SDL2, the GL context and the browser. Everything above it (src/ui,
// src/scenes, src/widgets) draws with Dear ImGui and GL calls through widgets/gl.h.
//
// One frame function serves both builds: the native loop and emscripten_set_main_loop call it.
#pragma once
#include <string>
#include <vector>

namespace ap {

struct FrameInfo {
  double dt = 1.0 / 60;  // seconds since the previous frame, clamped to (0.0001, 0.25]
  float dpr = 1.f;       // device pixel ratio (framebuffer pixels per logical pixel)
  int width = 0, height = 0;  // logical size of the window / canvas
};

using FrameFn = void (*)(const FrameInfo&);

// Creates the window (or binds the #canvas), a GL 3.3 core / WebGL2 (GLES 3.0) context and Dear ImGui.
// Returns false with a message printed when that fails.
bool platform_init(const char* title, int width, int height);

// Runs `frame` until the window closes (native) or forever (web). The frame function is called between
// ImGui::NewFrame() and ImGui::Render(); it may rebuild fonts through platform_rebuild_fonts().
// A frame is drawn only when something changes: input, a new canvas size or pixel ratio, `busy()` true
// (something is moving), or platform_request_frames(). Otherwise a turn of the loop does nothing.
void platform_run(FrameFn frame, bool (*before_new_frame)(const FrameInfo&), bool (*busy)());
// Turns that work without drawing (web build): while only_work() says the page is busy only with work spread
// over frames (a race's training in slices) and nothing else asks for a frame, a turn runs work() instead of
// drawing; a frame is drawn once kWorkDrawInterval seconds have passed since the last one began, on input, and
// when the work ends. Such a turn presents nothing, so the browser spends nothing on it beyond the work (a drawn
// frame costs it more: README, "Measurements behind the code": work turns).
// The desktop draws every turn: nothing would pace its work turns, and its frames cost little.
void platform_set_work_turns(bool (*only_work)(), void (*work)());
constexpr double kWorkDrawInterval = 0.1;
// Draw at least `n` more frames (something changed outside the event loop, e.g. through the page API).
void platform_request_frames(int n);
// The same for news that may come faster than it is worth drawing (a training worker's reports, dozens a second):
// at most one such request per `min_interval_s` draws at once; one that comes sooner is drawn when the interval
// is over, so the newest news is always drawn. Each drawn frame of a software-rendered page costs the cores that
// the worker trains on.
void platform_request_frames_paced(int n, double min_interval_s);
void platform_shutdown();

// Recreates the font texture after the caller rebuilt io.Fonts (outside a frame).
void platform_rebuild_font_texture();

// Keys for shortcuts beyond Dear ImGui 1.86's named keys (its backend indexes keys by SDL scancode).
enum class Key { Space, Left, Right, Up, Down, PageUp, PageDown, Home, End, Escape, Tab, F1, L, C, R, M, S, Plus, Minus,
                 Slash, BracketLeft, BracketRight, N, P, G, T, F, E, Enter };
bool key_pressed(Key k, bool repeat = false);
bool digit_pressed(int d);  // the 1..9 row or keypad

// Files that ship beside the page and are loaded only when needed (the larger Chinese font). The web build
// fetches `name` from the page's folder, asynchronously (a later frame sees it; the page is woken when it
// arrives); the native build reads it from the build's gen/ folder at once.
enum class AssetState { None, Pending, Ready, Failed };
// Starts loading `name` unless already started.
void platform_fetch_asset(const char* name);
// Where `name` stands. Ready: `bytes` receives the file's contents (moved: Ready is reported once, then None).
// Failed: `error` says why.
AssetState platform_asset(const char* name, std::vector<unsigned char>* bytes, std::string* error);

// ---- browser glue (no-ops natively) ----
std::string platform_url_query();              // location.search, e.g. "?lang=zh"
bool platform_prefers_chinese();               // the browser's first language (native: $LANG) is Chinese
bool platform_in_frame();                      // the page is inside an iframe (a course page); native: false
void platform_frame_drawn();                   // first call resolves window.playground.ready
void platform_mark(const char* name);          // a performance.mark for the startup breakdown (./build.sh bench)
void platform_announce(const std::string& s);  // text for the ARIA live region (screen readers)
void platform_set_document_lang(const char* code);
// The address bar shows `query` (history.replaceState: no new history entry, no reload).
void platform_replace_url(const std::string& query);
// Full screen on or off (web: the page's own element, done inside the next input event, as browsers require).
void platform_toggle_fullscreen();
// The page's address without its query and fragment ("https://host/path/index.html"; native: "").
std::string platform_page_url();
// Posts a JSON event to the host page when embedded in an iframe ({playground: "event", ...}).
void platform_post_event(const std::string& json);
// Puts `text` on the system clipboard; false when the browser refused (it may ask the learner instead).
bool platform_copy_text(const std::string& text);

// ---- files in and out (issue 8: import and export) ----
// Opens the browser's file chooser (`accept`: ".npy,.json"); the chosen file arrives later through
// platform_take_file. Native: no chooser (false: the caller says so).
bool platform_pick_file(const char* accept);
// A file picked or dropped onto the page since the last call: its name and bytes, or `error` (too large, could
// not be read) with the name. False when none is waiting.
bool platform_take_file(std::string* name, std::vector<unsigned char>* bytes, std::string* error);
// Saves `bytes` as a file: web: a download (Blob + <a download>); native: written into the current directory.
// Returns where it went natively (the path), "" on the web; `error` is set when it could not be written.
std::string platform_download(const char* filename, const std::vector<unsigned char>& bytes, const char* mime, std::string* error);
// A picture of the view: asked for, the framebuffer is read once right after the next frame is drawn (never in
// the normal loop); platform_take_capture then gives it, top row first, RGBA8, framebuffer pixels.
void platform_request_capture();
bool platform_take_capture(int* width, int* height, std::vector<unsigned char>* rgba);
// Called by the frame loop after drawing, before the swap (reads the pixels when a capture was asked for).
void platform_capture_after_render(int fb_width, int fb_height);
// Export requests from the page (web: Module._ap_export_request("png" | "<format>:<matrix path>"), used by the
// tests and by course pages), taken by the export dialog as if its buttons were pressed.
bool platform_take_export_request(std::string* what);

}  // namespace ap
