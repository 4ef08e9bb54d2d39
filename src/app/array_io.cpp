// Arrays in and out (see array_io.h): a NumPy .npy reader and writer, attention weights from JSON, and one
// matrix as CSV, LaTeX and SVG. Every refusal is a Status error whose template has a Chinese translation in
// kIoStrings below (registered by the import scene).
#include "app/array_io.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/i18n.h"
#include "app/json_fields.h"
#include "core/utf8.h"

namespace ap {

using nlohmann::json;

const TrPair kIoStrings[] = {
    {"the file is empty", "文件是空的"},
    {"the file has {0} bytes; the limit is {1}", "文件有 {0} 字节；上限是 {1}"},
    {"not a .npy file: it does not start with the magic string \\x93NUMPY", "不是 .npy 文件：开头没有魔数 \\x93NUMPY"},
    {"the .npy file is truncated: {0} bytes, its header needs {1}", ".npy 文件被截断了：只有 {0} 字节，头部需要 {1}"},
    {".npy format version {0}.{1} is not supported (1.0, 2.0 and 3.0 are)", "不支持 .npy 格式版本 {0}.{1}（支持 1.0、2.0、3.0）"},
    {"the .npy header is not the dictionary NumPy writes: {0}", ".npy 头部不是 NumPy 写出的字典：{0}"},
    {"the .npy array is in Fortran order; save it in C order (np.ascontiguousarray)", ".npy 数组是 Fortran 顺序；请以 C 顺序保存（np.ascontiguousarray）"},
    {"the .npy dtype {0} is big-endian; save it little-endian (a.astype('<f4'))", ".npy 的 dtype {0} 是大端序；请以小端序保存（a.astype('<f4')）"},
    {"the .npy dtype {0} is not supported (float32, float64, float16, int32, int64 are)", "不支持 .npy 的 dtype {0}（支持 float32、float64、float16、int32、int64）"},
    {"the array has {0} values; the limit is {1}", "数组有 {0} 个值；上限是 {1}"},
    {"the .npy file is truncated: its data has {0} bytes, its shape {1} needs {2}", ".npy 文件被截断了：数据只有 {0} 字节，而形状 {1} 需要 {2} 字节"},
    {"the .npy data has {0} bytes, more than its shape {1} needs ({2})", ".npy 数据有 {0} 字节，多于形状 {1} 所需的 {2} 字节"},
    {"value {0} (flat index {1}) is not a finite number", "第 {1} 个值（按扁平下标）{0} 不是有限数"},
    {"attention weights must have 2, 3 or 4 dimensions ([n, n], [heads, n, n] or [layers, heads, n, n]), got shape {0}",
     "注意力权重必须是 2、3 或 4 维（[n, n]、[heads, n, n] 或 [layers, heads, n, n]），收到的形状是 {0}"},
    {"the last two sizes must be equal (queries × keys, n × n), got shape {0}", "最后两维必须相等（query × key，n × n），收到的形状是 {0}"},
    {"value {0} is too large; the limit is ±1e6", "数值 {0} 太大；上限是 ±1e6"},
    {"the JSON does not parse: {0}", "JSON 无法解析：{0}"},
    {"the JSON is nested {0} levels deep; the limit is {1}", "JSON 嵌套了 {0} 层；上限是 {1}"},
    {"the JSON must be nested arrays of numbers or an object with \"attention\" (and \"tokens\")",
     "JSON 必须是嵌套的数字数组，或带有 \"attention\"（以及 \"tokens\"）的对象"},
    {"{0} must be an array", "{0} 必须是数组"},
    {"{0} has {1} entries where {2} are expected: the array is ragged", "{0} 有 {1} 项，应为 {2} 项：数组参差不齐"},
    {"{0} has more than 4 dimensions", "{0} 超过 4 维"},
    {"tokens has {0} entries, but n = {1}", "tokens 有 {0} 项，而 n = {1}"},
    {"tokens must be an array of strings", "tokens 必须是字符串数组"},
    {"tokens has {0} entries; the limit is {1}", "tokens 有 {0} 项，上限是 {1}"},
    {"this file holds only tokens: open it with the weights (or after them)", "这个文件只有 tokens：请与权重文件一起打开（或在其后打开）"},
    {"value {0} (flat index {1}) is out of range: beyond float32 (±3.4e38); the limit is ±1e6",
     "第 {1} 个值（按扁平下标）{0} 超出范围：超过 float32 的范围（±3.4e38）；上限是 ±1e6"},
    {"the JSON gives both \"attention\" and \"weights\"; keep one of them", "JSON 同时给出了 \"attention\" 和 \"weights\"；请只保留其中一个"},
    {"the file has a NUL byte at offset {0}: a JSON file is text", "文件在偏移 {0} 处有一个 NUL 字节：JSON 文件应当是文本"},
    {"the JSON has more than {0} values; the limit is {1}", "JSON 中的数值超过 {0} 个；上限是 {1}"},
};

const TrPair* array_io_translations(size_t* count) {
  *count = sizeof kIoStrings / sizeof kIoStrings[0];
  return kIoStrings;
}

std::string shape_text(const std::vector<long long>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

namespace {

// The number of values of `shape`, or -1 when it passes io_limits::kMaxValues (no overflow on the way).
long long value_count(const std::vector<long long>& shape) {
  long long n = 1;
  for (long long d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > io_limits::kMaxValues / d) return -1;
    n *= d;
  }
  return n;
}

uint32_t le32(const unsigned char* p) { return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24); }

float half_to_float(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(man), -24);
  else if (exp == 31) v = man ? NAN : INFINITY;
  else v = std::ldexp(static_cast<float>(man | 0x400), exp - 25);
  return sign ? -v : v;
}

