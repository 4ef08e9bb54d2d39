#include "train_scene.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "app/json_fields.h"
#include "app/param_fields.h"
#include "app/scene_presets.h"
#include "app/train_host.h"
#include "app/weights_label.h"
#include "core/number_text.h"
#include "core/tokenizer.h"
#include "core/train/coref.h"

namespace ap {

using nlohmann::json;

namespace {

const TrPair kTrainStrings[] = {
    {"Watch attention learn", "看注意力学习"},
    {"Press Train with 2 layers and watch the \"it\" row of layer 2; then Reset, choose 1 layer and train again. Change the adjective (tired → wide) in the sentence.",
     "用 2 层按“训练”，看第 2 层 \"it\" 那一行；然后“重置”，选 1 层再训练。把句子里的形容词改掉（tired → wide）。"},
    {"With two layers the loss falls, the held-out accuracy climbs towards 100 % within seconds and \"it\" attends to the noun the adjective describes; one layer stays near 50 %: its query at \"it\" has not yet read the adjective that follows.",
     "两层时损失下降，留出集准确率在几秒内升到接近 100 %，\"it\" 关注形容词所描述的那个名词；一层停在 50 % 左右：它在 \"it\" 处的 query 还没有读到后面的形容词。"},
    {"Train on the coreference task", "在指代消解任务上训练"},
    {"The task: which noun is \"it\"?", "任务：\"it\" 指哪个名词？"},
    {"Five sentence frames with 20 animals, 20 places and 20 adjectives; the adjective after \"it\" decides whether \"it\" is the animal or the place. The held-out sentences pair nouns and adjectives that training never pairs. Here: the sentence's weights in every layer, the \"it\" row outlined.",
     "五种句式，20 种动物、20 个地点、20 个形容词；\"it\" 后面的形容词决定 \"it\" 指动物还是地点。留出句子里的名词和形容词组合在训练中从未出现。这里显示句子在每一层的注意力权重，\"it\" 那一行用框标出。"},
    {"A pointer readout: the loss is −log of the weight that the \"it\" row of the last layer puts on the referent. Training moves W^Q, W^K, W^V until that weight is large, on sentences the model was trained on and on held-out ones alike.",
     "指针式读出：损失是最后一层 \"it\" 那一行放在所指名词上的权重取 −log。训练不断调整 W^Q、W^K、W^V，直到这个权重变大——对训练过的句子和留出的句子都一样。"},
    // presets
    {"Two layers (solves it)", "两层（能解决）"},
    {"Layer 1 reads the adjective into \"it\", layer 2 picks the noun: held-out accuracy near 100 %.",
     "第 1 层把形容词读进 \"it\"，第 2 层挑出名词：留出集准确率接近 100 %。"},
    {"One layer (cannot)", "一层（做不到）"},
    {"The query at \"it\" cannot depend on the adjective after it: held-out accuracy stays near 50 %.",
     "\"it\" 处的 query 不可能依赖后面的形容词：留出集准确率停在 50 % 左右。"},
    // status and labels (the view draws its own strings: views/train_view.cpp)
    {"batch", "批大小"},
    {"loss", "损失"},
    {"idle", "未开始"},
    {"running", "训练中"},
    {"paused", "已暂停"},
    {"done", "完成"},
    {"diverged", "发散"},
    {"failed", "失败"},
    {"trained on coreference, {0} steps, held-out accuracy {1} %", "在指代消解上训练，{0} 步，留出集准确率 {1} %"},
    {"trained on naming the referent, {0} steps, held-out accuracy {1} %", "在说出所指名词上训练，{0} 步，留出集准确率 {1} %"},
    // the task "heads"
    {"Choose two heads and press Train; when the run ends, read the table: what does each head read at \"it\", and after a noun? Then try one head and four.",
     "选两个头并按“训练”；训练结束后看下表：每个头在 \"it\" 处读什么，在名词后面一个词处又读什么？再试一个头和四个头。"},
    {"Every head count names the referent on about 100 % of held-out sentences. One head spreads its \"it\" row over both nouns; two heads split the work at \"it\": each reads one noun unless an adjective of the other kind outbids it in the softmax. After a noun the heads read the previous token (three of four heads with four): one head serves both relations, told apart by where its query stands (measured with seed 1).",
     "每种头数都能在约 100 % 的留出句子上说出所指。一个头把 \"it\" 这一行分散在两个名词上；两个头在 \"it\" 处分工：每个头读一个名词，除非另一类的形容词在 softmax 里把它压过去。在名词后面一个词处，各个头都读前一个词（四个头时是其中三个）：同一个头承担两种关系，靠 query 所在的位置区分（种子 1 时测得）。"},
    {"Heads: name the referent (1 layer)", "多头：说出所指名词（1 层）"},
    {"task", "任务"},
    {"One head", "一个头"},
    {"Two heads", "两个头"},
    {"Four heads", "四个头"},
    {"One layer of one head names the referent among the 40 nouns: does a single head read the nouns and the adjective at once?",
     "一层一个头，在 40 个名词中说出所指：一个头能同时读名词和形容词吗？"},
    {"One layer of two heads names the referent among the 40 nouns: watch what each head learns to read.",
     "一层两个头，在 40 个名词中说出所指：看每个头学会读什么。"},
    {"One layer of four heads names the referent among the 40 nouns: some heads learn the same thing, or nothing.",
     "一层四个头，在 40 个名词中说出所指：有的头学到相同的东西，有的什么也没学到。"},
    {"Here one layer must NAME nouns among all 40 (a classifier reads three rows' outputs): the referent at \"it\", and each noun at the word right after it. After a noun the row only needs its previous token, a local relation; the query at \"it\" has not read the adjective, so no head can point at the referent: that row must read the nouns (the candidates) and the adjective (which kind is meant). Nothing tells a head which to read: the table shows what each one learned, measured on the held-out sentences.",
     "这里一层要在全部 40 个名词中说出名词（分类器读取三行的输出）：在 \"it\" 处说出所指，在每个名词后面一个词处说出这个名词。名词后面那一行只需要读前一个词，这是局部关系；\"it\" 处的 query 还没读到形容词，所以没有哪个头能直接指向所指名词：这一行必须读名词（候选）和形容词（指哪一类）。没有什么告诉某个头该读什么：下表是每个头学到的东西，在留出句子上测量。"},
    {"animal", "动物"},
    {"place", "地点"},
    {"adjective", "形容词"},
    {"previous token", "前一个词"},
    {"itself", "自身"},
    {"nouns", "两个名词"},
    {"spread", "分散"},
    {"task must be \"coref\", \"heads\" or \"induction\", got {0}", "task 必须是 \"coref\"、\"heads\" 或 \"induction\"，收到的是 {0}"},
    // the task "induction"
    {"Two layers (induction heads)", "两层（归纳头）"},
    {"One layer (no induction)", "一层（没有归纳）"},
    {"A previous-token head in layer 1 and an induction head in layer 2 form after a plateau, and the loss drops suddenly: held-out accuracy near 100 %.",
     "平台期之后，第 1 层形成“前一个词元”头，第 2 层形成归纳头，损失骤降：留出集准确率接近 100 %。"},
    {"One layer of two heads cannot compose \"the token before me\" with \"where my token was\": held-out accuracy stays far below.",
     "一层两个头无法把“我前面的词元”和“我的词元之前在哪里”组合起来：留出集准确率远远达不到。"},
    {"Press Train with 2 layers: the loss sits on a plateau, then drops; read the table: layer 1's head looks at the previous token, layer 2's at the token after the earlier copy. Then choose the example \"One layer (no induction)\" and train again.",
     "用 2 层按“训练”：损失先停在平台上，然后骤降；看下表：第 1 层的头看前一个词元，第 2 层的头看前一次出现之后的那个词元。然后选择示例“一层（没有归纳）”再训练。"},
    {"Two layers reach about 100 % held-out within 600 steps, after a plateau of about 200; the table shows a previous-token head (layer 1) and an induction head (layer 2). One layer, even with two heads, stays near 40 % (measured with seed 1).",
     "两层在 600 步内达到约 100 % 的留出集准确率，之前有约 200 步的平台期；下表显示第 1 层是“前一个词元”头，第 2 层是归纳头。一层即使有两个头也停在 40 % 左右（种子 1 时测得）。"},
    {"The task: continue a repeated sequence", "任务：接着写出重复的序列"},
    {"A segment of 6 different letters occurs twice among random filler letters, at random places. On its second occurrence the model predicts each next letter: it must find where the current letter occurred before and copy the letter that followed it. The held-out sequences use segments never trained on. Here: each layer's causal weights for the sequence.",
     "一段 6 个互不相同的字母在随机的填充字母中出现两次，位置随机。在第二次出现时，模型预测每个下一个字母：它必须找到当前字母之前出现的位置，并复制跟在它后面的字母。留出序列使用训练中从未出现的片段。这里显示序列在每一层的因果注意力权重。"},
    {"Induction heads (Olsson et al. 2022)", "归纳头（Olsson 等，2022）"},
    {"Two attention-only layers: a previous-token head in layer 1 writes each letter into the position after it; in layer 2 the query of the current letter matches that and copies the letter found there. The loss sits near ln 24 for a while, then drops suddenly when both heads have formed.",
     "两层只有注意力：第 1 层的“前一个词元”头把每个字母写进它后面的位置；第 2 层当前字母的 query 与之匹配，并复制那里的字母。损失先在 ln 24 附近停留一段时间，两个头都形成后突然下降。"},
    {"induction", "归纳"},
    {"same token", "相同词元"},
    {"trained on copying a repeated sequence, {0} steps, held-out accuracy {1} %", "在复制重复序列上训练，{0} 步，留出集准确率 {1} %"},
    {"random, seed {0}", "随机权重，种子 {0}"},
    // errors (the scene's and the training engine's)
    {"training must be \"start\", \"pause\" or \"reset\", got {0}", "training 必须是 \"start\"、\"pause\" 或 \"reset\"，收到的是 {0}"},
    {"this panel trains the view's own model: only its seed, steps and learning rate change (the model: {0})",
     "这个面板训练的是视图自己的模型：只能改变它的种子、步数和学习率（模型：{0}）"},
    {"train_seed, train_steps, train_lr and train_step name a trained model together: {0} is missing",
     "train_seed、train_steps、train_lr 和 train_step 一起指明一个训练过的模型：缺少 {0}"},
    {"weights must be \"trained\" or \"random\", got {0}", "weights 必须是 \"trained\" 或 \"random\"，收到的是 {0}"},
    {"the run diverged: press Reset or change the recipe", "训练已发散：请按“重置”或修改训练配方"},
    {"the run is finished: press Reset to train again", "训练已完成：按“重置”可重新训练"},
    {"training is not available here: {0}", "此处无法训练：{0}"},
    {"training does not match the current run", "training 与当前的训练不一致"},
    {"unknown training task {0} (the tasks: \"coref\", \"heads\", \"induction\")", "未知的训练任务 {0}（可用任务：\"coref\"、\"heads\"、\"induction\"）"},
    {"a sequence of this model holds 2 to {0} tokens, got {1}", "这个模型的序列有 2 到 {0} 个词元，收到 {1} 个"},
    {"{0} is not a token of this model (its tokens: the capital letters A to {1})", "{0} 不是这个模型的词元（它的词元：大写字母 A 到 {1}）"},
    {"the learning rate must be a number above 0 and at most {0}, got {1}", "学习率必须是大于 0 且不超过 {0} 的数，收到的是 {1}"},
    {"this recipe needs about {0} multiply-adds, more than the {1} the page trains within about a minute: fewer steps, layers or a smaller d_model or batch",
     "这个配方需要约 {0} 次乘加，超过页面在约一分钟内能训练的 {1} 次：请减少步数、层数，或减小 d_model 或批大小"},
    {"training diverged at step {0} (loss {1}): stopped, the weights of step {2} are kept", "训练在第 {0} 步发散（损失 {1}）：已停止，保留第 {2} 步的权重"},
    {"the sentence must have 2 to {0} words, got {1}", "句子必须有 2 到 {0} 个词，收到 {1} 个"},
    {"{0} is not in the task's vocabulary", "{0} 不在这个任务的词表里"},
    {"the sentence must contain \"it\" once", "句子里必须恰好有一个 \"it\""},
    {"the checkpoint has {0} parameters, its recipe needs {1}", "检查点有 {0} 个参数，它的配方需要 {1} 个"},
    {"the checkpoint has a parameter {0} that its recipe does not have", "检查点里的参数 {0} 在它的配方中不存在"},
    {"the checkpoint's parameter {0} is {1} × {2}, its recipe needs {3} × {4}", "检查点的参数 {0} 是 {1} × {2}，它的配方需要 {3} × {4}"},
    {"the checkpoint's parameter {0} holds a value that is not a finite number", "检查点的参数 {0} 含有非有限的数"},
    {"the checkpoint says held-out accuracy {0}, its weights give {1}", "检查点声称留出集准确率为 {0}，但它的权重给出 {1}"},
    {"the checkpoint is too short to be one ({0} bytes)", "检查点太短（{0} 字节），不可能是检查点"},
    {"this is not a checkpoint of the playground (it does not start with {0})", "这不是本 playground 的检查点（开头不是 {0}）"},
    {"the checkpoint is version {0}; this build reads version {1}", "检查点是第 {0} 版；本版本只能读取第 {1} 版"},
    {"the checkpoint is truncated: {0} bytes, its header says {1}", "检查点被截断：只有 {0} 字节，文件头说应有 {1} 字节"},
    {"the checkpoint has {0} bytes after its end", "检查点末尾之后还有 {0} 个字节"},
    {"the checkpoint is damaged: its checksum does not match", "检查点已损坏：校验和不一致"},
    {"the checkpoint holds a model of the task {0}, this view shows the model of the task {1}",
     "检查点里是任务 {0} 的模型，这个视图展示的是任务 {1} 的模型"},
    {"the checkpoint's payload ends in the middle of a field", "检查点的数据在某个字段中间就结束了"},
    {"the checkpoint holds a model of {0} layers × {1} heads (d_model {2}), this view shows one of {3} × {4} (d_model {5})",
     "检查点里的模型是 {0} 层 × {1} 头（d_model {2}），这个视图展示的是 {3} × {4}（d_model {5}）的模型"},
    {"the training worker sent a report this page cannot read", "训练 worker 发来的报告无法读取"},
    {"a training report that does not hold together: {0}", "训练报告前后不一致：{0}"},
    {"the recipe has {0} bytes after its end", "配方末尾之后还有 {0} 个字节"},
    {"the recipe ends in the middle of a field", "配方在某个字段中间就结束了"},
};

using TrainPreset = ScenePreset<TrainParams>;
TrainParams with_layers(int layers) {
  TrainParams p;
  p.recipe.layers = layers;
  return p;
}
TrainParams with_heads(int heads) {
  TrainParams p;
  p.recipe = train::heads_recipe(heads);
  return p;
}
// "DRAGON" twice among fillers: on the second copy, each next letter is the one after the first copy's.
constexpr const char* kInductionText = "Q U I D R A G O N S K U L E D R A G O N";
TrainParams with_induction(int layers, int heads) {
  TrainParams p;
  p.recipe = train::induction_recipe(layers);
  p.recipe.heads = heads;
  p.text = kInductionText;
  return p;
}
const std::vector<TrainPreset>& train_presets() {
  static const std::vector<TrainPreset> kPresets = {
      {{"two-layers", N_("Two layers (solves it)"),
        N_("Layer 1 reads the adjective into \"it\", layer 2 picks the noun: held-out accuracy near 100 %.")}, with_layers(2)},
      {{"one-layer", N_("One layer (cannot)"),
        N_("The query at \"it\" cannot depend on the adjective after it: held-out accuracy stays near 50 %.")}, with_layers(1)},
      {{"heads-1", N_("One head"),
        N_("One layer of one head names the referent among the 40 nouns: does a single head read the nouns and the adjective at once?")}, with_heads(1)},
      {{"heads-2", N_("Two heads"),
        N_("One layer of two heads names the referent among the 40 nouns: watch what each head learns to read.")}, with_heads(2)},
      {{"heads-4", N_("Four heads"),
        N_("One layer of four heads names the referent among the 40 nouns: some heads learn the same thing, or nothing.")}, with_heads(4)},
      {{"induction", N_("Two layers (induction heads)"),
        N_("A previous-token head in layer 1 and an induction head in layer 2 form after a plateau, and the loss drops suddenly: held-out accuracy near 100 %.")},
       with_induction(2, 1)},
      {{"induction-one-layer", N_("One layer (no induction)"),
        N_("One layer of two heads cannot compose \"the token before me\" with \"where my token was\": held-out accuracy stays far below.")},
       with_induction(1, 2)},
  };
  return kPresets;
}

enum class Command { None, Start, Pause, Reset };

struct TrainChange final : SceneChange {
  TrainParams params;
  std::vector<std::string> words;
  Command command = Command::None;
};

// Every parameter, once: the document, the link and setState's reading (app/param_fields.h). The recipe's
// fields are checked one by one here and as a whole (train::validate_recipe) in prepare.
const FieldTable<TrainParams>& fields() {
  using P = TrainParams;
  static const FieldTable<P> kFields = {
      {"task",
       [](const json& v, P* p) {
         const std::string t = v.is_string() ? v.get<std::string>() : std::string();
         if (t != "coref" && t != train::kHeadsTask && t != train::kInductionTask)
           return Status::Error("task must be \"coref\", \"heads\" or \"induction\", got {0}", {quote_json(v)});
         p->recipe.task = v.get<std::string>();
         return Status::Ok();
       },
       [](const P& p, json& doc) { doc["task"] = p.recipe.task; }, UrlKind::String},
      {"text", at<&P::text>},
      {"layers", [](P& p) -> int& { return p.recipe.layers; }, 1, train::recipe_limits::kMaxLayers},
      {"d_model", [](P& p) -> int& { return p.recipe.d_model; }, 1, train::recipe_limits::kMaxDModel},
      {"heads", [](P& p) -> int& { return p.recipe.heads; }, 1, train::recipe_limits::kMaxHeads},
      {"seed", [](P& p) -> uint64_t& { return p.recipe.seed; }, 0, train::recipe_limits::kMaxSeed},
      {"steps", [](P& p) -> int& { return p.recipe.steps; }, 1, train::recipe_limits::kMaxSteps},
      {"learning_rate",
       [](const json& v, P* p) {
         if (!v.is_number())  // its range: validate_recipe, with the recipe's own message
           return Status::Error("the learning rate must be a number above 0 and at most {0}, got {1}",
                                {format_number(train::recipe_limits::kMaxLearningRate), quote_json(v)});
         p->recipe.learning_rate = v.get<double>();
         return Status::Ok();
       },
       [](const P& p, json& doc) { doc["learning_rate"] = p.recipe.learning_rate; }, UrlKind::Number, "lr"},
      {"batch", [](P& p) -> int& { return p.recipe.batch; }, 1, train::recipe_limits::kMaxBatch},
      weights_field<P>(),
  };
  return kFields;
}

}  // namespace

Status read_recipe_fields(const json& recipe, TrainParams* p) { return read_fields(recipe, fields(), train_presets(), {}, p); }

const char* train_default_text(const std::string& task) {
  static const std::string kSentence = TrainParams().text;
  return task == train::kInductionTask ? kInductionText : kSentence.c_str();
}

json induction_heads_json(const std::vector<train::InductionHeadScore>& heads) {
  json out = json::array();
  for (const train::InductionHeadScore& h : heads)
    out.push_back({{"layer", h.layer + 1}, {"head", h.head + 1}, {"previous", h.previous}, {"induction", h.induction},
                   {"same_token", h.same_token}, {"self", h.self}, {"reads", train::induction_relation(h)}});
  return out;
}

json recipe_json(const train::Recipe& r) {
  return {{"task", r.task}, {"layers", r.layers}, {"d_model", r.d_model}, {"heads", r.heads}, {"seed", r.seed},
          {"steps", r.steps}, {"learning_rate", r.learning_rate}, {"batch", r.batch}};
}

json head_patterns_json(const std::vector<train::HeadPattern>& patterns) {
  const auto shares = [](const train::RowShares& r) {
    return json{{"animal", r.animal}, {"place", r.place}, {"adjective", r.adjective}, {"previous", r.previous},
                {"self", r.self}, {"entropy", r.entropy}};
  };
  json heads = json::array();
  for (const train::HeadPattern& p : patterns)
    heads.push_back({{"layer", p.layer + 1}, {"head", p.head + 1}, {"referent", p.referent}, {"other_noun", p.other_noun},
                     {"when_animal", shares(p.when_animal)}, {"when_place", shares(p.when_place)}, {"reads", train::head_relation(p)},
                     {"after_noun", p.after_noun}, {"after_noun_other", p.after_noun_other},
                     {"after_noun_reads", train::after_noun_relation(p)}});
  return heads;
}

Status train_sentence_words(const std::string& text, std::vector<std::string>* words, const std::string& task) {
  // The coreference words are lowercase, the induction tokens capital letters: both are typed in either case.
  const bool upper = task == train::kInductionTask;
  std::vector<std::string> w = split_on_spaces(text);
  if (w.size() > 65) w.resize(65);  // longer than any sentence of the task: refused below
  for (std::string& t : w)
    for (char& c : t)
      c = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
  AP_TRY(train::check_task_words(task, w));
  *words = std::move(w);
  return Status::Ok();
}

TrainScene::TrainScene(bool defer) {
  if (defer) defer_first_model();
  else build_first();
}

TrainScene::~TrainScene() = default;

void TrainScene::build_first() {
  (void)train_sentence_words(params_.text, &words_);  // the default sentence is in the vocabulary
  restart(/*take_host=*/false);  // opened for the first time: a run training in another scene goes on
  first_model();
}

const char* TrainScene::title() const { return N_("Watch attention learn"); }

LessonInfo TrainScene::lesson() const {
  if (params_.recipe.task == train::kInductionTask)
    return {"x² = x¹ + Attn²(x¹),   x¹ = x⁰ + Attn¹(x⁰)   (causal, attention only)",
            N_("Press Train with 2 layers: the loss sits on a plateau, then drops; read the table: layer 1's head looks at the previous token, layer 2's at the token after the earlier copy. Then choose the example \"One layer (no induction)\" and train again."),
            N_("Two layers reach about 100 % held-out within 600 steps, after a plateau of about 200; the table shows a previous-token head (layer 1) and an induction head (layer 2). One layer, even with two heads, stays near 40 % (measured with seed 1).")};
  if (params_.recipe.task == train::kHeadsTask)
    return {"logits = x¹[it | after a noun]·W^C + b^C  (40 nouns),   x¹ = x⁰ + MultiHead_H(x⁰)",
            N_("Choose two heads and press Train; when the run ends, read the table: what does each head read at \"it\", and after a noun? Then try one head and four."),
            N_("Every head count names the referent on about 100 % of held-out sentences. One head spreads its \"it\" row over both nouns; two heads split the work at \"it\": each reads one noun unless an adjective of the other kind outbids it in the softmax. After a noun the heads read the previous token (three of four heads with four): one head serves both relations, told apart by where its query stands (measured with seed 1).")};
  return {"loss = −log A^L[it, referent],   A^L = softmax(Q^L·K^Lᵀ/√dₖ)",
          N_("Press Train with 2 layers and watch the \"it\" row of layer 2; then Reset, choose 1 layer and train again. Change the adjective (tired → wide) in the sentence."),
          N_("With two layers the loss falls, the held-out accuracy climbs towards 100 % within seconds and \"it\" attends to the noun the adjective describes; one layer stays near 50 %: its query at \"it\" has not yet read the adjective that follows.")};
}

const std::vector<StageInfo>& TrainScene::stages() const {
  static const std::vector<StageInfo> kStages = {
      {"task", N_("The task: which noun is \"it\"?"), "referent = argmaxⱼ A^L[it, j]",
       N_("Five sentence frames with 20 animals, 20 places and 20 adjectives; the adjective after \"it\" decides whether \"it\" is the animal or the place. The held-out sentences pair nouns and adjectives that training never pairs. Here: the sentence's weights in every layer, the \"it\" row outlined.")},
      {"learn", N_("Train on the coreference task"), "loss = −(1/B)·Σ_b log A_b^L[it, referent]",
       N_("A pointer readout: the loss is −log of the weight that the \"it\" row of the last layer puts on the referent. Training moves W^Q, W^K, W^V until that weight is large, on sentences the model was trained on and on held-out ones alike.")},
  };
  // The task "heads": the same sentences, one layer, a classifier that names nouns among the 40: the referent at
  // "it", and each noun at the word after it.
  static const std::vector<StageInfo> kHeadsStages = {
      {"task", N_("The task: which noun is \"it\"?"), "referent = argmaxₖ (x¹[it]·W^C + b^C)ₖ,  k ∈ 40 nouns",
       N_("Here one layer must NAME nouns among all 40 (a classifier reads three rows' outputs): the referent at \"it\", and each noun at the word right after it. After a noun the row only needs its previous token, a local relation; the query at \"it\" has not read the adjective, so no head can point at the referent: that row must read the nouns (the candidates) and the adjective (which kind is meant). Nothing tells a head which to read: the table shows what each one learned, measured on the held-out sentences.")},
      {"learn", N_("Heads: name the referent (1 layer)"), "loss = −(1/3B)·Σ_(b,r) log softmax(x¹[row_(r)]·W^C + b^C)[noun_(r)]",
       N_("One layer of two heads names the referent among the 40 nouns: watch what each head learns to read.")},
  };
  // The task "induction": random letters with a segment repeated, a next-token readout on its second copy.
  static const std::vector<StageInfo> kInductionStages = {
      {"task", N_("The task: continue a repeated sequence"), "next(s₂ + r) = x[s₁ + r + 1],   r = 0 … 4",
       N_("A segment of 6 different letters occurs twice among random filler letters, at random places. On its second occurrence the model predicts each next letter: it must find where the current letter occurred before and copy the letter that followed it. The held-out sequences use segments never trained on. Here: each layer's causal weights for the sequence.")},
      {"learn", N_("Induction heads (Olsson et al. 2022)"), "loss = −(1/5B)·Σ_(b,r) log softmax(x^L[s₂ + r]·W^C + b^C)[next]",
       N_("Two attention-only layers: a previous-token head in layer 1 writes each letter into the position after it; in layer 2 the query of the current letter matches that and copies the letter found there. The loss sits near ln 24 for a while, then drops suddenly when both heads have formed.")},
  };
  if (params_.recipe.task == train::kInductionTask) return kInductionStages;
  return params_.recipe.task == train::kHeadsTask ? kHeadsStages : kStages;
}

const std::vector<PresetInfo>& TrainScene::presets() const { return preset_infos(train_presets()); }
const TrPair* TrainScene::translations(size_t* count) const { return translation_table(kTrainStrings, count); }

const std::vector<UrlParam>& TrainScene::url_params() const {
  static const std::vector<UrlParam> kParams = url_params_of(fields());
  return kParams;
}

// The document fields of parameters `p` (getState writes them; apply() sends them through prepare()).
void write_train_params(const TrainParams& p, json& doc) { write_fields(fields(), p, doc); }

void TrainScene::write_params(json& doc) const { write_train_params(params_, doc); }

json TrainScene::training_json() const {
  json t;
  t["task"] = params_.recipe.task;
  t["recipe"] = recipe_json(params_.recipe);
  run_.write_json(t);
  // What each head's "it" row reads, measured on every held-out sentence at the end of the run (heads.h).
  t["head_patterns"] = has_report() ? head_patterns_json(report().head_patterns) : json::array();
  // The task "induction": every head's scores at the last evaluation (induction.h), during the run too.
  t["induction_heads"] = has_report() ? induction_heads_json(report().induction_heads) : json::array();
  t["vocabulary"] = params_.recipe.task == train::kInductionTask
                        ? json(train::induction_vocabulary())
                        : json(std::vector<std::string>(train::coref_vocabulary().begin() + 1, train::coref_vocabulary().end()));
  return t;
}

void TrainScene::write_results(json& doc, bool with_matrices) const {
  doc["training"] = training_json();
  json r;
  r["words"] = words_;
  r["label"] = weights_label(false);  // the document is the same in every language
  int it = -1;
  for (size_t i = 0; i < words_.size(); ++i)
    if (words_[i] == "it") it = static_cast<int>(i);
  r["it"] = it;
  // The "it" row of every layer (head 1), and with matrices every map.
  json rows = json::array(), maps = json::array();
  const bool fits = !shown_.maps.empty() && shown_.maps[0].rows() == static_cast<Eigen::Index>(words_.size());
  if (fits && it >= 0)
    for (int l = 0; l < shown_.layers; ++l) {
      const Mat& m = shown_.maps[static_cast<size_t>(l * shown_.heads)];
      rows.push_back(std::vector<float>(m.row(it).data(), m.row(it).data() + m.cols()));
      if (with_matrices)
        for (int h = 0; h < shown_.heads; ++h) maps.push_back(matrix_json(shown_.maps[static_cast<size_t>(l * shown_.heads + h)]));
    }
  r["it_rows"] = rows;
  if (with_matrices) r["maps"] = maps;
  doc["results"] = r;
}

Status TrainScene::prepare(const json& in, std::unique_ptr<SceneChange>* out) const {
  // 1. Where the change starts: a preset, or the current view; 2. the fields, each validated; then the recipe
  //    as a whole.
  TrainParams p = params_;
  AP_TRY(read_fields(in, fields(), train_presets(), {"training", "results"}, &p));
  // A task that reads other words (letters, not a sentence) starts from its own text unless one is given.
  const bool letters = p.recipe.task == train::kInductionTask;
  if (letters != (params_.recipe.task == train::kInductionTask) && !in.contains("text")) p.text = train_default_text(p.recipe.task);
  AP_TRY(train::validate_recipe(p.recipe, train::task_seq_len(p.recipe.task)));
  auto change = std::make_unique<TrainChange>();
  AP_TRY(train_sentence_words(p.text, &change->words, p.recipe.task));
  // 3. The command, or getState's own reports coming back. For the current parameters they must be the current
  //    reports; for other parameters they describe a run this page trains again (the same recipe gives the same
  //    weights), so what follows from the parameters alone must agree: the recipe, the task, the words.
  const bool same = p.recipe == params_.recipe && p.text == params_.text;
  if (const auto it = in.find("training"); it != in.end()) {
    if (it->is_string()) {
      const std::string c = it->get<std::string>();
      if (c == "start") change->command = Command::Start;
      else if (c == "pause") change->command = Command::Pause;
      else if (c == "reset") change->command = Command::Reset;
      else return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {quote_json(*it)});
    } else if (!it->is_object()) {
      return Status::Error("training must be \"start\", \"pause\" or \"reset\", got {0}", {quote_json(*it)});
    } else if (same ? json::parse(it->dump()) != json::parse(training_json().dump())
                    : (!it->contains("recipe") || (*it)["recipe"] != recipe_json(p.recipe) || it->value("task", json()) != p.recipe.task)) {
      return Status::Error("training does not match the current run");
    }
  }
  if (const auto it = in.find("results"); it != in.end()) {
    json mine;
    write_results(mine, it->contains("maps"));
    if (!it->is_object() || (same ? json::parse(it->dump()) != json::parse(mine["results"].dump())
                                  : it->value("words", json()) != json(change->words)))
      return Status::Error("results do not match what the other fields give");
  }
  // 4. What the command needs of the current run.
  if (change->command == Command::Start || (p.trained && !params_.trained && change->command == Command::None)) {
    if (state() == TrainRunState::Failed) return run_.can_train();
    if (state() == TrainRunState::Diverged && p.recipe == params_.recipe) return run_.can_train();
  }
  if (change->command == Command::Start) p.trained = true;
  if (change->command == Command::Reset) p.trained = false;
  change->params = p;
  *out = std::move(change);
  return Status::Ok();
}

