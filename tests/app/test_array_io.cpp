// app/array_io: the .npy reader and writer, attention weights from JSON, and CSV / LaTeX / SVG of a matrix.
// Round trips, and every malformed file refused with its own message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "app/array_io.h"
#include "app/i18n.h"
#include "core/utf8.h"

namespace ap {
namespace AP_UNITY_ID {  // this file's own namespace in a unity build (CMakeLists.txt, AP_UNITY)

// A .npy file by hand: version, header text (padded as NumPy does), then the raw data bytes.
std::vector<unsigned char> npy(const std::string& dict, const std::vector<unsigned char>& data, int major = 1) {
  std::string header = dict;
  const size_t prefix = major == 1 ? 10 : 12;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::vector<unsigned char> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(major), 0};
  const uint32_t len = static_cast<uint32_t>(header.size());
  out.push_back(len & 0xFF);
  out.push_back((len >> 8) & 0xFF);
  if (major != 1) { out.push_back((len >> 16) & 0xFF); out.push_back(len >> 24); }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}
template <class T>
std::vector<unsigned char> raw(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;  // the test machines are little-endian (x86-64, wasm)
}
std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 0.01f * static_cast<float>(i);
  return v;
}
std::string refusal(const std::vector<unsigned char>& file) {
  NdArray a;
  const Status s = read_npy(file.data(), file.size(), &a);
  EXPECT_FALSE(s.ok);
  return s.ok ? std::string() : std::string(s.code);
}

TEST(AppArrayIo, NpyWriteReadRoundTrip) {
  NdArray a;
  a.shape = {2, 3, 4};
  a.data = iota(24);
  const std::vector<unsigned char> f = write_npy(a);
  EXPECT_EQ((10 + (f[8] | (f[9] << 8))) % 64, 0u);  // data aligned to 64 bytes, as NumPy writes it
  NdArray b;
  ASSERT_TRUE(read_npy(f.data(), f.size(), &b).ok);
  EXPECT_EQ(b.shape, a.shape);
  EXPECT_EQ(b.data, a.data);  // float32 both ways: exact
}

TEST(AppArrayIo, NpyReadsEveryAcceptedDtypeAndVersion) {
  const std::string shape = "'shape': (2, 2), }";
  NdArray a;
  auto f = npy("{'descr': '<f8', 'fortran_order': False, " + shape, raw(std::vector<double>{0.5, 0.25, 1, -2}));
  ASSERT_TRUE(read_npy(f.data(), f.size(), &a).ok);
  EXPECT_EQ(a.data, (std::vector<float>{0.5f, 0.25f, 1.f, -2.f}));
  f = npy("{'descr': '<i4', 'fortran_order': False, " + shape, raw(std::vector<int32_t>{1, -2, 3, 4}));
  ASSERT_TRUE(read_npy(f.data(), f.size(), &a).ok);
  EXPECT_EQ(a.data[1], -2.f);
  f = npy("{'descr': '<i8', 'fortran_order': False, " + shape, raw(std::vector<int64_t>{7, 8, 9, -10}));
  ASSERT_TRUE(read_npy(f.data(), f.size(), &a).ok);
  EXPECT_EQ(a.data[3], -10.f);
  // float16: 1.0 = 0x3C00, 0.5 = 0x3800, -2 = 0xC000, 0.000061035 (the smallest normal) = 0x0400
  f = npy("{'descr': '<f2', 'fortran_order': False, " + shape, raw(std::vector<uint16_t>{0x3C00, 0x3800, 0xC000, 0x0400}));
  ASSERT_TRUE(read_npy(f.data(), f.size(), &a).ok);
  EXPECT_EQ(a.data, (std::vector<float>{1.f, 0.5f, -2.f, std::ldexp(1.f, -14)}));
  for (int major : {2, 3}) {
    f = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", raw(iota(4)), major);
    ASSERT_TRUE(read_npy(f.data(), f.size(), &a).ok) << major;
    EXPECT_EQ(a.shape, (std::vector<long long>{4}));
  }
}