// ---- the .npy header: a Python dict literal, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 5, 5), }
struct NpyHeader {
  std::string descr;
  bool fortran = false;
  std::vector<long long> shape;
  bool has_descr = false, has_order = false, has_shape = false;
};

struct HeaderParser {
  const std::string& s;
  size_t at = 0;
  void space() { while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')) ++at; }
  bool eat(char c) { space(); if (at < s.size() && s[at] == c) { ++at; return true; } return false; }
  bool quoted(std::string* out) {
    space();
    if (at >= s.size() || (s[at] != '\'' && s[at] != '"')) return false;
    const char q = s[at++];
    const size_t end = s.find(q, at);
    if (end == std::string::npos) return false;
    *out = s.substr(at, end - at);
    at = end + 1;
    return true;
  }
  bool word(const char* w) {
    space();
    const size_t n = std::strlen(w);
    if (s.compare(at, n, w) != 0) return false;
    at += n;
    return true;
  }
  bool integer(long long* out) {
    space();
    size_t start = at;
    long long v = 0;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
      if (v > 1000000000000LL) return false;
      v = v * 10 + (s[at++] - '0');
    }
    if (at < s.size() && s[at] == 'L') ++at;  // Python 2's long
    *out = v;
    return at > start;
  }
  bool tuple(std::vector<long long>* out) {
    if (!eat('(')) return false;
    out->clear();
    if (eat(')')) return true;
    for (;;) {
      long long v;
      if (!integer(&v)) return false;
      out->push_back(v);
      if (out->size() > 8) return false;
      if (eat(')')) return true;
      if (!eat(',')) return false;
      if (eat(')')) return true;  // (5,)
    }
  }
  bool dict(NpyHeader* h) {
    if (!eat('{')) return false;
    for (;;) {
      if (eat('}')) return true;
      std::string key;
      if (!quoted(&key) || !eat(':')) return false;
      if (key == "descr") { if (!quoted(&h->descr)) return false; h->has_descr = true; }
      else if (key == "fortran_order") {
        if (word("True")) h->fortran = true;
        else if (word("False")) h->fortran = false;
        else return false;
        h->has_order = true;
      } else if (key == "shape") { if (!tuple(&h->shape)) return false; h->has_shape = true; }
      else return false;
      if (eat('}')) return true;
      if (!eat(',')) return false;
    }
  }
};

