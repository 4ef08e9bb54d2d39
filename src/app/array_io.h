// Arrays in and out of the playground: NumPy .npy files, attention weights saved as JSON, and a matrix
// written as CSV, LaTeX (bmatrix), JSON or a vector heatmap (SVG). No ImGui, no file system: bytes in,
// bytes out (the platform layer picks, drops and downloads files).
//
// Attention weights as models' attention outputs are commonly saved (one sentence):
//   [n, n]                    one head of one layer
//   [heads, n, n]             one layer
//   [layers, heads, n, n]     the whole model (e.g. np.stack(outputs.attentions)[:, 0] in Hugging Face)
// Row i is query i, column j key j. Values may be anything finite: rows that do not sum to 1 are reported by
// the scene, not refused.
//
// What is read:
//   .npy  format versions 1.0, 2.0 and 3.0; dtype '<f4', '<f8', '<f2', '<i4', '<i8' ('=' and '|' byte
//         orders too); C order. Refused, each with its own message: a wrong magic string, a header that is
//         not the dict NumPy writes, fortran_order True, big-endian or object dtypes, a shape whose values
//         outnumber the limit, data shorter or longer than the shape says, NaN or ±inf values.
//   JSON  nested arrays of numbers of rank 2, 3 or 4 (as above), or an object
//         {"attention": <nested arrays>, "tokens": ["I", "love", "cats"]} ("weights" is taken for "attention";
//         no other field); or {"tokens": [...]} alone, the labels of a .npy opened with it. Ragged arrays, non-numbers and non-finite values are refused.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/i18n.h"
#include "core/matrix.h"

namespace ap {

namespace io_limits {
constexpr size_t kMaxFileBytes = 64u << 20;       // a file larger than this is refused before it is read
constexpr long long kMaxValues = 4ll << 20;        // values in one array (16 MiB as float32)
constexpr int kMaxLayers = 64;
constexpr int kMaxHeads = 64;
constexpr int kMaxTokens = 512;                    // n of imported attention
}  // namespace io_limits

// The Chinese of every error template above (registered by the import scene).
const TrPair* array_io_translations(size_t* count);

// A dense array in C (row-major) order.
struct NdArray {
  std::vector<long long> shape;
  std::vector<float> data;  // product(shape) values
};

// "[2, 5, 5]"
std::string shape_text(const std::vector<long long>& shape);

// ---- NumPy .npy ----
Status read_npy(const unsigned char* bytes, size_t size, NdArray* out);
// Version 1.0, '<f4', C order.
std::vector<unsigned char> write_npy(const NdArray& a);
std::vector<unsigned char> write_npy(const Mat& m);

// ---- attention weights ----
struct AttentionWeights {
  int layers = 0, heads = 0, n = 0;
  std::vector<Mat> maps;             // layers × heads matrices n × n, layer-major: maps[l * heads + h]
  std::vector<std::string> tokens;   // n labels (empty: none were given)
  const Mat& at(int layer, int head) const { return maps[static_cast<size_t>(layer * heads + head)]; }
};

// From an array of rank 2, 3 or 4 whose last two sizes are equal (sizes within io_limits, |values| <= 1e6).
Status attention_from_array(const NdArray& a, AttentionWeights* out);
// Nested JSON arrays of numbers → NdArray (rank 1 … 4, rectangular, finite). `name` is used in messages.
Status array_from_json(const nlohmann::json& v, const char* name, NdArray* out);
// A JSON file (text) as described at the top.
Status read_attention_json(const char* text, size_t size, AttentionWeights* out);
// A file by its contents: .npy when it starts with NumPy's magic string, JSON otherwise (a name ending in
// .npy that lacks the magic is refused as .npy). Refuses files over io_limits::kMaxFileBytes.
Status read_attention_file(const std::string& name, const std::vector<unsigned char>& bytes, AttentionWeights* out);
// The same, and also a JSON file {"tokens": [...]} alone: the labels of weights saved elsewhere (a .npy holds
// none), returned as *tokens_only with out->tokens and out->n set and no maps. read_attention_file refuses it.
Status read_import_file(const std::string& name, const std::vector<unsigned char>& bytes, AttentionWeights* out,
                        bool* tokens_only);
// [layers][heads][n][n] nested arrays (what read_attention_json and the scene's document read back).
nlohmann::json attention_weights_json(const AttentionWeights& w);

// ---- writing one matrix ----
// CSV (RFC 4180): values with 9 significant digits (-inf for a masked cell), optional labels in the first row
// and column; a label with a comma, quote or line break is quoted, quotes doubled.
std::string matrix_csv(const Mat& m, const std::vector<std::string>* row_labels, const std::vector<std::string>* col_labels);
// \begin{bmatrix} a & b \\ c & d \end{bmatrix} with `decimals` decimals (-\infty for a masked cell).
std::string matrix_latex(const Mat& m, int decimals);
// An SVG heatmap: one rect per cell coloured by `color(t)` (t in [0,1] over [lo, hi], packed as ImGui's
// ImU32: A<<24 | B<<16 | G<<8 | R), the value written in each cell when `decimals` >= 0, labels escaped for
// XML, a title above.
using ColorFn = uint32_t (*)(float t);
std::string matrix_svg(const Mat& m, const std::vector<std::string>* row_labels, const std::vector<std::string>* col_labels,
                       const std::string& title, float lo, float hi, ColorFn color, int decimals);

}  // namespace ap
