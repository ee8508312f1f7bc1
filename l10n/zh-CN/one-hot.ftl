# One-hot × Linear 场景（src/scenes/one_hot/）。“生成”一张表指用 torch.manual_seed 抽取它的随机数。
# $table 总是张量名 emb.weight；($v, $d) 是它的形状；$count 和 $max 是已带逗号分组的数字。

one-hot-title = One-hot × Linear：绕远路得到嵌入
# HTML：保留 <code>…</code> 元素及其内容不变。
one-hot-lede = 嵌入（embedding）按 id 查出对应的行。one-hot 行乘以 <code>linear.weight</code> = <code>emb.weight.T</code> 得到完全相同的数，但每个数都要 V 次乘加，其中只有一次不是乘以零。
one-hot-shape-equation = 形状等式
one-hot-ids-count = id 个数
one-hot-ids-hint = id 取 0 … V−1，最多 { $max } 个，V 较大时更少（one_hot 要存 ids × V 个数）；两种方式读取的是同样的 id。
one-hot-lookup-heading = nn.Embedding：直接查出这一行
one-hot-linear-heading = 先 F.one_hot，再 nn.Linear(V, D, bias=False)
one-hot-weight-hint = = emb.weight.T：第 j 行存放表的第 j 列。编辑 emb.weight 即可改变它。
one-hot-verdict = 相等性检查
one-hot-learn = 反向传播与学习
# HTML：保留 <code>…</code> 元素及其内容不变。
one-hot-learn-hint = 两个输出共用一个损失（它们相等）。SGD 更新 <code>emb.weight</code>；<code>linear.weight</code> 是它的转置，所以变动的是同样的数：被查到的行，也就是被用到的列。
one-hot-formulas = 一个数从何而来
one-hot-formulas-heading = 一个数从何而来：两种方式
one-hot-formulas-hint-forward = 点击一个输出单元格，或单步播放动画，即可看到这个数的两种算法。
one-hot-formulas-hint-backward = 点击任一梯度的单元格，或单步播放动画，即可看到它的两个求和式。
one-hot-no-outputs = 没有输出：每个 id 都必须是 emb.weight 的一行，即 0 … V−1。

## 计算量统计，以及在本浏览器中为两种方式计时（cost.rs）。

one-hot-no-ids-to-time = 没有可计时的 id。
one-hot-timing = 正在为两种方式计时……
one-hot-count-of = { $done } / { $total }
one-hot-lookup = 查表
one-hot-bar-one-hot = one-hot
one-hot-bars-hint = 按比例绘制：实心部分是有用的乘积（每个数一个，与查表复制的数一样多）；斜线部分是乘以 0 的乘积；蓝色是动画到目前为止完成的部分。
one-hot-copied = 复制的数
one-hot-multiply-adds = 乘加
one-hot-zero-products = …其中 × 0
one-hot-work = 计算量
one-hot-work-heading = 计算量统计
one-hot-grow-heading = 增大 V 和 D，并在本浏览器中为两种方式计时
one-hot-slider-v = V (num_embeddings = num_classes)
one-hot-slider-d = D (embedding_dim = out_features)
one-hot-time-again = 重新计时
one-hot-seed-hint = 新的行和列来自 torch.manual_seed；超过 400 个数的张量以热力图显示。

## 在后台生成大表（drawer.rs、restore.rs）。

one-hot-not-drawn = 未生成：生成 ({ $v }, { $d }) 期间 { $table } 已改变。
one-hot-cancelled-size = 已取消 ({ $v }, { $d })：{ $table } 保持 ({ $v0 }, { $d0 })。
one-hot-cancelled-seed = 已取消 torch.manual_seed({ $seed })：{ $table } 保持原样。
one-hot-cancelled-open = 已取消：未打开任何内容，场景保持原样。
one-hot-drawing = 正在后台生成 { $table } ({ $v }, { $d })：由 torch.manual_seed({ $seed }) 生成的 { $count } 个数……
one-hot-opening = 正在打开场景：在后台生成 { $table } ({ $v }, { $d })：由 torch.manual_seed({ $seed }) 生成的 { $count } 个数……
one-hot-restoring = 正在恢复 One-hot × Linear：在后台生成 { $table } ({ $v }, { $d })：由 torch.manual_seed({ $seed }) 生成的 { $count } 个数……
one-hot-drawing-table = 正在生成表
one-hot-cancel = 取消
one-hot-worker-unexpected = worker 返回了意外的内容
one-hot-worker-stopped = worker 已停止：{ $error }
one-hot-timer-unexpected = 计时 worker 返回了意外的内容：{ $error }
one-hot-timer-stopped = 计时 worker 已停止：{ $error }
one-hot-no-file = 浏览器未能生成该文件
one-hot-write-cancelled = 已取消