Status bad_header(const std::string& header) {
  std::string shown = header.substr(0, 80);
  for (char& c : shown) if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
  return Status::Error("the .npy header is not the dictionary NumPy writes: {0}", {shown});
}

// A finite value that float32 cannot hold (every array is kept as float32).
Status beyond_float(double d, long long flat_index) {
  return Status::Error("value {0} (flat index {1}) is out of range: beyond float32 (±3.4e38); the limit is ±1e6",
                       {format_number(d), arg(flat_index)});
}

Status check_finite(const std::vector<float>& v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) return Status::Error("value {0} (flat index {1}) is not a finite number", {format_number(v[i]), arg(static_cast<long long>(i))});
  return Status::Ok();
}

}  // namespace

// 1. magic and version, 2. header length and header dict, 3. dtype and order, 4. size against the limit and the
// bytes present, 5. values converted to float and checked finite.
Status read_npy(const unsigned char* b, size_t size, NdArray* out) {
  if (size == 0) return Status::Error("the file is empty");
  if (size > io_limits::kMaxFileBytes)
    return Status::Error("the file has {0} bytes; the limit is {1}", {arg(static_cast<long long>(size)), arg(static_cast<long long>(io_limits::kMaxFileBytes))});
  static const unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (size < 6 || std::memcmp(b, kMagic, 6) != 0) return Status::Error("not a .npy file: it does not start with the magic string \\x93NUMPY");
  if (size < 10) return Status::Error("the .npy file is truncated: {0} bytes, its header needs {1}", {arg(static_cast<long long>(size)), "10"});
  const int major = b[6], minor = b[7];
  if (major < 1 || major > 3 || minor != 0)
    return Status::Error(".npy format version {0}.{1} is not supported (1.0, 2.0 and 3.0 are)", {arg(major), arg(minor)});
  // 64-bit sizes: a version 2/3 header length is a uint32, and prefix + 0xFFFFFFFF wraps a 32-bit size_t
  // (wasm32) to 11, which the message then called what the header needs.
  const uint64_t file_bytes = size;
  uint64_t prefix = 10, header_len = static_cast<uint64_t>(b[8] | (b[9] << 8));
  if (major >= 2) {
    if (size < 12) return Status::Error("the .npy file is truncated: {0} bytes, its header needs {1}", {arg(static_cast<long long>(size)), "12"});
    prefix = 12;
    header_len = le32(b + 8);
  }
  if (header_len > file_bytes - prefix)
    return Status::Error("the .npy file is truncated: {0} bytes, its header needs {1}",
                         {arg(static_cast<long long>(size)), arg(static_cast<long long>(prefix + header_len))});
  const std::string header(reinterpret_cast<const char*>(b + prefix), static_cast<size_t>(header_len));
  NpyHeader h;
  HeaderParser parser{header};
  if (!parser.dict(&h) || !h.has_descr || !h.has_order || !h.has_shape) return bad_header(header);
  parser.space();
  if (parser.at != header.size()) return bad_header(header);
  if (h.fortran) return Status::Error("the .npy array is in Fortran order; save it in C order (np.ascontiguousarray)");
  const std::string& d = h.descr;
  if (d.size() >= 2 && d[0] == '>' && d[1] != '?') return Status::Error("the .npy dtype {0} is big-endian; save it little-endian (a.astype('<f4'))", {d});
  const std::string kind = d.size() >= 1 && (d[0] == '<' || d[0] == '=' || d[0] == '|') ? d.substr(1) : d;
  int item = 0;
  if (kind == "f4" || kind == "i4") item = 4;
  else if (kind == "f8" || kind == "i8") item = 8;
  else if (kind == "f2") item = 2;
  else return Status::Error("the .npy dtype {0} is not supported (float32, float64, float16, int32, int64 are)", {d});
  const long long count = value_count(h.shape);
  if (count < 0) {
    // The count itself may not fit: say the shape.
    return Status::Error("the array has {0} values; the limit is {1}", {shape_text(h.shape), arg(io_limits::kMaxValues)});
  }
  const uint64_t data_bytes = file_bytes - prefix - header_len;
  const uint64_t need = static_cast<uint64_t>(count) * static_cast<uint64_t>(item);  // count <= kMaxValues
  if (data_bytes < need)
    return Status::Error("the .npy file is truncated: its data has {0} bytes, its shape {1} needs {2}",
                         {arg(static_cast<long long>(data_bytes)), shape_text(h.shape), arg(static_cast<long long>(need))});
  if (data_bytes > need)
    return Status::Error("the .npy data has {0} bytes, more than its shape {1} needs ({2})",
                         {arg(static_cast<long long>(data_bytes)), shape_text(h.shape), arg(static_cast<long long>(need))});
  NdArray a;
  a.shape = h.shape;
  a.data.resize(static_cast<size_t>(count));
  const unsigned char* p = b + static_cast<size_t>(prefix + header_len);
  for (long long i = 0; i < count; ++i, p += item) {
    float v = 0;
    if (kind == "f4") { uint32_t u = le32(p); std::memcpy(&v, &u, 4); }
    else if (kind == "f8") {
      uint64_t u = le32(p) | (static_cast<uint64_t>(le32(p + 4)) << 32);
      double x;
      std::memcpy(&x, &u, 8);
      // Finite but past float32 (1e308): say so, rather than "not a finite number" for the infinity it would become.
      if (std::isfinite(x) && std::fabs(x) > FLT_MAX) return beyond_float(x, i);
      v = static_cast<float>(x);
    }
    else if (kind == "f2") v = half_to_float(static_cast<uint16_t>(p[0] | (p[1] << 8)));
    else if (kind == "i4") v = static_cast<float>(static_cast<int32_t>(le32(p)));
    else { uint64_t u = le32(p) | (static_cast<uint64_t>(le32(p + 4)) << 32); v = static_cast<float>(static_cast<int64_t>(u)); }
    a.data[static_cast<size_t>(i)] = v;
  }
  AP_TRY(check_finite(a.data));
  *out = std::move(a);
  return Status::Ok();
}

