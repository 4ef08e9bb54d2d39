// English → Chinese interface strings. Keys are the English text as written in the code.
// (This file is also the source of the Chinese glyphs in the font: see tools/make_fonts.py.)
#include "i18n.h"

#include <cstring>
#include <string>
#include <unordered_map>

namespace ap {

namespace {

struct Pair { const char* en; const char* zh; };

const Pair kTable[] = {
    // top bar, panels
    {"Attention Playground", "注意力机制演示场"},
    {"Scaled dot-product attention", "缩放点积注意力"},
    {"Controls", "控制面板"},
    {"Hide controls", "隐藏控制面板"},
    {"Smaller text", "缩小文字"},
    {"Larger text (projector)", "放大文字（投影）"},
    {"Keyboard shortcuts", "键盘快捷键"},
    {"Examples", "示例"},
    {"Input", "输入"},
    {"Mask", "掩码"},
    {"Display", "显示"},
    {"Sentence → X·W", "句子 → X·W"},
    {"Q, K, V by hand", "手动设置 Q、K、V"},
    {"Sentence (one token per word, punctuation mark or Chinese character)",
     "句子（每个单词、标点或汉字是一个 token）"},
    {"tokens", "token 数"},
    {"Sentence", "句子"},
    {"limit", "上限"},
    {"seed", "随机种子"},
    {"Width of each token's embedding x_i (1 to 512)", "每个 token 嵌入向量 x_i 的维度（1 到 512）"},
    {"Width of queries and keys (and values here), 1 to 512", "Query 和 Key（此处也包括 Value）的维度，1 到 512"},
    {"The random embeddings and W^Q, W^K, W^V come from this seed", "随机嵌入和 W^Q、W^K、W^V 都由这个种子生成"},
    {"add position codes (sin/cos)", "加入位置编码（sin/cos）"},
    {"Click any cell of Q, Kᵀ or V in the first stage to type a value.", "在第一阶段点击 Q、Kᵀ 或 V 的任一格即可输入数值。"},
    {"none", "无"},
    {"padding", "填充"},
    {"causal", "因果"},
    {"pad to", "填充到"},
    {"Append [PAD] tokens up to this length (0: none)", "在末尾补 [PAD] 直到这个长度（0 表示不补）"},
    {"No [PAD] keys yet: raise 'pad to', or type [PAD] in the sentence.", "还没有 [PAD]：调大“填充到”，或在句子里输入 [PAD]。"},
    {"keys hidden", "个 Key 被屏蔽"},
    {"rows have every key hidden: their weights are all 0 and they are flagged.", "行的所有 Key 都被屏蔽：这些行的权重全为 0，并被标记。"},
    {"text size", "文字大小"},
    {"Keys: Space play · ←/→ stage · Shift+←/→ one cell · Home/End · F1 help",
     "按键：空格 播放 · ←/→ 阶段 · Shift+←/→ 单格 · Home/End · F1 帮助"},
    {"The playground keeps showing the last valid input.", "演示仍显示上一次有效的输入。"},
    {"Not a number:", "不是数字："},
    {"Set", "设置"},
    {"Cancel", "取消"},
    {"Enter sets the value; Q, K and V become hand-edited.", "按回车设置数值；Q、K、V 将变为手动设置。"},
    // timeline
    {"Stage", "阶段"},
    {"Start (Home)", "开头（Home）"},
    {"Previous stage (←)", "上一阶段（←）"},
    {"One cell / row back (Shift+←)", "后退一格/一行（Shift+←）"},
    {"Play (Space)", "播放（空格）"},
    {"Pause (Space)", "暂停（空格）"},
    {"One cell / row forward (Shift+→)", "前进一格/一行（Shift+→）"},
    {"Next stage (→)", "下一阶段（→）"},
    {"End (End)", "结尾（End）"},
    {"Restart (R)", "重新播放（R）"},
    {"Drag to scrub through every step", "拖动以逐步浏览每一步"},
    {"speed %.1f×", "速度 %.1f×"},
    // stage titles
    {"Q, K, V", "Q、K、V"},
    {"Scores Q·Kᵀ", "分数 Q·Kᵀ"},
    {"Scale ÷√dₖ", "缩放 ÷√dₖ"},
    {"Softmax", "Softmax 归一化"},
    {"Weighted sum A·V", "加权求和 A·V"},
    {"Output", "输出"},
    // stage ideas (from the lecture notes)
    {"Query: what am I looking for?  Key: what can I offer?  Value: what do I contain?",
     "Query：我在找什么信息？  Key：我能提供什么信息？  Value：我实际包含什么信息？"},
    {"One dot product per cell: how well query i matches key j.", "每格一个点积：第 i 个 Query 与第 j 个 Key 有多相关。"},
    {"With unit-variance q and k, q·k has variance dₖ; dividing by √dₖ brings it back to 1, so softmax does not saturate.",
     "若 q、k 各分量方差为 1，q·k 的方差为 dₖ；除以 √dₖ 把方差拉回 1，Softmax 不会饱和。"},
    {"Hidden positions get −∞ before softmax, so their weights become exactly 0.", "被屏蔽的位置在 Softmax 之前加上 −∞，权重恰好变为 0。"},
    {"Row by row: exponentials, their sum, then divide. Each row of A sums to 1.", "逐行计算：指数、求和、相除。A 的每一行之和为 1。"},
    {"Each output row is a weighted mix of the value rows, not the value of the best key.", "每个输出行是 Value 各行的加权组合，而不是分数最高位置的 Value。"},
    {"Q and K only decide the weights; what gets summed is V.", "QK 只负责分配权重，真正被汇总的是 V。"},
    {"Set by hand: click a cell of Q, Kᵀ or V to type a new value.", "手动设置：点击 Q、Kᵀ 或 V 的格子输入新数值。"},
    // step captions and cell arithmetic
    {"1) exp(z − max)", "1) 计算 exp(z − max)"},
    {"2) add up the row", "2) 对这一行求和"},
    {"3) divide by the sum", "3) 除以行和"},
    {"mask", "掩码"},
    {"cells hidden", "格被屏蔽"},
    {"output", "输出"},
    {"scores", "分数"},
    {"weights", "权重"},
    {"Q, K, V, output", "Q、K、V、输出"},
    {"attention weights A", "注意力权重 A"},
    {"output A·V", "输出 A·V"},
    {"embedding + position of", "嵌入 + 位置编码："},
    {"set by hand", "手动设置"},
    {"hidden: this key is padding [PAD]", "屏蔽：这个 Key 是填充 [PAD]"},
    {"hidden: this key comes after the query (the future)", "屏蔽：这个 Key 在 Query 之后（未来位置）"},
    {"visible: + 0", "可见：加 0"},
    {"every key of this row is hidden: the weights are all 0 (no NaN)", "这一行的所有 Key 都被屏蔽：权重全为 0（不会出现 NaN）"},
    {"subtracting the row maximum keeps exp() from overflowing; it cancels in the ratio", "减去行最大值可防止 exp() 溢出；它在比值中相互抵消"},
    {"terms", "项"},
    // presets
    {"The animal didn't cross the street…", "The animal didn't cross the street…（动物没有过马路）"},
    {"The seed's self-attention sentence: which words does \"it\" attend to?", "讲义中的自注意力例句：“it”关注哪些词？"},
    {"I love cats (d_k = 2)", "I love cats（d_k = 2）"},
    {"The seed's numeric example. Its softmax row [0.43, 0.21, 0.30] does not sum to 1; the correctly computed row is [0.46, 0.22, 0.32].",
     "讲义中的数值示例。讲义的 Softmax 行 [0.43, 0.21, 0.30] 之和不为 1；正确计算的结果是 [0.46, 0.22, 0.32]。"},
    {"One query: scores [2, 1, 0]", "单个 Query：分数 [2, 1, 0]"},
    {"softmax([2, 1, 0]) ≈ [0.665, 0.245, 0.090]; the output 5.75 is a weighted mix of the values, not the value of the best key.",
     "softmax([2, 1, 0]) ≈ [0.665, 0.245, 0.090]；输出 5.75 是各 Value 的加权组合，而不是分数最高位置的 Value。"},
    {"Causal mask (decoder)", "因果掩码（解码器）"},
    {"Each position attends only to itself and earlier positions: the upper triangle is 0.", "每个位置只关注自己和之前的位置：上三角为 0。"},
    {"Padding mask", "填充掩码"},
    {"The [PAD] keys get weight exactly 0.", "[PAD] 位置的权重恰好为 0。"},
    {"我爱猫 (Chinese)", "中文句子"},
    {"Each Chinese character is one token.", "每个汉字是一个 token。"},
    {"512 tokens (heatmaps)", "512 个 token（热力图）"},
    {"Too many tokens for numbered cells: every matrix is drawn as one heatmap by a shader.", "token 太多，无法逐格显示数字：每个矩阵由着色器绘制成一张热力图。"},
    // help
    {"play / pause", "播放 / 暂停"},
    {"next / previous stage", "下一 / 上一阶段"},
    {"one cell or row forward / back", "前进 / 后退一格或一行"},
    {"first stage / last stage", "第一阶段 / 最后阶段"},
    {"jump to a stage", "跳到某一阶段"},
    {"restart the animation", "重新播放动画"},
    {"next mask: none, padding, causal", "切换掩码：无、填充、因果"},
    {"English / 中文", "English / 中文"},
    {"show / hide the controls", "显示 / 隐藏控制面板"},
    {"larger / smaller text", "放大 / 缩小文字"},
    {"move into the controls (arrows, Space, Enter)", "进入控制面板（方向键、空格、回车）"},
    {"back to the animation", "回到动画"},
    {"this help", "本帮助"},
};

Lang g_lang = Lang::En;

const std::unordered_map<std::string, const char*>& table() {
  static const auto* t = [] {
    auto* m = new std::unordered_map<std::string, const char*>();
    for (const Pair& p : kTable) (*m)[p.en] = p.zh;
    return m;
  }();
  return *t;
}

}  // namespace

void set_lang(Lang l) { g_lang = l; }
Lang lang() { return g_lang; }
const char* lang_code(Lang l) { return l == Lang::Zh ? "zh" : "en"; }

bool parse_lang(const char* s, Lang* out) {
  if (!s) return false;
  if (!std::strcmp(s, "en")) { *out = Lang::En; return true; }
  if (!std::strcmp(s, "zh") || !std::strcmp(s, "zh-CN") || !std::strcmp(s, "cn")) { *out = Lang::Zh; return true; }
  return false;
}

const char* tr(const char* english) {
  if (g_lang == Lang::En || !english) return english;
  const auto& t = table();
  const auto it = t.find(english);
  return it == t.end() ? english : it->second;
}

int translation_count() { return static_cast<int>(sizeof kTable / sizeof kTable[0]); }
const char* translation_key(int i) { return i >= 0 && i < translation_count() ? kTable[i].en : nullptr; }

}  // namespace ap
