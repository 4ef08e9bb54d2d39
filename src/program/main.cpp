// Attention Playground: entry point for both builds. The same frame function runs in the native loop and
// under emscripten_set_main_loop (see platform/platform.cpp).
#include <string>

#include "app/i18n.h"
#include "app/train_host.h"
#include "app/trained_checkpoint.h"
#include "app/url.h"
#include "app/worker_pool.h"
#include "program/page_exports.h"
#include "platform/platform.h"
#include "core/train/checkpoint.h"
#include "core/train/seq2seq_checkpoint.h"
#include "ui/ui_state.h"

namespace ap {
void install_web_worker_pool();  // web_worker_pool.cpp
void install_web_train_host();   // web_train_host.cpp
void install_web_race_host();    // web_race_host.cpp
}

namespace {
ap::PlaygroundState* g_state = nullptr;
ap::UiState* g_ui = nullptr;

bool before_frame(const ap::FrameInfo& f) { return ap::ui_prepare_fonts(*g_state, *g_ui, f); }
void frame(const ap::FrameInfo& f) { ap::ui_frame(*g_state, *g_ui, f); }
bool busy() { return ap::ui_busy(*g_state, *g_ui); }
bool only_work() { return ap::ui_only_work(*g_state, *g_ui); }
void work() { ap::ui_work(*g_state); }
}  // namespace

int main(int argc, char** argv) {
  if (!ap::platform_init("Attention Playground", 1280, 720)) return 1;
  // The cost lab's parallel measurement: Web Workers in the browser, threads on the desktop.
  // "Watch attention learn" trains in a Web Worker in the browser, in a thread on the desktop. A race's runs
  // (bottleneck, Bahdanau, Luong) each in a Web Worker in the browser, in slices of the frame loop on the desktop.
#ifdef __EMSCRIPTEN__
  ap::install_web_worker_pool();
  ap::install_web_train_host();
  ap::install_web_race_host();
#else
  static std::unique_ptr<ap::WorkerPool> threads = ap::make_thread_pool();
  ap::set_worker_pool(threads.get());
  static std::unique_ptr<ap::TrainHost> trainer = ap::make_thread_train_host();
  ap::set_train_host(trainer.get());
  // The trained views' checkpoints: read from build/native/gen/checkpoints/, or trained here when missing.
  ap::set_checkpoint_trainer([](ap::BuildCheckpoint which, std::vector<uint8_t>* out) {
    if (ap::is_seq2seq(which)) {  // one or more encoder–decoders, one file
      out->clear();
      for (const ap::train::Seq2SeqRecipe& r : ap::seq2seq_checkpoint_recipes(which)) {
        std::vector<uint8_t> one;
        if (!ap::train::train_seq2seq_checkpoint(r, &one).ok) return false;
        out->insert(out->end(), one.begin(), one.end());
      }
      return true;
    }
    return ap::train::train_checkpoint(ap::checkpoint_recipe(which), out).ok;
  });
#endif
  ap::platform_mark("ap-main");
  g_state = new ap::PlaygroundState();
  g_ui = new ap::UiState();
  // Web: the page's query string (?lang=zh&preset=cats…). Native: the first argument, same syntax.
  std::string query = ap::platform_url_query();
  if (argc > 1) query = argv[1];
  // The interface starts in the learner's language (a zh-CN browser gets Chinese); the link's lang= wins.
  if (ap::platform_prefers_chinese()) ap::set_lang(ap::Lang::Zh);
  // A bare visit opens with the welcome (the lesson map); a link to a view, an embed, never (url.h).
  g_state->welcome = !ap::platform_in_frame();
  if (!query.empty()) ap::apply_url_query(*g_state, query);
  ap::fonts_prefetch(*g_state, *g_ui);  // a Chinese start: the interface's Chinese font, fetched from now on
  // The link applied; a scene builds its first model when first used (the one on screen: in the first frame,
  // unless the link already did).
  ap::platform_mark("ap-model-ready");
  ap::page_api_attach(g_state);
  ap::platform_set_work_turns(only_work, work);
  ap::platform_run(frame, before_frame, busy);
  ap::ui_shutdown(*g_ui);
  ap::platform_shutdown();
  return 0;
}