// Version 1.0: magic, 1, 0, header length (little-endian uint16), the dict padded with spaces and ending in '\n'
// so that the data starts at a multiple of 64 bytes, then the float32 values.
std::vector<unsigned char> write_npy(const NdArray& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + (a.shape.size() == 1 ? "," : i + 1 < a.shape.size() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<unsigned char> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(header.size() & 0xFF),
                                    static_cast<unsigned char>(header.size() >> 8)};
  out.insert(out.end(), header.begin(), header.end());
  for (float v : a.data) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<unsigned char>(u >> (8 * k)));
  }
  return out;
}

std::vector<unsigned char> write_npy(const Mat& m) {
  NdArray a;
  a.shape = {m.rows(), m.cols()};
  a.data.assign(m.data(), m.data() + m.size());  // row-major already
  return write_npy(a);
}

// ---- attention weights ----

Status attention_from_array(const NdArray& a, AttentionWeights* out) {
  const size_t r = a.shape.size();
  if (r < 2 || r > 4)
    return Status::Error("attention weights must have 2, 3 or 4 dimensions ([n, n], [heads, n, n] or [layers, heads, n, n]), got shape {0}",
                         {shape_text(a.shape)});
  const long long n = a.shape[r - 1];
  if (a.shape[r - 2] != n) return Status::Error("the last two sizes must be equal (queries × keys, n × n), got shape {0}", {shape_text(a.shape)});
  const long long heads = r >= 3 ? a.shape[r - 3] : 1, layers = r == 4 ? a.shape[0] : 1;
  if (n < 1 || n > io_limits::kMaxTokens) return Status::Error("{0} must be between 1 and {1}, got {2}", {"n", arg(io_limits::kMaxTokens), arg(n)});
  if (heads < 1 || heads > io_limits::kMaxHeads)
    return Status::Error("{0} must be between 1 and {1}, got {2}", {"heads", arg(io_limits::kMaxHeads), arg(heads)});
  if (layers < 1 || layers > io_limits::kMaxLayers)
    return Status::Error("{0} must be between 1 and {1}, got {2}", {"layers", arg(io_limits::kMaxLayers), arg(layers)});
  if (a.data.size() != static_cast<size_t>(layers * heads * n * n))
    return Status::Error("the array has {0} values; the limit is {1}", {arg(static_cast<long long>(a.data.size())), arg(io_limits::kMaxValues)});
  AP_TRY(check_finite(a.data));
  for (float v : a.data)
    if (std::fabs(v) > limits::kMaxAbsValue) return Status::Error("value {0} is too large; the limit is ±1e6", {format_number(v)});
  AttentionWeights w;
  w.layers = static_cast<int>(layers);
  w.heads = static_cast<int>(heads);
  w.n = static_cast<int>(n);
  const size_t nn = static_cast<size_t>(n * n);
  for (long long k = 0; k < layers * heads; ++k) {
    Mat m(n, n);
    std::copy(a.data.begin() + static_cast<long>(k * static_cast<long long>(nn)), a.data.begin() + static_cast<long>((k + 1) * static_cast<long long>(nn)), m.data());
    w.maps.push_back(std::move(m));
  }
  *out = std::move(w);
  return Status::Ok();
}