## 真实规模（scale.rs）。

one-hot-scale = 真实规模
one-hot-scale-heading = 真实规模：V 从 10 到 50,000，在 worker 中计时
one-hot-scale-lede = 两种方式的前向与反向传播，在五种词表大小下计时，运行在 Web Worker 中，页面始终保持响应。旁边是 PyTorch 自己在测量本实验所用的机器上、相同规模下的计时（空心标记）。
one-hot-scale-sizes-label = D 与 id 数
one-hot-scale-sizes = 计时规模
one-hot-scale-option = D = { $d }，{ $ids } 个 id
one-hot-scale-run = 计时 V = 10 … 50,000
one-hot-scale-progress = V = { $v }：{ $what }……已完成 { $percent }%
one-hot-scale-drawing = 正在用 torch.manual_seed(0) 生成 emb.weight
one-hot-scale-cancelled = 已取消：{ $total } 种规模中完成了 { $done } 种。
one-hot-scale-done = 完成：每种规模都已为两种方式计时。
one-hot-torch-label = PyTorch { $version }（{ $machine }，单线程）
one-hot-times-caption = 每次调用的毫秒数
one-hot-work-caption = 各 V 下的计算量（前向与反向）
one-hot-col-timed-by = 计时方
one-hot-col-lookup-ms = 查表（ms）
one-hot-col-one-hot-ms = one-hot × Linear（ms）
one-hot-col-lookup-backward-ms = 查表反向（ms）
one-hot-col-one-hot-backward-ms = one-hot 反向（ms）
one-hot-col-gflops = one-hot GFLOP/s
one-hot-col-copies = 查表复制的数
one-hot-col-multiply-adds = one-hot 乘加次数
one-hot-col-linear-grad = linear.weight.grad 写入的数
one-hot-col-emb-grad = emb.weight.grad 写入的数
one-hot-this-browser = 本浏览器
one-hot-plot = 每次调用的毫秒数随 V 的变化，双对数坐标；相同的数见下表
one-hot-plot-x = V（对数坐标）
one-hot-plot-y = 每次调用的毫秒数
one-hot-key-one-hot = one-hot × Linear
one-hot-key-lookup-backward = 查表反向（虚线）
one-hot-key-one-hot-backward = one-hot 反向（虚线）

## 时间轴说明（core/src/scene/one_hot/）：前向与反向传播每一步的文字。张量名是 PyTorch 的，保持原样：
## emb.weight、emb(input)、input、one_hot、F.one_hot、linear.weight、linear(one_hot) 及其 .grad。
## $out、$input、$weight、$grad、$one_hot 是张量的一部分，如 emb(input)[1] 或 linear.weight[2, 3]；
## $id 和 $j 是下标；$w 和 $g 是按 PyTorch 格式写出的数。以 -short（-shortest）结尾的消息是前一条的简短说法，
## 前一条在投影的两行内放不下时使用。

