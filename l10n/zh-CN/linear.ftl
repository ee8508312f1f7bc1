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