namespace {
// Walks the first elements down to a number: the shape the whole array must have.
Status json_shape(const json& v, const char* name, std::vector<long long>* shape) {
  const json* at = &v;
  std::string path = name;
  while (at->is_array()) {
    if (at->empty()) return Status::Error("{0} is empty", {path});
    if (shape->size() >= 4) return Status::Error("{0} has more than 4 dimensions", {name});
    shape->push_back(static_cast<long long>(at->size()));
    at = &(*at)[0];
    path += "[0]";
  }
  if (shape->empty()) return Status::Error("{0} must be an array", {name});
  return Status::Ok();
}

// Commas outside strings, plus one: at least the number of values an array in `text` can hold.
uint64_t json_separators(const char* text, size_t size) {
  uint64_t n = 1;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') in_string = true;
    else if (c == ',') ++n;
  }
  return n;
}

// The start of a file quoted in a message: at most `max` bytes, cut between characters (utf8_prefix) so that
// the quote never ends in half a character (shown as U+FFFD); control characters become spaces and bytes that
// are not UTF-8 '?'.
constexpr size_t kQuotedStartBytes = 40;
std::string text_start(const char* text, size_t size, size_t max) {
  std::string s;
  for (size_t i = 0; i < size && s.size() <= max + 4;) {
    uint32_t cp = 0;
    const int len = utf8_decode(text, size, i, &cp);
    if (len == 0) { s += '?'; ++i; continue; }
    if (cp < 32 || cp == 127) s += ' ';
    else s.append(text + i, static_cast<size_t>(len));
    i += static_cast<size_t>(len);
  }
  const std::string cut = utf8_prefix(s, max);
  return cut.size() < s.size() ? cut + "…" : cut;
}

Status json_fill(const json& v, const std::vector<long long>& shape, size_t depth, std::string& path, std::vector<float>& out) {
  if (depth == shape.size()) {
    if (!v.is_number()) return Status::Error("{0} is not a number: {1}", {path, quote_json(v)});
    const double d = v.get<double>();
    if (!std::isfinite(d)) return Status::Error("value {0} (flat index {1}) is not a finite number", {format_number(d), arg(static_cast<long long>(out.size()))});
    if (std::fabs(d) > FLT_MAX) return beyond_float(d, static_cast<long long>(out.size()));
    out.push_back(static_cast<float>(d));
    return Status::Ok();
  }
  if (!v.is_array() || v.size() != static_cast<size_t>(shape[depth]))
    return Status::Error("{0} has {1} entries where {2} are expected: the array is ragged",
                         {path, v.is_array() ? arg(static_cast<long long>(v.size())) : std::string("0"), arg(shape[depth])});
  const size_t len = path.size();
  for (size_t i = 0; i < v.size(); ++i) {
    path += "[" + std::to_string(i) + "]";
    AP_TRY(json_fill(v[i], shape, depth + 1, path, out));
    path.resize(len);
  }
  return Status::Ok();
}
}  // namespace

