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
