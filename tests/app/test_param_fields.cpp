// The field table (app/param_fields.h): each kind of field is written, read back and refused as the readers
// of json_fields.h do; a field is in the link under its own or its given name; unknown fields, a preset and
// the table order behave as prepare() needs. Then, for every registered scene, the invariant the table is
// there for: every URL parameter is a field of the document, and the document's own parameters are accepted
// back unchanged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "app/param_fields.h"
#include "app/scene_registry.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using nlohmann::json;

enum class Colour { Red, Blue };

struct Toy {
  std::string text = "the cat";
  int n = 3;
  uint64_t seed = 7;
  double rate = 0.5;
  bool flag = false;
  std::vector<std::string> words = {"a", "b"};
  Colour colour = Colour::Red;
  struct Inner {
    int depth = 2;
  } inner;
};

const FieldTable<Toy>& toy_fields() {
  using P = Toy;
  static const FieldTable<P> kFields = {
      {"text", at<&P::text>},
      {"n", at<&P::n>, 1, 10},
      {"seed", at<&P::seed>},
      {"learning_rate", at<&P::rate>, 0.0, 1.0, "lr"},
      {"flag", at<&P::flag>},
      {"words", at<&P::words>},
      {"colour",
       [](const json& v, P* p) {
         if (v == "red") p->colour = Colour::Red;
         else if (v == "blue") p->colour = Colour::Blue;
         else return Status::Error("colour must be \"red\" or \"blue\", got {0}", {quote_json(v)});
         return Status::Ok();
       },
       [](const P& p, json& doc) { doc["colour"] = p.colour == Colour::Red ? "red" : "blue"; }, UrlKind::String},
      {"depth", [](P& p) -> int& { return p.inner.depth; }, 0, 5},
      {"internal", [](const json&, P*) { return Status::Ok(); }, [](const P&, json& doc) { doc["internal"] = 1; },
       UrlKind::Number, nullptr, /*in_link=*/false},
  };
  return kFields;
}

const std::vector<ScenePreset<Toy>>& toy_presets() {
  static const std::vector<ScenePreset<Toy>> kPresets = [] {
    Toy t;
    t.n = 9;
    t.text = "preset text";
    return std::vector<ScenePreset<Toy>>{{{"nine", "Nine", "n = 9"}, t}};
  }();
  return kPresets;
}

std::string message(const Status& s) { return localize(local_text(s)); }

TEST(AppParamFields, WritesEveryFieldInTableOrder) {
  json doc;
  write_fields(toy_fields(), Toy{}, doc);
  const json want = {{"text", "the cat"}, {"n", 3},           {"seed", 7},    {"learning_rate", 0.5},
                     {"flag", false},     {"words", {"a", "b"}}, {"colour", "red"}, {"depth", 2},
                     {"internal", 1}};
  EXPECT_EQ(doc, want);
}

TEST(AppParamFields, UrlParamsFollowTheTable) {
  const std::vector<UrlParam> u = url_params_of(toy_fields());
  ASSERT_EQ(u.size(), 8u);  // "internal" is not in links
  const char* fields[] = {"text", "n", "seed", "learning_rate", "flag", "words", "colour", "depth"};
  const char* names[] = {"text", "n", "seed", "lr", "flag", "words", "colour", "depth"};
  const UrlKind kinds[] = {UrlKind::String, UrlKind::Number, UrlKind::Number, UrlKind::Number,
                           UrlKind::Bool,   UrlKind::Json,   UrlKind::String, UrlKind::Number};
  for (size_t k = 0; k < u.size(); ++k) {
    EXPECT_STREQ(u[k].field, fields[k]);
    EXPECT_STREQ(u[k].name, names[k]);
    EXPECT_EQ(u[k].kind, kinds[k]) << fields[k];
  }
}

