#include "quiz.h"

#include <map>

#include "app/json_fields.h"
#include "app/state.h"

namespace ap {

using nlohmann::json;

namespace {

// The panel's own strings and the answer's errors (the questions carry their translations: texts()).
const TrPair kQuizStrings[] = {
    {"Check yourself", "自我检测"},
    {"Right.", "答对了。"},
    {"Not quite.", "不太对。"},
    {"Try again", "重新作答"},
    {"unknown question '{0}'", "未知的问题 '{0}'"},
    {"answer must be {\"id\": …, \"option\": …}, got {0}", "answer 必须是 {\"id\": …, \"option\": …}，收到的是 {0}"},
};

// Every question in both languages, each string written once: quiz_for() reads the English, and
// quiz_translations() gathers the pairs.
struct QuizText {
  const char* id;
  TrPair question;
  std::vector<TrPair> options;
  int correct;
  TrPair explanation;
};

const std::map<std::string, std::vector<QuizText>>& texts() {
  static const std::map<std::string, std::vector<QuizText>> kQuiz = {
      {"bahdanau",
       {{"previous-state", {"Bahdanau's scores e_tj use the previous decoder state s_t-1, not s_t. Why?",
                            "Bahdanau 的分数 e_tj 用的是解码器的前一个状态 s_t-1，而不是 s_t。为什么？"},
         {{"s_t-1 holds more information than s_t", "s_t-1 比 s_t 包含更多信息"},
          {"s_t does not exist yet: it is computed from [y_t-1; c_t], and c_t needs the weights α_t first",
           "s_t 还不存在：它要由 [y_t-1; c_t] 算出，而 c_t 需要先有权重 α_t"},
          {"To save memory", "为了节省内存"}},
         1, {"In Bahdanau's decoder the context feeds the state: α_t and c_t come from s_t-1, then s_t = f(s_t-1, y_t-1, c_t). Luong computes s_t first and attends with it (the notes' key difference; see the luong scene).",
             "在 Bahdanau 的解码器里，上下文向量输入给状态：先由 s_t-1 得到 α_t 和 c_t，再算 s_t = f(s_t-1, y_t-1, c_t)。Luong 先算 s_t 再用它计算注意力（讲义中的关键区别；见 luong 场景）。"}},
        {"bidirectional", {"What does the bidirectional encoder give each source position j?",
                           "双向编码器给每个源位置 j 带来了什么？"},
         {{"Only the words before j", "只有 j 之前的词"},
          {"h_j = [→h_j; ←h_j]: the forward RNN has read the words up to j, the backward RNN the words from j on, so h_j sees the whole sentence around word j",
           "h_j = [→h_j; ←h_j]：前向 RNN 读到了第 j 个词为止，后向 RNN 读了从第 j 个词开始的部分，所以 h_j 看到了以第 j 个词为中心的整句"},
          {"Twice as fast an encoder", "速度快一倍的编码器"}},
         1, {"Stage 1 of this scene: the outlined rows show what each direction has read. A unidirectional h_j knows nothing of the words after j; Luong's encoder is unidirectional.",
             "本场景第 1 阶段：描边的行显示每个方向已经读过什么。单向的 h_j 对 j 之后的词一无所知；Luong 的编码器是单向的。"}},
        {"context", {"What is c_t, and why is it different at every step t?", "c_t 是什么？为什么每一步 t 都不同？"},
         {{"The encoder's last state; it is the same at every step", "编码器的最后一个状态；每一步都一样"},
          {"The weighted sum Σ_j α_tj h_j of all encoder states; the weights α_t are recomputed at every step from s_t-1",
           "所有编码器状态的加权和 Σ_j α_tj h_j；权重 α_t 每一步都由 s_t-1 重新计算"},
          {"The decoder's state after step t", "解码器在第 t 步之后的状态"}},
         1, {"The notes: every step t generates a different c_t, no longer one fixed vector. Here the weights are seeded, not trained, so α_t moves, but not to the word a translator would look at.",
             "讲义：每一步 t 都会生成一个不同的 c_t，不再是一个固定向量。这里的权重是随机种子生成、未经训练的，所以 α_t 会移动，但不会移到译者会看的那个词上。"}}}},
      {"bottleneck",
       {{"lose-beginning", {"Why does Seq2Seq's single vector c lose the beginning of a long sentence?",
                            "为什么 Seq2Seq 的单个向量 c 会丢掉长句的开头？"},
         {{"The first words matter less for a translation", "开头的词对翻译不那么重要"},
          {"c has only d_h numbers for n·d_in source numbers, and every step of the RNN overwrites part of the older state",
           "c 只有 d_h 个数，却要装 n·d_in 个源数字，而且 RNN 每一步都会覆盖一部分较早的状态"},
          {"The encoder reads the sentence from right to left", "编码器是从右往左读句子的"}},
         1, {"The information bottleneck: a linear read-out of d_h numbers recovers at most d_h/(n·d_in) of the source on average, and the recurrence fades old tokens first. Stage 3 shows the first bars lowest, stage 4 the mean falling with L.",
             "信息瓶颈：d_h 个数的线性读出平均最多恢复源句的 d_h/(n·d_in)，而循环又让较早的词最先消退。第 3 阶段里开头的柱子最低，第 4 阶段里平均值随 L 下降。"}},
        {"attention-changes", {"What does attention change for the decoder?", "注意力给解码器带来了什么改变？"},
         {{"It makes the single vector c longer", "它把单个向量 c 变长了"},
          {"At every step t it builds a new context c_t = Σ_j α_tj h_j from all the encoder states h_j",
           "每一步 t 它都从所有编码器状态 h_j 构造一个新的上下文向量 c_t = Σ_j α_tj h_j"},
          {"It trains the encoder until c holds everything", "它把编码器训练到 c 能装下一切"}},
         1, {"The notes: each step t generates a different c_t, no longer one fixed vector. The reader bars (from h_j) stay high at every length because nothing has to squeeze through c.",
             "讲义：每一步 t 都会生成一个不同的 c_t，不再是一个固定向量。从 h_j 读出的柱子在任何长度下都很高，因为不必挤过 c。"}}}},
      {"multihead",
       {{"why-heads", {"Why use several heads instead of one full-width head?", "为什么用多个头，而不是一个全宽的头？"},
         {{"Several heads make the model bigger, and more parameters make it better", "多个头让模型更大，参数越多效果越好"},
          {"Each head projects into its own subspace and can learn a different relation (syntax, reference, neighbours); one head has a single pattern of weights",
           "每个头投影到自己的子空间，可以学到不同的关系（语法、指代、相邻词）；一个头只有一种权重模式"},
          {"Each head sees a different part of the sentence", "每个头看句子的不同部分"}},
         1, {"The notes: one set of W^Q, W^K, W^V can learn only one attention pattern. Every head still sees the whole sentence, and the count does not grow. Here the weights are untrained, so the heads differ only by chance.",
             "讲义：一组 W^Q、W^K、W^V 只能学一种注意力模式。每个头仍然看整个句子，参数量也不增加。这里的权重未经训练，所以各头的差别只是偶然。"}},
        {"param-count", {"Going from h = 1 to h = 8 heads, how does the parameter count change?",
                         "从 h = 1 变为 h = 8 个头，参数量怎么变？"},
         {{"It grows 8 times", "变为 8 倍"},
          {"It stays 4·d_model²: each head is d_k = d_model / h wide, so h heads of d_model × d_k add up to d_model × d_model",
           "保持 4·d_model²：每个头宽 d_k = d_model / h，h 个 d_model × d_k 的矩阵加起来就是 d_model × d_model"},
          {"It shrinks 8 times", "缩小为 1/8"}},
         1, {"Stage 4 counts the entries of the actual matrices for every h that divides d_model: the total is 4·d_model² in every row.",
             "第 4 阶段对每个能整除 d_model 的 h 实际计数矩阵的元素：每一行的总数都是 4·d_model²。"}}}},
      {"sdpa",
       {{"largest-weight", {"'it' puts its largest weight on one token. Is that token the reason for the model's prediction?",
                            "“it” 把最大的权重给了某个词。这个词就是模型做出预测的原因吗？"},
         {{"Yes: the largest weight decides the prediction", "是：权重最大的词决定了预测"},
          {"No: the output mixes every V row by its weight, and residuals, other layers and non-linearities act too",
           "不是：输出按权重混合了所有 V 行，残差、其他层和非线性也都起作用"},
          {"Only when that weight is above 0.5", "只有当这个权重超过 0.5 时才是"}},
         1, {"A weight is not a causal attribution (the notes' first misconception). Here the weights are seeded, not trained, so they do not even reflect meaning.",
             "权重不等于因果归因（讲义中的第一个误区）。这里的权重是随机种子生成、未经训练的，连语义都不代表。"}},
        {"qk-v", {"In softmax(QKᵀ/√d_k)·V, what do Q·K and V each do?", "在 softmax(QKᵀ/√d_k)·V 中，Q·K 和 V 各自做什么？"},
         {{"Q·K picks the best position and its value is copied", "Q·K 挑出最好的位置，并复制它的值"},
          {"Q·K only distributes the weights; the output is the weighted sum of the V rows",
           "Q·K 只负责分配权重；输出是 V 各行的加权和"},
          {"V decides the weights and Q·K is summed", "V 决定权重，被求和的是 Q·K"}},
         1, {"The notes' memory hook: QK only distributes the weights, V is what gets summed. Scores [2, 1, 0] and values [10, 0, −10] give 5.75, not 10.",
             "讲义的记忆钩子：QK 只负责分配权重，真正被汇总的是 V。分数 [2, 1, 0]、值 [10, 0, −10] 得到 5.75，而不是 10。"}},
        {"mask-where", {"Where does the mask act?", "掩码作用在哪里？"},
         {{"On the scores, before softmax (−∞ is added)",
           "作用在分数上，在 softmax 之前（加上 −∞）"},
         {"On the weights, after softmax", "作用在权重上，在 softmax 之后"},
         {"On the output A·V", "作用在输出 A·V 上"}},
         0, {"−∞ before softmax makes e^(−∞) = 0: hidden weights are exactly 0 and each row still sums to 1. Applied after softmax the rows no longer sum to 1 (see the masks scene).",
             "在 softmax 之前加 −∞，使 e^(−∞) = 0：被遮住的权重恰好为 0，每行之和仍为 1。若在 softmax 之后再遮，行和就不再为 1（见掩码场景）。"}}}},
      {"scaling",
       {{"why-sqrt", {"Why are the scores divided by √d_k?", "为什么分数要除以 √d_k？"},
         {{"To make the computation cheaper", "为了让计算更便宜"},
          {"The variance of q·k grows as d_k; dividing by √d_k keeps it near 1, so softmax does not saturate",
           "q·k 的方差随 d_k 增大；除以 √d_k 让它保持在 1 附近，softmax 就不会饱和"},
          {"So that each row of weights sums to 1", "为了让每行权重之和为 1"}},
         1, {"q·k adds d_k products of variance 1, so its variance is d_k (this scene measures it). Large scores push softmax towards one-hot, where its gradients vanish.",
             "q·k 是 d_k 个方差为 1 的乘积之和，方差为 d_k（本场景实测）。分数过大会把 softmax 推向 one-hot，梯度随之消失。"}},
        {"dk512", {"With d_k = 512 and no scaling, what do the softmax weights look like?",
                   "d_k = 512 且不缩放时，softmax 权重是什么样子？"},
         {{"Nearly uniform",
           "几乎均匀"},
         {"Nearly one-hot: one key takes almost everything", "几乎是 one-hot：一个 key 拿走几乎全部权重"},
         {"Some weights turn negative", "有些权重变成负数"}},
         1, {"The unscaled scores spread about ±√512 ≈ ±23: the largest dominates after exp. The softmax stage of this scene shows the largest weight near 1 and the entropy near 0.",
             "不缩放时分数分布在 ±√512 ≈ ±23 左右：取指数后最大的那个占绝对优势。本场景的 softmax 阶段显示最大权重接近 1、熵接近 0。"}}}},
      {"masks",
       {{"padding-causal", {"What is the difference between the padding mask and the causal mask?",
                            "填充掩码与因果掩码有什么区别？"},
         {{"Padding hides the [PAD] keys; causal hides the tokens after the query",
           "填充掩码遮住 [PAD] 的 key；因果掩码遮住 query 之后的词"},
         {"Both hide the [PAD] keys", "两者都遮住 [PAD] 的 key"},
          {"Causal hides the tokens before the query", "因果掩码遮住 query 之前的词"}},
         0, {"The notes: the padding mask hides what was only added to make sentences the same length; the causal mask stops a position from reading future tokens (autoregressive training).",
             "讲义：填充掩码屏蔽仅为补齐长度而加的位置；因果掩码阻止当前位置读取未来的词（自回归训练）。"}},
        {"after-softmax", {"The hidden weights are set to 0 after softmax instead of adding −∞ before. What goes wrong?",
                           "在 softmax 之后把被遮住的权重置 0，而不是之前加 −∞。会出什么问题？"},
         {{"Nothing: the weights are the same",
           "没问题：权重一样"},
         {"Rows sum to less than 1, and the hidden keys still shaped the softmax's denominator",
          "行和小于 1，而且被遮住的 key 仍然影响了 softmax 的分母"},
          {"The weights become negative", "权重变成负数"}},
         1, {"Pick the bug \"mask after softmax\" and look at the row sums in red and at the future leak in the damage table.",
             "选择 bug “softmax 之后才加掩码”，看红色的行和，以及破坏表里的未来泄漏。"}},
        {"cross", {"Does every kind of attention connect any two positions of one sequence?",
                   "所有注意力都让同一序列的任意两个位置直接相连吗？"},
         {{"Yes, that is what attention does", "是的，注意力就是这样"},
          {"No: that is self-attention; cross-attention connects the queries of one sequence with the keys and values of another",
           "不是：那是自注意力；交叉注意力连接的是一个序列的 query 与另一个序列的 key 和 value"},
          {"No: attention only connects neighbouring positions", "不是：注意力只连接相邻位置"}},
         1, {"The notes' second misconception. In a decoder, cross-attention reads the encoder's outputs; with a causal mask even self-attention sees only the past.",
             "讲义中的第二个误区。在解码器里，交叉注意力读取编码器的输出；加上因果掩码后，连自注意力也只能看到过去。"}}}},
      {"self",
       {{"three-matrices", {"Why does self-attention use three different matrices W^Q, W^K, W^V instead of Q = K = V = X?",
                            "自注意力为什么要用三个不同的矩阵 W^Q、W^K、W^V，而不是直接让 Q = K = V = X？"},
         {{"To have more parameters to train", "为了有更多可训练的参数"},
          {"With Q = K = V = X each token is most similar to itself and attends mostly to itself; separate projections let a query look for something other than itself",
           "Q = K = V = X 时每个词与自己最相似，主要关注自己；不同的投影让 query 能去找自己以外的信息"},
          {"Because softmax needs three different inputs", "因为 softmax 需要三个不同的输入"}},
         1, {"The notes: if Q = K = V = X, every word attends most to itself. Stage 4 measures it: the mean self-weight with Q = K = V = X is far above 1/m; with separate seeded W^Q and W^K it is near 1/m.",
             "讲义：如果 Q = K = V = X，每个词最关注的总是自己。第 4 阶段实测了这一点：Q = K = V = X 时平均自身权重远高于 1/m；用各自独立的随机种子 W^Q、W^K 时接近 1/m。"}},
        {"decoder-cross", {"In the cross-attention of a Transformer decoder, where do Q and K, V come from?",
                           "在 Transformer 解码器的交叉注意力中，Q 和 K、V 各来自哪里？"},
         {{"Q, K and V all come from the decoder's own tokens",
           "Q、K、V 都来自解码器自己的词"},
         {"Q from the decoder, K and V from the encoder's outputs", "Q 来自解码器，K 和 V 来自编码器的输出"},
          {"Q from the encoder, K and V from the decoder", "Q 来自编码器，K 和 V 来自解码器"}},
         1, {"Cross-attention aligns two sequences: the decoder asks (Q), the encoder's outputs are matched (K) and summed (V). Turn on cross-attention in this scene: the weights become n × m, one row per token of the second sentence.",
             "交叉注意力对齐两个序列：解码器提问（Q），编码器的输出被匹配（K）并被加权求和（V）。在本场景中打开交叉注意力：权重变成 n × m，第二个句子的每个词一行。"}}}},
      {"luong",
       {{"differences", {"The notes list three differences between Luong and Bahdanau attention. Which answer names them?",
                         "讲义列出了 Luong 与 Bahdanau 注意力的三点区别。哪个选项说对了？"},
         {{"Luong scores with the current state s_t, reads a unidirectional encoder, and has a simpler score (dot)",
           "Luong 用当前状态 s_t 打分，读取单向编码器，评分函数更简单（点积）"},
          {"Luong scores with the previous state s_t-1 and reads a bidirectional encoder",
           "Luong 用前一步状态 s_t-1 打分，读取双向编码器"},
          {"Luong drops the softmax and sums the encoder states directly", "Luong 去掉了 softmax，直接把编码器状态相加"}},
         0, {"Bahdanau attends with s_t-1 over a bidirectional encoder using the additive score; Luong computes s_t first, attends over a unidirectional encoder, and offers dot, general and concat. Stage 4 of this scene puts them side by side.",
             "Bahdanau 用 s_t-1、在双向编码器上用加性评分做注意力；Luong 先算出 s_t，在单向编码器上做注意力，并提供 dot、general、concat 三种评分。本场景第 4 阶段把它们并排列出。"}},
        {"dot-parameters", {"Which Luong score function has no parameters, and what does it require?",
                            "Luong 的哪种评分函数没有参数？它有什么要求？"},
         {{"general: it works for any sizes",
           "general：任何尺寸都可以"},
         {"dot: s_t and h_j must have the same size (d_s = d_enc)", "dot：s_t 与 h_j 的维度必须相同（d_s = d_enc）"},
          {"concat: it only needs d_a = 1", "concat：只要求 d_a = 1"}},
         1, {"e_tj = s_t^T h_j is a plain dot product: nothing to learn, but both vectors need the same length. Set d_s to 24 in this scene: dot disappears, and general's W_a (d_s × d_enc) bridges the sizes.",
             "e_tj = s_t^T h_j 是普通点积：没有要学习的参数，但两个向量长度必须相同。在本场景把 d_s 设为 24：dot 消失，而 general 的 W_a（d_s × d_enc）可以连接两种尺寸。"}}}},
      {"cost",
       {{"gpu", {"Once n > d, self-attention does more multiply-adds than an RNN. Why does it still train faster on a GPU?",
                 "当 n > d 时，自注意力的乘加比 RNN 多。为什么它在 GPU 上仍然训练得更快？"},
         {{"It does fewer operations after all", "它其实做的运算更少"},
          {"Its n² work has no dependent steps (O(1) sequential operations), so it spreads over many lanes; the RNN's n steps must run one after another",
           "它的 n² 工作没有相互依赖的步骤（O(1) 顺序操作），可以铺满大量并行通道；RNN 的 n 步必须一个接一个执行"},
          {"GPUs have special hardware for softmax", "GPU 有专门的 softmax 硬件"}},
         1, {"Stage 4 of this scene: with enough lanes P the work divides by P, but the RNN keeps its n dependent steps. The measured speed-up with workers shows the same on this machine.",
             "本场景第 4 阶段：通道数 P 足够多时工作量除以 P，而 RNN 仍有 n 个相互依赖的步骤。用工作线程实测的加速比在本机上展示了同样的事。"}},
        {"path", {"How many steps does information need to travel from token 1 to token n?",
                  "信息从第 1 个词传到第 n 个词需要多少步？"},
         {{"Attention 1, RNN n",
           "注意力 1 步，RNN n 步"},
         {"n in both", "两者都是 n 步"},
         {"Attention log n, RNN n", "注意力 log n 步，RNN n 步"}},
         0, {"The maximum path length: O(1) for self-attention, O(n) for a recurrent layer, O(log_k n) for stacked convolutions. It is why attention captures long-range dependencies.",
             "最大路径长度：自注意力 O(1)，循环层 O(n)，堆叠卷积 O(log_k n)。这正是注意力能捕捉长距离依赖的原因。"}}}},
      {"train",
       {{"two-layers", {"Why can one attention layer not resolve \"it\" in \"The cat didn't cross the road because it was too tired\"?",
                        "为什么一层注意力无法确定 \"The cat didn't cross the road because it was too tired\" 中 \"it\" 指谁？"},
         {{"One layer has too few parameters", "一层的参数太少"},
          {"In one layer the query at \"it\" is made from \"it\" and its position alone: it has not yet read the adjective that comes after it",
           "在一层里，\"it\" 处的 query 只由 \"it\" 本身和它的位置算出：它还没有读到后面的形容词"},
          {"Attention cannot look at words that come later", "注意力不能看后面的词"}},
         1, {"Layer 1's query at \"it\" is the same for every sentence of a frame, so its weights over the two nouns cannot depend on the adjective. Layer 1 can copy the adjective into the vector at \"it\"; layer 2's query then carries it and picks the noun. Train with 1 layer in this scene: the held-out accuracy stays near 50 %.",
             "第 1 层 \"it\" 处的 query 对同一句式的每个句子都相同，所以它在两个名词上的权重不可能随形容词变化。第 1 层可以把形容词的信息复制到 \"it\" 的向量里；第 2 层的 query 带着这个信息去挑选名词。在本场景用 1 层训练：留出集准确率停在 50 % 左右。"}},
        {"heldout", {"The held-out accuracy is measured on sentences whose (noun, adjective) pairs never occur in training. Why?",
                     "留出集准确率是在（名词，形容词）组合从未在训练中出现过的句子上测的。为什么？"},
         {{"To make the number look lower", "为了让数字显得低一些"},
          {"So that memorised sentences cannot score: the model must have learnt the rule (the adjective's kind decides the referent)",
           "这样死记训练句子就得不了分：模型必须学会规则（形容词的种类决定指代对象）"},
          {"Because the training sentences are too long", "因为训练句子太长"}},
         1, {"Every word of a held-out sentence was seen in training, but never in that combination. A model that only memorised its training sentences would score about 50 % there.",
             "留出句子里的每个词在训练中都出现过，但从未以这种组合出现。只会死记训练句子的模型在这里只能得到 50 % 左右。"}}}},
      {"import",
       {{"rows", {"The rows of your imported weights do not sum to 1. What does that tell you?",
                  "你导入的权重每行之和不为 1。这说明什么？"},
         {{"The file is broken and should be refused", "文件坏了，应当拒绝"},
          {"They are not softmax outputs (scores before softmax, or weights averaged or rescaled): they are shown as they are",
           "它们不是 softmax 的输出（softmax 之前的分数，或被平均、重新缩放过的权重）：按原样显示"},
          {"Attention weights never sum to 1", "注意力权重从来不会和为 1"}},
         1, {"softmax makes every row of A a distribution (Σ_j A_ij = 1). Scores before softmax, or weights after averaging or rescaling, need not sum to 1; the scene reports max |row sum − 1| instead of refusing them.",
             "softmax 让 A 的每一行都是一个分布（Σ_j A_ij = 1）。softmax 之前的分数，或被平均、重新缩放后的权重，不必和为 1；本场景报告最大 |行和 − 1|，而不是拒绝它们。"}},
        {"shape", {"A model saved its attention as an array of shape [12, 12, 9, 9]. What is it?",
                   "某模型把注意力保存为形状 [12, 12, 9, 9] 的数组。它是什么？"},
         {{"12 layers × 12 heads for 9 tokens: entry [l][h][i][j] is how much query i attends to key j",
           "9 个词的 12 层 × 12 头：元素 [l][h][i][j] 是 query i 对 key j 的注意力"},
         {"12 sentences of 12 words", "12 个句子，每句 12 个词"},
          {"9 layers × 9 heads for 12 tokens", "12 个词的 9 层 × 9 头"}},
         0, {"Attention outputs for one sentence are [layers, heads, n, n] (Hugging Face gives one [batch, heads, n, n] tensor per layer). The last two sizes are queries × keys, equal in self-attention.",
             "一个句子的注意力输出形状是 [layers, heads, n, n]（Hugging Face 每层给出一个 [batch, heads, n, n] 张量）。最后两维是 query × key，在自注意力中相等。"}}}},
  };
  return kQuiz;
}

// The questions as the interface reads them (English; tr() translates): built once from texts().
const std::map<std::string, std::vector<QuizQuestion>>& quiz_table() {
  static const std::map<std::string, std::vector<QuizQuestion>> kQuestions = [] {
    std::map<std::string, std::vector<QuizQuestion>> m;
    for (const auto& [scene, qs] : texts())
      for (const QuizText& q : qs) {
        QuizQuestion e{q.id, q.question.en, {}, q.correct, q.explanation.en};
        for (const TrPair& o : q.options) e.options.push_back(o.en);
        m[scene].push_back(std::move(e));
      }
    return m;
  }();
  return kQuestions;
}

std::map<std::string, int>& answers_of(PlaygroundState& st) { return st.quiz_answers; }

const QuizQuestion* find(const std::string& scene_id, const std::string& qid) {
  for (const QuizQuestion& q : quiz_for(scene_id))
    if (qid == q.id) return &q;
  return nullptr;
}

}  // namespace

const std::vector<QuizQuestion>& quiz_for(const std::string& scene_id) {
  static const std::vector<QuizQuestion> kNone;
  const auto it = quiz_table().find(scene_id);
  return it == quiz_table().end() ? kNone : it->second;
}

const TrPair* quiz_translations(size_t* count) {
  static const std::vector<TrPair> kAll = [] {
    std::vector<TrPair> v(std::begin(kQuizStrings), std::end(kQuizStrings));
    for (const auto& [scene, qs] : texts())
      for (const QuizText& q : qs) {
        v.push_back(q.question);
        v.insert(v.end(), q.options.begin(), q.options.end());
        v.push_back(q.explanation);
      }
    return v;
  }();
  *count = kAll.size();
  return kAll.data();
}

Status answer_question(PlaygroundState& st, const std::string& scene_id, const std::string& qid, int option) {
  const QuizQuestion* q = find(scene_id, qid);
  if (!q) return Status::Error("unknown question '{0}'", {qid});
  if (option < -1 || option >= static_cast<int>(q->options.size()))
    return Status::Error("{0} must be between {1} and {2}, got {3}", {"option", "-1", arg(static_cast<long long>(q->options.size()) - 1), arg(option)});
  if (option < 0) answers_of(st).erase(scene_id + "/" + qid);
  else answers_of(st)[scene_id + "/" + qid] = option;
  return Status::Ok();
}

Status check_answer(const PlaygroundState&, const std::string& scene_id, const json& a) {
  if (!a.is_object() || !a.contains("id") || !a.contains("option") || a.size() != 2)
    return Status::Error("answer must be {\"id\": …, \"option\": …}, got {0}", {quote_json(a)});
  std::string qid;
  AP_TRY(read_string(a["id"], "answer.id", &qid));
  const QuizQuestion* q = find(scene_id, qid);
  if (!q) return Status::Error("unknown question '{0}'", {qid});
  long long v;
  AP_TRY(read_int(a["option"], "answer.option", -1, static_cast<long long>(q->options.size()) - 1, &v));
  return Status::Ok();
}

int quiz_pick(const PlaygroundState& st, const std::string& scene_id, const std::string& qid) {
  const auto it = st.quiz_answers.find(scene_id + "/" + qid);
  return it == st.quiz_answers.end() ? -1 : it->second;
}

json quiz_report(const PlaygroundState& st) {
  json out = json::array();
  const std::string sid = st.scene().id();
  for (const QuizQuestion& q : quiz_for(sid)) {
    const int pick = quiz_pick(st, sid, q.id);
    json opts = json::array();
    for (const char* o : q.options) opts.push_back(tr(o));
    out.push_back({{"id", q.id}, {"question", tr(q.question)}, {"options", opts}, {"picked", pick},
                   {"right", pick < 0 ? json(nullptr) : json(pick == q.correct)},
                   {"explanation", pick < 0 ? std::string() : std::string(tr(q.explanation))}});
  }
  return out;
}

}  // namespace ap
