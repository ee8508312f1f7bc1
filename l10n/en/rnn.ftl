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

## Captions (core/src/scene/rnn/)
# The timeline's captions of the steps. $lane is a layer and direction's states, named as PyTorch
# names them (h_l0, h_l1_reverse); $t a time step; $func tanh or relu. Every span like
# input[:, 1], h0[2] or t = 0 is code and stays as it is.

# Forward, before the first step, when ids are looked up in emb.weight first.
rnn-caption-start-lookup = Step forward: first each id copies its row of emb.weight into input, then the RNN cells run.
# Forward, before the first step.
rnn-caption-start = Step forward to run the first cell: layer 0, forward, t = 0.
rnn-caption-nothing-run = Nothing has run yet: fix the marked field.
rnn-caption-no-backward = No backward while PyTorch raises on the forward call.
# The loss raised: $error is PyTorch's error message, in English as PyTorch writes it.
rnn-caption-backward-raises = { $error }
# Backward, before the first step: $h_n is "in" when h_n.sum() is in the loss, else "out".
rnn-caption-backward-start = Step forward: the gradient starts at output.grad { $h_n ->
        [in] and h_n.grad = 1 (h_n.sum() is in the loss)
       *[out] (h_n is not in the loss)
    } and flows back, last cell first.
# A caption said in full: sentence $first, then sentence $next (each ends with its own full stop).
rnn-step-then = { $first } { $next }
# A trace too long to show cell by cell: one step per layer and direction.
rnn-step-every-t = { $lane }: every time step at once.
rnn-step-backward-every-t = { $lane }: backward through every time step at once.
# An id's lookup, forward: "ids[0, 1] = 2: row 2 of emb.weight is copied to input[0, 1]."
rnn-step-lookup = { $ids } = { $id }: row { $id } of emb.weight is copied to { $input }.
# An id's lookup, backward: "ids[0, 1] = 2: input.grad[0, 1] is added into row 2 of emb.weight.grad."
rnn-step-lookup-backward = { $ids } = { $id }: { $input_grad } is added into row { $id } of emb.weight.grad.
# A cell, forward: "h_l0[1]: input[:, 1] and h_l0[0] times their weights, plus biases, through
# tanh." What comes in, $x, is a slice of input ($x_from "input") or h[1] of layer $layer below
# ($x_from "layer"): "h_l1[0]: layer 0's h[0] and …". The state before, $prev, is the lane's
# (h_l0[0]), or where the lane starts, h0[2] ($first "yes"). $bias is "yes" when the RNN has
# biases, else "no".
rnn-step-cell = { $lane }[{ $t }]: { $x_from ->
        [layer] layer { $layer }'s { $x }
       *[input] { $x }
    } and { $first ->
        [yes] the start state { $prev }
       *[no] { $prev }
    } times their weights{ $bias ->
        [yes] , plus biases
       *[no] {""}
    }, through { $func }.
# After a cell's caption: $count sequences ($sequences, e.g. "2, 3") have no cell at this time
# step; going forward ($direction "forward") they have already ended, going back ("reverse") they
# are shorter than this time step.
rnn-step-no-step = No step for { $count ->
        [one] sequence
       *[other] sequences
    } { $sequences }: { $direction ->
        [reverse] shorter than this
       *[forward] already ended
    }.
# After a cell's caption, what the cell's state is: $slice of output (e.g. output[:, 1]); with
# $output "half", half of it (a bidirectional RNN's output holds both directions).
rnn-step-it-is-output = It is { $output ->
        [half] half of { $slice }
       *[whole] { $slice }
    }.
# … or row $row of h_n (e.g. h_n[1]); with $h_n "some", only for $count sequences ($sequences,
# e.g. "0, 1": the others end at other steps).
rnn-step-it-is-h-n = It is { $h_n ->
        [some] { $row } for { $count ->
            [one] sequence
           *[other] sequences
        } { $sequences }
       *[all] { $row }
    }.
# … or both: "It is output[:, 1] and h_n[0]."
rnn-step-it-is-both = It is { $output ->
        [half] half of { $slice }
       *[whole] { $slice }
    } and { $h_n ->
        [some] { $row } for { $count ->
            [one] sequence
           *[other] sequences
        } { $sequences }
       *[all] { $row }
    }.
# After a cell's caption: these sequences start here from h0 (packed sequences of different lengths).
rnn-step-start-from-h0 = Here { $count ->
        [one] sequence { $sequences } starts
       *[other] sequences { $sequences } start
    } from h0[{ $k }].
