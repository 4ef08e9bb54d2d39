#include "sdpa_presets.h"

#include "app/i18n.h"

namespace ap {

namespace {

Mat rows(std::initializer_list<std::initializer_list<float>> r) {
  Mat m(static_cast<int>(r.size()), static_cast<int>(r.begin()->size()));
  int i = 0;
  for (const auto& row : r) {
    int j = 0;
    for (float v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

std::vector<Preset> make_presets() {
  std::vector<Preset> out;
  {
    Preset p{"animal", N_("The animal didn't cross the street…"),
             N_("The lecture notes' self-attention sentence. The weights here are random and untrained, so the word "
                "\"it\" attends to is chance; the preset \"trained: it → animal\" shows a model that learned it."),
             {}, -1, {}};
    out.push_back(p);
  }
  {
    // The notes' claim for this sentence: a trained model's "it" attends to "animal". Untrained weights cannot
    // show that, so here Q and K are set by hand as training might have set them (d_k = 2):
    //   column 0 of Q·Kᵀ is the "what does 'it' refer to" feature: only q_it has it (6), "animal" answers it
    //   fully (1) and "tired" a little (0.5); every other query is 0, so its row stays uniform (nothing learnt).
    //   scores of "it" / √2: animal 4.24, tired 2.12, others 0 → weights ≈ 0.80, 0.10, 0.01 each.
    // V: "animal" carries [1, 0], "tired" [0, 1], others [0, 0], so the output row of "it" shows the mix.
    Preset p{"it-animal", N_("it → animal (hand-set)"),
             N_("Q and K set by hand, as training might set them: \"it\" asks one question that \"animal\" answers "
                "(and \"tired\" a little), so its row puts most weight on \"animal\". Other rows learnt nothing "
                "and stay uniform."),
             {}, -1, {}};
    const char* words[] = {"The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired"};
    const int n = 11, it = 7, animal = 1, tired = 10;
    p.params.source = QkvSource::Custom;
    p.params.Q = Mat::Zero(n, 2);
    p.params.K = Mat::Zero(n, 2);
    p.params.V = Mat::Zero(n, 2);
    p.params.Q(it, 0) = 6;
    p.params.K(animal, 0) = 1;
    p.params.K(tired, 0) = 0.5f;
    p.params.V(animal, 0) = 1;
    p.params.V(tired, 1) = 1;
    p.params.query_labels = p.params.key_labels = std::vector<std::string>(words, words + n);
    p.params.text = "The animal didn't cross the street because it was too tired";
    out.push_back(p);
  }
  {
    // Seed 000: "I love cats", d_k = 2, Q·Kᵀ = [[1,0,0.5],[0,1,0.5],[1,1,1]].
    // Q and K below are one factorisation of that matrix; V is ours (the seed leaves V open): each value
    // row is a one-hot-ish 2-vector so the output row shows the mix.
    Preset p{"cats", N_("I love cats (d_k = 2)"),
             N_("The lecture notes' numeric example. Its softmax row [0.43, 0.21, 0.30] does not sum to 1; the "
             "correctly computed row is [0.46, 0.22, 0.32]."),
             {}, -1, {}};
    p.params.source = QkvSource::Custom;
    p.params.Q = rows({{1, 0}, {0, 1}, {1, 1}});
    p.params.K = rows({{1, 0}, {0, 1}, {0.5f, 0.5f}});
    p.params.V = rows({{1, 0}, {0, 1}, {0.5f, 0.5f}});
    p.params.query_labels = p.params.key_labels = {"I", "love", "cats"};
    p.params.text = "I love cats";
    p.printed_row = 0;
    p.printed_weights = {0.43f, 0.21f, 0.30f};
    out.push_back(p);
  }
  {
    // Seed 001: one query, scaled scores [2, 1, 0], scalar values [10, 0, -10].
    // d_k = 1 so √d_k = 1 and the scores are the scaled scores: q = [1], keys [2], [1], [0].
    Preset p{"one-query", N_("One query: scores [2, 1, 0]"),
             N_("softmax([2, 1, 0]) ≈ [0.665, 0.245, 0.090]; the output 5.75 is a weighted mix of the values, "
             "not the value of the best key."),
             {}, -1, {}};
    p.params.source = QkvSource::Custom;
    p.params.Q = rows({{1}});
    p.params.K = rows({{2}, {1}, {0}});
    p.params.V = rows({{10}, {0}, {-10}});
    p.params.query_labels = {"q"};
    p.params.key_labels = {"k1", "k2", "k3"};
    p.params.text = "q";
    out.push_back(p);
  }
  {
    Preset p{"causal", N_("Causal mask (decoder)"),
             N_("Each position attends only to itself and earlier positions: the upper triangle is 0."), {}, -1, {}};
    p.params.text = "The cat sat on the mat because it was tired";
    p.params.mask = MaskKind::Causal;
    out.push_back(p);
  }
  {
    Preset p{"padding", N_("Padding mask"),
             N_("The [PAD] keys get weight exactly 0."), {}, -1, {}};
    p.params.text = "I love cats";
    p.params.pad_to = 6;
    p.params.mask = MaskKind::Padding;
    out.push_back(p);
  }
  {
    Preset p{"chinese", N_("我爱猫 (Chinese)"),
             N_("Each Chinese character is one token."), {}, -1, {}};
    p.params.text = "小猫坐在垫子上因为它累了";
    out.push_back(p);
  }
  {
    Preset p{"long", N_("512 tokens (heatmaps)"),
             N_("Too many tokens for numbered cells: every matrix is drawn as one heatmap by a shader."), {}, -1, {}};
    std::string t;
    const char* words[] = {"attention", "lets", "every", "token", "look", "at", "every", "other", "token"};
    for (int i = 0; i < 512; ++i) { t += words[i % 9]; t += ' '; }
    p.params.text = t;
    p.params.d_model = 64;
    p.params.d_k = 32;
    out.push_back(p);
  }
  return out;
}

}  // namespace

const std::vector<Preset>& presets() {
  static const std::vector<Preset> kPresets = make_presets();
  return kPresets;
}

const Preset* find_preset(const std::string& id) {
  for (const auto& p : presets())
    if (id == p.id) return &p;
  return nullptr;
}

const Preset* hand_set_preset(const Mat& Q, const Mat& K, const Mat& V) {
  const auto same = [](const Mat& a, const Mat& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
  };
  for (const auto& p : presets())
    if (p.params.source == QkvSource::Custom && same(p.params.Q, Q) && same(p.params.K, K) && same(p.params.V, V))
      return &p;
  return nullptr;
}

}  // namespace ap
