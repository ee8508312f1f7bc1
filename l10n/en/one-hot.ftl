# The One-hot × Linear scene (src/scenes/one_hot/). "Drawing" a table means drawing its random
# numbers from torch.manual_seed (sampling), not painting it. $table is always the tensor name
# emb.weight; ($v, $d) is its shape; $count and $max are numbers already written with their commas.

one-hot-title = One-hot × Linear: the long way round to an embedding
# HTML: keep the <code>…</code> elements and what is inside them as they are.
one-hot-lede = An embedding looks each id's row up. A one-hot row times <code>linear.weight</code> = <code>emb.weight.T</code> gives the very same numbers, but every number costs V multiply-adds, all but one of them times zero.
# aria-label of the line that shows how the tensors' shapes combine.
one-hot-shape-equation = Shape equation
# Label of the field setting how many ids the 1-D input holds.
one-hot-ids-count = number of ids
one-hot-ids-hint = Ids 0 … V−1, up to { $max } of them, fewer at large V (one_hot holds ids × V numbers); both ways read the same ids.
one-hot-lookup-heading = nn.Embedding: look the row up
one-hot-linear-heading = F.one_hot, then nn.Linear(V, D, bias=False)
# Shown under linear.weight: it reads "linear.weight = emb.weight.T: …".
one-hot-weight-hint = = emb.weight.T: row j holds column j of the table. Edit emb.weight to change it.
one-hot-verdict = Equality check
one-hot-learn = Backward and learning
# HTML: keep the <code>…</code> elements and what is inside them as they are.
one-hot-learn-hint = One loss for both outputs (they are equal). SGD steps <code>emb.weight</code>; <code>linear.weight</code> is its transpose, so it moves the same numbers: the looked-up rows, which are the used columns.
one-hot-formulas = Where a number comes from
one-hot-formulas-heading = Where a number comes from, both ways
one-hot-formulas-hint-forward = Click an output cell, or step the animation, to see both for that number.
one-hot-formulas-hint-backward = Click a cell of either gradient, or step the animation, to see both sums for it.
one-hot-no-outputs = No outputs: every id must be a row of emb.weight, 0 … V−1.

## The work counted, and both ways timed in this browser (cost.rs).

one-hot-no-ids-to-time = No ids to time.
one-hot-timing = Timing both ways…
# The work done so far against the whole, e.g. "12 of 40".
one-hot-count-of = { $done } of { $total }
# Name of the lookup way (a bar, and a key of the plot).
one-hot-lookup = lookup
# Name of the one-hot way's bar.
one-hot-bar-one-hot = one-hot
one-hot-bars-hint = To scale: solid, the products that count (one per number, as many as the lookup copies); hatched, the products by 0; blue, what the animation has done so far.
one-hot-copied = numbers copied
one-hot-multiply-adds = multiply-adds
# Under "multiply-adds": how many of those multiply by zero.
one-hot-zero-products = … of them × 0
one-hot-work = Work
one-hot-work-heading = The work, counted
one-hot-grow-heading = Grow V and D, and time both ways in this browser
# Slider labels: PyTorch argument names, normally left as they are.
one-hot-slider-v = V (num_embeddings = num_classes)
one-hot-slider-d = D (embedding_dim = out_features)
one-hot-time-again = Time again
one-hot-seed-hint = New rows and columns come from torch.manual_seed; past 400 numbers a tensor is drawn as a heat map.

## A large table drawn in the background (drawer.rs, restore.rs).

one-hot-not-drawn = Not drawn: { $table } changed while ({ $v }, { $d }) was drawn.
# ($v0, $d0): the table's shape, which it keeps.
one-hot-cancelled-size = Cancelled ({ $v }, { $d }): { $table } stays ({ $v0 }, { $d0 }).
one-hot-cancelled-seed = Cancelled torch.manual_seed({ $seed }): { $table } stays as it was.
one-hot-cancelled-open = Cancelled: nothing was opened; the scene stays as it was.
one-hot-drawing = Drawing { $table } ({ $v }, { $d }), { $count } numbers from torch.manual_seed({ $seed }), in the background…
one-hot-opening = Opening the scene: drawing { $table } ({ $v }, { $d }), { $count } numbers from torch.manual_seed({ $seed }), in the background…
one-hot-restoring = Restoring One-hot × Linear: drawing { $table } ({ $v }, { $d }), { $count } numbers from torch.manual_seed({ $seed }), in the background…
# aria-label of the progress bar.
one-hot-drawing-table = Drawing the table
one-hot-cancel = Cancel
# Why something stopped, shown on its own or after "Not copied:" (lowercase, no final period).
one-hot-worker-unexpected = the worker said something unexpected
# $error is the browser's own message.
one-hot-worker-stopped = the worker stopped: { $error }
one-hot-timer-unexpected = the timing worker said something unexpected: { $error }
one-hot-timer-stopped = the timing worker stopped: { $error }
# Why Copy code or Download notebook failed, after "Not copied:" (lowercase, no final period).
one-hot-no-file = the browser made no file of it
one-hot-write-cancelled = cancelled

## At real scale (scale.rs).

