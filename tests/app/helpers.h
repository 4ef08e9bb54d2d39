// Shared by the app-layer tests: the SDPA scene of a state, the UI's way of changing it, JSON helpers.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <memory>
#include <string>
#include <vector>

#include "app/api.h"
#include "app/scenes/sdpa_scene.h"
#include "app/state.h"
#include "core/checkpoint_bytes.h"

namespace ap {
namespace test {

inline SdpaScene& sdpa(PlaygroundState& st) { return *st.get<SdpaScene>(); }
inline const SdpaScene& sdpa(const PlaygroundState& st) { return *st.get<SdpaScene>(); }
inline const SdpaModel& model(const PlaygroundState& st) { return sdpa(st).model(); }

// What the controls do: build from `p`, keep the last good model, report under `key`.
inline Status apply(PlaygroundState& st, const SdpaParams& p, const std::string& key) {
  return report_result(st, key, sdpa(st).apply(p));
}
inline Status load_preset(PlaygroundState& st, const std::string& id) {
  return report_result(st, "preset", sdpa(st).load_preset(id));
}

inline nlohmann::json parse(const std::string& s) {
  nlohmann::json j = nlohmann::json::parse(s, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "not JSON: " << s.substr(0, 200);
  return j;
}
inline nlohmann::json state(const PlaygroundState& st, bool matrices = true) { return parse(get_state_json(st, matrices)); }
inline double num(const nlohmann::json& j) { return j.is_number() ? j.get<double>() : std::nan(""); }
inline std::string str(const nlohmann::json& j) { return j.is_string() ? j.get<std::string>() : std::string("<not a string>"); }

// A scene's own way of taking a document: prepare (refusals leave the scene alone), then commit.
template <class S>
Status prepare_commit(S& s, const nlohmann::json& doc) {
  std::unique_ptr<SceneChange> c;
  AP_TRY(s.prepare(doc, &c));
  s.commit(std::move(c));
  return Status::Ok();
}

// The build's default checkpoint (the coreference model) as the bytes a fetch would deliver.
inline std::vector<unsigned char> checkpoint_vector() {
  const auto& b = default_checkpoint_bytes();
  return std::vector<unsigned char>(b.begin(), b.end());
}

// A scene's document as getState writes it: its parameters and results (the matrices when asked).
template <class S>
nlohmann::json scene_doc(const S& s, bool with_matrices = false) {
  nlohmann::json doc;
  s.write_params(doc);
  s.write_results(doc, with_matrices);
  return doc;
}

// The message on screen under `key`, in the current language ("" if none).
inline std::string message(const PlaygroundState& st, const std::string& key) {
  for (const auto& m : st.errors)
    if (m.key == key) return localize(m.text);
  return {};
}

// The message on screen under `key` (null: none), and how many there are (one per key).
inline const Message* find_message(const PlaygroundState& st, const std::string& key) {
  for (const auto& m : st.errors)
    if (m.key == key) return &m;
  return nullptr;
}
inline int count_key(const PlaygroundState& st, const std::string& key) {
  int c = 0;
  for (const auto& m : st.errors) c += m.key == key;
  return c;
}

// A fetched checkpoint handed to a scene as its view hands it (receive_checkpoint), then read as the page reads
// it: a slice a frame (the scene's poll) while the slot is reading. Returns the frames that took.
template <class S, class Bytes>
int deliver_checkpoint(S& s, const Bytes& b) {
  s.receive_checkpoint(std::vector<unsigned char>(b.begin(), b.end()));
  int frames = 0;
  while (s.checkpoint_slot().reading() && frames < 1000000) {
    s.poll();
    ++frames;
  }
  return frames;
}

}  // namespace test
}  // namespace ap