Status array_from_json(const json& v, const char* name, NdArray* out) {
  NdArray a;
  AP_TRY(json_shape(v, name, &a.shape));
  const long long count = value_count(a.shape);
  if (count < 0) return Status::Error("the array has {0} values; the limit is {1}", {shape_text(a.shape), arg(io_limits::kMaxValues)});
  a.data.reserve(static_cast<size_t>(count));
  std::string path = name;
  AP_TRY(json_fill(v, a.shape, 0, path, a.data));
  *out = std::move(a);
  return Status::Ok();
}

namespace {
Status read_token_array(const json& t, std::vector<std::string>* tokens) {
  if (!t.is_array()) return Status::Error("tokens must be an array of strings");
  if (t.size() > static_cast<size_t>(io_limits::kMaxTokens))
    return Status::Error("tokens has {0} entries; the limit is {1}", {arg(static_cast<long long>(t.size())), arg(io_limits::kMaxTokens)});
  for (const auto& e : t) {
    if (!e.is_string()) return Status::Error("tokens must be an array of strings");
    tokens->push_back(e.get<std::string>());
  }
  return Status::Ok();
}

// Both JSON forms: weights (with or without tokens), or {"tokens": [...]} alone (*tokens_only, out->tokens
// and out->n set, no maps).
Status read_json_file(const char* text, size_t size, AttentionWeights* out, bool* tokens_only) {
  *tokens_only = false;
  if (size == 0) return Status::Error("the file is empty");
  if (size > io_limits::kMaxFileBytes)
    return Status::Error("the file has {0} bytes; the limit is {1}", {arg(static_cast<long long>(size)), arg(static_cast<long long>(io_limits::kMaxFileBytes))});
  // The parser takes a NUL byte for the end of the text and accepted "[[1]]\0" (a file saved with a C string's
  // terminator, or not text at all); JSON text never holds one, not even inside a string.
  if (const void* nul = std::memchr(text, '\0', size))
    return Status::Error("the file has a NUL byte at offset {0}: a JSON file is text",
                         {arg(static_cast<long long>(static_cast<const char*>(nul) - text))});
  const int depth = json_nesting_depth(text, size);
  if (depth > kMaxJsonDepth) return Status::Error("the JSON is nested {0} levels deep; the limit is {1}", {arg(depth), arg(kMaxJsonDepth)});
  // The parsed document costs about 16 bytes a value (far more than its text: "0," is two): 64 MiB of zeros
  // would be 512 MiB in wasm's heap. Values are counted by their separators first, before anything is built.
  const uint64_t most_values = static_cast<uint64_t>(io_limits::kMaxValues) + io_limits::kMaxTokens + 16;
  if (json_separators(text, size) > most_values)
    return Status::Error("the JSON has more than {0} values; the limit is {1}", {arg(static_cast<long long>(most_values)), arg(io_limits::kMaxValues)});
  const json doc = json::parse(text, text + size, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    // Say where: the parser's own message needs exceptions, so find the first bad byte by re-parsing prefixes
    // is too costly; give the first characters instead.
    return Status::Error("the JSON does not parse: {0}", {text_start(text, size, kQuotedStartBytes)});
  }
  const json* weights = &doc;
  std::vector<std::string> tokens;
  if (doc.is_object()) {
    AP_TRY(check_known_fields(doc, {"attention", "weights", "tokens"}));
    auto it = doc.find("attention");
    if (it != doc.end() && doc.contains("weights"))  // two arrays: which one was meant cannot be guessed
      return Status::Error("the JSON gives both \"attention\" and \"weights\"; keep one of them");
    if (it == doc.end()) it = doc.find("weights");
    const auto t = doc.find("tokens");
    if (t != doc.end()) AP_TRY(read_token_array(*t, &tokens));
    if (it == doc.end() && t != doc.end()) {  // the labels of weights saved elsewhere (a .npy holds none)
      AttentionWeights w;
      w.n = static_cast<int>(tokens.size());
      w.tokens = std::move(tokens);
      *out = std::move(w);
      *tokens_only = true;
      return Status::Ok();
    }
    if (it == doc.end()) return Status::Error("the JSON must be nested arrays of numbers or an object with \"attention\" (and \"tokens\")");
    weights = &*it;
  } else if (!doc.is_array()) {
    return Status::Error("the JSON must be nested arrays of numbers or an object with \"attention\" (and \"tokens\")");
  }
  NdArray a;
  AP_TRY(array_from_json(*weights, "attention", &a));
  AttentionWeights w;
  AP_TRY(attention_from_array(a, &w));
  if (!tokens.empty() && static_cast<int>(tokens.size()) != w.n)
    return Status::Error("tokens has {0} entries, but n = {1}", {arg(static_cast<long long>(tokens.size())), arg(w.n)});
  w.tokens = std::move(tokens);
  *out = std::move(w);
  return Status::Ok();
}
}  // namespace

