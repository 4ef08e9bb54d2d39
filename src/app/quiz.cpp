#include "quiz.h"

#include <map>

#include "app/json_fields.h"
#include "app/state.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kQuizStrings[] = {
    {"Check yourself", "自我检测"},
    {"Right.", "答对了。"},
    {"Not quite.", "不太对。"},
    {"Try again", "重新作答"},
    // sdpa
    {"'it' puts its largest weight on one token. Is that token the reason for the model's prediction?",
     "“it” 把最大的权重给了某个词。这个词就是模型做出预测的原因吗？"},
    {"Yes: the largest weight decides the prediction", "是：权重最大的词决定了预测"},
    {"No: the output mixes every V row by its weight, and residuals, other layers and non-linearities act too",
     "不是：输出按权重混合了所有 V 行，残差、其他层和非线性也都起作用"},
    {"Only when that weight is above 0.5", "只有当这个权重超过 0.5 时才是"},
    {"A weight is not a causal attribution (the notes' first misconception). Here the weights are seeded, not trained, so they do not even reflect meaning.",
     "权重不等于因果归因（讲义中的第一个误区）。这里的权重是随机种子生成、未经训练的，连语义都不代表。"},
    {"In softmax(QKᵀ/√d_k)·V, what do Q·K and V each do?", "在 softmax(QKᵀ/√d_k)·V 中，Q·K 和 V 各自做什么？"},
    {"Q·K picks the best position and its value is copied", "Q·K 挑出最好的位置，并复制它的值"},
    {"Q·K only distributes the weights; the output is the weighted sum of the V rows", "Q·K 只负责分配权重；输出是 V 各行的加权和"},
    {"V decides the weights and Q·K is summed", "V 决定权重，被求和的是 Q·K"},
    {"The notes' memory hook: QK only distributes the weights, V is what gets summed. Scores [2, 1, 0] and values [10, 0, −10] give 5.75, not 10.",
     "讲义的记忆钩子：QK 只负责分配权重，真正被汇总的是 V。分数 [2, 1, 0]、值 [10, 0, −10] 得到 5.75，而不是 10。"},
    {"Where does the mask act?", "掩码作用在哪里？"},
    {"On the scores, before softmax (−∞ is added)", "作用在分数上，在 softmax 之前（加上 −∞）"},
    {"On the weights, after softmax", "作用在权重上，在 softmax 之后"},
    {"On the output A·V", "作用在输出 A·V 上"},
    {"−∞ before softmax makes e^(−∞) = 0: hidden weights are exactly 0 and each row still sums to 1. Applied after softmax the rows no longer sum to 1 (see the masks scene).",
     "在 softmax 之前加 −∞，使 e^(−∞) = 0：被遮住的权重恰好为 0，每行之和仍为 1。若在 softmax 之后再遮，行和就不再为 1（见掩码场景）。"},
    // scaling
    {"Why are the scores divided by √d_k?", "为什么分数要除以 √d_k？"},
    {"To make the computation cheaper", "为了让计算更便宜"},
    {"The variance of q·k grows as d_k; dividing by √d_k keeps it near 1, so softmax does not saturate",
     "q·k 的方差随 d_k 增大；除以 √d_k 让它保持在 1 附近，softmax 就不会饱和"},
    {"So that each row of weights sums to 1", "为了让每行权重之和为 1"},
    {"q·k adds d_k products of variance 1, so its variance is d_k (this scene measures it). Large scores push softmax towards one-hot, where its gradients vanish.",
     "q·k 是 d_k 个方差为 1 的乘积之和，方差为 d_k（本场景实测）。分数过大会把 softmax 推向 one-hot，梯度随之消失。"},
    {"With d_k = 512 and no scaling, what do the softmax weights look like?", "d_k = 512 且不缩放时，softmax 权重是什么样子？"},
    {"Nearly uniform", "几乎均匀"},
    {"Nearly one-hot: one key takes almost everything", "几乎是 one-hot：一个 key 拿走几乎全部权重"},
    {"Some weights turn negative", "有些权重变成负数"},
    {"The unscaled scores spread about ±√512 ≈ ±23: the largest dominates after exp. The softmax stage of this scene shows the largest weight near 1 and the entropy near 0.",
     "不缩放时分数分布在 ±√512 ≈ ±23 左右：取指数后最大的那个占绝对优势。本场景的 softmax 阶段显示最大权重接近 1、熵接近 0。"},
    // masks
    {"What is the difference between the padding mask and the causal mask?", "填充掩码与因果掩码有什么区别？"},
    {"Padding hides the [PAD] keys; causal hides the tokens after the query", "填充掩码遮住 [PAD] 的 key；因果掩码遮住 query 之后的词"},
    {"Both hide the [PAD] keys", "两者都遮住 [PAD] 的 key"},
    {"Causal hides the tokens before the query", "因果掩码遮住 query 之前的词"},
    {"The notes: the padding mask hides what was only added to make sentences the same length; the causal mask stops a position from reading future tokens (autoregressive training).",
     "讲义：填充掩码屏蔽仅为补齐长度而加的位置；因果掩码阻止当前位置读取未来的词（自回归训练）。"},
    {"Does every kind of attention connect any two positions of one sequence?", "所有注意力都让同一序列的任意两个位置直接相连吗？"},
    {"Yes, that is what attention does", "是的，注意力就是这样"},
    {"No: that is self-attention; cross-attention connects the queries of one sequence with the keys and values of another",
     "不是：那是自注意力；交叉注意力连接的是一个序列的 query 与另一个序列的 key 和 value"},
    {"No: attention only connects neighbouring positions", "不是：注意力只连接相邻位置"},
    {"The notes' second misconception. In a decoder, cross-attention reads the encoder's outputs; with a causal mask even self-attention sees only the past.",
     "讲义中的第二个误区。在解码器里，交叉注意力读取编码器的输出；加上因果掩码后，连自注意力也只能看到过去。"},
    {"The hidden weights are set to 0 after softmax instead of adding −∞ before. What goes wrong?", "在 softmax 之后把被遮住的权重置 0，而不是之前加 −∞。会出什么问题？"},
    {"Nothing: the weights are the same", "没问题：权重一样"},
    {"Rows sum to less than 1, and the hidden keys still shaped the softmax's denominator", "行和小于 1，而且被遮住的 key 仍然影响了 softmax 的分母"},
    {"The weights become negative", "权重变成负数"},
    {"Pick the bug \"mask after softmax\" and look at the row sums in red and at the future leak in the damage table.",
     "选择 bug “softmax 之后才加掩码”，看红色的行和，以及破坏表里的未来泄漏。"},
    // cost
    {"Once n > d, self-attention does more multiply-adds than an RNN. Why does it still train faster on a GPU?",
     "当 n > d 时，自注意力的乘加比 RNN 多。为什么它在 GPU 上仍然训练得更快？"},
    {"It does fewer operations after all", "它其实做的运算更少"},
    {"Its n² work has no dependent steps (O(1) sequential operations), so it spreads over many lanes; the RNN's n steps must run one after another",
     "它的 n² 工作没有相互依赖的步骤（O(1) 顺序操作），可以铺满大量并行通道；RNN 的 n 步必须一个接一个执行"},
    {"GPUs have special hardware for softmax", "GPU 有专门的 softmax 硬件"},
    {"Stage 4 of this scene: with enough lanes P the work divides by P, but the RNN keeps its n dependent steps. The measured speed-up with workers shows the same on this machine.",
     "本场景第 4 阶段：通道数 P 足够多时工作量除以 P，而 RNN 仍有 n 个相互依赖的步骤。用工作线程实测的加速比在本机上展示了同样的事。"},
    {"How many steps does information need to travel from token 1 to token n?", "信息从第 1 个词传到第 n 个词需要多少步？"},
    {"Attention 1, RNN n", "注意力 1 步，RNN n 步"},
    {"n in both", "两者都是 n 步"},
    {"Attention log n, RNN n", "注意力 log n 步，RNN n 步"},
    {"The maximum path length: O(1) for self-attention, O(n) for a recurrent layer, O(log_k n) for stacked convolutions. It is why attention captures long-range dependencies.",
     "最大路径长度：自注意力 O(1)，循环层 O(n)，堆叠卷积 O(log_k n)。这正是注意力能捕捉长距离依赖的原因。"},
    {"unknown question '{0}'", "未知的问题 '{0}'"},
    {"answer must be {\"id\": …, \"option\": …}, got {0}", "answer 必须是 {\"id\": …, \"option\": …}，收到的是 {0}"},
};

