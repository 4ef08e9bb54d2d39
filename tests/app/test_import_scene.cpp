// The scene "Your model's attention" (app/scenes/import_scene.h): it opens on the trained example; the built-in
// example is the SDPA scene's weights from the core, a file imports (and a bad one changes nothing), weights and tokens travel in the
// document (setState imports them), layer/head in the URL, and the row-sum report equals a naive recount.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "app/api.h"
#include "app/json_fields.h"
#include "app/scenes/import_scene.h"
#include "app/url.h"
#include "core/sdpa_pipeline.h"
#include "core/train/checkpoint.h"
#include "helpers.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using namespace ::ap::test;
using nlohmann::json;

ImportScene& imp(PlaygroundState& st) { return *st.get<ImportScene>(); }
bool ok(const std::string& reply) { return parse(reply).value("ok", false); }
// The document with results and matrices, without the page's reports (messages, frames).
json doc_of(const PlaygroundState& st) { return state_document(st, true, true, false); }

// [layers, heads, n, n] float32 as a .npy file; row i of head h of layer l holds (l + h + 1)·(i + 1) + j.
std::vector<unsigned char> sample_npy(int layers, int heads, int n) {
  NdArray a;
  a.shape = {layers, heads, n, n};
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < heads; ++h)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) a.data.push_back(static_cast<float>((l + h + 1) * (i + 1) + j) / 100.f);
  return write_npy(a);
}

// The scene opens on the trained example: the built-in 1 × 1 head is on screen while the model loads (the
// document already names "trained"), then every head of the model. The preset "example" is the SDPA scene's
// default weights from the core.
TEST(AppImportScene, DefaultIsTheTrainedExampleAndTheBuiltInIsTheSdpaScenesWeights) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"import"})")));
  ImportScene& sc = imp(st);
  EXPECT_TRUE(sc.trained_pending());
  EXPECT_EQ(sc.checkpoint(), ImportScene::Checkpoint::Wanted);
  json doc = state(st, true);
  EXPECT_EQ(str(doc["source"]), "trained");
  EXPECT_EQ(doc["results"]["layers"], 1);  // what is on screen while it loads
  const auto& b = example_checkpoint_bytes();
  test::deliver_checkpoint(sc, std::vector<unsigned char>(b.begin(), b.end()));
  doc = state(st, true);
  EXPECT_EQ(str(doc["source"]), "trained");
  EXPECT_EQ(doc["results"]["layers"], 2);
  EXPECT_EQ(doc["results"]["heads"], 2);
  ASSERT_TRUE(ok(set_state_json(st, R"({"preset":"example"})")));
  SdpaModel m;
  ASSERT_TRUE(build_sdpa(SdpaParams{}, &m).ok);
  doc = state(st, true);
  EXPECT_EQ(str(doc["source"]), "example");
  EXPECT_EQ(doc["results"]["layers"], 1);
  EXPECT_EQ(doc["results"]["heads"], 1);
  EXPECT_EQ(doc["tokens"], json(m.query_tokens));
  std::string where;
  EXPECT_TRUE(matrix_agrees(doc["results"]["shown"], m.trace.weights(), 0.0, &where)) << where;
  EXPECT_TRUE(doc["results"]["rows_sum_to_one"].get<bool>());
}

TEST(AppImportScene, FileImportsAndRowSumsEqualANaiveRecount) {
  PlaygroundState st;
  ImportScene& sc = imp(st);
  ASSERT_TRUE(sc.import_file("attn.npy", sample_npy(2, 3, 5)).ok);
  EXPECT_EQ(sc.data().w.layers, 2);
  EXPECT_EQ(sc.data().w.heads, 3);
  EXPECT_EQ(sc.data().source, "attn.npy");
  EXPECT_TRUE(sc.labels().empty());
  EXPECT_EQ(sc.token(2), "3");
  // max |Σ_j w_ij − 1| by naive loops over the same formula.
  double worst = 0;
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 3; ++h)
      for (int i = 0; i < 5; ++i) {
        double s = 0;
        for (int j = 0; j < 5; ++j) s += static_cast<float>((l + h + 1) * (i + 1) + j) / 100.f;
        worst = std::max(worst, std::fabs(s - 1.0));
      }
  EXPECT_NEAR(sc.data().max_row_sum_dev, worst, 1e-6);  // float sums in double: 1e-6 is generous
  ASSERT_TRUE(sc.select(1, 2).ok);
  EXPECT_FLOAT_EQ(sc.data().w.at(1, 2)(4, 3), ((1 + 2 + 1) * 5 + 3) / 100.f);
  const std::string hover = sc.explain(2, 4, 3);
  EXPECT_NE(hover.find("layer 2 head 3"), std::string::npos) << hover;
  EXPECT_NE(hover.find("0.23"), std::string::npos) << hover;
}

