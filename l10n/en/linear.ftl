# The Linear scene (src/scenes/linear/).

linear-title = nn.Linear: every input row meets every weight row
# The name of the shape equation beside the module's call (e.g. "(3,) → (2,)").
linear-shape-equation = Shape equation
# Follows the core's note on weight when weight is shown transposed.
linear-shown-transposed = Shown here as weight.T: column i is that row.
# A checkbox label.
linear-show-transposed = show weight as weight.T (in, out)
# Follows the code "bias=False" when the layer has no bias.
linear-no-bias = : nothing is added.
linear-stale = PyTorch raises on these shapes, so this is the last output that ran.
linear-formula-heading = Where a number comes from
linear-formula-hint = Click an output or gradient cell, or step the animation, to see its sum.
linear-layer-legend = Change the layer
linear-input-legend = Change the input
# A group of three radio buttons choosing the input's rank.
linear-input-layout = Input layout
linear-rank-vector = one vector (in,)
linear-rank-batch = a batch (N, in)
linear-rank-3d = 3-D (B, N, in)

## Captions (core/src/scene/linear/)

# The timeline's caption when the layer cannot run, so the forward pass has no steps.
linear-caption-no-shapes = Nothing to compute until the shapes fit.
# Before the first forward step ("Step forward" is the timeline's button): each step computes a
# whole row of output (when there are too many cells to show one by one).
linear-caption-forward-rows = Step forward: each step computes one whole row of output.
# Before the first forward step: each step computes one cell.
linear-caption-forward-cells = Step forward: each step computes one output cell from one input row and one weight row.
# The backward pass has no steps.
linear-caption-no-gradient = No gradient until the forward pass and the loss can run.
# Before the first backward step; $unit is "row" (each step is a whole row of output) or "cell".
linear-caption-backward =
    Step forward: the loss sends output.grad back, from the last output { $unit ->
        [row] row
       *[cell] cell
    } to the first, adding into weight.grad, bias.grad and input.grad.
# The same, for a layer without bias.
linear-caption-backward-no-bias =
    Step forward: the loss sends output.grad back, from the last output { $unit ->
        [row] row
       *[cell] cell
    } to the first, adding into weight.grad, input.grad.
# Part of a step's caption: the whole 1-D input.
linear-caption-the-input = the input
# Part of a step's caption: $tensor is weight or weight.grad, $row the row's index.
linear-caption-row-of = row { $row } of { $tensor }
# Part of a step's caption: $tensor is input or input.grad, $row the row's index.
linear-caption-tensor-row = { $tensor } row { $row }
# A forward step: $target is the output cell computed (output[1, 3]); $x the input row
# (linear-caption-the-input, linear-caption-tensor-row, or a span like input[1, 2]); $w the weight
# row (linear-caption-row-of); $bias the bias cell (bias[3]); $value the result as PyTorch prints it.
linear-step-forward = { $target }: { $x } times { $w }, number by number, summed, plus { $bias } = { $value }.
# The same, for a layer without bias.
linear-step-forward-no-bias = { $target }: { $x } times { $w }, number by number, summed = { $value }.
# The same, when the value is unknown.
linear-step-forward-no-value = { $target }: { $x } times { $w }, number by number, summed, plus { $bias }.
# The same, without bias and value.
linear-step-forward-bare = { $target }: { $x } times { $w }, number by number, summed.
# A forward step that computes a whole row of output at once: $target is that row (output[0, 1]),
# $x the input row, $bias the whole bias.
linear-step-forward-rows = { $target }: { $x } times every row of weight at once (input @ weight.T), plus { $bias }.
# The same, for a layer without bias.
linear-step-forward-rows-no-bias = { $target }: { $x } times every row of weight at once (input @ weight.T).
# A backward step: $grad is the output.grad cell (output.grad[1, 9]) and $value its number; $into
# the weight.grad row it adds into (linear-caption-row-of); $x the input row (as in
# linear-step-forward); $bias the bias.grad cell; $dx the input.grad row (linear-caption-tensor-row,
# or input.grad itself); $w the weight row.
linear-step-backward-value = { $grad } = { $value } flows back into { $into } (times { $x }), { $bias } and { $dx } (times { $w }).
# The same, for a layer without bias.
linear-step-backward-value-no-bias = { $grad } = { $value } flows back into { $into } (times { $x }) and { $dx } (times { $w }).
# linear-step-backward-value without the value, when that is too long.
linear-step-backward = { $grad } flows back into { $into } (times { $x }), { $bias } and { $dx } (times { $w }).
# The same, for a layer without bias.
linear-step-backward-no-bias = { $grad } flows back into { $into } (times { $x }) and { $dx } (times { $w }).
# The shortest way, when linear-step-backward is too long: where output.grad adds in, without the
# "times" parts.
linear-step-backward-short = { $grad } flows back into { $into }, { $bias } and { $dx }.
# The same, for a layer without bias.
linear-step-backward-short-no-bias = { $grad } flows back into { $into } and { $dx }.