one-hot-scale = At real scale
one-hot-scale-heading = At real scale: V from 10 to 50,000, timed in a worker
one-hot-scale-lede = Both ways, forward and backward, at five vocabulary sizes, in a Web Worker so the page stays responsive. Beside them, PyTorch's own times for the same sizes on the machine this lab was measured on (hollow marks).
# Label of the select whose options are one-hot-scale-option.
one-hot-scale-sizes-label = D and ids
one-hot-scale-sizes = Sizes to time
# $ids is a number already written with its commas, e.g. "1,024".
one-hot-scale-option = D = { $d }, { $ids } ids
one-hot-scale-run = Time V = 10 … 50,000
# $what is what is being timed ("lookup", "one-hot backward", … left in English) or one-hot-scale-drawing.
one-hot-scale-progress = V = { $v }: { $what }… { $percent }% of the work done
one-hot-scale-drawing = drawing emb.weight with torch.manual_seed(0)
one-hot-scale-cancelled = Cancelled after { $done } of { $total } sizes.
one-hot-scale-done = Done: every size timed both ways.
# $version is PyTorch's version, $machine the computer's name.
one-hot-torch-label = PyTorch { $version } ({ $machine }, one thread)
one-hot-times-caption = Milliseconds per call
one-hot-work-caption = The work at each V, forward and backward
one-hot-col-timed-by = timed by
one-hot-col-lookup-ms = lookup (ms)
one-hot-col-one-hot-ms = one-hot × Linear (ms)
one-hot-col-lookup-backward-ms = lookup backward (ms)
one-hot-col-one-hot-backward-ms = one-hot backward (ms)
one-hot-col-gflops = one-hot GFLOP/s
one-hot-col-copies = numbers the lookup copies
one-hot-col-multiply-adds = one-hot multiply-adds
one-hot-col-linear-grad = linear.weight.grad numbers written
one-hot-col-emb-grad = emb.weight.grad numbers written
# In the "timed by" column, beside "PyTorch".
one-hot-this-browser = this browser
one-hot-plot = Milliseconds per call against V, log scales; the same numbers are in the table below
one-hot-plot-x = V (log scale)
one-hot-plot-y = ms per call
one-hot-key-one-hot = one-hot × Linear
one-hot-key-lookup-backward = lookup backward (dashed)
one-hot-key-one-hot-backward = one-hot backward (dashed)

## Captions (core/src/scene/one_hot/): the timeline's words for each step, forward and backward.
## Tensor names are PyTorch's, left as they are: emb.weight, emb(input), input, one_hot, F.one_hot,
## linear.weight, linear(one_hot), and their .grad. $out, $input, $weight, $grad, $one_hot are a
## part of a tensor, like emb(input)[1] or linear.weight[2, 3]; $id and $j are indices; $w and $g
## numbers as PyTorch prints them. A message ending in -short (-shortest) is a shorter way of the
## one before it, said when that one does not fit two lines of the projector.

one-hot-caption-forward = Step through it: each id is looked up in emb.weight, then one-hot encoded and multiplied through the Linear.
# $d: how many numbers a row holds.
one-hot-step-lookup = { $out } = emb.weight[{ $id }]: { $input } = { $id } picks row { $id } and copies its { $d } numbers. No arithmetic.
one-hot-step-lookup-short = { $out } = emb.weight[{ $id }]: { $input } = { $id } picks row { $id }, a copy of { $d } numbers.
# Every id's row copied in one step.
one-hot-step-lookup-rows = emb(input): every id copies its row of emb.weight, { $d } numbers each.
# $v: how many numbers a one-hot row holds (V, the number of rows of emb.weight).
one-hot-step-one-hot = { $out } = F.one_hot({ $input } = { $id }): { $v } numbers, a 1 in column { $id } and 0 everywhere else.
# Code: num_classes={ $v } is PyTorch's argument.
one-hot-step-one-hot-rows = one_hot = F.one_hot(input, num_classes={ $v }): one row per id, one 1 each.
# One number of linear(one_hot): $v products, $zeros of them by 0; the one by 1 keeps $weight.
one-hot-step-linear-cell = { $out }: { $v } products with row { $j } of linear.weight, { $zeros } of them 0 × w; the 1 in column { $id } keeps { $weight } = { $w }.
one-hot-step-linear-cell-short = { $out }: { $v } products, { $zeros } of them 0 × w; the 1 in column { $id } keeps { $weight } = { $w }.
one-hot-step-linear-cell-shortest = { $out }: { $zeros } products 0 × w, and 1 × { $weight } = { $w }.
# A whole row of linear(one_hot) in one step. $multiply_adds and $zeros are numbers already written
# with their commas.
one-hot-step-linear-row = { $out } = one_hot row @ linear.weight.T: { $multiply_adds } multiply-adds, { $zeros } of them by 0.
# A step this scene has no words for: the part of a tensor it writes, like emb(input)[0].
one-hot-step-write = { $span }
one-hot-caption-backward = Step through backward: the Linear writes all of linear.weight.grad; the lookup adds only into the rows of emb.weight.grad its ids picked.
one-hot-caption-backward-short = Backward: the Linear writes all of linear.weight.grad; the lookup adds only into the rows of emb.weight.grad its ids picked.
# $loss is code and its value, like "loss = output.sum() = -5.4086".
one-hot-step-loss-sum = { $loss }: d loss / d output = 1 for every cell of both outputs.
# $n: how many numbers an output holds (the mean's divisor).
one-hot-step-loss-mse = { $loss }: d loss / d output = 2·(output − target)/{ $n } for every cell of both outputs.
# Row $j of the dense gradient: $v numbers written, all 0 but column $id, which gets $grad = $g.
one-hot-step-weight-grad-row = Row { $j } of linear.weight.grad: all { $v } numbers written, { $zeros } of them g × 0 = 0; only [{ $j }, { $id }] gets g = { $grad } = { $g }.
one-hot-step-weight-grad-row-short = Row { $j } of linear.weight.grad: { $v } numbers written, { $zeros } of them 0; only [{ $j }, { $id }] gets g = { $g }.
# All of linear.weight.grad in one step. $count is a number already written with its commas.
one-hot-step-weight-grad = linear.weight.grad += { $grad }ᵀ · { $one_hot }: all { $count } numbers written, one column of them nonzero.
# $d: how many numbers a row holds.
one-hot-step-table-grad = { $grad } += { $out } ({ $input } = { $id }): { $d } numbers into row { $id } only.
# The same, when row $id already holds an earlier id's gradient.
one-hot-step-table-grad-again = { $grad } += { $out } ({ $input } = { $id }): { $d } numbers into row { $id } only. Row { $id } held a gradient already: they add up.
one-hot-step-table-grad-again-short = { $grad } += { $out } ({ $input } = { $id }): { $d } numbers into row { $id }, which held a gradient already: they add up.
one-hot-step-table-grad-again-shortest = { $grad } += { $out }: row { $id } held a gradient already: they add up.