TEST(AppImportScene, BadFilesAreRefusedAndNothingChanges) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"import"})")));  // the document is the current scene's
  ImportScene& sc = imp(st);
  ASSERT_TRUE(sc.import_file("good.npy", sample_npy(1, 2, 4)).ok);
  const json before = doc_of(st);
  std::vector<unsigned char> truncated = sample_npy(1, 2, 4);
  truncated.resize(truncated.size() - 7);
  std::vector<unsigned char> rank1 = write_npy(NdArray{{16}, std::vector<float>(16, 0.1f)});
  const std::string ragged = "[[[1,0],[0,1]],[[1,0]]]";
  const std::string nan = "[[1, NaN],[0,1]]";
  const std::vector<std::pair<std::string, std::vector<unsigned char>>> bad = {
      {"truncated.npy", truncated},
      {"rank1.npy", rank1},
      {"ragged.json", std::vector<unsigned char>(ragged.begin(), ragged.end())},
      {"nan.json", std::vector<unsigned char>(nan.begin(), nan.end())},
      {"empty.json", {}},
  };
  for (const auto& [name, bytes] : bad) {
    const Status s = sc.import_file(name, bytes);
    EXPECT_FALSE(s.ok) << name;
    EXPECT_FALSE(s.message.empty()) << name;
    EXPECT_EQ(doc_of(st), before) << name;
  }
}

std::vector<unsigned char> bytes_of(const std::string& s) { return std::vector<unsigned char>(s.begin(), s.end()); }

// numpy.save keeps no tokens: the recipes write them to a JSON beside the .npy, opened with it.
TEST(AppImportScene, TokensInAJsonBesideTheNpyLabelTheWeightsOpenedBefore) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"import"})")));
  ImportScene& sc = imp(st);
  const json example = doc_of(st);
  ASSERT_TRUE(sc.is_example());  // the built-in head, while the trained example loads
  // before any weights: refused, the example stays
  Status s = sc.import_file("tokens.json", bytes_of(R"({"tokens": ["a", "b", "c", "d"]})"));
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("open the weights"), std::string::npos) << s.message;
  EXPECT_EQ(doc_of(st), example);
  ASSERT_TRUE(sc.import_file("attention.npy", sample_npy(1, 2, 4)).ok);
  const json weights = doc_of(st);
  ASSERT_EQ(weights["source"], "attention.npy");
  // a count that is not n: refused, nothing changes
  s = sc.import_file("tokens.json", bytes_of(R"({"tokens": ["a", "b", "c"]})"));
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("n = 4"), std::string::npos) << s.message;
  EXPECT_EQ(doc_of(st), weights);
  s = sc.import_file("tokens.json", bytes_of(R"({"tokens": ["a", 2, "c", "d"]})"));
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(doc_of(st), weights);
  // the right count: the same weights, now labelled
  ASSERT_TRUE(sc.import_file("tokens.json", bytes_of(R"({"tokens": ["I", "love", "cats", "!"]})")).ok);
  EXPECT_EQ(sc.data().w.tokens, (std::vector<std::string>{"I", "love", "cats", "!"}));
  EXPECT_EQ(sc.data().source, "attention.npy + tokens.json");
  EXPECT_EQ(sc.token(2), "cats");
  const json now = doc_of(st);
  ASSERT_TRUE(now.contains("weights"));
  EXPECT_EQ(now["weights"], weights["weights"]);
  EXPECT_EQ(now["tokens"], json({"I", "love", "cats", "!"}));
  // read_attention_file (the fuzzed reader of whole files) refuses a file of tokens alone
  AttentionWeights w;
  s = read_attention_file("tokens.json", bytes_of(R"({"tokens": ["a"]})"), &w);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("only tokens"), std::string::npos) << s.message;
}