Status read_attention_json(const char* text, size_t size, AttentionWeights* out) {
  AttentionWeights w;
  bool tokens_only = false;
  AP_TRY(read_json_file(text, size, &w, &tokens_only));
  if (tokens_only) return Status::Error("this file holds only tokens: open it with the weights (or after them)");
  *out = std::move(w);
  return Status::Ok();
}

Status read_import_file(const std::string& name, const std::vector<unsigned char>& bytes, AttentionWeights* out,
                        bool* tokens_only) {
  *tokens_only = false;
  if (bytes.empty()) return Status::Error("the file is empty");
  if (bytes.size() > io_limits::kMaxFileBytes)
    return Status::Error("the file has {0} bytes; the limit is {1}", {arg(static_cast<long long>(bytes.size())), arg(static_cast<long long>(io_limits::kMaxFileBytes))});
  const bool npy_name = name.size() >= 4 && name.compare(name.size() - 4, 4, ".npy") == 0;
  if (npy_name || bytes[0] == 0x93) {
    NdArray a;
    AP_TRY(read_npy(bytes.data(), bytes.size(), &a));
    return attention_from_array(a, out);
  }
  AttentionWeights w;
  AP_TRY(read_json_file(reinterpret_cast<const char*>(bytes.data()), bytes.size(), &w, tokens_only));
  *out = std::move(w);
  return Status::Ok();
}

Status read_attention_file(const std::string& name, const std::vector<unsigned char>& bytes, AttentionWeights* out) {
  AttentionWeights w;
  bool tokens_only = false;
  AP_TRY(read_import_file(name, bytes, &w, &tokens_only));
  if (tokens_only) return Status::Error("this file holds only tokens: open it with the weights (or after them)");
  *out = std::move(w);
  return Status::Ok();
}

json attention_weights_json(const AttentionWeights& w) {
  json layers = json::array();
  for (int l = 0; l < w.layers; ++l) {
    json heads = json::array();
    for (int h = 0; h < w.heads; ++h) heads.push_back(matrix_json(w.at(l, h)));
    layers.push_back(std::move(heads));
  }
  return layers;
}

// ---- one matrix out ----

namespace {
std::string number_9g(float v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 32 && c != '\t' && c != '\n') o += ' ';  // not allowed in XML 1.0
        else o += c;
    }
  }
  return o;
}
std::string label_at(const std::vector<std::string>* v, Eigen::Index i) {
  return v && static_cast<size_t>(i) < v->size() ? (*v)[static_cast<size_t>(i)] : std::to_string(i + 1);
}
}  // namespace

std::string matrix_csv(const Mat& m, const std::vector<std::string>* rows, const std::vector<std::string>* cols) {
  std::string s;
  const bool labels = rows || cols;
  if (labels) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) s += "," + csv_field(label_at(cols, j));
    s += "\r\n";
  }
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    if (labels) s += csv_field(label_at(rows, i)) + ",";
    for (Eigen::Index j = 0; j < m.cols(); ++j) s += (j ? "," : "") + number_9g(m(i, j));
    s += "\r\n";
  }
  return s;
}

