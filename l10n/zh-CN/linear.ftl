# The Linear scene (src/scenes/linear/).

linear-title = nn.Linear：每一行输入都与 weight 的每一行相遇
# The name of the shape equation beside the module's call (e.g. "(3,) → (2,)").
linear-shape-equation = 形状等式
# Follows the core's note on weight when weight is shown transposed.
linear-shown-transposed = 这里显示为 weight.T：第 i 列就是那一行。
# A checkbox label.
linear-show-transposed = 将 weight 显示为 weight.T (in, out)
# Follows the code "bias=False" when the layer has no bias.
linear-no-bias = ：什么也不加。
linear-stale = 这些形状会让 PyTorch 报错，因此这里显示的是最后一次成功运行的输出。
linear-formula-heading = 一个数从哪里来
linear-formula-hint = 点击输出或梯度的单元格，或逐步播放动画，查看它的求和过程。
linear-layer-legend = 修改层
linear-input-legend = 修改输入
# A group of three radio buttons choosing the input's rank.
linear-input-layout = 输入布局
linear-rank-vector = 单个向量 (in,)
linear-rank-batch = 一个批次 (N, in)
linear-rank-3d = 三维 (B, N, in)

## Captions (core/src/scene/linear/)

# The timeline's caption when the layer cannot run, so the forward pass has no steps.
linear-caption-no-shapes = 形状对得上之前，没有可计算的内容。
# Before the first forward step ("Step forward" is the timeline's button): each step computes a
# whole row of output (when there are too many cells to show one by one).
linear-caption-forward-rows = 逐步前进：每一步计算 output 的一整行。
# Before the first forward step: each step computes one cell.
linear-caption-forward-cells = 逐步前进：每一步用 input 的一行和 weight 的一行算出 output 的一个单元格。
# The backward pass has no steps.
linear-caption-no-gradient = 前向传播和损失能够运行之前，没有梯度。
# Before the first backward step; $unit is "row" (each step is a whole row of output) or "cell".
linear-caption-backward =
    逐步前进：损失把 output.grad { $unit ->
        [row] 从 output 的最后一行传回第一行
       *[cell] 从 output 的最后一个单元格传回第一个
    }，累加到 weight.grad、bias.grad 和 input.grad 中。
# The same, for a layer without bias.
linear-caption-backward-no-bias =
    逐步前进：损失把 output.grad { $unit ->
        [row] 从 output 的最后一行传回第一行
       *[cell] 从 output 的最后一个单元格传回第一个
    }，累加到 weight.grad 和 input.grad 中。