void TrainScene::commit(std::unique_ptr<SceneChange> change) {
  auto* c = static_cast<TrainChange*>(change.get());
  const TrainParams old = params_;
  params_ = c->params;
  words_ = c->words;
  const bool fresh = old.recipe != params_.recipe || c->command == Command::Reset || (old.trained && !params_.trained);
  if (fresh) restart();
  else if (old.text != params_.text) run_.show(words_);
  if (c->command == Command::Pause) (void)pause();
  if (params_.trained && (fresh || !old.trained || c->command == Command::Start) &&
      (state() == TrainRunState::Idle || state() == TrainRunState::Paused))
    run_.run_to(params_.recipe.steps);
  model_replaced();
}

void TrainScene::restart(bool take_host) {
  shown_ = train::SentenceAttention();
  ++report_version_;
  run_.restart(params_.recipe, words_, take_host);
}

Status TrainScene::apply(const TrainParams& p) {
  json want;
  write_train_params(p, want);
  std::unique_ptr<SceneChange> c;
  AP_TRY(prepare(want, &c));
  commit(std::move(c));
  return Status::Ok();
}

Status TrainScene::start() {
  std::unique_ptr<SceneChange> c;
  AP_TRY(prepare(json{{"training", "start"}}, &c));
  commit(std::move(c));
  return Status::Ok();
}