std::string matrix_latex(const Mat& m, int decimals) {
  decimals = std::clamp(decimals, 0, 9);
  std::string s = "\\begin{bmatrix}\n";
  char buf[48];
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const float v = m(i, j);
      if (std::isinf(v)) std::snprintf(buf, sizeof buf, "%s\\infty", v < 0 ? "-" : "");
      else std::snprintf(buf, sizeof buf, "%.*f", decimals, static_cast<double>(v));
      s += std::string(j ? " & " : "") + buf;
    }
    s += i + 1 < m.rows() ? " \\\\\n" : "\n";
  }
  return s + "\\end{bmatrix}\n";
}

// Layout: title row, column labels, then the grid with row labels on the left; cells `cell` px square.
std::string matrix_svg(const Mat& m, const std::vector<std::string>* rows, const std::vector<std::string>* cols, const std::string& title,
                       float lo, float hi, ColorFn color, int decimals) {
  const int R = static_cast<int>(m.rows()), C = static_cast<int>(m.cols());
  const float cell = decimals >= 0 ? 44.f : 16.f, font = 12.f;
  size_t longest = 2;
  for (int i = 0; i < R; ++i) longest = std::max(longest, label_at(rows, i).size());
  size_t longest_col = 2;
  for (int j = 0; j < C; ++j) longest_col = std::max(longest_col, label_at(cols, j).size());
  const float left = 10.f + std::min<size_t>(longest, 24) * font * 0.62f, top = 30.f + std::min<size_t>(longest_col, 24) * font * 0.45f + 8.f;
  const float W = std::max(left + C * cell + 10.f, 20.f + title.size() * 8.f), H = top + R * cell + 10.f;
  char buf[512];
  std::string s;
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"Noto Sans, Helvetica, Arial, sans-serif\" font-size=\"%.0f\">\n",
                W, H, W, H, font);
  s += buf;
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" + xml_escape(title) + "</text>\n";
  for (int j = 0; j < C; ++j) {
    std::snprintf(buf, sizeof buf, "<text transform=\"translate(%.1f %.1f) rotate(-45)\">", left + (j + 0.5f) * cell, top - 4.f);
    s += buf + xml_escape(label_at(cols, j)) + "</text>\n";
  }
  for (int i = 0; i < R; ++i) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">", left - 6.f, top + (i + 0.5f) * cell);
    s += buf + xml_escape(label_at(rows, i)) + "</text>\n";
    for (int j = 0; j < C; ++j) {
      const float v = m(i, j);
      const float t = std::isinf(v) ? (v < 0 ? 0.f : 1.f) : std::clamp(hi > lo ? (v - lo) / (hi - lo) : 0.5f, 0.f, 1.f);
      const uint32_t c = color(t);
      const int r = c & 0xFF, g = (c >> 8) & 0xFF, b = (c >> 16) & 0xFF;
      std::snprintf(buf, sizeof buf, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#%02x%02x%02x\" stroke=\"#ffffff\" stroke-width=\"0.5\"/>\n",
                    left + j * cell, top + i * cell, cell, cell, r, g, b);
      s += buf;
      if (decimals >= 0) {
        const bool dark = 0.299 * r + 0.587 * g + 0.114 * b < 140;
        std::string num;
        if (std::isinf(v)) num = v < 0 ? "−∞" : "∞";
        else { char nb[32]; std::snprintf(nb, sizeof nb, "%.*f", std::clamp(decimals, 0, 6), static_cast<double>(v)); num = nb; }
        std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" dominant-baseline=\"middle\" font-size=\"11\" fill=\"%s\">",
                      left + (j + 0.5f) * cell, top + (i + 0.5f) * cell, dark ? "#ffffff" : "#111111");
        s += buf + num + "</text>\n";
      }
    }
  }
  s += "</svg>\n";
  return s;
}

}  // namespace ap