TEST(AppImportScene, WeightsAndTokensTravelInTheDocument) {
  PlaygroundState a, b;
  const std::string doc = R"({"scene":"import","weights":[[[[0.5,0.5],[0.1,0.9]],[[1,0],[0,1]]]],"tokens":["I","cats"],"head":1,"step":1})";
  ASSERT_TRUE(ok(set_state_json(a, doc)));
  EXPECT_EQ(imp(a).data().w.heads, 2);
  EXPECT_EQ(imp(a).data().source, "setState");
  EXPECT_EQ(imp(a).params().head, 1);
  ASSERT_TRUE(ok(set_state_json(a, get_state_json(a, true)))) << "setState(getState()) is accepted";
  ASSERT_TRUE(ok(set_state_json(b, get_state_json(a, true))));
  EXPECT_EQ(state(a, true), state(b, true));
  // The URL carries only the view (layer, head): never the weights.
  const std::string q = state_to_query(a);
  EXPECT_NE(q.find("head=1"), std::string::npos) << q;
  EXPECT_EQ(q.find("weights"), std::string::npos) << q;
  // Back to the example.
  ASSERT_TRUE(ok(set_state_json(a, R"({"preset":"example"})")));
  EXPECT_TRUE(imp(a).is_example());
  EXPECT_EQ(imp(a).params().head, 0);
}

TEST(AppImportScene, BadDocumentsAreRefusedAndTheLastGoodStateStays) {
  PlaygroundState st;
  ASSERT_TRUE(ok(set_state_json(st, R"({"scene":"import","weights":[[[0.5,0.5],[0.1,0.9]],[[1,0],[0,1]]]})")));
  const json before = doc_of(st);
  const char* bad[] = {
      R"({"head":2})",                                           // two heads: 0 … 1
      R"({"layer":1})",                                          // one layer
      R"({"weights":[[1,2,3],[4,5,6]]})",                        // not square
      R"({"weights":[[[1,0],[0,1]],[[1,0]]]})",                  // ragged
      R"({"weights":[1,2,3]})",                                  // rank 1
      R"({"weights":[[[["x"]]]]})",                              // not a number
      R"({"tokens":["a","b","c"]})",                             // n = 2
      R"({"source":"model.npy"})",                               // a source without its weights
      R"({"results":{"heads":3}})",                              // results that do not agree
      R"({"colour":1})",                                         // unknown field
  };
  for (const char* doc : bad) {
    const json r = parse(set_state_json(st, doc));
    EXPECT_FALSE(r.value("ok", true)) << doc;
    EXPECT_FALSE(str(r["error"]).empty()) << doc;
    EXPECT_EQ(doc_of(st), before) << doc;
  }
}

