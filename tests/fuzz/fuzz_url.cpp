// The whole URL query (app/url.h apply_url_query) on a fresh PlaygroundState: no input crashes, and the link
// of the view it leaves (state_to_query) opens the same view without a message.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/api.h"
#include "app/i18n.h"
#include "app/url.h"
#include "core/utf8.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ap::set_lang(ap::Lang::En);  // ?lang=zh sets the language for the whole program
  ap::PlaygroundState st;
  ap::apply_url_query(st, std::string(reinterpret_cast<const char*>(data), size));
  for (const auto& m : st.errors)  // messages quote the link: never half a character or a stray byte
    AP_FUZZ_CHECK(ap::utf8_valid(ap::localize(m.text)), "a message that is not UTF-8: " + ap::localize(m.text));
  const std::string q = ap::state_to_query(st);
  const std::string lang = ap::lang_code(ap::lang());
  ap::set_lang(ap::Lang::En);
  ap::PlaygroundState again;
  ap::apply_url_query(again, "?" + q);
  AP_FUZZ_CHECK(again.errors.empty(), "the view's own link is refused: " + q + " -> " + ap::localize(again.errors[0].text));
  AP_FUZZ_CHECK(ap::lang_code(ap::lang()) == lang, "the language does not travel: " + q);
  AP_FUZZ_CHECK(ap::state_to_query(again) == q, "the view's own link opens another view: " + q + " vs " + ap::state_to_query(again));
  return 0;
}