TEST(AppArrayIo, NpyMalformedFilesEachRefusedWithItsMessage) {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  const auto good = npy(ok, raw(iota(6)));
  NdArray a;
  ASSERT_TRUE(read_npy(good.data(), good.size(), &a).ok);
  EXPECT_STREQ(refusal({}).c_str(), "the file is empty");
  auto f = good;
  f[1] = 'X';
  EXPECT_EQ(refusal(f), "not a .npy file: it does not start with the magic string \\x93NUMPY");
  EXPECT_EQ(refusal(std::vector<unsigned char>(good.begin(), good.begin() + 8)), "the .npy file is truncated: {0} bytes, its header needs {1}");
  EXPECT_EQ(refusal(std::vector<unsigned char>(good.begin(), good.begin() + 40)), "the .npy file is truncated: {0} bytes, its header needs {1}");
  EXPECT_EQ(refusal(std::vector<unsigned char>(good.begin(), good.end() - 4)), "the .npy file is truncated: its data has {0} bytes, its shape {1} needs {2}");
  f = good;
  f.push_back(0);  // data longer than the shape says
  EXPECT_EQ(refusal(f), "the .npy data has {0} bytes, more than its shape {1} needs ({2})");
  f = good;
  f[6] = 4;
  EXPECT_EQ(refusal(f), ".npy format version {0}.{1} is not supported (1.0, 2.0 and 3.0 are)");
  EXPECT_EQ(refusal(npy("{'descr': '<f4', 'shape': (2, 3), }", raw(iota(6)))), "the .npy header is not the dictionary NumPy writes: {0}");
  EXPECT_EQ(refusal(npy("not a dict at all", raw(iota(6)))), "the .npy header is not the dictionary NumPy writes: {0}");
  EXPECT_EQ(refusal(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", raw(iota(6)))),
            "the .npy header is not the dictionary NumPy writes: {0}");
  EXPECT_EQ(refusal(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", raw(iota(6)))),
            "the .npy array is in Fortran order; save it in C order (np.ascontiguousarray)");
  EXPECT_EQ(refusal(npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", raw(iota(6)))),
            "the .npy dtype {0} is big-endian; save it little-endian (a.astype('<f4'))");
  EXPECT_EQ(refusal(npy("{'descr': '|O', 'fortran_order': False, 'shape': (2, 3), }", raw(iota(6)))),
            "the .npy dtype {0} is not supported (float32, float64, float16, int32, int64 are)");
  EXPECT_EQ(refusal(npy("{'descr': '<c8', 'fortran_order': False, 'shape': (2, 3), }", raw(iota(6)))),
            "the .npy dtype {0} is not supported (float32, float64, float16, int32, int64 are)");
  // A header that lies about a huge shape: refused by the limit before anything is allocated.
  EXPECT_EQ(refusal(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000, 100000), }", raw(iota(6)))),
            "the array has {0} values; the limit is {1}");
  std::vector<float> nan = iota(6);
  nan[4] = NAN;
  EXPECT_EQ(refusal(npy(ok, raw(nan))), "value {0} (flat index {1}) is not a finite number");
  nan[4] = INFINITY;
  EXPECT_EQ(refusal(npy(ok, raw(nan))), "value {0} (flat index {1}) is not a finite number");
  // A file too large for the limit is refused before it is parsed.
  std::vector<unsigned char> huge(io_limits::kMaxFileBytes + 1, 0);
  EXPECT_EQ(refusal(huge), "the file has {0} bytes; the limit is {1}");
}

TEST(AppArrayIo, AttentionFromArrayRanksAndRefusals) {
  NdArray a;
  a.shape = {2, 3, 4, 4};
  a.data = iota(2 * 3 * 16);
  AttentionWeights w;
  ASSERT_TRUE(attention_from_array(a, &w).ok);
  EXPECT_EQ(w.layers, 2);
  EXPECT_EQ(w.heads, 3);
  EXPECT_EQ(w.n, 4);
  // [layer 1][head 2][row 3][col 1] in C order = ((1·3 + 2)·4 + 3)·4 + 1
  EXPECT_EQ(w.at(1, 2)(3, 1), a.data[((1 * 3 + 2) * 4 + 3) * 4 + 1]);
  a.shape = {3, 4, 4};
  a.data.resize(48);
  ASSERT_TRUE(attention_from_array(a, &w).ok);
  EXPECT_EQ(w.layers, 1);
  EXPECT_EQ(w.heads, 3);
  a.shape = {4, 4};
  a.data.resize(16);
  ASSERT_TRUE(attention_from_array(a, &w).ok);
  EXPECT_EQ(w.heads, 1);
  a.shape = {16};
  Status s = attention_from_array(a, &w);
  EXPECT_STREQ(s.code, "attention weights must have 2, 3 or 4 dimensions ([n, n], [heads, n, n] or [layers, heads, n, n]), got shape {0}");
  a.shape = {1, 1, 1, 4, 4};
  s = attention_from_array(a, &w);
  EXPECT_STREQ(s.code, "attention weights must have 2, 3 or 4 dimensions ([n, n], [heads, n, n] or [layers, heads, n, n]), got shape {0}");
  a.shape = {2, 2, 4};
  s = attention_from_array(a, &w);
  EXPECT_STREQ(s.code, "the last two sizes must be equal (queries × keys, n × n), got shape {0}");
  EXPECT_EQ(s.message, "the last two sizes must be equal (queries × keys, n × n), got shape [2, 2, 4]");
  a.shape = {65, 1, 1};
  a.data.assign(65, 0.5f);
  s = attention_from_array(a, &w);
  EXPECT_EQ(s.message, "heads must be between 1 and 64, got 65");
  a.shape = {1, 1};
  a.data = {2e6f};
  EXPECT_STREQ(attention_from_array(a, &w).code, "value {0} is too large; the limit is ±1e6");
  // Rows that do not sum to 1 are accepted: imported weights may be anything finite.
  a.data = {-3.f};
  EXPECT_TRUE(attention_from_array(a, &w).ok);
}

Status from_json(const std::string& text, AttentionWeights* w) { return read_attention_json(text.data(), text.size(), w); }

TEST(AppArrayIo, AttentionJsonFormsAndRefusals) {
  AttentionWeights w;
  ASSERT_TRUE(from_json("[[[0.5,0.5],[0.25,0.75]],[[1,0],[0,1]]]", &w).ok);
  EXPECT_EQ(w.heads, 2);
  EXPECT_EQ(w.n, 2);
  EXPECT_FLOAT_EQ(w.at(0, 0)(1, 1), 0.75f);
  ASSERT_TRUE(from_json(R"({"attention": [[[[1,0],[0,1]]]], "tokens": ["I", "cats"]})", &w).ok);
  EXPECT_EQ(w.layers, 1);
  EXPECT_EQ(w.tokens, (std::vector<std::string>{"I", "cats"}));
  ASSERT_TRUE(from_json(R"({"weights": [[1,0],[0,1]]})", &w).ok);
  EXPECT_STREQ(from_json("", &w).code, "the file is empty");
  EXPECT_STREQ(from_json("[[1, 2], [3", &w).code, "the JSON does not parse: {0}");
  EXPECT_STREQ(from_json("[[[1,0],[0,1]],[[1,0]]]", &w).code, "{0} has {1} entries where {2} are expected: the array is ragged");
  EXPECT_EQ(from_json("[[[1,0],[0,1]],[[1,0]]]", &w).message, "attention[1] has 1 entries where 2 are expected: the array is ragged");
  EXPECT_STREQ(from_json("[[1,\"a\"],[0,1]]", &w).code, "{0} is not a number: {1}");
  EXPECT_STREQ(from_json("[[1,2,3],[4,5,6]]", &w).code, "the last two sizes must be equal (queries × keys, n × n), got shape {0}");
  EXPECT_STREQ(from_json(R"({"attention": [[1,0],[0,1]], "tokens": ["a"]})", &w).code, "tokens has {0} entries, but n = {1}");
  EXPECT_STREQ(from_json(R"({"attention": [[1,0],[0,1]], "tokens": [1, 2]})", &w).code, "tokens must be an array of strings");
  EXPECT_STREQ(from_json(R"({"attention": [[1,0],[0,1]], "model": "x"})", &w).code, "unknown field '{0}'");
  // tokens alone label a .npy opened with them (read_import_file); as a whole file of weights they are refused
  EXPECT_STREQ(from_json(R"({"tokens": ["a"]})", &w).code, "this file holds only tokens: open it with the weights (or after them)");
  EXPECT_STREQ(from_json(R"({"model": "x"})", &w).code, "unknown field '{0}'");
  EXPECT_STREQ(from_json("42", &w).code, "the JSON must be nested arrays of numbers or an object with \"attention\" (and \"tokens\")");
  EXPECT_STREQ(from_json("[]", &w).code, "{0} is empty");
  EXPECT_STREQ(from_json("[[[[[1]]]]]", &w).code, "{0} has more than 4 dimensions");
  EXPECT_STREQ(from_json(std::string(40, '[') + std::string(40, ']'), &w).code, "the JSON is nested {0} levels deep; the limit is {1}");
}

TEST(AppArrayIo, AttentionFileDispatchesOnMagicAndRoundTripsThroughJson) {
  NdArray a;
  a.shape = {1, 2, 3, 3};
  a.data = iota(18);
  AttentionWeights w;
  ASSERT_TRUE(read_attention_file("attn.npy", write_npy(a), &w).ok);
  EXPECT_EQ(w.heads, 2);
  // The JSON the scene's document carries reads back to the same weights.
  const std::string text = nlohmann::json({{"attention", attention_weights_json(w)}}).dump();
  AttentionWeights back;
  ASSERT_TRUE(read_attention_file("attn.json", std::vector<unsigned char>(text.begin(), text.end()), &back).ok);
  ASSERT_EQ(back.maps.size(), w.maps.size());
  for (size_t k = 0; k < w.maps.size(); ++k) EXPECT_EQ(back.maps[k], w.maps[k]);
  // A name ending in .npy without the magic is refused as .npy, not parsed as JSON.
  const std::string js = "[[1]]";
  EXPECT_STREQ(read_attention_file("x.npy", std::vector<unsigned char>(js.begin(), js.end()), &w).code,
               "not a .npy file: it does not start with the magic string \\x93NUMPY");
}

// ---- import defects (issue "Hardening") -----------------------------------------------------------------------

TEST(AppArrayIo, AttentionJsonWithBothAttentionAndWeightsIsRefused) {
  AttentionWeights w;
  const Status s = from_json(R"({"attention": [[1,0],[0,1]], "weights": [[0,1],[1,0]]})", &w);
  EXPECT_FALSE(s.ok);
  EXPECT_STREQ(s.ok ? "ok" : s.code, "the JSON gives both \"attention\" and \"weights\"; keep one of them");
}

TEST(AppArrayIo, AttentionJsonWithANulByteIsRefused) {
  AttentionWeights w;
  const std::string good = "[[1,0],[0,1]]";
  ASSERT_TRUE(from_json(good, &w).ok);
  for (const std::string& bad : {good + std::string(1, '\0'), std::string("[[1,0],[0,1]\0]", 14), std::string(1, '\0') + good}) {
    const Status s = from_json(bad, &w);
    EXPECT_FALSE(s.ok) << bad.size();
    EXPECT_STREQ(s.ok ? "ok" : s.code, "the file has a NUL byte at offset {0}: a JSON file is text");
  }
  EXPECT_EQ(from_json(good + std::string(1, '\0'), &w).message, "the file has a NUL byte at offset 13: a JSON file is text");
  // The same through the file reader (the import's way in).
  const std::string text = good + std::string(1, '\0');
  EXPECT_FALSE(read_attention_file("a.json", std::vector<unsigned char>(text.begin(), text.end()), &w).ok);
}

// A version 3 header length of 0xFFFFFFFF: 12 + 0xFFFFFFFF wrapped to 11 in wasm32's size_t ("its header needs
// 11"); the message gives the real number.
TEST(AppArrayIo, NpyHugeHeaderLengthIsReportedInFull) {
  std::vector<unsigned char> f = {0x93, 'N', 'U', 'M', 'P', 'Y', 3, 0, 0xFF, 0xFF, 0xFF, 0xFF};
  f.resize(64, ' ');
  NdArray a;
  const Status s = read_npy(f.data(), f.size(), &a);
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.message, "the .npy file is truncated: 64 bytes, its header needs 4294967307");
}

// 1e308 is finite: the reason is that float32 cannot hold it (and the import's limit is ±1e6).
TEST(AppArrayIo, ValuesBeyondFloatAreOutOfRangeNotInfinite) {
  AttentionWeights w;
  Status s = from_json("[[1e308, 0], [0, 1]]", &w);
  EXPECT_STREQ(s.ok ? "ok" : s.code, "value {0} (flat index {1}) is out of range: beyond float32 (±3.4e38); the limit is ±1e6");
  EXPECT_NE(s.message.find("flat index 0"), std::string::npos) << s.message;
  s = from_json("[[1, 0], [0, -4e38]]", &w);
  EXPECT_NE(s.message.find("flat index 3"), std::string::npos) << s.message;
  // Within float but past the limit: too large (attention_from_array's message).
  EXPECT_STREQ(from_json("[[1e30, 0], [0, 1]]", &w).code, "value {0} is too large; the limit is ±1e6");
  // The same in a float64 .npy file.
  const auto f = npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", raw(std::vector<double>{0.5, 1e308, 1, 0}));
  EXPECT_EQ(refusal(f), "value {0} (flat index {1}) is out of range: beyond float32 (±3.4e38); the limit is ±1e6");
  // A real infinity is still not a finite number.
  std::vector<float> inf = iota(4);
  inf[2] = INFINITY;
  EXPECT_EQ(refusal(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", raw(inf))),
            "value {0} (flat index {1}) is not a finite number");
}

// The quoted start of a file that does not parse is cut between characters: never half of one (shown as U+FFFD).
TEST(AppArrayIo, QuotedFileStartIsCutAtACharacterBoundary) {
  AttentionWeights w;
  for (size_t ascii = 36; ascii <= 40; ++ascii) {
    const std::string text = std::string(ascii, 'x') + "注意力权重" + "]";
    const Status s = from_json(text, &w);
    ASSERT_STREQ(s.ok ? "ok" : s.code, "the JSON does not parse: {0}");
    EXPECT_TRUE(utf8_valid(s.message)) << ascii << ": " << s.message;
    EXPECT_TRUE(utf8_valid(localize(s))) << ascii;
    EXPECT_EQ(s.message.find("\xEF\xBF\xBD"), std::string::npos) << ascii;
  }
  // Bytes that are not UTF-8 at all are shown as '?', and control characters as spaces.
  const Status s = from_json(std::string("\xff\xfe[\n", 4), &w);
  EXPECT_EQ(s.message, "the JSON does not parse: ??[ ");
}

// A JSON file is counted before it is parsed: 5 million zeros are 10 MB of text but 80 MB parsed.
TEST(AppArrayIo, AttentionJsonWithTooManyValuesIsRefusedBeforeItIsParsed) {
  std::string text = "[";
  for (long long i = 0; i < io_limits::kMaxValues + 1000; ++i) text += "0,";
  text += "0]";
  AttentionWeights w;
  EXPECT_STREQ(from_json(text, &w).code, "the JSON has more than {0} values; the limit is {1}");
  // Commas inside strings are not values.
  EXPECT_TRUE(from_json(R"({"attention": [[1]], "tokens": [",,,,"]})", &w).ok);
}

TEST(AppArrayIo, CsvQuotesLabelsAndKeepsPrecision) {
  Mat m(2, 2);
  m << 0.123456789f, -1.f, -INFINITY, 2.5f;
  EXPECT_EQ(matrix_csv(m, nullptr, nullptr), "0.123456791,-1\r\n-inf,2.5\r\n");
  const std::vector<std::string> rows = {"a,b", "say \"hi\""}, cols = {"x", "y\nz"};
  EXPECT_EQ(matrix_csv(m, &rows, &cols), ",x,\"y\nz\"\r\n\"a,b\",0.123456791,-1\r\n\"say \"\"hi\"\"\",-inf,2.5\r\n");
}

TEST(AppArrayIo, LatexBmatrix) {
  Mat m(2, 2);
  m << 0.5f, 0.25f, -INFINITY, 1.f;
  EXPECT_EQ(matrix_latex(m, 2), "\\begin{bmatrix}\n0.50 & 0.25 \\\\\n-\\infty & 1.00\n\\end{bmatrix}\n");
  EXPECT_EQ(matrix_latex(m, 0), "\\begin{bmatrix}\n0 & 0 \\\\\n-\\infty & 1\n\\end{bmatrix}\n");
}

// Well-formed XML, checked by a small tag matcher: every < … > is a start, end or self-closing tag, and they
// nest; text has no raw '<' or '&' outside entities.
bool well_formed(const std::string& x, std::string* why) {
  std::vector<std::string> open;
  size_t i = 0;
  while (i < x.size()) {
    if (x[i] == '&') {
      const size_t semi = x.find(';', i);
      const std::string ent = x.substr(i, semi == std::string::npos ? 0 : semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;") { *why = "entity at " + std::to_string(i); return false; }
      i = semi + 1;
      continue;
    }
    if (x[i] != '<') { ++i; continue; }
    const size_t end = x.find('>', i);
    if (end == std::string::npos) { *why = "unclosed tag"; return false; }
    std::string tag = x.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) { *why = "'<' inside a tag at " + std::to_string(i); return false; }
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) { *why = "mismatched </" + tag + ">"; return false; }
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find(' ')));
    }
    i = end + 1;
  }
  if (!open.empty()) { *why = "<" + open.back() + "> never closed"; return false; }
  return true;
}