TEST(AppParamFields, ReadsAndStoresEachKind) {
  set_lang(Lang::En);
  Toy t;
  const json in = {{"text", "a dog"}, {"n", 10},          {"seed", 9007199254740991LL}, {"learning_rate", 0.25},
                   {"flag", true},    {"words", {"x"}},   {"colour", "blue"},           {"depth", 0}};
  ASSERT_TRUE(read_fields(in, toy_fields(), toy_presets(), {}, &t)) << message(read_fields(in, toy_fields(), toy_presets(), {}, &t));
  EXPECT_EQ(t.text, "a dog");
  EXPECT_EQ(t.n, 10);
  EXPECT_EQ(t.seed, 9007199254740991ULL);
  EXPECT_EQ(t.rate, 0.25);
  EXPECT_TRUE(t.flag);
  EXPECT_EQ(t.words, std::vector<std::string>{"x"});
  EXPECT_EQ(t.colour, Colour::Blue);
  EXPECT_EQ(t.inner.depth, 0);
  // A round trip: what is written reads back to the same document.
  json doc;
  write_fields(toy_fields(), t, doc);
  Toy u;
  ASSERT_TRUE(read_fields(doc, toy_fields(), toy_presets(), {}, &u));
  json again;
  write_fields(toy_fields(), u, again);
  EXPECT_EQ(doc, again);
}

TEST(AppParamFields, RefusesWithTheReadersMessages) {
  set_lang(Lang::En);
  const struct {
    json in;
    const char* want;
  } cases[] = {
      {json::array(), "expects an object, got []"},
      {{{"nope", 1}}, "unknown field 'nope'"},
      {{{"n", 11}}, "n"},
      {{{"n", 0.5}}, "n"},
      {{{"seed", -1}}, "seed"},
      {{{"seed", 9007199254740992.0}}, "seed"},
      {{{"learning_rate", 2}}, "learning_rate"},
      {{{"flag", 1}}, "flag"},
      {{{"text", 5}}, "text"},
      {{{"words", {1}}}, "words"},
      {{{"colour", "green"}}, "colour must be \"red\" or \"blue\", got \"green\""},
      {{{"depth", 6}}, "depth"},
      {{{"preset", "ten"}}, "unknown preset 'ten'"},
  };
  for (const auto& c : cases) {
    Toy t;
    const Status s = read_fields(c.in, toy_fields(), toy_presets(), {}, &t);
    ASSERT_FALSE(s) << c.in.dump();
    EXPECT_NE(message(s).find(c.want), std::string::npos) << c.in.dump() << " -> " << message(s);
  }
}

TEST(AppParamFields, AnInvalidFieldLeavesItsValueAlone) {
  Toy t;
  EXPECT_FALSE(read_fields(json{{"n", 99}}, toy_fields(), toy_presets(), {}, &t));
  EXPECT_EQ(t.n, 3);
  EXPECT_FALSE(read_fields(json{{"learning_rate", -1}}, toy_fields(), toy_presets(), {}, &t));
  EXPECT_EQ(t.rate, 0.5);
}

TEST(AppParamFields, PresetFirstThenFieldsWhateverTheKeyOrder) {
  Toy t;
  // "n" comes before "preset" in the object's key order (nlohmann sorts keys): the preset still starts the change.
  ASSERT_TRUE(read_fields(json{{"n", 4}, {"preset", "nine"}}, toy_fields(), toy_presets(), {}, &t));
  EXPECT_EQ(t.n, 4);
  EXPECT_EQ(t.text, "preset text");
}

TEST(AppParamFields, ExtraFieldsAreKnownOnlyWhenListed) {
  Toy t;
  EXPECT_FALSE(read_fields(json{{"results", json::object()}}, toy_fields(), toy_presets(), {}, &t));
  EXPECT_TRUE(read_fields(json{{"results", json::object()}}, toy_fields(), toy_presets(), {"results"}, &t));
}

TEST(AppParamFields, TheFirstInvalidFieldInTableOrderIsNamed) {
  set_lang(Lang::En);
  Toy t;
  const Status s = read_fields(json{{"depth", 99}, {"n", 99}}, toy_fields(), toy_presets(), {}, &t);
  ASSERT_FALSE(s);
  EXPECT_EQ(message(s).rfind("n ", 0), 0u) << message(s);
}

