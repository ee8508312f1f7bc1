# The word2vec scene (src/scenes/word2vec/): its settings, corpus and vocabulary, the task's
# table compared with word2vec's, and word2vec at real scale in a worker.

word2vec-title = word2vec 还是任务？
# The lede reads: [word2vec-lede-is] nn.Embedding [word2vec-lede]. The code between is left as it is.
word2vec-lede-is = {""}
word2vec-lede = {" "}就是 word2vec 吗？不是：它是一张由行组成的表，用什么损失训练，它就学到什么。这里同一份词表被学习两次。word2vec（skip-gram 或 CBOW，带负采样）通过预测每个词周围的词来学习它，所以经常出现在相同上下文中的词最终会彼此靠近。分类器则从每个句子的标签来学习它，所以只有当标签需要时，词才会彼此靠近。
# A checkbox's label, after the box.
word2vec-cbow = CBOW（由上下文预测中心词；关闭时为 skip-gram）
word2vec-moved-note = 淡化的行是这一步不查表的词：它们的梯度为 0，所以 SGD 永远不会移动它们。带边框的单元格在上一步中发生了变化。
word2vec-score-title = 一个分数从何而来
# pos and neg are the names of two tensors.
word2vec-score-hint = 点击 pos 或 neg 中的一个分数，或逐步播放前向动画，即可看到它的乘积之和。

## The sentence classifier ("the task") trained on the same vocabulary.

word2vec-task-title = 同样的词，由一个任务来训练
# The hint reads: [mean] nn.Embedding [then] nn.Linear(D, 1) [and] F.binary_cross_entropy_with_logits
# [label] from_pretrained(w, freeze=True) [fine-tuned] freeze=False [end]
word2vec-task-hint-mean = 一个分类器：取句子中各词在{" "}
word2vec-task-hint-then = {" "}中对应行的均值，再经过{" "}
word2vec-task-hint-and = ，用{" "}
word2vec-task-hint-label = {" "}与句子的标签比较（1 表示称赞，0 表示抱怨；可编辑）。它的表可以随机初始化，也可以取 word2vec 的 in_embed 并冻结（
word2vec-task-hint-fine-tuned = ），或取它再微调（
word2vec-task-hint-end = ）。
word2vec-task-legend = 任务
# Radio buttons follow: the three starts of the task's table (word2vec-start-*).
word2vec-starts-legend = 将 word2vec 的表与以下对比
# How the task's table starts: random, word2vec's table frozen, or word2vec's table fine-tuned.
word2vec-start-random = 随机
word2vec-start-frozen = word2vec，冻结
word2vec-start-fine-tuned = word2vec，微调
# The chart of the task's loss curves.
word2vec-curves-label = 每种起点下任务的损失，逐步变化
# A legend line: $start is one of word2vec-start-*; $first and $last are losses as PyTorch prints them.
word2vec-curve-legend = { $start }：损失 { $first } → { $last }

## Which words are close: nearest neighbours and PCA maps of both tables.

word2vec-compare-title = 哪些词彼此接近？
word2vec-near-word2vec = word2vec 的 in_embed
word2vec-pca-word2vec = word2vec 的 in_embed，PCA
# $start is one of word2vec-start-*.
word2vec-near-task = 任务的表（{ $start }）
# $start is one of word2vec-start-*.
word2vec-pca-task = 任务的表（{ $start }），PCA
# Followed by the list of words left off the PCA map.
word2vec-unplaced = {" "}— 不在图上，它们的行含有 inf 或 nan：

## The corpus, its vocabulary and the sentence the next step trains on.

word2vec-corpus-label = 语料：每行一个句子（编辑后离开文本框即生效）
word2vec-tokenizer-hint = 一个词是由字母、数字和撇号组成的连续串；只有 A–Z 会转为小写，所以 ÉMILE 读作 Émile，与 émile 是不同的词。
# $min is the setting min_count; $words lists the words left out, each as "word ×count".
word2vec-left-out = 已排除（出现次数少于 min_count = { $min } 次）：{ $words }
word2vec-vocabulary-title = 词表：{ $words } 个词，来自 { $tokens } 个 token
word2vec-vocabulary-list = 词表：id、词、次数
# $line is the line of the corpus (from 1); $pairs how many (centre, context) pairs it gives.
word2vec-sentence-title = 下一步在第 { $line } 行上训练（{ $pairs } 个词对）
word2vec-no-sentence = 没有可训练的句子
word2vec-sentence-hint = 对于时间轴所在的词对，中心词为蓝色，其上下文为橙色；带删除线的词不在词表中。

