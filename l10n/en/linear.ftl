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

## Notes (core/src/scene/linear/)

# The lede above a 1-D input: $bias_i is the code " + bias[i]" and $bias the code " + bias" (both
# empty when the layer has no bias; keep them right after the code they extend); $out is
# out_features, the number of outputs.
linear-note-lede-vector =
    A 1-D input is one sample, a single row: output[i] = input · weight[i]{ $bias_i }. That is weight @ input{ $bias }, and input @ weight.T{ $bias } gives the same { $out ->
        [one] { $out } number
       *[other] { $out } numbers
    }.
# The lede above a batch (N, in_features): $n is N, the number of input rows; $bias_i and $bias as
# in linear-note-lede-vector; $other_way is the sentence that follows (linear-note-other-way-runs
# or linear-note-other-way-fails).
linear-note-lede-batch =
    { $n ->
        [one] The one row of input is one sample
       *[other] Each of the { $n } rows of input is one sample
    } with its own output row: output[n, i] = input[n] · weight[i]{ $bias_i }, all at once as input @ weight.T{ $bias }. { $other_way }
# Follows linear-note-lede-batch when N = in_features: weight @ input runs too, but means something else.
linear-note-other-way-runs = The other way round, weight @ input, would also run here, but it treats input's columns as samples and gives other numbers.
# Follows linear-note-lede-batch otherwise: $error is PyTorch's error, in English as PyTorch prints
# it ("mm: mat1 and mat2 shapes cannot be multiplied (10x6 and 2x6)").
linear-note-other-way-fails = The other way round, weight @ input fails: { $error }.
# The lede above an input with several leading dimensions, (B, N, in_features): $lead is their
# shape ("(2, 3)"), $rows the number of rows they hold (B·N), $in_features and $out_features the
# layer's sizes.
linear-note-lede-batches =
    The leading dims { $lead } are carried along: { $rows ->
        [one] the { $rows } row of length { $in_features } goes
       *[other] all { $rows } rows of length { $in_features } go
    } through the same weight, and output keeps { $lead }, ending in out_features = { $out_features } instead of in_features = { $in_features }.
# Under the weight tensor: why it is (out_features, in_features). $shape is its shape ("(10, 6)"),
# $n the number of numbers in a row (in_features).
linear-note-weight =
    weight is stored (out_features, in_features) = { $shape }: row i holds the { $n ->
        [one] { $n } number that makes
       *[other] { $n } numbers that make
    } output feature i.
