// The URL query's reader (app/url.h read_url_query: split, %-decode, check, each parameter turned into its
// field of the state document), without applying the document to a scene. It is fuzz_url's first half at
// thousands of inputs a second: fuzz_url runs a fresh state and every scene's computation on what it reads,
// which holds it near a hundred. The reader changes only the page's layout fields, so one state, its scenes
// built once, serves every input, its layout reset before each. No input crashes; every message is UTF-8;
// the document holds the fields; the %-codec round-trips every piece of the query it decodes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/i18n.h"
#include "app/url.h"
#include "core/utf8.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static ap::PlaygroundState st;
  static const bool built = [] {
    for (const auto& scene : st.scenes) (void)st.find(scene->id());
    return true;
  }();
  (void)built;
  ap::set_lang(ap::Lang::En);
  st.errors.clear();
  st.embed = false;
  st.show_controls = true;
  st.hidden.clear();
  st.ui_scale = 1.0f;
  st.presenter = false;
  st.colorblind = false;
  const std::string query(reinterpret_cast<const char*>(data), size);
  const ap::UrlQuery read = ap::read_url_query(st, query);
  AP_FUZZ_CHECK(read.target != nullptr, "no target scene");
  for (const auto& p : read.problems) AP_FUZZ_CHECK(ap::utf8_valid(p), "a message that is not UTF-8: " + p);
  AP_FUZZ_CHECK(read.doc.is_object(), "the document is not an object");
  for (const auto& [field, value] : read.fields)
    AP_FUZZ_CHECK(read.doc.contains(field), "a field missing from the document: " + field);
  // The codec both ways, on each piece of the query as the reader splits it.
  size_t start = 0;
  while (start <= query.size()) {
    size_t amp = query.find('&', start);
    if (amp == std::string::npos) amp = query.size();
    const std::string piece = query.substr(start, amp - start);
    start = amp + 1;
    bool ok = true;
    const std::string decoded = ap::url_decode(piece, &ok);
    if (ok) {
      bool again_ok = true;
      const std::string encoded = ap::url_encode(decoded);
      AP_FUZZ_CHECK(ap::url_decode(encoded, &again_ok) == decoded && again_ok, "url_encode does not round-trip: " + encoded);
      for (char c : encoded)
        AP_FUZZ_CHECK((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                          c == '.' || c == '_' || c == '~' || c == '%',
                      "url_encode left a reserved character: " + encoded);
    }
  }
  return 0;
}