# Part of a step's caption: the whole 1-D input.
linear-caption-the-input = input
# Part of a step's caption: $tensor is weight or weight.grad, $row the row's index.
linear-caption-row-of = { $tensor } 的第 { $row } 行
# Part of a step's caption: $tensor is input or input.grad, $row the row's index.
linear-caption-tensor-row = { $tensor } 的第 { $row } 行
# A forward step: $target is the output cell computed (output[1, 3]); $x the input row
# (linear-caption-the-input, linear-caption-tensor-row, or a span like input[1, 2]); $w the weight
# row (linear-caption-row-of); $bias the bias cell (bias[3]); $value the result as PyTorch prints it.
linear-step-forward = { $target }：{ $x } 与 { $w }逐个相乘后求和，再加上 { $bias } = { $value }。
# The same, for a layer without bias.
linear-step-forward-no-bias = { $target }：{ $x } 与 { $w }逐个相乘后求和 = { $value }。
# The same, when the value is unknown.
linear-step-forward-no-value = { $target }：{ $x } 与 { $w }逐个相乘后求和，再加上 { $bias }。
# The same, without bias and value.
linear-step-forward-bare = { $target }：{ $x } 与 { $w }逐个相乘后求和。
# A forward step that computes a whole row of output at once: $target is that row (output[0, 1]),
# $x the input row, $bias the whole bias.
linear-step-forward-rows = { $target }：{ $x } 同时乘以 weight 的每一行（input @ weight.T），再加上 { $bias }。
# The same, for a layer without bias.
linear-step-forward-rows-no-bias = { $target }：{ $x } 同时乘以 weight 的每一行（input @ weight.T）。
# A backward step: $grad is the output.grad cell (output.grad[1, 9]) and $value its number; $into
# the weight.grad row it adds into (linear-caption-row-of); $x the input row (as in
# linear-step-forward); $bias the bias.grad cell; $dx the input.grad row (linear-caption-tensor-row,
# or input.grad itself); $w the weight row.
linear-step-backward-value = { $grad } = { $value } 传回 { $into }（乘以 { $x }）、{ $bias } 和 { $dx }（乘以 { $w }）。
# The same, for a layer without bias.
linear-step-backward-value-no-bias = { $grad } = { $value } 传回 { $into }（乘以 { $x }）和 { $dx }（乘以 { $w }）。
# linear-step-backward-value without the value, when that is too long.
linear-step-backward = { $grad } 传回 { $into }（乘以 { $x }）、{ $bias } 和 { $dx }（乘以 { $w }）。
# The same, for a layer without bias.
linear-step-backward-no-bias = { $grad } 传回 { $into }（乘以 { $x }）和 { $dx }（乘以 { $w }）。
# The shortest way, when linear-step-backward is too long: where output.grad adds in, without the
# "times" parts.
linear-step-backward-short = { $grad } 传回 { $into }、{ $bias } 和 { $dx }。
# The same, for a layer without bias.
linear-step-backward-short-no-bias = { $grad } 传回 { $into } 和 { $dx }。

## Notes (core/src/scene/linear/)

# The lede above a 1-D input: $bias_i is the code " + bias[i]" and $bias the code " + bias" (both
# empty when the layer has no bias; keep them right after the code they extend); $out is
# out_features, the number of outputs.
linear-note-lede-vector = 一维输入就是一个样本，即单独的一行：output[i] = input · weight[i]{ $bias_i }。这就是 weight @ input{ $bias }，而 input @ weight.T{ $bias } 给出同样的 { $out } 个数。
# The lede above a batch (N, in_features): $n is N, the number of input rows; $bias_i and $bias as
# in linear-note-lede-vector; $other_way is the sentence that follows (linear-note-other-way-runs
# or linear-note-other-way-fails).
linear-note-lede-batch =
    { $n ->
        [1] input 的唯一一行是一个样本，对应 output 的一行
       *[other] input 的 { $n } 行各是一个样本，各自对应 output 的一行
    }：output[n, i] = input[n] · weight[i]{ $bias_i }，一次全部算出就是 input @ weight.T{ $bias }。{ $other_way }
# Follows linear-note-lede-batch when N = in_features: weight @ input runs too, but means something else.
linear-note-other-way-runs = 反过来写成 weight @ input，这里也能运行，但它把 input 的列当作样本，给出的是别的数。
# Follows linear-note-lede-batch otherwise: $error is PyTorch's error, in English as PyTorch prints
# it ("mm: mat1 and mat2 shapes cannot be multiplied (10x6 and 2x6)").
linear-note-other-way-fails = 反过来写成 weight @ input 则会报错：{ $error }。
# The lede above an input with several leading dimensions, (B, N, in_features): $lead is their
# shape ("(2, 3)"), $rows the number of rows they hold (B·N), $in_features and $out_features the
# layer's sizes.
linear-note-lede-batches = 前导维度 { $lead } 原样保留：{ $rows } 个长度为 { $in_features } 的行经过的是同一个 weight，output 也保留 { $lead }，只是最后一维是 out_features = { $out_features }，而不是 in_features = { $in_features }。
# Under the weight tensor: why it is (out_features, in_features). $shape is its shape ("(10, 6)"),
# $n the number of numbers in a row (in_features).
linear-note-weight = weight 按 (out_features, in_features) = { $shape } 存储：第 i 行是算出第 i 个输出特征的那 { $n } 个数。