## "At real scale": word2vec trained on a large corpus in a Web Worker.

word2vec-scale-summary = 真实规模：在 worker 中训练 120,002 个 token
# Followed by a "Try again" button.
word2vec-scale-unloaded = rowflow 的这一部分无法下载（网络问题，或网站有了新版本）。{" "}
word2vec-try-again = 重试
# The intro reads: [intro] in_embed [intro-from] (torch.rand(V, D) - 0.5) / D [intro-and] out_embed [intro-zeros]
word2vec-scale-intro = 同样的损失，用在大一千倍的语料上，按 word2vec.c 和 gensim 的方式训练：每个词对的梯度一算出就做一步 SGD，学习率从 0.025 降到 0.0001，{" "}
word2vec-scale-intro-from = {" "}初始化为{" "}
word2vec-scale-intro-and = ，
word2vec-scale-intro-zeros = {" "}初始化为零。它在 Web Worker 中运行，所以训练时页面仍可正常操作。
word2vec-scale-loading = 正在加载语料…
# $sentences and $kb are numbers already written with thousands separators.
word2vec-scale-corpus = 语料：{ $sentences } 个句子，{ $kb } KB，由 tools/time_word2vec.py 根据本场景的两个主题及其称赞和抱怨的词生成。
# $why is one of word2vec-scale-no-window, -unreachable, -server, -unreadable.
word2vec-scale-corpus-failed = 语料未能加载：{ $why }。
word2vec-scale-no-window = 没有 window 对象
word2vec-scale-unreachable = 无法连接网络
# $status is the HTTP status code, e.g. 404.
word2vec-scale-server = 服务器返回了 { $status }
word2vec-scale-unreadable = 无法读取其文本
# $method is CBOW or skip-gram.
word2vec-scale-settings = { $method }，D = 100，窗口 5，5 个负样本
# Followed by a drop-down of 1, 5 or 20.
word2vec-scale-epochs = 轮数{" "}
word2vec-scale-train = 训练
word2vec-scale-cancel = 取消
word2vec-scale-reading = 正在 worker 中读取语料…
# Numbers are already written with thousands separators; $loss as PyTorch prints it.
word2vec-scale-training = { $of } 个词中已训练 { $words } 个，{ $speed } 词/秒，损失 { $loss }
word2vec-scale-cancelled-after = 已取消，此时完成 { $of } 个词中的 { $words } 个。
word2vec-scale-cancelled = 已取消。
# $seconds is the time taken, e.g. 3.52; $loss as PyTorch prints it.
word2vec-scale-trained = 训练完成：{ $words } 个词用时 { $seconds } 秒，{ $speed } 词/秒；最后几个词对的损失为 { $loss }。
# $why is why the run stopped (word2vec-scale-wrong-size, -unexpected, -trainer-stopped, or the worker's own message).
word2vec-scale-stopped = 已停止：{ $why }
word2vec-scale-wrong-size = 训练器返回的表大小不对
# $error is the JSON parser's message (English).
word2vec-scale-unexpected = 训练器返回了意外的内容：{ $error }
# $why is the browser's message (English).
word2vec-scale-trainer-stopped = 训练器已停止：{ $why }
# The table comparing words per second: its caption, column headings, and the first row's name.
word2vec-scale-speeds = 每秒词数，skip-gram，D = { $dim }，窗口 { $window }，{ $negatives } 个负样本，{ $epochs } 轮
word2vec-scale-trained-by = 训练方
word2vec-scale-words-per-second = 词/秒
word2vec-scale-of-gensim = 相对 gensim
word2vec-scale-this-browser = 本浏览器，训练 worker
# $machine describes the computer (English, as the timing script wrote it).
word2vec-scale-timed = gensim（一个 worker 线程）和 PyTorch（一个线程）由 tools/time_word2vec.py 在 { $machine } 上、以相同的语料和工作量计时。
word2vec-scale-not-like = 本次运行不是同样的工作量（CBOW，或更多轮数）：其每秒词数无法直接比较。
# $word is the word chosen in the scene.
word2vec-scale-nearest = 真实规模训练后与“{ $word }”最接近的词
# great, awful, film, soup are words of the corpus: keep them in English.
word2vec-scale-not-in-corpus = 这个词不在此语料中：请在上方选择语料中的一个词（great、awful、film、soup…）。