## Notes (core/src/scene/one_hot/): the scene's sentences beside the grids (the work counted, the
## equality check, the gradients' counts, the time both ways took), also written in the notebook.
## Tensor names are PyTorch's, left as they are. $copies, $multiply_adds, $zeros, $written and
## $adds are numbers already written with their commas.

# $v is V: how many times the lookup's work the one-hot way does (a number already written).
one-hot-note-cost = The lookup copies { $copies } numbers. The one-hot way does { $multiply_adds } multiply-adds, { $zeros } of them by 0: { $v }× the work for the same result.
# Said after "torch.equal(emb(input), linear(one_hot)) → True": why both ways agree to the bit.
one-hot-note-equal = Each number of linear(one_hot) is one 1 × w plus zeros, so it is w itself, to the last bit.
# The same, when some numbers differ in the sign of a zero only. "−0 == 0" is code.
one-hot-note-equal-signed-zero = Each number of linear(one_hot) is one 1 × w plus zeros, so it is w itself, to the last bit. Only the sign of a zero can differ: the sum 0 + (−0) is +0, and −0 == 0.
# Said after "→ False". $out is the first number that differs, like emb(input)[0, 0].
one-hot-note-nan-both = { $out } is nan both ways, and nan never equals nan.
# $out is like linear(one_hot)[0, 0]; $weight a row of linear.weight, like linear.weight[0].
one-hot-note-nan-linear = { $out } is nan: its sum multiplies an inf or nan of { $weight } by 0, and 0 × inf = nan. The lookup never reads that number.
# $lookup and $linear are the same cell of both outputs, like emb(input)[0, 1] and
# linear(one_hot)[0, 1]; $a and $b their numbers as PyTorch prints them.
one-hot-note-differ = { $lookup } = { $a } but { $linear } = { $b }.
# The notebook's line: $code is code, "torch.equal(emb(input), linear(one_hot)) → True"; $why is
# one of the messages above.
one-hot-note-verdict = { $code }: { $why }
# While input has an id outside the table. $ids are the ids the outputs come from, like "2, 3, 1".
one-hot-note-stale = The outputs are still those of the last valid input [{ $ids }]; fix the marked id to update them.
# ($d, $v) is the gradient's shape.
one-hot-note-linear-grad = linear.weight.grad is dense ({ $d }, { $v }): all { $written } entries written ({ $multiply_adds } multiply-adds), { $zeros } of them 0, the columns no id uses.
# $ids: how many ids; $d: how many numbers a row holds; $rows: how many distinct rows the ids pick.
one-hot-note-table-grad = emb.weight.grad: { $ids ->
        [one] { $ids } id
       *[other] { $ids } ids
    } × { $d } = { $adds } numbers added into { $rows ->
        [one] { $rows } looked-up row
       *[other] { $rows } looked-up rows
    }; the other { $zeros } entries stay 0, never written.
# Both ways timed in this browser. $lookup and $one_hot are milliseconds per call, $ratio how many
# times longer the one-hot way takes ("51,699", "0.5"): numbers already written.
one-hot-note-timing = Lookup { $lookup } ms per call, one-hot × Linear { $one_hot } ms per call: { $ratio }× the lookup's time.