// Fields marked by_scene (the SDPA scene's rules that span fields): declared in the table, so they are
// known fields and in the link, but read_fields and write_fields leave them to the scene, which reads one with
// the table's limits (read_field) or writes it (write_field); mask_field reads and writes the mask by name.
struct Masked {
  int n = 3;
  int width = 4;
  MaskKind mask = MaskKind::None;
};
const FieldTable<Masked>& masked_fields() {
  using P = Masked;
  static const FieldTable<P> kFields = {
      {"n", at<&P::n>, 1, 10},
      Field<P>{"width", at<&P::width>, 1, 8}.by_scene(),
      {"matrices", by_scene, UrlKind::Matrices, "m"},
      mask_field<P>(),
  };
  return kFields;
}

TEST(AppParamFields, BySceneFieldsAreDeclaredButLeftToTheScene) {
  set_lang(Lang::En);
  const std::vector<UrlParam> url = url_params_of(masked_fields());
  ASSERT_EQ(url.size(), 4u);
  EXPECT_STREQ(url[1].field, "width");
  EXPECT_STREQ(url[2].field, "matrices");
  EXPECT_STREQ(url[2].name, "m");
  EXPECT_EQ(url[2].kind, UrlKind::Matrices);

  Masked p;
  const json in = {{"n", 5}, {"width", 7}, {"matrices", {{"Q", json::array()}}}, {"mask", "causal"}};
  EXPECT_TRUE(check_table_fields(in, masked_fields(), {}));
  ASSERT_TRUE(read_table_fields(in, masked_fields(), &p));
  EXPECT_EQ(p.n, 5);
  EXPECT_EQ(p.width, 4);  // by_scene: not read with the rest
  EXPECT_EQ(p.mask, MaskKind::Causal);
  ASSERT_TRUE(read_field(in, masked_fields(), "width", &p));
  EXPECT_EQ(p.width, 7);
  const Status wide = read_field(json{{"width", 9}}, masked_fields(), "width", &p);
  ASSERT_FALSE(wide);
  EXPECT_EQ(message(wide).rfind("width ", 0), 0u) << message(wide);
  EXPECT_EQ(p.width, 7);
  EXPECT_TRUE(read_field(json::object(), masked_fields(), "width", &p));  // absent: nothing to read
  const Status missing = read_field(in, masked_fields(), "height", &p);
  ASSERT_FALSE(missing);
  EXPECT_NE(message(missing).find("height"), std::string::npos) << message(missing);

  json doc;
  write_fields(masked_fields(), p, doc);
  EXPECT_EQ(doc, (json{{"n", 5}, {"mask", "causal"}}));
  write_field(masked_fields(), "width", p, doc);
  EXPECT_EQ(doc["width"], 7);

  const Status bad = read_table_fields(json{{"mask", "diagonal"}}, masked_fields(), &p);
  ASSERT_FALSE(bad);
  EXPECT_NE(message(bad).find("mask must be"), std::string::npos) << message(bad);
  EXPECT_EQ(p.mask, MaskKind::Causal);
}

// For every scene: each URL parameter names a field the document has, no two share a name, and the
// document's own parameters are accepted back (the four places a parameter used to be named agree).
TEST(AppParamFields, EveryScenesLinkAndDocumentAgree) {
  set_lang(Lang::En);
  for (const auto& scene : make_scenes(/*defer=*/false)) {
    json doc;
    scene->write_params(doc);
    std::vector<std::string> names;
    // The SDPA scene's link lists every source's fields (text, tokens, matrices, a trained layer) and its
    // document only the current source's: it is not on a field table.
    const bool one_source = std::string(scene->id()) != "sdpa";
    for (const UrlParam& u : scene->url_params()) {
      // The trained model's fields (app/scene_training.h) are written only for a model other than the build's.
      const bool model_field = std::string(u.field).rfind("train_", 0) == 0;
      if (one_source && !model_field) EXPECT_TRUE(doc.contains(u.field)) << scene->id() << ": " << u.field;
      for (const auto& n : names) EXPECT_NE(n, u.name) << scene->id();
      names.push_back(u.name);
    }
    std::unique_ptr<SceneChange> change;
    const Status s = scene->prepare(doc, &change);
    EXPECT_TRUE(s) << scene->id() << ": " << message(s);
    if (!s) continue;
    scene->commit(std::move(change));
    json again;
    scene->write_params(again);
    EXPECT_EQ(doc, again) << scene->id();
  }
}

}  // namespace
}  // namespace ap
