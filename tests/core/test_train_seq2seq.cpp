// The trainable encoder–decoder (core/train/seq2seq_model.h): the GRU cell's backward and every variant's
// whole backward through time (none, additive, dot, general, concat; one- and bidirectional) against central
// finite differences, bad input refused, and the reversal task learned with attention on held-out strings.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/embedding.h"
#include "core/train/seq2seq_model.h"
#include "core/train/translation.h"
#include "train_check.h"
#include "test_mode.h"

namespace ap {
namespace train {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

using traintest::norm_rel_error;
using traintest::numeric_gradient;
using traintest::report_rel;

// The small model the training tests share: Bahdanau et al.'s shape (bidirectional GRU encoder), 16-wide
// embeddings, 32-wide states and score layer, seed 1.
Seq2SeqConfig small_config(int vocab, Seq2SeqAttention attention) {
  Seq2SeqConfig c;
  c.vocab = vocab;
  c.d_emb = 16;
  c.d_h = 32;
  c.d_a = 32;
  c.attention = attention;
  c.bidirectional = true;  // h_j centred on x_j (Bahdanau et al.'s encoder)
  c.seed = 1;
  return c;
}

AdamConfig adam_at(double lr) {
  AdamConfig ac;
  ac.lr = lr;
  return ac;
}

// One cell (gru_* or elman_*) against central differences: loss = Σ w ⊙ h' for x [1, I], h [1, H]; every input
// and parameter of `params`. Returns the worst norm-wise relative error.
template <class Forward, class Backward>
double check_cell(const char* tag, Forward forward, Backward backward, ParamStore& store, const std::vector<Param*>& params,
                  int I, int H, uint64_t seed) {
  Mat x = seeded_gaussian(1, I, seed, 1, 1.0), h = seeded_gaussian(1, H, seed, 2, 0.8);
  const Mat w = seeded_gaussian(1, H, seed, 3, 1.0);
  const auto loss = [&] {
    GruStep st;
    forward(x, h, &st);
    return traintest::dot(w, st.h);
  };
  GruStep st;
  forward(x, h, &st);
  store.zero_grad();
  Mat dx = Mat::Zero(1, I), dh = Mat::Zero(1, H);
  backward(st, w, &dx, &dh);
  const std::string t = tag;
  double worst = 0;
  worst = std::max(worst, report_rel(t + " dx", norm_rel_error(dx, numeric_gradient(x, loss, 1e-2), 1e-6)));
  worst = std::max(worst, report_rel(t + " dh_prev", norm_rel_error(dh, numeric_gradient(h, loss, 1e-2), 1e-6)));
  for (Param* p : params)
    worst = std::max(worst, report_rel(t + " " + p->name, norm_rel_error(p->grad, numeric_gradient(p->value, loss, 1e-2), 1e-6)));
  return worst;
}

TEST(CoreTrainSeq2Seq, GruCellBackwardMatchesFiniteDifferences) {
  ParamStore store;
  GruParams g;
  const int I = 3, H = 4;
  ASSERT_TRUE(store.add("g.Wx", I, 3 * H, Init::Gaussian, 0.7, 3, &g.Wx).ok);
  ASSERT_TRUE(store.add("g.Wh_zr", H, 2 * H, Init::Gaussian, 0.7, 3, &g.Wh_zr).ok);
  ASSERT_TRUE(store.add("g.Wh_n", H, H, Init::Gaussian, 0.7, 3, &g.Wh_n).ok);
  ASSERT_TRUE(store.add("g.b", 1, 3 * H, Init::Gaussian, 0.3, 3, &g.b).ok);
  const double worst = check_cell(
      "gru", [&](const Mat& x, const Mat& h, GruStep* st) { gru_forward(g, x, h, st); },
      [&](const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev) { gru_backward(g, st, dh, dx, dh_prev); }, store,
      {g.Wx, g.Wh_zr, g.Wh_n, g.b}, I, H, 11);
  EXPECT_LT(worst, 2e-3);
}

// The Elman cell (the encoder's other cell), the same way; and its forward is the naive formula.
TEST(CoreTrainSeq2Seq, ElmanCellGradientsMatchFiniteDifferences) {
  const int I = 3, H = 4;
  ParamStore store;
  GruParams g;
  ASSERT_TRUE(store.add("e.Wx", I, H, Init::Gaussian, 0.6, 9, &g.Wx).ok);
  ASSERT_TRUE(store.add("e.Wh", H, H, Init::Gaussian, 0.6, 9, &g.Wh_n).ok);
  ASSERT_TRUE(store.add("e.b", 1, H, Init::Gaussian, 0.3, 9, &g.b).ok);
  const double worst = check_cell(
      "elman", [&](const Mat& x, const Mat& h, GruStep* st) { elman_forward(g, x, h, st); },
      [&](const GruStep& st, const Mat& dh, Mat* dx, Mat* dh_prev) { elman_backward(g, st, dh, dx, dh_prev); }, store,
      {g.Wx, g.Wh_n, g.b}, I, H, 12);
  EXPECT_LT(worst, 2e-3);
  const Mat x = seeded_gaussian(1, I, 5, 1, 1.0), h = seeded_gaussian(1, H, 5, 2, 1.0);
  GruStep st;
  elman_forward(g, x, h, &st);
  const Mat naive = (x * g.Wx->value + h * g.Wh_n->value + g.b->value).array().tanh().matrix();
  const double diff = (st.h - naive).cwiseAbs().maxCoeff();
  std::printf("elman forward against tanh(x·Wx + h·Wh + b): largest difference %.3g\n", diff);
  EXPECT_LT(diff, 1e-6);
}

struct Variant {
  Seq2SeqAttention attention;
  bool bidirectional;
  Seq2SeqCell cell = Seq2SeqCell::Gru;  // the encoder's
};

class CoreTrainSeq2SeqGrad : public ::testing::TestWithParam<Variant> {};

// Every parameter's gradient of the summed loss of one pair, through the decoder's and the encoders' time
// steps, against central differences (float model, ε = 1e-2, norm-wise relative error per parameter).
TEST_P(CoreTrainSeq2SeqGrad, WholeBackwardThroughTimeMatchesFiniteDifferences) {
  Seq2SeqConfig c;
  c.vocab = 7;
  c.d_emb = 3;
  c.d_h = 4;
  c.d_a = 3;
  c.attention = GetParam().attention;
  c.bidirectional = GetParam().bidirectional;
  c.cell = GetParam().cell;
  c.seed = 5;
  Seq2SeqModel m;
  ASSERT_TRUE(m.init(c).ok);
  const Seq2SeqPair p{{2, 5, 3, 6}, {6, 3, 4, kEos}};
  Seq2SeqTrace tr;
  ASSERT_TRUE(m.forward(p, &tr).ok);
  m.params().zero_grad();
  m.backward(p, tr, 1.f);
  const auto loss = [&] {
    Seq2SeqTrace t;
    EXPECT_TRUE(m.forward(p, &t).ok);
    return t.loss;
  };
  double worst = 0;
  std::string where;
  for (size_t k = 0; k < m.params().size(); ++k) {
    Param& q = m.params()[k];
    const Mat analytic = q.grad;
    const double rel = norm_rel_error(analytic, numeric_gradient(q.value, loss, 1e-2), 1e-5);
    if (rel > worst) worst = rel, where = q.name;
  }
  report_rel(std::string(seq2seq_attention_name(c.attention)) + (c.bidirectional ? " bi " : " uni ") + seq2seq_cell_name(c.cell) +
                 " worst (" + where + ")", worst);
  EXPECT_LT(worst, 1e-2) << where;  // central differences at ε = 1e-2 on a float model: ~5e-3 of truncation and rounding
}

INSTANTIATE_TEST_SUITE_P(Variants, CoreTrainSeq2SeqGrad,
                         ::testing::Values(Variant{Seq2SeqAttention::None, false}, Variant{Seq2SeqAttention::None, true},
                                           Variant{Seq2SeqAttention::Additive, false}, Variant{Seq2SeqAttention::Additive, true},
                                           Variant{Seq2SeqAttention::Dot, false}, Variant{Seq2SeqAttention::Dot, true},
                                           Variant{Seq2SeqAttention::General, false}, Variant{Seq2SeqAttention::General, true},
                                           Variant{Seq2SeqAttention::Concat, false}, Variant{Seq2SeqAttention::Concat, true},
                                           // the Elman encoder (the bottleneck scene's RNN) under every kind of decoder
                                           Variant{Seq2SeqAttention::None, false, Seq2SeqCell::Elman},
                                           Variant{Seq2SeqAttention::Additive, true, Seq2SeqCell::Elman},
                                           Variant{Seq2SeqAttention::Dot, false, Seq2SeqCell::Elman},
                                           Variant{Seq2SeqAttention::Concat, true, Seq2SeqCell::Elman}),
                         [](const auto& info) {
                           return std::string(seq2seq_attention_name(info.param.attention)) + (info.param.bidirectional ? "Bi" : "Uni") +
                                  (info.param.cell == Seq2SeqCell::Elman ? "Elman" : "");
                         });

TEST(CoreTrainSeq2Seq, BadSizesAndIdsAreRefused) {
  Seq2SeqModel m;
  Seq2SeqConfig c;
  c.vocab = 2;
  EXPECT_FALSE(m.init(c).ok);
  c.vocab = 10;
  c.d_h = 0;
  EXPECT_FALSE(m.init(c).ok);
  c.d_h = 8;
  c.max_len = 6;
  ASSERT_TRUE(m.init(c).ok);
  Seq2SeqTrace tr;
  EXPECT_FALSE(m.forward({{}, {kEos}}, &tr).ok);
  EXPECT_FALSE(m.forward({{2, 10}, {kEos}}, &tr).ok);
  EXPECT_FALSE(m.forward({{2, -1}, {kEos}}, &tr).ok);
  EXPECT_FALSE(m.forward({{2, 3, 4, 5, 6, 7, 8}, {kEos}}, &tr).ok);
  EXPECT_TRUE(m.forward({{2, 3}, {3, 2, kEos}}, &tr).ok);
  Adam adam;
  EXPECT_FALSE(m.train_step({}, adam, nullptr).ok);
}

// Reversal, strings of 3 … 8 symbols: the attention model reaches 95 % held-out token accuracy; the trained
// alignment of a held-out string is the anti-diagonal (target word t reads source word n−1−t).
TEST(CoreTrainSeq2Seq, ReversalIsLearnedWithAttentionAndItsAlignmentIsTheAntiDiagonal) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  const Seq2SeqConfig c = small_config(12, Seq2SeqAttention::Additive);
  Seq2SeqModel m;
  ASSERT_TRUE(m.init(c).ok);
  Adam adam(adam_at(1e-2));
  std::vector<Seq2SeqPair> heldout;
  for (int i = 0; i < 200; ++i) heldout.push_back(reversal_pair(c.vocab, 3, 8, 999, static_cast<uint64_t>(i)));
  const auto t0 = std::chrono::steady_clock::now();
  double acc = 0, loss = 0;
  int step = 0;
  uint64_t next = 0;
  std::vector<Seq2SeqPair> batch(16);
  // A fixed budget, not "until 99.5 %": the alignment sharpens after the accuracy is reached (stopped at 1300
  // steps, a sixth of the words still read their neighbour; at 2000 steps the anti-diagonal).
  for (; step < 2000; ++step) {
    for (auto& p : batch) p = reversal_pair(c.vocab, 3, 8, 1, next++);
    ASSERT_TRUE(m.train_step(batch, adam, &loss).ok);
    if ((step + 1) % 100 == 0) acc = token_accuracy(m, heldout);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("reversal 3…8, additive: %d steps, %.2f s, loss %.4f, held-out token accuracy %.3f\n", step, secs, loss, acc);
  EXPECT_GE(acc, 0.95);
  // The alignment of a held-out string: the largest weight of target word t on source word n−1−t.
  Seq2SeqTrace tr;
  std::vector<int> out;
  int on_diagonal = 0, words = 0;
  std::vector<int> offsets(17, 0);  // best − (n−1−t), from −8 to 8
  for (int i = 0; i < 50; ++i) {
    const Seq2SeqPair& p = heldout[static_cast<size_t>(i)];
    ASSERT_TRUE(m.greedy(p.src, static_cast<int>(p.tgt.size()), &out, &tr).ok);
    const int n = static_cast<int>(p.src.size());
    for (int t = 0; t < std::min(n, tr.T); ++t, ++words) {
      Eigen::Index best;
      tr.alpha[static_cast<size_t>(t)].row(0).maxCoeff(&best);
      on_diagonal += best == n - 1 - t;
      ++offsets[static_cast<size_t>(std::clamp(static_cast<int>(best) - (n - 1 - t), -8, 8) + 8)];
    }
  }
  std::printf("largest weight on the mirrored source word: %d of %d target words; offsets -8…8:", on_diagonal, words);
  for (int o : offsets) std::printf(" %d", o);
  std::printf("\n");
  EXPECT_GE(on_diagonal, words * 9 / 10);
}

// The toy grammar: gender agrees (la … noire, assise), the adjective follows the noun in French and precedes
// it in English (crossed alignment), "salon" → "living room", every English word aligned to a French word
// that translates it, lengths within the bounds, the same (seed, index) giving the same pair.
TEST(CoreTrainTranslation, TheGrammarAgreesCrossesAndAlignsEveryWord) {
  const auto& vocab = toy_vocabulary();
  std::printf("toy vocabulary: %zu words (both sides, with <s> and </s>)\n", vocab.size());
  EXPECT_LT(vocab.size(), 120u);
  int crossed = 0, living_room = 0, feminine_assise = 0;
  for (uint64_t i = 0; i < 2000; ++i) {
    const TranslationPair p = toy_translation_pair(3, i, 3, 30);
    ASSERT_GE(p.fr.size(), 3u);
    ASSERT_LE(p.fr.size(), 30u);
    ASSERT_EQ(p.en.size(), p.align.size());
    std::vector<int> ids;
    ASSERT_TRUE(toy_ids(p.fr, &ids).ok);
    ASSERT_TRUE(toy_ids(p.en, &ids).ok);
    for (size_t t = 0; t < p.en.size(); ++t) {
      ASSERT_GE(p.align[t], 0);
      ASSERT_LT(p.align[t], static_cast<int>(p.fr.size()));
      const std::string& f = p.fr[static_cast<size_t>(p.align[t])];
      if (p.en[t] == "black") {
        EXPECT_TRUE(f == "noir" || f == "noire") << f;
      }
      if (p.en[t] == "the") {
        EXPECT_TRUE(f == "le" || f == "la") << f;
      }
      if (p.en[t] == "living" || p.en[t] == "room") {
        EXPECT_EQ(f, "salon");
        ++living_room;
      }
      // an adjective: the English word comes before the noun's, the French after it
      if (t + 1 < p.en.size() && p.align[t + 1] >= 0 && p.align[t] == p.align[t + 1] + 1) ++crossed;
    }
    for (size_t j = 0; j + 1 < p.fr.size(); ++j) {
      if (p.fr[j] == "la" || p.fr[j] == "une") {  // a feminine noun follows, and its adjective agrees
        const std::string& adj = j + 2 < p.fr.size() ? p.fr[j + 2] : "";
        EXPECT_NE(adj, "noir");
        EXPECT_NE(adj, "blanc");
      }
      if (p.fr[j] == "assise") ++feminine_assise;
    }
  }
  std::printf("crossed adjective pairs %d, 'living room' words %d, 'assise' %d\n", crossed, living_room, feminine_assise);
  EXPECT_GT(crossed, 500);
  EXPECT_GT(living_room, 50);
  EXPECT_GT(feminine_assise, 20);
  const TranslationPair a = toy_translation_pair(3, 17, 5, 9), b = toy_translation_pair(3, 17, 5, 9);
  EXPECT_EQ(a.fr, b.fr);
  EXPECT_EQ(a.en, b.en);
  EXPECT_GE(a.fr.size(), 5u);
  EXPECT_LE(a.fr.size(), 9u);
  // The notes' pair is the grammar's own, its alignment crossed as the grammar's.
  const TranslationPair notes = toy_notes_pair();
  ASSERT_EQ(notes.en.size(), notes.align.size());
  for (size_t t = 0; t < notes.en.size(); ++t) EXPECT_LT(notes.align[t], static_cast<int>(notes.fr.size()));
  EXPECT_EQ(notes.fr[static_cast<size_t>(notes.align[1])], "noir");  // black
  EXPECT_EQ(notes.fr[static_cast<size_t>(notes.align[2])], "chat");  // cat
  std::vector<int> ids = {42};
  const Status s = toy_ids({"le", "chat", "violet", "zzz"}, &ids);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.message.find("'violet', 'zzz'"), std::string::npos) << s.message;
  EXPECT_EQ(ids, std::vector<int>{42});
}

// Toy translation, 3 … 12 French words: Bahdanau's model (bidirectional GRU encoder, additive attention)
// reaches 95 % held-out token accuracy, and for the English content words (nouns, adjectives, verbs,
// prepositions), the largest attention weight lies on their French word in >= 90 % of cases (the crossed
// adjectives included). Determiners too in the scene's recipe, whose seed was chosen for it
// (test_train_seq2seq_trainer.cpp); this loop's seed-1 stream aligns them less (both figures printed).
TEST(CoreTrainTranslation, AdditiveAttentionLearnsTheToyTranslationAndItsAlignment) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  const Seq2SeqConfig c = small_config(static_cast<int>(toy_vocabulary().size()), Seq2SeqAttention::Additive);
  Seq2SeqModel m;
  ASSERT_TRUE(m.init(c).ok);
  Adam adam(adam_at(1e-2));
  std::vector<TranslationPair> held;
  std::vector<Seq2SeqPair> heldout;
  for (uint64_t i = 0; i < 200; ++i) {
    held.push_back(toy_translation_pair(999, i, 3, 12));
    heldout.push_back(toy_seq2seq_pair(held.back()));
  }
  const auto t0 = std::chrono::steady_clock::now();
  double acc = 0, loss = 0;
  int step = 0;
  uint64_t next = 0;
  std::vector<Seq2SeqPair> batch(16);
  double align_now = 0;
  for (; step < 3000 && (acc < 0.97 || align_now < 0.92); ++step) {
    for (auto& p : batch) p = toy_seq2seq_pair(toy_translation_pair(1, next++, 3, 12));
    ASSERT_TRUE(m.train_step(batch, adam, &loss).ok);
    if ((step + 1) % 100 == 0) {
      acc = token_accuracy(m, heldout);
      align_now = alignment_accuracy(m, held, true);
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int counted = 0, counted_all = 0;
  const double align = alignment_accuracy(m, held, true, &counted);
  const double align_all = alignment_accuracy(m, held, false, &counted_all);
  std::printf("toy translation 3…12, additive bi: %d steps, %.2f s, loss %.4f, held-out token accuracy %.3f, "
              "alignment %.3f over %d content words (%.3f over all %d words)\n", step, secs, loss, acc, align, counted,
              align_all, counted_all);
  EXPECT_GE(acc, 0.95);
  EXPECT_GE(align, 0.90);
}

// Luong et al.'s comparison on the same data: dot, general and concat scores (unidirectional encoder, as Luong
// et al.'s), each trained to 95 % held-out token accuracy; steps to the target and the content words' alignment
// are reported (and the alignment must be far above chance).
TEST(CoreTrainTranslation, LuongDotGeneralAndConcatEachLearnTheToyTranslation) {
  TRAINED_TARGET_ASSERTED_IN_RELEASE();
  std::vector<TranslationPair> held;
  std::vector<Seq2SeqPair> heldout;
  for (uint64_t i = 0; i < 200; ++i) {
    held.push_back(toy_translation_pair(999, i, 3, 12));
    heldout.push_back(toy_seq2seq_pair(held.back()));
  }
  for (Seq2SeqAttention a : {Seq2SeqAttention::Dot, Seq2SeqAttention::General, Seq2SeqAttention::Concat}) {
    Seq2SeqConfig c = small_config(static_cast<int>(toy_vocabulary().size()), a);
    c.bidirectional = false;
    Seq2SeqModel m;
    ASSERT_TRUE(m.init(c).ok);
    Adam adam(adam_at(1e-2));
    double acc = 0, loss = 0;
    int step = 0;
    uint64_t next = 0;
    std::vector<Seq2SeqPair> batch(16);
    const auto t0 = std::chrono::steady_clock::now();
    for (; step < 2000 && acc < 0.95; ++step) {
      for (auto& p : batch) p = toy_seq2seq_pair(toy_translation_pair(1, next++, 3, 12));
      ASSERT_TRUE(m.train_step(batch, adam, &loss).ok);
      if ((step + 1) % 50 == 0) acc = token_accuracy(m, heldout);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double align = alignment_accuracy(m, held, true);
    std::printf("luong %-8s %d steps to %.3f held-out token accuracy, %.2f s; content-word alignment %.3f\n",
                seq2seq_attention_name(a), step, acc, secs, align);
    EXPECT_GE(acc, 0.95) << seq2seq_attention_name(a);
    EXPECT_GE(align, 0.8) << seq2seq_attention_name(a);  // chance: about 1 / 8 of a 3 … 12-word sentence
  }
}

}  // namespace
}  // namespace train
}  // namespace ap
