# The RNN scene (src/scenes/rnn/). Tensor names (output, h_n, h0, x_t, h_t, input, target, .grad)
# and code stay as they are.

rnn-title = nn.RNN: output and h_n
# Between the module's call and the rule every RNN cell computes (code): "rnn = nn.RNN(…) — every cell: h_t = tanh(…)".
rnn-every-cell = — every cell:
# Accessible name of the shape equation line.
rnn-shapes = Shapes
# A checkbox, "add h_n.sum() to the loss": the code h_n.sum() sits between these two parts.
rnn-loss-add = add{" "}
rnn-loss-add-end = {" "}to the loss
rnn-output-grad-note = Under each number, output.grad = dL/doutput: where backward starts.
rnn-target-note = F.mse_loss(output, target): edit the target.
rnn-h-n-grad-in-loss = h_n.grad = dL/dh_n = 1: h_n.sum() is in the loss.
rnn-h-n-grad-not-in-loss = h_n.grad = dL/dh_n = 0: h_n is not in the loss.
rnn-stale = PyTorch raises on the current inputs (see the marked field), so output and h_n still show the last call that ran.
rnn-da-relu = da = h.grad · (h > 0): the gradient at a cell's pre-activation (relu passes it only where h > 0).
rnn-da-tanh = da = h.grad · (1 − h²): the gradient at a cell's pre-activation (tanh′ = 1 − tanh²).
rnn-formula-hint = Step the animation, or click an output or h_n cell (going backward, a .grad cell), to see how its number is made.

## Settings

rnn-settings = Settings
# $seed: the seed as the learner typed it.
rnn-seed-note = Parameters drawn after torch.manual_seed({ $seed }); a size change draws them again with it.
# Legend of the input's sizes.
rnn-input-legend = Input
# Legend of the pack_padded_sequence options.
rnn-packing-legend = Packing

## Parameters, inputs

# A layer and direction of the RNN: $layer is the layer's index (0, 1, …); $direction is
# "forward" or "reverse" (the two directions of a bidirectional RNN).
rnn-layer-direction = layer { $layer }, { $direction ->
        [reverse] reverse
       *[forward] forward
    }
# Heading of the parameters: $tensors tensors holding $numbers numbers in all.
rnn-params-heading = Parameters: { $tensors ->
        [one] { $tensors } tensor
       *[other] { $tensors } tensors
    }, { $numbers ->
        [one] { $numbers } number
       *[other] { $numbers } numbers
    }
rnn-what-goes-in = What goes in

## The unrolled diagram

# A button picking sequence $sequence of the batch, whose length (a packed sequence's) is $length.
rnn-sequence-length = { $sequence } (length { $length })
rnn-sequence-shown = Sequence shown
# Before the buttons that pick the sequence: "Sequence b = 0 1 2" (b is the batch index).
rnn-sequence-b = Sequence b =
rnn-unrolled-cells = Unrolled RNN cells
# Header of the time axis, pointing right.
rnn-time = time →
# Under "output": output is the top layer's h_t.
rnn-top-layer = top layer
# The diagram's caption: "Unrolled — each box is one cell: it takes x_t from above and h_{t-1}
# from the side, and passes h_t on. Click a cell to go to its step." The code x_t, h_{t-1} and
# h_t sit between the parts; mind the spaces.
rnn-unrolled = Unrolled
rnn-unrolled-takes = {" "}— each box is one cell: it takes{" "}
rnn-unrolled-from-above = {" "}from above and{" "}
rnn-unrolled-from-side = {" "}from the side, and passes{" "}
rnn-unrolled-on = {" "}on. Click a cell to go to its step.
# In a box, for a time step past a packed sequence's length.
rnn-padding = padding
# A box lists a few numbers, then how many it left out ($count).
rnn-more = … { $count } more
# What flows into a cell: "h_l0[1, 0] ← input[0, 1] and h_l0[0, 0]" ($cell, $x, $prev are those names).
rnn-feeds = { $cell } ← { $x } and { $prev }
# A cell past its sequence's end does not run: two lines in its box.
rnn-skipped = skipped
rnn-skipped-ended = (ended)
# Above a lane's first cell: $cell is where its state comes from, e.g. "h0[0, 1]".
rnn-from-h0 = from { $cell }
# Read by screen readers after a cell's name "h_l0[2]": sequence $sequence, layer $layer, direction.
rnn-cell-sr = , sequence { $sequence }, layer { $layer }, { $direction ->
        [reverse] reverse
       *[forward] forward
    }:
# Accessible name of a bar chart; $lane is a state's name, e.g. h_l0.
rnn-norms-chart = ‖dL/dh_t‖ of { $lane } per time step
# After the bold "‖dL/dh_t‖".
rnn-norms-caption = per time step (log scale): how much gradient reaches each step. Shrinking going back (left) is a vanishing gradient, growing an exploding one.