one-hot-caption-forward = 逐步查看：每个 id 先在 emb.weight 中查表，再做 one-hot 编码，然后经 Linear 相乘。
one-hot-step-lookup = { $out } = emb.weight[{ $id }]：{ $input } = { $id } 选中第 { $id } 行，复制它的 { $d } 个数。不做任何算术。
one-hot-step-lookup-short = { $out } = emb.weight[{ $id }]：{ $input } = { $id } 选中第 { $id } 行，复制 { $d } 个数。
one-hot-step-lookup-rows = emb(input)：每个 id 复制 emb.weight 中自己的那一行，每行 { $d } 个数。
one-hot-step-one-hot = { $out } = F.one_hot({ $input } = { $id })：{ $v } 个数，第 { $id } 列为 1，其余全为 0。
one-hot-step-one-hot-rows = one_hot = F.one_hot(input, num_classes={ $v })：每个 id 一行，每行一个 1。
one-hot-step-linear-cell = { $out }：与 linear.weight 第 { $j } 行的 { $v } 个乘积，其中 { $zeros } 个是 0 × w；第 { $id } 列的 1 保留 { $weight } = { $w }。
one-hot-step-linear-cell-short = { $out }：{ $v } 个乘积，其中 { $zeros } 个是 0 × w；第 { $id } 列的 1 保留 { $weight } = { $w }。
one-hot-step-linear-cell-shortest = { $out }：{ $zeros } 个乘积为 0 × w，加上 1 × { $weight } = { $w }。
one-hot-step-linear-row = { $out } = one_hot 行 @ linear.weight.T：{ $multiply_adds } 次乘加，其中 { $zeros } 次乘以 0。
one-hot-step-write = { $span }
one-hot-caption-backward = 逐步查看反向传播：Linear 写入整个 linear.weight.grad；查表只往其 id 选中的 emb.weight.grad 行中累加。
one-hot-caption-backward-short = 反向传播：Linear 写满 linear.weight.grad；查表只加到 id 选中的 emb.weight.grad 行。
one-hot-step-loss-sum = { $loss }：两个输出的每个单元格都有 d loss / d output = 1。
one-hot-step-loss-mse = { $loss }：两个输出的每个单元格都有 d loss / d output = 2·(output − target)/{ $n }。
one-hot-step-weight-grad-row = linear.weight.grad 第 { $j } 行：写入全部 { $v } 个数，其中 { $zeros } 个是 g × 0 = 0；只有 [{ $j }, { $id }] 得到 g = { $grad } = { $g }。
one-hot-step-weight-grad-row-short = linear.weight.grad 第 { $j } 行：写入 { $v } 个数，{ $zeros } 个为 0；只有 [{ $j }, { $id }] 得到 g = { $g }。
one-hot-step-weight-grad = linear.weight.grad += { $grad }ᵀ · { $one_hot }：写入全部 { $count } 个数，其中只有一列非零。
one-hot-step-table-grad = { $grad } += { $out }（{ $input } = { $id }）：{ $d } 个数只加到第 { $id } 行。
one-hot-step-table-grad-again = { $grad } += { $out }（{ $input } = { $id }）：{ $d } 个数只加到第 { $id } 行。第 { $id } 行已有梯度：两者相加。
one-hot-step-table-grad-again-short = { $grad } += { $out }（{ $input } = { $id }）：{ $d } 个数加到已有梯度的第 { $id } 行，两者相加。
one-hot-step-table-grad-again-shortest = { $grad } += { $out }：第 { $id } 行已有梯度，两者相加。

## 说明（core/src/scene/one_hot/）：场景中网格旁的文字（计算量统计、相等性检查、梯度的计数、两种方式的耗时），
## 也会写进笔记本。张量名是 PyTorch 的，保持原样。$copies、$multiply_adds、$zeros、$written 和 $adds
## 是已带逗号分组的数字。

one-hot-note-cost = 查表复制 { $copies } 个数。one-hot 方式做 { $multiply_adds } 次乘加，其中 { $zeros } 次乘以 0：结果相同，计算量却是 { $v } 倍。
one-hot-note-equal = linear(one_hot) 的每个数都是一个 1 × w 加上若干个零，所以就是 w 本身，连最后一位都相同。
one-hot-note-equal-signed-zero = linear(one_hot) 的每个数都是一个 1 × w 加上若干个零，所以就是 w 本身，连最后一位都相同。只有零的符号可能不同：和 0 + (−0) 是 +0，而 −0 == 0。
one-hot-note-nan-both = { $out } 在两种方式下都是 nan，而 nan 永远不等于 nan。
one-hot-note-nan-linear = { $out } 是 nan：它的求和把 { $weight } 中的一个 inf 或 nan 乘以 0，而 0 × inf = nan。查表从不读取那个数。
one-hot-note-differ = { $lookup } = { $a }，但 { $linear } = { $b }。
one-hot-note-verdict = { $code }：{ $why }
one-hot-note-stale = 输出仍是上一个有效输入 [{ $ids }] 的结果；改正标出的 id 即可更新。
one-hot-note-linear-grad = linear.weight.grad 是稠密的 ({ $d }, { $v })：全部 { $written } 个元素都要写入（{ $multiply_adds } 次乘加），其中 { $zeros } 个为 0，即没有 id 用到的那些列。
one-hot-note-table-grad = emb.weight.grad：{ $ids } 个 id × { $d } = { $adds } 个数，加到 { $rows } 个被查到的行中；其余 { $zeros } 个元素保持为 0，从未写入。
one-hot-note-timing = 查表每次调用 { $lookup } ms，one-hot × Linear 每次调用 { $one_hot } ms：是查表耗时的 { $ratio } 倍。