uint32_t grey(float t) {
  const uint32_t g = static_cast<uint32_t>(255 * (1 - t));
  return 0xFF000000u | g << 16 | g << 8 | g;
}

TEST(AppArrayIo, SvgHeatmapIsWellFormedWithEscapedLabels) {
  Mat m(2, 3);
  m << 0.f, 0.5f, 1.f, 0.25f, -INFINITY, 0.75f;
  const std::vector<std::string> rows = {"<b>", "a & b"}, cols = {"\"q\"", "it's", "猫"};
  const std::string svg = matrix_svg(m, &rows, &cols, "weights <A>", 0.f, 1.f, grey, 2);
  std::string why;
  EXPECT_TRUE(well_formed(svg, &why)) << why;
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("&lt;b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("a &amp; b"), std::string::npos);
  EXPECT_NE(svg.find("weights &lt;A&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">0.50<"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#000000\""), std::string::npos);  // t = 1: black in the grey scale
  size_t rects = 0;
  for (size_t at = 0; (at = svg.find("<rect x=", at)) != std::string::npos; ++at) ++rects;
  EXPECT_EQ(rects, 6u);
  const std::string bare = matrix_svg(m, nullptr, nullptr, "", 0.f, 1.f, grey, -1);  // no numbers
  EXPECT_TRUE(well_formed(bare, &why)) << why;
  EXPECT_EQ(bare.find(">0.50<"), std::string::npos);
}

}  // namespace
}  // namespace ap