const std::map<std::string, std::vector<QuizQuestion>>& table() {
  static const std::map<std::string, std::vector<QuizQuestion>> kQuiz = {
      {"sdpa",
       {{"largest-weight", N_("'it' puts its largest weight on one token. Is that token the reason for the model's prediction?"),
         {N_("Yes: the largest weight decides the prediction"),
          N_("No: the output mixes every V row by its weight, and residuals, other layers and non-linearities act too"),
          N_("Only when that weight is above 0.5")},
         1, N_("A weight is not a causal attribution (the notes' first misconception). Here the weights are seeded, not trained, so they do not even reflect meaning.")},
        {"qk-v", N_("In softmax(QKᵀ/√d_k)·V, what do Q·K and V each do?"),
         {N_("Q·K picks the best position and its value is copied"),
          N_("Q·K only distributes the weights; the output is the weighted sum of the V rows"), N_("V decides the weights and Q·K is summed")},
         1, N_("The notes' memory hook: QK only distributes the weights, V is what gets summed. Scores [2, 1, 0] and values [10, 0, −10] give 5.75, not 10.")},
        {"mask-where", N_("Where does the mask act?"),
         {N_("On the scores, before softmax (−∞ is added)"), N_("On the weights, after softmax"), N_("On the output A·V")},
         0, N_("−∞ before softmax makes e^(−∞) = 0: hidden weights are exactly 0 and each row still sums to 1. Applied after softmax the rows no longer sum to 1 (see the masks scene).")}}},
      {"scaling",
       {{"why-sqrt", N_("Why are the scores divided by √d_k?"),
         {N_("To make the computation cheaper"),
          N_("The variance of q·k grows as d_k; dividing by √d_k keeps it near 1, so softmax does not saturate"),
          N_("So that each row of weights sums to 1")},
         1, N_("q·k adds d_k products of variance 1, so its variance is d_k (this scene measures it). Large scores push softmax towards one-hot, where its gradients vanish.")},
        {"dk512", N_("With d_k = 512 and no scaling, what do the softmax weights look like?"),
         {N_("Nearly uniform"), N_("Nearly one-hot: one key takes almost everything"), N_("Some weights turn negative")},
         1, N_("The unscaled scores spread about ±√512 ≈ ±23: the largest dominates after exp. The softmax stage of this scene shows the largest weight near 1 and the entropy near 0.")}}},
      {"masks",
       {{"padding-causal", N_("What is the difference between the padding mask and the causal mask?"),
         {N_("Padding hides the [PAD] keys; causal hides the tokens after the query"), N_("Both hide the [PAD] keys"),
          N_("Causal hides the tokens before the query")},
         0, N_("The notes: the padding mask hides what was only added to make sentences the same length; the causal mask stops a position from reading future tokens (autoregressive training).")},
        {"after-softmax", N_("The hidden weights are set to 0 after softmax instead of adding −∞ before. What goes wrong?"),
         {N_("Nothing: the weights are the same"), N_("Rows sum to less than 1, and the hidden keys still shaped the softmax's denominator"),
          N_("The weights become negative")},
         1, N_("Pick the bug \"mask after softmax\" and look at the row sums in red and at the future leak in the damage table.")},
        {"cross", N_("Does every kind of attention connect any two positions of one sequence?"),
         {N_("Yes, that is what attention does"),
          N_("No: that is self-attention; cross-attention connects the queries of one sequence with the keys and values of another"),
          N_("No: attention only connects neighbouring positions")},
         1, N_("The notes' second misconception. In a decoder, cross-attention reads the encoder's outputs; with a causal mask even self-attention sees only the past.")}}},
      {"cost",
       {{"gpu", N_("Once n > d, self-attention does more multiply-adds than an RNN. Why does it still train faster on a GPU?"),
         {N_("It does fewer operations after all"),
          N_("Its n² work has no dependent steps (O(1) sequential operations), so it spreads over many lanes; the RNN's n steps must run one after another"),
          N_("GPUs have special hardware for softmax")},
         1, N_("Stage 4 of this scene: with enough lanes P the work divides by P, but the RNN keeps its n dependent steps. The measured speed-up with workers shows the same on this machine.")},
        {"path", N_("How many steps does information need to travel from token 1 to token n?"),
         {N_("Attention 1, RNN n"), N_("n in both"), N_("Attention log n, RNN n")},
         0, N_("The maximum path length: O(1) for self-attention, O(n) for a recurrent layer, O(log_k n) for stacked convolutions. It is why attention captures long-range dependencies.")}}},
  };
  return kQuiz;
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
  const auto it = table().find(scene_id);
  return it == table().end() ? kNone : it->second;
}

const TrPair* quiz_translations(size_t* count) {
  *count = sizeof kQuizStrings / sizeof kQuizStrings[0];
  return kQuizStrings;
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