# A cell, backward: "h_l0[1]: gradient from output.grad[:, 1] and t = 2, times tanh's slope, adds
# into weight and bias grads, input.grad[:, 1] and t = 0." The gradient comes from $above, a
# slice of output.grad ($from "output") or the index of the layer above ($from "layer"), and
# ($also "later") the next time step t = $later, or ($also "h-n", the last step) h_n.grad, or
# ($also "none") nothing else. It goes on to $below, a slice of input.grad ($to "input") or the
# index of the layer below ($to "layer"), and to $back (t = 0, or h0.grad[0]). $bias as above.
rnn-step-backward = { $lane }[{ $t }]: gradient from { $from ->
        [layer] layer { $above }
       *[output] { $above }
    }{ $also ->
        [later] {" "}and t = { $later }
        [h-n] {" "}and h_n.grad
       *[none] {""}
    }, times { $func }'s slope, adds into { $bias ->
        [yes] weight and bias grads
       *[no] weight grads
    }, { $to ->
        [layer] layer { $below }
       *[input] { $below }
    } and { $back }.
# The same without the weight (and bias) grads, when the whole does not fit: "h_l0[1]: gradient
# from output.grad[:, 1] and t = 2, times tanh's slope, adds into input.grad[:, 1] and t = 0."
rnn-step-backward-short = { $lane }[{ $t }]: gradient from { $from ->
        [layer] layer { $above }
       *[output] { $above }
    }{ $also ->
        [later] {" "}and t = { $later }
        [h-n] {" "}and h_n.grad
       *[none] {""}
    }, times { $func }'s slope, adds into { $to ->
        [layer] layer { $below }
       *[input] { $below }
    } and { $back }.

## Notes (core/src/scene/rnn/)
# The notes under output and h_n and above the unrolled diagram (also in the notebook). Every
# span like output[:, -1], h_n[0] or t = 0 is code and stays as it is.

# A note said in full: sentence $first, then sentence $next (each ends with its own full stop).
rnn-note-then = { $first } { $next }
# What output holds: $shape is its shape, e.g. (3, 2, 5). With $layers "many" (a stacked RNN)
# output is the top layer's h_t, $top the index of that layer.
rnn-note-output = output { $shape }: h_t{ $layers ->
        [many] {" "}of the top layer (layer { $top })
       *[one] {""}
    } at every time step, for every sequence.
# A bidirectional RNN's output: each step holds $width numbers, those of the forward direction
# (indices 0 to $last_forward) then those of the reverse one ($first_reverse to $last_reverse).
rnn-note-output-directions = Each step's { $width } numbers are [forward | reverse]: 0–{ $last_forward } from the forward pass, { $first_reverse }–{ $last_reverse } from the reverse pass.
# A packed batch: output holds padding_value ($value, code) past each sequence's length.
rnn-note-output-padding = Past a sequence's own length it holds padding_value = { $value }.
# What h_n holds: $shape is its shape; its rows are $layers layers × $directions directions = $rows.
rnn-note-h-n = h_n { $shape }: only the final state, one row per layer and direction ({ $layers } × { $directions } = { $rows }), for each sequence; it has no time axis.
# One direction: h_n[-1] equals $last (output[:, -1] or output[-1]), or, when the packed
# sequences have different lengths ($ragged "yes"), each sequence's own last step of output.
rnn-note-h-n-last = h_n[-1] equals { $ragged ->
        [yes] each sequence's own last step of output
       *[no] { $last }
    }.
# Two directions: the forward half is as above; the reverse direction ends at t = 0, so its
# last state is the second half of $first (output[:, 0] or output[0]).
rnn-note-h-n-both = h_n[-2] (forward) equals the first half of { $ragged ->
        [yes] each sequence's own last step of output
       *[no] { $last }
    }; h_n[-1] (reverse) ends at t = 0, so it equals the second half of { $first }.
# A stacked RNN: rows h_n[0] to h_n[$last] are the lower layers' last states.
rnn-note-h-n-lower = h_n[0] to h_n[{ $last }] come from the lower layers, which output never shows.
# Above the unrolled diagram, when the batch is packed: $lengths is the list, e.g. [2, 2, 1, 1].
rnn-note-packed = Packed with lengths { $lengths }: each sequence runs only its own steps, and h_n holds each one's last step.
# The sequences shorter than the longest: $stops lists them ("sequence 2 stops after t = 0, sequence 3 stops after t = 0").
rnn-note-skipped = Here { $stops }; its later cells are skipped.
# One item of that list: sequence $sequence's last step is t = $t.
rnn-note-stops = sequence { $sequence } stops after t = { $t }
# Two or more items of that list: $first (one or more items), then item $next.
rnn-note-list = { $first }, { $next }
