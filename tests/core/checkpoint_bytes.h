// The build's checkpoints for the tests: the files tools/make_checkpoint.cpp wrote into the build (native,
// AP_CHECKPOINT_DIR), or — where there are none (the wasm tests) — the same recipes trained here
// (deterministic: the same bytes). Each made once per test run.
//   default_checkpoint_bytes(): the coreference model (coref.aptc, Recipe{})
//   heads_checkpoint_bytes():   the heads experiment's two heads (heads.aptc, heads_recipe(2))
//   example_checkpoint_bytes(): the import scene's example, 2 layers of 2 heads (example.aptc)
//   bahdanau_checkpoint_bytes(): the Bahdanau scene's encoder–decoder (bahdanau.apsq)
//   luong_checkpoint_bytes():    the Luong scene's three, dot, general, concat (luong.apsq)
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "core/train/checkpoint.h"
#include "core/train/heads.h"
#include "core/train/seq2seq_checkpoint.h"

namespace ap {

// The build's file `file` (AP_CHECKPOINT_DIR), or nothing where there is none.
inline std::vector<uint8_t> build_file_bytes(const char* file) {
  std::vector<uint8_t> b;
#ifdef AP_CHECKPOINT_DIR
  if (FILE* f = std::fopen((std::string(AP_CHECKPOINT_DIR) + "/" + file).c_str(), "rb")) {
    unsigned char buf[65536];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + got);
    std::fclose(f);
  }
#endif
  (void)file;
  return b;
}

inline std::vector<uint8_t> build_checkpoint_bytes(const char* file, const train::Recipe& r) {
  std::vector<uint8_t> b = build_file_bytes(file);
  if (b.empty()) (void)train::train_checkpoint(r, &b);
  return b;
}

inline const std::vector<uint8_t>& default_checkpoint_bytes() {
  static const std::vector<uint8_t> bytes = build_checkpoint_bytes("coref.aptc", train::Recipe{});
  return bytes;
}

inline const std::vector<uint8_t>& heads_checkpoint_bytes() {
  static const std::vector<uint8_t> bytes = build_checkpoint_bytes("heads.aptc", train::heads_recipe(2));
  return bytes;
}

// The Bahdanau scene's encoder–decoder (bahdanau.apsq, bahdanau_recipe()).
inline const std::vector<uint8_t>& bahdanau_checkpoint_bytes() {
  static const std::vector<uint8_t> bytes = [] {
    std::vector<uint8_t> b = build_file_bytes("bahdanau.apsq");
    if (b.empty()) (void)train::train_seq2seq_checkpoint(train::bahdanau_recipe(), &b);
    return b;
  }();
  return bytes;
}

// The Luong scene's three encoder–decoders, one after the other (luong.apsq, luong_recipe(dot, general, concat)).
inline const std::vector<uint8_t>& luong_checkpoint_bytes() {
  static const std::vector<uint8_t> bytes = [] {
    std::vector<uint8_t> b = build_file_bytes("luong.apsq");
    if (!b.empty()) return b;
    using train::Seq2SeqAttention;
    for (Seq2SeqAttention a : {Seq2SeqAttention::Dot, Seq2SeqAttention::General, Seq2SeqAttention::Concat}) {
      std::vector<uint8_t> one;
      (void)train::train_seq2seq_checkpoint(train::luong_recipe(a), &one);
      b.insert(b.end(), one.begin(), one.end());
    }
    return b;
  }();
  return bytes;
}

inline const std::vector<uint8_t>& example_checkpoint_bytes() {
  static const std::vector<uint8_t> bytes = build_checkpoint_bytes("example.aptc", train::attention_example_recipe());
  return bytes;
}

}  // namespace ap
