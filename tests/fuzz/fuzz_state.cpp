// The page API's setState (app/api.h set_state_json) on a fresh PlaygroundState: no input crashes, the answer
// is {"ok": true} or {"ok": false, "error": "…"}, and a refused document changes nothing (all or nothing).
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/api.h"
#include "app/i18n.h"
#include "core/utf8.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ap::set_lang(ap::Lang::En);
  ap::PlaygroundState st;
  // The view without the page's reports (a refusal adds its message on screen, by design). Every input
  // starts from the same fresh state, so its document is written once (a third of each input's time).
  static const nlohmann::json before = ap::state_document(st, true, true, false);
  const std::string answer = ap::set_state_json(st, reinterpret_cast<const char*>(data), size);
  const nlohmann::json a = nlohmann::json::parse(answer, nullptr, false);
  AP_FUZZ_CHECK(a.is_object() && a.contains("ok") && a["ok"].is_boolean(), "not an answer: " + answer);
  if (!a["ok"].get<bool>()) {
    AP_FUZZ_CHECK(a.contains("error") && a["error"].is_string(), "a refusal without an error: " + answer);
    AP_FUZZ_CHECK(ap::lang() == ap::Lang::En, "a refused document changed the language");
    AP_FUZZ_CHECK(ap::state_document(st, true, true, false) == before, "a refused document changed the state: " + answer);
  }
  for (const auto& m : st.errors)
    AP_FUZZ_CHECK(ap::utf8_valid(ap::localize(m.text)), "a message that is not UTF-8: " + ap::localize(m.text));
  // getState after an accepted document (after a refusal the state is the fresh one, checked above).
  if (a["ok"].get<bool>()) (void)ap::get_state_json(st);
  return 0;
}