Status TrainScene::pause() {
  run_.pause();
  return Status::Ok();
}

Status TrainScene::reset() {
  std::unique_ptr<SceneChange> c;
  AP_TRY(prepare(json{{"training", "reset"}}, &c));
  commit(std::move(c));
  return Status::Ok();
}

Status TrainScene::step_once() {
  AP_TRY(run_.can_train());
  if (run_.running()) return Status::Ok();
  if (run_.taken()) shown_ = train::SentenceAttention();  // the run starts again at step 0
  params_.trained = true;
  run_.run_to(run_.taken() ? 1 : run_.step() + 1);
  model_replaced();
  return Status::Ok();
}

bool TrainScene::wants_time() const { return run_.wants_frames(); }

void TrainScene::poll() {
  if (!built() || !run_.poll()) return;
  ++report_version_;
  if (run_.state() == TrainRunState::Failed || !run_.has_report()) {
    model_replaced();
    return;
  }
  const train::TrainReport& r = run_.report();
  if (!r.attention.maps.empty() && r.attention.maps[0].rows() == static_cast<Eigen::Index>(words_.size()))
    shown_ = r.attention;
  shown_.words = words_;
}

std::string TrainScene::weights_label(bool localized) const {
  const int step = run_.step();
  if (step == 0) return random_weights_label(params_.recipe.seed, localized);
  return trained_weights_label(step, report().heldout_accuracy, localized, params_.recipe.task);
}

std::string TrainScene::explain(int what, int i, int j) const {
  // what = layer · 16 + head: a cell of that map.
  const int layer = what / 16, head = what % 16;
  if (what < 0 || layer >= shown_.layers || head >= shown_.heads) return {};
  const Mat& m = shown_.maps[static_cast<size_t>(layer * shown_.heads + head)];
  if (i < 0 || j < 0 || i >= m.rows() || j >= m.cols() || i >= static_cast<int>(words_.size()) || j >= static_cast<int>(words_.size())) return {};
  char buf[300];
  std::snprintf(buf, sizeof buf, "%s %d: %s %d “%s” → %s %d “%s”: A = %s", tr("layer"), layer + 1, tr("query"), i + 1,
                words_[static_cast<size_t>(i)].c_str(), tr("key"), j + 1, words_[static_cast<size_t>(j)].c_str(), fmt(m(i, j), 4).c_str());
  return buf;
}

}  // namespace ap
