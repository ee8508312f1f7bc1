# index.html's static shell (boot.js writes it before the WebAssembly arrives) and what boot.js says.

meta-description =
    .content = rowflow：逐一查看 PyTorch 的 nn.Linear、nn.Embedding、one-hot × Linear 和 nn.RNN 究竟计算了什么，数字与 PyTorch 完全一致。

nav =
    .aria-label = 场景

# Scene names: PyTorch names stay as they are.
nav-linear = Linear
nav-embedding = Embedding
nav-one-hot = One-hot × Linear
nav-rnn = RNN
nav-train = 训练
nav-word2vec = word2vec
nav-explain = 解释错误

projector = 投影
controls = 控件
fullscreen = 全屏
fullscreen-exit = 退出全屏
fullscreen-refused = 全屏请求被拒绝：{ $error }
present-not-kept = 下次访问时不会记住此设置：此浏览器拒绝保存（{ $error }）。
language = 语言
lang-unsaved = 你最近的工作尚未保存在此浏览器中（原因见下方提示），因此页面没有切换到其他语言重新加载：请先将其导出为文件。

update-ready = rowflow 有新版本可用。
update-reload = 重新加载
update-unsaved = rowflow 有新版本可用，但你最近的工作尚未保存在此浏览器中（原因见下方提示）：请先将其导出为文件，然后点击“重新加载”。

start-title = 逐行看清 PyTorch 的各层在计算什么
start-lede = 这里的每个数字都与 PyTorch 打印的完全相同：在你的浏览器中计算，与 PyTorch 一样使用 float32，并由 <code>torch.manual_seed</code> 给出完全相同的初始权重。编辑任意单元格，结果会随之更新。
start-lede-more = 每个场景都会演示前向传播和反向传播，执行若干步 SGD，最后给出能打印出这些数字的 PyTorch 代码，并可以作为链接或文件分享。
card-linear =
    .data-lede = 一维输入就是一个样本，即单独的一行：output[i] = input · weight[i] + bias[i]。这就是 weight @ input + bias，而 input @ weight.T + bias 给出同样的 10 个数。
card-linear-says = 输入是行还是列？逐个单元格查看 y = x Wᵀ + b，适用于单个向量、一个批次或三维输入。
card-embedding =
    .data-lede = 嵌入（embedding）就是查表：看每个 id 如何从表中取出自己的那一行，数字与 PyTorch 用相同种子生成的一致。每个 id 取出 weight 的一行并复制到输出。没有任何乘法。
card-embedding-says = 嵌入（embedding）就是查表：看每个 id 如何从表中取出自己的那一行，数字与 PyTorch 用相同种子生成的一致。
card-one-hot =
    .data-lede = 嵌入按 id 查出对应的行。one-hot 行乘以 linear.weight = emb.weight.T 得到完全相同的数字，但每个数字都要花 V 次乘加运算，其中除一次之外都是乘以零。
card-one-hot-says = 与查表相同的数字，只是绕了远路：数一数乘以零的次数，并给两种做法计时。
card-rnn =
    .data-lede = 逐步展开 nn.RNN：output 与 h_n 的区别、层、方向、batch_first 和打包序列（packed sequence）。每个单元格都用 PyTorch 自己的数字计算 h_t = tanh(x_t W_ihᵀ + b_ih + h_(t−1) W_hhᵀ + b_hh)。
card-rnn-says = 逐步展开 nn.RNN：output 与 h_n 的区别、层、方向、batch_first 和打包序列。
card-train =
    .data-lede = 每个用户和每部电影都是一行随机数：先 torch.manual_seed(S)，再从 normal(0, 1) 中抽取每个元素。评分的预测值是用户行与电影行的点积。每一步 SGD 都沿 MSE 损失梯度的反方向微调这些行，即 param -= lr * param.grad；只有评分用到的行才会得到梯度，所以只有它们会移动。
card-train-says = 用 SGD 训练 fastai 的 DotProduct 推荐模型，观察只有被评过分的行才会移动。
card-word2vec =
    .data-lede = nn.Embedding 就是 word2vec 吗？不是：它只是一张由行组成的表，用什么损失训练，就学到什么。这里同一个词表被学习两次。word2vec（skip-gram 或 CBOW，配合负采样）通过预测每个词周围的词来学习，因此经常出现在相同上下文中的词最终会彼此接近。分类器则根据每个句子的标签来学习，因此只有当标签需要时，词才会彼此接近。
card-word2vec-says = Skip-gram 和 CBOW 与一个由自身任务训练的嵌入并排比较，从随机行或预训练行出发：哪些词最终会彼此接近？
card-explain =
    .data-lede = 粘贴 PyTorch 打印的错误、引发错误的那行代码，或两者都粘贴：以该层的视角查看形状、哪里不一致以及修复方法，然后在场景中打开。
card-explain-says = nn.Linear、nn.Embedding 或 nn.RNN 报了形状错误？粘贴进来，看看形状在哪里不一致。

lessons-title = 课程
lessons-lede = 每节课只有几步，回答一个问题。用 PageDown 键或翻页笔逐步前进；按 Esc 键退出课程，场景保持当前状态。
lesson-linear-row-or-column = 输入是行还是列？
lesson-embedding-lookup = 嵌入（embedding）就是查表
lesson-embedding-gradient-rows = 哪些行会得到梯度：重复与填充（padding）
lesson-one-hot-same-numbers = 查表就是 one-hot × Linear，以及那些零的代价
lesson-rnn-unroll = nn.RNN 如何展开：output 与 h_n
lesson-rnn-vanishing-exploding = 梯度消失与梯度爆炸
lesson-train-learned = 嵌入是如何学到的
lesson-word2vec-cbow-or-skip-gram = nn.Embedding 就是 word2vec 吗？CBOW 还是 skip-gram？
lesson-word2vec-learned = 由 word2vec 学到，还是由任务学到？
lesson-word2vec-pretrained = 用不用预训练向量？
# A lesson's scene (its name, as in the navigation) and its number of steps.
lesson-meta = { $scene ->
        [linear] { nav-linear }
        [embedding] { nav-embedding }
        [one-hot] { nav-one-hot }
        [rnn] { nav-rnn }
        [train] { nav-train }
       *[word2vec] { nav-word2vec }
    }，{ $steps } 步
loading = 正在加载实验环境……

crash-not-set-aside = 无法将你已保存的工作移到一旁（{ $error }），因此没有做任何更改：请先下载它。
boot-error = rowflow 无法在此浏览器中启动（{ $error }）。它需要支持 WebAssembly 及其 SIMD 指令的浏览器：Chrome 或 Edge 91、Firefox 89、Safari 16.4 或更高版本。