// The preset "trained": a trained model's attention, as a file of the learner's would hold it. Nothing is
// fetched before it is asked for; then every head of every layer of the build's example model (coreference,
// 2 layers × 2 heads) for the notes' sentence, each map equal to the model's own forward pass, rows summing to 1,
// the words as tokens, labelled with the checkpoint's measured accuracy; the document names it while it loads and
// round-trips once loaded; a damaged checkpoint leaves a message and the data as it was.
TEST(AppImportScene, TheTrainedExampleIsEveryHeadOfATrainedModelWithItsTokens) {
  ImportScene s;
  EXPECT_EQ(s.checkpoint(), ImportScene::Checkpoint::Wanted);  // the scene opens on it
  ASSERT_TRUE(s.load_preset("example").ok);
  EXPECT_FALSE(s.trained_pending());
  const int gen = s.generation();
  ASSERT_TRUE(s.load_preset("trained").ok);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_EQ(s.checkpoint(), ImportScene::Checkpoint::Wanted);
  EXPECT_EQ(s.generation(), gen);  // the data on screen stays until the model is here
  EXPECT_EQ(scene_doc(s)["source"], "trained");
  const auto& b = example_checkpoint_bytes();
  test::deliver_checkpoint(s, std::vector<unsigned char>(b.begin(), b.end()));
  ASSERT_FALSE(s.trained_pending());
  const ImportData& d = s.data();
  ASSERT_EQ(d.source, "trained") << s.checkpoint_error().message;
  EXPECT_EQ(d.w.layers, 2);
  EXPECT_EQ(d.w.heads, 2);
  EXPECT_EQ(d.w.n, 11);
  EXPECT_EQ(d.w.tokens.front(), "the");
  EXPECT_EQ(d.w.tokens[7], "it");
  EXPECT_LE(d.max_row_sum_dev, 1e-5);
  EXPECT_NE(d.label.find("trained on coreference, 1500 steps, held-out accuracy"), std::string::npos) << d.label;
  EXPECT_NE(d.label.find("2 layers × 2 heads"), std::string::npos) << d.label;
  // Each map is the model's own: its forward pass over the same words.
  train::Trainer t;
  ASSERT_TRUE(train::read_checkpoint(b.data(), b.size(), &t).ok);
  std::printf("the example model: %s\n", d.label.c_str());
  EXPECT_GE(t.heldout_accuracy(), 0.95);
  train::SentenceAttention a;
  ASSERT_TRUE(t.attention_of(d.w.tokens, &a).ok);
  float largest = 0;
  for (size_t k = 0; k < a.maps.size(); ++k) largest = std::max(largest, (a.maps[k] - d.w.maps[k]).cwiseAbs().maxCoeff());
  std::printf("largest difference to the model's forward pass: %g\n", largest);
  EXPECT_EQ(largest, 0.f);
  // Layer 2's pointer head (head 1): "it" → "animal".
  const Mat& ptr = d.w.at(1, 0);
  Eigen::Index best;
  ptr.row(7).maxCoeff(&best);
  EXPECT_EQ(best, 1);
  // The document round-trips; its results carry the label.
  json doc = scene_doc(s, true);
  EXPECT_EQ(doc["results"]["label"], d.label);
  EXPECT_EQ(doc["checkpoint"], "loaded");
  // setState(getState()) keeps it as it is, label included (the monkey test found the label dropped).
  ASSERT_TRUE(prepare_commit(s, doc).ok);
  EXPECT_EQ(scene_doc(s, true), doc);
  ImportScene back;
  ASSERT_TRUE(prepare_commit(back, doc).ok);
  EXPECT_EQ(back.data().w.layers, 2);
  EXPECT_EQ(back.data().source, "trained");
  // A layer and head the model has, then a damaged checkpoint in another scene: a message, nothing changes.
  ASSERT_TRUE(s.select(1, 1).ok);
  EXPECT_FALSE(s.select(2, 0).ok);
  ImportScene broken;
  ASSERT_TRUE(broken.load_preset("trained").ok);
  std::vector<unsigned char> bad(b.begin(), b.end());
  bad[bad.size() / 2] ^= 0x55;
  const int g2 = broken.generation();
  test::deliver_checkpoint(broken, bad);
  EXPECT_EQ(broken.checkpoint(), ImportScene::Checkpoint::Failed);
  EXPECT_NE(broken.checkpoint_error().message.find("checksum"), std::string::npos) << broken.checkpoint_error().message;
  EXPECT_TRUE(broken.is_example());
  EXPECT_EQ(broken.generation(), g2);
  EXPECT_FALSE(broken.load_preset("trained").ok);  // what it said stays true
}

// A layer and head asked for with the trained example wait with it: the data on screen (1 × 1) keeps its own,
// so nothing reads past its maps; a layer the model has not falls back to its first.
TEST(AppImportScene, TheLayerAndHeadAskedForWaitWithTheTrainedExample) {
  ImportScene s;
  ASSERT_TRUE(prepare_commit(s, json{{"source", "trained"}, {"layer", 1}, {"head", 1}}).ok);
  EXPECT_TRUE(s.trained_pending());
  EXPECT_EQ(s.params().layer, 0);
  EXPECT_EQ(s.params().head, 0);
  json doc = scene_doc(s, true);  // results with the shown matrix: of the data on screen
  EXPECT_EQ(doc["layer"], 1);     // the document names what it waits for
  EXPECT_EQ(doc["results"]["layers"], 1);
  EXPECT_FALSE(prepare_commit(s, json{{"source", "trained"}, {"layer", -1}}).ok);
  const auto& b = example_checkpoint_bytes();
  test::deliver_checkpoint(s, std::vector<unsigned char>(b.begin(), b.end()));
  EXPECT_EQ(s.params().layer, 1);
  EXPECT_EQ(s.params().head, 1);
  ImportScene t;
  ASSERT_TRUE(prepare_commit(t, json{{"source", "trained"}, {"layer", 9}}).ok);
  test::deliver_checkpoint(t, std::vector<unsigned char>(b.begin(), b.end()));
  EXPECT_EQ(t.data().source, "trained");
  EXPECT_EQ(t.params().layer, 0);
}

}  // namespace
}  // namespace ap
