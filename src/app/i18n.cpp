// English → Chinese interface strings. Keys are the English text as written in the code.
// (This file is also the source of the Chinese glyphs in the font: see tools/make_fonts.py.)
#include "i18n.h"

#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/utf8.h"

namespace ap {

namespace {


const TrPair kTable[] = {
    // top bar, panels
    {"Attention Playground", "注意力机制演示场"},
    {"Scaled dot-product attention", "缩放点积注意力"},
    {"Controls", "控制面板"},
    {"Hide controls", "隐藏控制面板"},
    {"Smaller text", "缩小文字"},
    {"Lesson map", "学习路线"},
    // the welcome of a bare visit, the lesson button, the start prompt (issue 17, item 1)
    {"Welcome", "欢迎"},
    {"Watch attention being computed step by step on sentences you type: one lesson per idea of "
     "the lecture notes, from the Seq2Seq bottleneck to the cost of attention.",
     "在你输入的句子上一步一步观察注意力如何计算：讲义的每个概念一课，从 Seq2Seq 瓶颈讲到注意力的计算代价。"},
    {"Start at lesson 1: {0}", "从第 1 课开始：{0}"},
    {"or pick any lesson below · Esc closes", "或在下面任选一课 · Esc 关闭"},
    {"Lessons {0}/{1}", "课程 {0}/{1}"},
    {"Press Space or ▶ to step through", "按空格键或 ▶ 逐步演示"},
    {"welcome: {0} is not 0 or 1", "welcome：{0} 不是 0 或 1"},
    {"Share", "分享"},
    {"More", "更多"},
    {"Step {0} of {1}", "第 {0} 步，共 {1} 步"},
    {"Presenter mode (T)", "演示模式（T）"},
    {"High contrast, large type, the pointer highlighted: for a projector.", "高对比度、大字号、突出显示鼠标指针：适合投影。"},
    {"Full screen (F)", "全屏（F）"},
    {"presenter mode (high contrast, large type, pointer highlight)", "演示模式（高对比度、大字号、突出指针）"},
    // matrix layout and colours (issue 8, items 5 and 9)
    {"Colour-blind-safe colours", "色盲友好配色"},
    {"Stretch the weights' colours", "拉伸权重的色阶"},
    {"Off: weights are coloured from 0 to 1, so a weight looks as large as it is. On: the scale ends near the largest weight, to tell small weights apart (the legend says so).",
     "关闭：权重按 0 到 1 着色，颜色深浅与权重大小相符。打开：色阶止于最大权重附近，便于区分较小的权重（图例会注明）。"},
    {"Blue–orange instead of blue–red, and a light-yellow–grey–blue scale for the weights.",
     "用蓝–橙代替蓝–红，权重用浅黄–灰–蓝色阶。"},
    {"full screen", "全屏"},
    {"Share this view", "分享当前视图"},
    {"Link to this view (scene, parameters, language, step):", "当前视图的链接（场景、参数、语言、步骤）："},
    {"Copy link", "复制链接"},
    {"Embed in a course page:", "嵌入课程网页："},
    {"hide", "隐藏"},
    {"size", "尺寸"},
    {"top bar", "顶栏"},
    {"controls", "控制面板"},
    {"timeline", "时间轴"},
    {"Copy embed code", "复制嵌入代码"},
    {"Copied to the clipboard.", "已复制到剪贴板。"},
    {"The browser refused: select the text and copy it.", "浏览器拒绝了：请选中文字后手动复制。"},
    {"The embed starts when it scrolls into view and leaves the course page's keyboard and scroll alone until the learner clicks it. Its events (scene and step changes) reach the page through postMessage; see the README.",
     "嵌入的演示在滚动到可见区域时才启动，在学习者点击之前不会抢走课程网页的键盘和滚动。它的事件（场景和步骤变化）通过 postMessage 发给网页，详见 README。"},
    {"hide: {0} is not a panel (topbar, controls, formula, timeline)", "hide：{0} 不是面板名（topbar、controls、formula、timeline）"},
    {"colors: {0} is not default or colorblind", "colors：{0} 既不是 default 也不是 colorblind"},
    {"contrast: {0} is not fixed or stretch", "contrast：{0} 既不是 fixed 也不是 stretch"},
    {"hosts: {0} is not an http(s) origin such as https://course.example.edu",
     "hosts：{0} 不是 http(s) 源（例如 https://course.example.edu）"},
    // refusals made in web/playground.js, shown through ap_page_refusal (src/page_exports.cpp)
    {"not serialisable: {0}", "无法序列化：{0}"},
    {"step(k) takes a whole number from -1000 to 1000, got {0}", "step(k) 需要 -1000 到 1000 之间的整数，收到的是 {0}"},
    {"unknown method {0}", "未知的方法 {0}"},
    {"zoom: the text size must be a number from 0.6 to 3", "zoom：文字大小必须是 0.6 到 3 之间的数"},
    {"the larger Chinese font could not be loaded, so some characters show as '?': {0}", "无法加载更完整的中文字体，部分字符会显示为“?”：{0}"},
    {"the Chinese font could not be loaded, so the interface stays in English: {0}", "无法加载中文字体，界面仍以英文显示：{0}"},
    {"the interface's Chinese strings could not be loaded, so it stays in English: {0}", "无法加载界面的中文文字，界面仍以英文显示：{0}"},
    {"the interface's Chinese strings are not in their format (apzh 1)", "界面的中文文字不符合其格式（apzh 1）"},
    {"the interface's Chinese strings are cut short", "界面的中文文字不完整"},
    {"Previous lesson", "上一课"},
    {"Next lesson", "下一课"},
    {"next / previous lesson (scene)", "下一课 / 上一课（场景）"},
    {"lesson map", "学习路线图"},
    {"History (from the lecture notes): click a step to open its scene", "发展脉络（来自讲义）：点击一步即打开对应场景"},
    {"RNN encoder–decoder", "RNN 编码器–解码器"},
    {"multi-head", "多头注意力"},
    {"you are here", "当前位置"},
    {"Try:", "试一试："},
    {"Notice:", "注意看："},
    {"Larger text (projector)", "放大文字（投影）"},
    {"Keyboard shortcuts", "键盘快捷键"},
    {"Examples", "示例"},
    {"Mask", "掩码"},
    {"Display", "显示"},
    {"tokens", "token 数"},
    {"seed", "随机种子"},
    {"none", "无"},
    {"padding", "填充"},
    {"causal", "因果"},
    {"text size", "文字大小"},
    {"Keys: Space play · ←/→ stage · Shift+←/→ one cell · Home/End · F1 help",
     "按键：空格 播放 · ←/→ 阶段 · Shift+←/→ 单格 · Home/End · F1 帮助"},
    {"The playground keeps showing the last valid input.", "演示仍显示上一次有效的输入。"},
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
    {"speed %s×", "速度 %s×"},
    {"Slower (key [)", "减慢一半（按键 [）"},
    {"Faster (key ])", "加快一倍（按键 ]）"},
    {"limited to {0}× on this screen", "此屏幕上最大为 {0}×"},
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
    // step captions and cell arithmetic
    {"mask", "掩码"},
    {"output", "输出"},
    {"scores", "分数"},
    {"weights", "权重"},
    {"attention weights A", "注意力权重 A"},
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
    {"The lecture notes' self-attention sentence. The weights here are random and untrained, so the word \"it\" attends to is chance; the preset \"trained: it → animal\" shows a model that learned it.",
     "讲义中的自注意力例句。这里的权重是随机的、未经训练，所以“it”关注哪个词只是偶然；预设“训练所得：it → animal”展示一个学会了这一点的模型。"},
    {"it → animal (hand-set)", "it → animal（手设）"},
    {"Q and K set by hand, as training might set them: \"it\" asks one question that \"animal\" answers (and \"tired\" a little), so its row puts most weight on \"animal\". Other rows learnt nothing and stay uniform.",
     "Q 和 K 由手工设定，就像训练可能得到的那样：“it”提出一个问题，“animal”完全回答它（“tired”回答一点），所以这一行的大部分权重落在“animal”上。其他行什么也没学到，保持均匀。"},
    {"I love cats (d_k = 2)", "I love cats（d_k = 2）"},
    {"The lecture notes' numeric example. Its softmax row [0.43, 0.21, 0.30] does not sum to 1; the correctly computed row is [0.46, 0.22, 0.32].",
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
    {"faster / slower (× 2, ÷ 2)", "加快 / 放慢（× 2，÷ 2）"},
    {"first stage / last stage", "第一阶段 / 最后阶段"},
    {"jump to a stage", "跳到某一阶段"},
    {"restart the animation", "重新播放动画"},
    {"English / 中文", "English / 中文"},
    {"show / hide the controls", "显示 / 隐藏控制面板"},
    {"larger / smaller text", "放大 / 缩小文字"},
    {"move into the controls (arrows, Space, Enter)", "进入控制面板（方向键、空格、回车）"},
    {"back to the animation", "回到动画"},
    {"this help", "本帮助"},
    // scenes and the shell
    {"Scene", "场景"},
    {"next scene", "下一个场景"},
    // error templates: the page API and the state document
    {"expects an object, got {0}", "需要一个对象，收到的是 {0}"},
    {"lang must be \"en\" or \"zh\", got {0}", "lang 必须是 \"en\" 或 \"zh\"，收到的是 {0}"},
    {"not valid JSON", "不是有效的 JSON"},
    {"the document is nested more than {0} levels deep", "文档嵌套超过 {0} 层"},
    {"the document is {0} MB; the limit is {1} MB", "文档大小为 {0} MB，上限为 {1} MB"},
    {"unknown scene '{0}' (known: {1})", "未知场景“{0}”（可用：{1}）"},
    {"{0}: a compact matrix is {\"f32\": \"v1.…\"} as getState({matrices: 'compact'}) writes it",
     "{0}：紧凑矩阵的形式是 {\"f32\": \"v1.…\"}，即 getState({matrices: 'compact'}) 写出的形式"},
    {"playing ({0}) and step.playing ({1}) disagree", "playing（{0}）与 step.playing（{1}）矛盾"},
    {"unknown field '{0}'", "未知字段“{0}”"},
    {"internal: no field '{0}' in the scene's table", "内部错误：场景的字段表中没有“{0}”"},
    {"unknown preset '{0}'", "未知示例“{0}”"},
    {"unknown preset '{0}' (known: {1})", "未知示例“{0}”（可用：{1}）"},
    {"{0} = {1} is too large; the limit is ±1e6", "{0} = {1} 太大，上限为 ±1e6"},
    {"{0} has {1} columns; the limit is {2}", "{0} 有 {1} 列，上限为 {2}"},
    {"{0} has {1} rows; the limit is {2}", "{0} 有 {1} 行，上限为 {2}"},
    {"{0} has {1} columns, expected {2}", "{0} 有 {1} 列，应为 {2} 列"},
    {"{0} has {1} rows, expected {2}", "{0} 有 {1} 行，应为 {2} 行"},
    {"{0} is empty", "{0} 为空"},
    {"{0} is not a number: {1}", "{0} 不是数字：{1}"},
    {"{0} is {1}; every value must be a finite number", "{0} 为 {1}；每个值都必须是有限数"},
    {"{0} must be a non-empty array of rows", "{0} 必须是由行组成的非空数组"},
    {"{0} must be a number, got {1}", "{0} 必须是数字，收到的是 {1}"},
    {"{0} must be a string, got {1}", "{0} 必须是字符串，收到的是 {1}"},
    {"{0} must be a whole number, got {1}", "{0} 必须是整数，收到的是 {1}"},
    {"{0} must be an array of strings", "{0} 必须是字符串数组"},
    {"{0} must be true or false, got {1}", "{0} 必须是 true 或 false，收到的是 {1}"},
    {"{0} must contain only strings, got {1}", "{0} 只能包含字符串，收到的是 {1}"},
    {"{0}[0] must be a non-empty array of numbers", "{0}[0] 必须是非空的数字数组"},
    {"{0}[{1}] must have {2} numbers like row 0", "{0}[{1}] 必须像第 0 行一样有 {2} 个数"},
    {"{0} must be between {1} and {2}, got {3}", "{0} 必须在 {1} 到 {2} 之间，收到的是 {3}"},
    {"{0} must be between 1 and {1}, got {2}", "{0} 必须在 1 到 {1} 之间，收到的是 {2}"},
    {"key_tokens has {0} labels for the {1} rows of K", "key_tokens 有 {0} 个标签，而 K 有 {1} 行"},
    {"tokens has {0} labels for the {1} rows of Q", "tokens 有 {0} 个标签，而 Q 有 {1} 行"},
    {"mask must be \"none\", \"padding\" or \"causal\", got {0}", "mask 必须是 \"none\"、\"padding\" 或 \"causal\"，收到的是 {0}"},
    {"matrices must be an object like {\"Q\": [[...]]}", "matrices 必须是形如 {\"Q\": [[...]]} 的对象"},
    {"matrices.{0} does not match what the other fields give ({1})", "matrices.{0} 与其他字段的计算结果不一致（{1}）"},
    {"matrices.{0} is not a matrix of this scene (Q, K, V and their results)", "matrices.{0} 不是本场景的矩阵（只有 Q、K、V 及其结果）"},
    {"source must be \"projection\" or \"custom\", got {0}", "source 必须是 \"projection\" 或 \"custom\"，收到的是 {0}"},
    {"text and matrices both set Q, K and V: send source \"custom\" with the matrices, or the text alone",
     "text 和 matrices 都在设置 Q、K、V：请连同 source \"custom\" 发送矩阵，或只发送 text"},
    {"text {0} and source \"custom\" disagree: hand-set Q, K, V are labelled by tokens; send the text without source \"custom\" to compute Q, K, V from it",
     "text {0} 与 source \"custom\" 矛盾：手动设置的 Q、K、V 由 tokens 标注；若要由句子计算 Q、K、V，请发送 text 且不带 source \"custom\""},
    {"tokens must not be empty", "tokens 不能为空"},
    {"tokens {0} and text {1} disagree: the sentence splits into {2}", "tokens {0} 与 text {1} 不一致：该句子切分为 {2}"},
    {"{0} applies to Q, K, V computed from the sentence; they are set by hand now (send source: \"projection\" or a text to go back)",
     "{0} 只作用于由句子计算的 Q、K、V；现在它们是手动设置的（发送 source: \"projection\" 或一个句子即可切换回去）"},
    {"{0} is {1}, but the other fields give {2}", "{0} 为 {1}，但其他字段给出的是 {2}"},
    {"results do not match what the other fields give", "results 与其他字段的计算结果不一致"},
    // the URL
    {"matrices: not base64url", "matrices：不是 base64url 编码"},
    {"matrices: truncated", "matrices：数据被截断"},
    {"matrices: unknown format (expected v1.…)", "matrices：未知格式（应为 v1.…）"},
    {"matrices: {0} bytes left over", "matrices：多出 {0} 个字节"},
    {"matrices: {0} is {1} × {2}; only a 0 × 0 matrix may be empty", "matrices：{0} 为 {1} × {2}；只有 0 × 0 的矩阵可以为空"},
    {"matrices: {0} is {1} × {2}; the limit is {3} × {3}", "matrices：{0} 为 {1} × {2}；上限为 {3} × {3}"},
    {"matrices: {0} is {1} × {2} but only {3} values follow", "matrices：{0} 为 {1} × {2}，但后面只有 {3} 个数值"},
    {"not a number", "不是数字"},
    {"{0} is given more than once; the first value is used", "{0} 出现了不止一次；使用第一个值"},
    {"unknown parameter '{0}'", "未知参数“{0}”"},
    {"{0}: bad % escape", "{0}：% 转义有误"},
    {"{0}: not UTF-8 text", "{0}：不是 UTF-8 文本"},
    // the core
    {"padding mask: {0} padding flags for {1} keys", "填充掩码：{0} 个填充标记对应 {1} 个 Key"},
    {"softmax input has NaN or +inf at [{0}][{1}]", "Softmax 的输入在 [{0}][{1}] 处为 NaN 或 +inf"},
    {"softmax of an empty matrix", "不能对空矩阵做 Softmax"},
    {"heads ({0}) must divide d_model ({1})", "头数（{0}）必须整除 d_model（{1}）"},
    {"multi-head weights are incomplete", "多头注意力的权重不完整"},
    {"multi-head weights: head {0} is not {1} columns wide", "多头注意力的权重：第 {0} 个头的宽度不是 {1} 列"},
    {"pad to must be between 0 and {0}", "填充长度必须在 0 到 {0} 之间"},
    {"the text has no tokens: type at least one word", "句子中没有 token：请至少输入一个词"},
    {"the text has {0} tokens; the limit is {1}", "句子有 {0} 个 token，上限为 {1}"},
    {"the text is not valid UTF-8 (byte {0})", "文本不是有效的 UTF-8（第 {0} 个字节）"},
    {"the text is {0} bytes; the limit is {1}", "文本有 {0} 字节，上限为 {1}"},
    {"d_k must be between {0} and {1}, got {2}", "d_k 必须在 {0} 到 {1} 之间，收到的是 {2}"},
    {"the number of samples must be between {0} and {1}, got {2}", "样本数必须在 {0} 到 {1} 之间，收到的是 {2}"},
    {"the number of keys must be between {0} and {1}, got {2}", "Key 的数量必须在 {0} 到 {1} 之间，收到的是 {2}"},
    {"samples × d_k = {0} × {1} = {2} is more than the limit of {3}; lower the samples or d_k",
     "样本数 × d_k = {0} × {1} = {2}，超过上限 {3}；请减少样本数或 d_k"},
    {"a slope fit got {0} x values but {1} y values", "斜率拟合得到 {0} 个 x 值，却有 {1} 个 y 值"},
    {"a slope fit needs at least 2 points, got {0}", "斜率拟合至少需要 2 个点，只有 {0} 个"},
    {"a slope fit needs at least two different x values", "斜率拟合至少需要两个不同的 x 值"},
    {"{0} must be a finite number greater than 0, got {1}", "{0} 必须是大于 0 的有限数，收到的是 {1}"},
    {"{0} must be a finite number of at least 0, got {1}", "{0} 必须是不小于 0 的有限数，收到的是 {1}"},
    {"{0}[{1}] is {2}; a log–log fit needs positive finite values", "{0}[{1}] 为 {2}；双对数拟合需要正的有限值"},
    {"hidden units [{0}, {1}) are not a range within the {2} units", "隐藏单元区间 [{0}, {1}) 不在 {2} 个单元的范围内"},
    {"query rows [{0}, {1}) are not a range within the {2} queries", "Query 行区间 [{0}, {1}) 不在 {2} 个 Query 的范围内"},
    {"the workspace holds {0} floats; this kernel needs {1}", "工作区只有 {0} 个浮点数，这个内核需要 {1} 个"},
    {"{0} is a null pointer", "{0} 是空指针"},
    {"{0} must not be the same array as {1}", "{0} 不能与 {1} 是同一个数组"},
    {"a sweep needs at least one curve", "测量至少需要一条曲线"},
    {"curve {0} has no sequence lengths", "曲线 {0} 没有序列长度"},
    {"curve {0}: sequence lengths must increase, but {1} follows {2}", "曲线 {0}：序列长度必须递增，但 {1} 排在 {2} 之后"},
    {"naive attention at n = {0} needs a {0}×{0} score matrix of {1} MB; the memory budget is {2} MB",
     "n = {0} 时朴素注意力需要 {0}×{0} 的分数矩阵，共 {1} MB；内存预算为 {2} MB"},
    {"the sweep has not been started", "测量尚未开始"},
    {"{0} at n = {1} needs {2} MB; the memory budget is {3} MB", "{0} 在 n = {1} 时需要 {2} MB；内存预算为 {3} MB"},
    {"{0} at n = {1} would take about {2} ms per call; the limit is {3} ms", "{0} 在 n = {1} 时每次约需 {2} ms；上限为 {3} ms"},
    {"{0} at n = {1} needs {2} MB, but that memory could not be allocated", "{0} 在 n = {1} 时需要 {2} MB，但无法分配这么多内存"},
    {"the hand-off time must be at least 0, got {0}", "交接时间不能小于 0，收到的是 {0}"},
    {"d_model ({0}) must be at least d_k ({1})", "d_model（{0}）不能小于 d_k（{1}）"},
    {"sentence {0} has {1} tokens, more than the padded length {2}", "第 {0} 个句子有 {1} 个 token，超过填充长度 {2}"},
    {"sentence {0} is empty", "第 {0} 个句子为空"},
    {"sentence {0} is only padding", "第 {0} 个句子只有填充（[PAD]）"},
    {"the batch is inconsistent: {0} Q, {1} K, {2} V and {3} padding masks", "批次不一致：{0} 个 Q、{1} 个 K、{2} 个 V 和 {3} 个填充掩码"},
    {"the bug \"{0}\" needs the causal mask on", "错误“{0}”需要开启因果掩码"},
    {"unknown bug number {0}", "未知的错误编号 {0}"},
    {"choose at least one score function", "请至少选择一种评分函数"},
    {"the dot score needs the decoder state and the encoder states to have the same size, got d_s = {0} and d_enc = {1}",
     "点积评分要求解码器状态与编码器状态维度相同，实际 d_s = {0}，d_enc = {1}"},
    {"the encoder is {0} × {1}; the probe expects {2} × {3}", "编码器为 {0} × {1}，探针需要 {2} × {3}"},
    {"the probe data has {0} + {1} token ids; expected {2} + {3}", "探针数据有 {0} + {1} 个 token 编号，应为 {2} + {3}"},
    {"the probe would take {0} million multiply-adds; the budget is {1} million", "信息瓶颈探针需要 {0} 百万次乘加，超出预算（{1} 百万次）"},
    {"the two directions differ in size: {0} × {1} forward, {2} × {3} backward", "双向 RNN 的两个方向尺寸不同：正向 {0} × {1}，反向 {2} × {3}"},
    {"{0} ({1}) must not be larger than {2} ({3})", "{0}（{1}）不能大于 {2}（{3}）"},
    {"{0} training sentences are too few for a probe with {1} features; use at least {2}", "{0} 个训练句子太少，不足以拟合有 {1} 个特征的探针；至少需要 {2} 个"},
    // the training engine (core/train/)
    {"duplicate or empty parameter name '{0}'", "参数名“{0}”重复或为空"},
    // the encoder–decoder's training (core/train/seq2seq_model.h, translation.h)
    {"an empty batch", "空的批次"},
    {"every width must be 1 … 256, got {0}", "每个宽度必须在 1 … 256 之间，得到 {0}"},
    {"max_len must be 1 … 256, got {0}", "max_len 必须在 1 … 256 之间，得到 {0}"},
    {"the loss is not finite: the training diverged", "损失不是有限数：训练发散了"},
    {"vocab must be 3 … 4096, got {0}", "词表大小必须在 3 … 4096 之间，得到 {0}"},
    {"{0} has the id {1}, outside 0 … {2}", "{0}含有编号 {1}，超出 0 … {2}"},
    {"{0} must have 1 … {1} words, got {2}", "{0}必须有 1 … {1} 个词，得到 {2}"},
    {"words outside the toy vocabulary: {0}", "玩具词表之外的词：{0}"},
    {"unknown task '{0}' (translation, reversal)", "未知任务“{0}”（translation、reversal）"},
    {"unknown attention '{0}'", "未知的注意力类型“{0}”"},
    {"the checkpoint holds another model than this view shows ({0}, {1} attention)", "该检查点保存的模型不是此视图展示的模型（{0}，{1} 注意力）"},
    {"the checkpoint holds {0} models; this view shows {1}", "该检查点保存了 {0} 个模型；此视图展示 {1} 个"},
    {"checkpoint {0} of the file is truncated: {1} bytes left, it needs {2}", "文件中的第 {0} 个检查点被截断：还剩 {1} 字节，它需要 {2} 字节"},
    {"held-out pairs are set before training: this run is at step {0}", "留出数据要在训练前设定：这次训练已经到了第 {0} 步"},
    {"a race needs at least one recipe", "并排训练至少需要一个配方"},
    {"{0}: the training diverged; it stopped, and the weights of step {1} are kept", "{0}：训练发散了；已停止，保留第 {1} 步的权重"},
    {"training diverged at step {0}: stopped", "训练在第 {0} 步发散：已停止"},
    {"this view's model is not trained in the page yet", "此视图的模型还不能在页面中训练"},
    {"only a translation model has words to align", "只有翻译模型才有可对齐的词"},
    {"a model without attention has no alignment", "没有注意力的模型没有对齐"},
    {"sentences of 1 … 30 words, got {0} and {1}", "句子须有 1 … 30 个词，得到 {0} 和 {1}"},
    {"d_emb must be 1 … 128, got {0}", "d_emb 必须在 1 … 128 之间，得到 {0}"},
    {"d_h must be 1 … 128, got {0}", "d_h 必须在 1 … 128 之间，得到 {0}"},
    {"source lengths must lie in {0} … 30 with min <= max, got {1} … {2}", "源句长度必须在 {0} … 30 之间且最小值不大于最大值，得到 {1} … {2}"},
    {"steps must be 1 … 20000, got {0}", "步数必须在 1 … 20000 之间，得到 {0}"},
    {"batch must be 1 … 128, got {0}", "批大小必须在 1 … 128 之间，得到 {0}"},
    {"the learning rate must be a number in (0, 1], got {0}", "学习率必须是 (0, 1] 之间的数，得到 {0}"},
    {"the checkpoint holds another recipe than the model it would update", "检查点中的配方与要更新的模型不同"},
    {"unknown encoder cell '{0}'", "未知的编码器单元“{0}”"},
    {"the checkpoint's weights could not be measured", "无法测量检查点中的权重"},
    {"the decay must start at a share of the run in [0, 1], got {0}", "学习率衰减的起点必须是训练进度中 [0, 1] 之间的比例，得到 {0}"},
    {"training diverged at step {0}: stopped, the weights of step {1} are kept", "训练在第 {0} 步发散：已停止，保留第 {1} 步的权重"},
    {"ffn_hidden must be between 0 and 4096", "ffn_hidden 必须在 0 到 4096 之间"},
    {"pointer_head must be a head of the last layer", "pointer_head 必须是最后一层的某个头"},
    {"batch arrays are shorter than B·T (ids, pad) or B·R (row, target)", "批次数组短于 B·T（ids、pad）或 B·R（row、target）"},
    {"the pointer readout reads one row", "指针式读出只读一行"},
    {"token id out of range", "token 编号超出范围"},
    {"readout row out of range", "读出行超出范围"},
    {"pointer target must be a visible position", "指针目标必须是未被掩盖的位置"},
    {"class target out of range", "类别目标超出范围"},
    {"coreference split left a set empty", "指代消解数据划分后有一个集合为空"},
    {"parameter rows", "参数行数"},
    {"parameter columns", "参数列数"},
    {"vocabulary size", "词表大小"},
    {"sequence length", "序列长度"},
    {"layers", "层数"},
    {"batch size", "批大小"},
    {"classes", "类别数"},
    // English words passed as arguments of the templates above
    {"the recurrent gain", "循环增益"},
    {"λ (ridge)", "λ（岭回归）"},
    {"the vocabulary size", "词表大小"},
    {"the number of training sentences", "训练句子数"},
    {"the number of held-out sentences", "留出测试句子数"},
    {"a token id", "token 编号"},
    {"the number of sentences", "句子数"},
    {"the padded length", "填充长度"},
    {"the embeddings", "嵌入表"},
    // the SDPA scene's trained view (preset "it-trained")
    {"trained: it → animal", "训练所得：it → animal"},
    {"A two-layer model trained on the coreference task (the build trains it). Its last layer decides: \"it\" attends to \"animal\" because the model learned it. Change \"tired\" to \"wide\" and the row moves to \"street\".",
     "在指代消解任务上训练的两层模型（构建时训练）。由最后一层做决定：\"it\" 关注 \"animal\"，因为模型学会了这一点。把 \"tired\" 改成 \"wide\"，这一行就移到 \"street\"。"},
    {"Q, K, V set by hand", "Q、K、V 手动设定"},
    {"preset {0} and weights {1} disagree", "预设 {0} 与 weights {1} 不一致"},
    {"the trained model hides no key here (its sentences have no padding): mask must be \"none\", got {0}",
     "训练所得的模型在这里不遮挡任何 key（它的句子没有填充）：mask 必须是 \"none\"，收到的是 {0}"},
    {"the trained model on screen has the recipe {0}; another recipe's model is named by train_seed, train_steps, train_lr and train_step (the training panel trains it)",
     "屏幕上训练过的模型的配方是 {0}；其他配方的模型用 train_seed、train_steps、train_lr 和 train_step 指明（由训练面板训练）"},
    {"the trained layer has {0} tokens but X has {1} rows", "训练好的层有 {0} 个 token，但 X 有 {1} 行"},
    {"the trained layer's Q, K, V must have {0} rows and Q, K the same columns", "训练好的层的 Q、K、V 必须有 {0} 行，且 Q、K 的列数相同"},
    {"the trained model has not arrived yet", "训练好的模型还没有加载完"},
    {"{0} applies to seeded or hand-set weights; this view shows the trained model (send weights: \"random\")",
     "{0} 只适用于随机种子或手动设定的权重；这里显示的是训练所得的模型（请发送 weights: \"random\"）"},
};

Lang g_lang = Lang::En;
bool g_zh_drawable = true;

struct Tables {
  std::vector<std::pair<const TrPair*, size_t>> tables{{kTable, sizeof kTable / sizeof kTable[0]}};
  std::unordered_map<std::string, const char*> map;
  bool stale = true;
  // The fetched files, each kept whole for good (their strings are NUL-terminated in place: `map`, `fetched` and
  // what tr() handed out point into them; a deque never moves its elements).
  std::deque<std::string> fetched_files;
  std::unordered_map<std::string, const char*> fetched;  // English → Chinese
};

Tables& tables() {
  static Tables t;  // program-wide and immutable once the scenes are registered
  return t;
}

const std::unordered_map<std::string, const char*>& table() {
  Tables& t = tables();
  if (t.stale) {
    t.map.clear();
    for (const auto& [pairs, count] : t.tables)
      for (size_t i = 0; i < count; ++i) t.map.emplace(pairs[i].en, pairs[i].zh);
    for (auto& [en, zh] : t.map)
      if (!zh) {
        const auto f = t.fetched.find(en);
        if (f != t.fetched.end()) zh = f->second;
      }
    t.stale = false;
  }
  return t.map;
}

}  // namespace

void add_translations(const TrPair* pairs, size_t count) {
  Tables& t = tables();
  for (const auto& tb : t.tables)
    if (tb.first == pairs) return;
  t.tables.push_back({pairs, count});
  t.stale = true;
}

Status add_fetched_translations(const std::vector<unsigned char>& bytes) {
  static constexpr char kMagic[] = "apzh 1\n";
  const size_t magic = sizeof kMagic - 1;
  if (bytes.size() < magic || std::memcmp(bytes.data(), kMagic, magic) != 0)
    return Status::Error("the interface's Chinese strings are not in their format (apzh 1)");
  // 1. Check the whole file: NUL-terminated strings in pairs (at least one), each valid UTF-8, no empty English.
  std::string all(bytes.begin() + static_cast<long>(magic), bytes.end());
  std::vector<std::pair<size_t, size_t>> pairs;  // offsets of English and Chinese in `all`
  size_t at = 0;
  while (at < all.size()) {
    const size_t en_end = all.find('\0', at);
    const size_t zh_end = en_end == std::string::npos ? en_end : all.find('\0', en_end + 1);
    if (zh_end == std::string::npos) return Status::Error("the interface's Chinese strings are cut short");
    if (en_end == at || !utf8_valid(all.substr(at, en_end - at)) || !utf8_valid(all.substr(en_end + 1, zh_end - en_end - 1)))
      return Status::Error("the interface's Chinese strings are not in their format (apzh 1)");
    pairs.push_back({at, en_end + 1});
    at = zh_end + 1;
  }
  if (pairs.empty()) return Status::Error("the interface's Chinese strings are cut short");
  // 2. Take it: the strings point into the kept copy.
  Tables& t = tables();
  const std::string& kept = t.fetched_files.emplace_back(std::move(all));
  t.fetched.clear();
  for (const auto& [en, zh] : pairs) t.fetched[kept.c_str() + en] = kept.c_str() + zh;
  t.stale = true;
  return Status::Ok();
}

bool chinese_strings_in() {
#ifdef AP_ZH_FETCHED
  return !tables().fetched.empty();
#else
  return true;
#endif
}

void set_lang(Lang l) { g_lang = l; }
Lang lang() { return g_lang; }
void set_chinese_drawable(bool drawable) { g_zh_drawable = drawable; }
const char* lang_code(Lang l) { return l == Lang::Zh ? "zh" : "en"; }

bool parse_lang(const char* s, Lang* out) {
  if (!s) return false;
  if (!std::strcmp(s, "en")) { *out = Lang::En; return true; }
  if (!std::strcmp(s, "zh") || !std::strcmp(s, "zh-CN") || !std::strcmp(s, "cn")) { *out = Lang::Zh; return true; }
  return false;
}

// Chinese chosen, drawable (its font in the atlas) and its text fetched: what tr() and localize's colon follow.
static bool answers_in_chinese() { return g_lang == Lang::Zh && g_zh_drawable && chinese_strings_in(); }

const char* tr(const char* english) {
  if (!answers_in_chinese() || !english) return english;
  const auto& t = table();
  const auto it = t.find(english);
  return it == t.end() || !it->second ? english : it->second;
}

std::string tr_format(const char* tmpl, const std::vector<std::string>& args) { return format_template(tr(tmpl), args); }

int translation_count() {
  size_t n = 0;
  for (const auto& tb : tables().tables) n += tb.second;
  return static_cast<int>(n);
}

TrPair translation_at(int i) {
  if (i < 0) return {nullptr, nullptr};
  for (const auto& [pairs, count] : tables().tables) {
    if (static_cast<size_t>(i) < count) {
      TrPair p = pairs[i];
      if (!p.zh) p.zh = table().at(p.en);  // fetched (or still nullptr)
      return p;
    }
    i -= static_cast<int>(count);
  }
  return {nullptr, nullptr};
}

const char* translation_key(int i) { return translation_at(i).en; }

std::string LocalText::english() const {
  const std::string body = format_template(tmpl.c_str(), args);
  return prefix.empty() ? body : prefix + ": " + body;
}

LocalText local_text(const Status& s, std::string prefix) {
  LocalText t;
  t.tmpl = s.code ? s.code : "";
  t.args = s.args;
  t.prefix = std::move(prefix);
  return t;
}

namespace {
// Arguments that are words ("the vocabulary size") are translated too; numbers and names pass unchanged.
std::vector<std::string> localize_args(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  // (A value with a NUL inside is no word: kept whole, not cut at its NUL by the C-string lookup.)
  for (const auto& a : args) out.push_back(a.find('\0') != std::string::npos ? a : std::string(tr(a.c_str())));
  return out;
}
}  // namespace

std::string localize(const LocalText& t) {
  const std::string body = format_template(tr(t.tmpl.c_str()), localize_args(t.args));
  // The full-width colon where the text is answered in Chinese (not while it waits for its font or text).
  return t.prefix.empty() ? body : std::string(tr(t.prefix.c_str())) + (answers_in_chinese() ? "：" : ": ") + body;
}

std::string localize(const Status& s) { return s.ok ? std::string() : format_template(tr(s.code), localize_args(s.args)); }

}  // namespace ap