## Captions (core/src/scene/word2vec/)

# What the next step does, under the scene's sentence. $model is cbow or skip-gram; $pairs the
# step's (centre, context) pairs; $rows the vocabulary's rows.
word2vec-caption-step = { $model ->
        [cbow] CBOW 用上下文各行的均值预测每个中心词
       *[skip-gram] Skip-gram 用中心词的行预测每个上下文词
    }：这一步的 { $pairs } 个词对读取并移动词表 { $rows } 行中的一部分；其余各行的梯度都是 0。
# The task's loss after its $steps SGD steps from each start; $random, $frozen, $fine_tuned are
# losses as PyTorch prints them.
word2vec-caption-task = 任务训练 { $steps } 步后的损失：从随机表开始为 { $random }，从冻结的 word2vec 表开始为 { $frozen }，微调后为 { $fine_tuned }。
word2vec-step-nothing = 没有可播放的内容：语料中没有可训练的词对。
# Before the first step. "Step forward" is the timeline's button (timeline-forward).
word2vec-step-forward-overview = 前向传播：共 { $steps } 步，句子的每个词对一步。按“前进一步”开始。
word2vec-step-backward-overview = 反向传播：共 { $steps } 步，从最后一个词对倒退到第一个。按“前进一步”开始。
# A forward step: pair $pair (an index) scores its target word. $input is the centre word
# ($kind word) or the context's words, comma-separated ($kind mean: their rows' mean); $target
# the word predicted; $pos the score as PyTorch prints it; $negatives the words sampled against
# it. Words are the corpus's: keep them as they are. pos and neg are tensors.
word2vec-step-forward = 词对 { $pair }：{ $kind ->
        [mean] { $input } 的均值
       *[word] { $input }
    } → { $target }：pos[{ $pair }] = { $pos }；负样本 { $negatives } 构成 neg[{ $pair }]。
# A backward step: $grad is pos.grad[$pair] as PyTorch prints it; the other arguments as in
# word2vec-step-forward. in_embed and out_embed are the two tables.
word2vec-step-backward = pos.grad[{ $pair }] = { $grad }：只有{ $kind ->
        [mean] 上下文 { $input }
       *[word] 词 { $input }
    } 的行（in_embed）以及目标词 { $target } 和负样本 { $negatives } 的行（out_embed）得到梯度。
# word2vec-step-forward with the negatives counted ($count), not listed: said when that does not fit.
word2vec-step-forward-counted = 词对 { $pair }：{ $kind ->
        [mean] { $input } 的均值
       *[word] { $input }
    } → { $target }：pos[{ $pair }] = { $pos }；它的 { $count } 个负样本构成 neg[{ $pair }]。
# The shortest way of word2vec-step-forward.
word2vec-step-forward-short = 词对 { $pair }：pos[{ $pair }] = { $pos }，即 { $target } 的分数。
# word2vec-step-backward with the negatives counted ($count), not listed: said when that does not fit.
word2vec-step-backward-counted = pos.grad[{ $pair }] = { $grad }：只有{ $kind ->
        [mean] 上下文 { $input }
       *[word] 词 { $input }
    } 的行（in_embed）以及目标词 { $target } 和它的 { $count } 个负样本的行（out_embed）得到梯度。
# The shortest way of word2vec-step-backward.
word2vec-step-backward-short = pos.grad[{ $pair }] = { $grad }：只有词对 { $pair } 读取的行得到梯度。
