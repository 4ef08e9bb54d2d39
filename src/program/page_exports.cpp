// The page API (window.playground, web/playground.js) as C functions over the one PlaygroundState.
// JSON strings in and out. A document can be megabytes long (every matrix at its limit is about 20 MB of
// JSON), so it arrives through the heap — a pointer and a length from _malloc — never through ccall's
// string argument, which copies onto the small wasm stack. A returned pointer stays valid until the next call.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>

#include <string>

#include "app/api.h"
#include "app/url.h"
#include "program/page_exports.h"
#include "platform/platform.h"

namespace {
ap::PlaygroundState* g_state = nullptr;
std::string g_reply;  // the last string handed to JavaScript
}  // namespace

void ap::page_api_attach(PlaygroundState* st) { g_state = st; }

extern "C" {
// with_matrices: 0 none, 1 as rows of numbers, 2 compact ({"f32": "v1.…"}, app/api.h).
EMSCRIPTEN_KEEPALIVE const char* ap_get_state(int with_matrices) {
  g_reply = g_state ? ap::get_state_json(*g_state, with_matrices != 0, with_matrices == 2) : "{}";
  return g_reply.c_str();
}
// `size` is a double (JavaScript's number): a string of the page may hold more bytes than an int counts. A
// document over the limit comes without its bytes (json = 0) and is refused by its size, so it is never
// copied into the heap, which grows and is never given back.
EMSCRIPTEN_KEEPALIVE const char* ap_set_state(const char* json, double size) {
  g_reply = g_state && size >= 0 && size < 9007199254740992.0
                ? ap::set_state_json(*g_state, json, static_cast<uint64_t>(size))
                : "{\"ok\":false,\"error\":\"not started\"}";
  ap::platform_request_frames(3);  // the view may have changed: draw it
  return g_reply.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* ap_step(int k) {
  g_reply = g_state ? ap::step_json(*g_state, k) : "{}";
  ap::platform_request_frames(3);
  return g_reply.c_str();
}
// The largest document setState takes, in bytes (web/playground.js checks it before copying a document).
EMSCRIPTEN_KEEPALIVE double ap_max_document_bytes() { return static_cast<double>(ap::kMaxDocumentBytes); }
// A call web/playground.js refused itself (app/api.h page_refusal): shown on screen; returns the English text.
EMSCRIPTEN_KEEPALIVE const char* ap_page_refusal(const char* call, const char* kind, const char* detail) {
  g_reply = g_state ? ap::page_refusal(*g_state, call ? call : "", kind ? kind : "", detail ? detail : "") : "";
  ap::platform_request_frames(3);  // the message is drawn
  return g_reply.c_str();
}
// The query string that restores the current view (README "URL parameters").
EMSCRIPTEN_KEEPALIVE const char* ap_link_query() {
  g_reply = g_state ? ap::state_to_query(*g_state) : "";
  return g_reply.c_str();
}
}
#else
#include "program/page_exports.h"
#include "platform/platform.h"
void ap::page_api_attach(PlaygroundState*) {}
#endif
