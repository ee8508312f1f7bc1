# The controls every scene shares: the learning panel (src/learn_panel.rs), the lesson panel
# (src/lesson_panel.rs), presets, the pass toggle, the seed field, formulas, heat maps, grids,
# "Run N steps" (src/runner.rs) and web workers (src/worker.rs).

## Learning panel (src/learn_panel.rs). "N" is the number of steps the learner types.

learn-legend = Backward and learning
learn-loss = Loss
learn-loss-value = Loss value
# The loss value when it can't be computed.
learn-loss-none = loss: —
# $value is the loss as PyTorch prints it.
learn-loss-is = loss = { $value }
learn-sgd-step = SGD step
learn-run-n = Run N steps
learn-undo = Undo
learn-reset = Reset
learn-steps-taken = Steps taken
# $steps: how many SGD steps have been taken so far.
learn-step-count = steps: { $steps }
# While a long run of $steps steps is going on.
learn-running = Running { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }…
learn-run-progress = Run progress
# Beside the progress bar: $done of $steps steps taken.
learn-run-count = { $done } of { $steps }
learn-cancel = Cancel
# $typed is the text the learner typed for N, in quotes.
learn-n-invalid = N must be a whole number ≥ 0, not { $typed }

## Lesson panel (src/lesson_panel.rs).

lesson-panel-where = Lesson · step { $step } of { $steps }
lesson-panel-back = ◀ Back
lesson-panel-next = Next ▶
lesson-panel-finish = Finish the lesson
lesson-panel-leave = Leave the lesson (Esc)
# The scene's list of lessons: its name, and the words before it.
lesson-panel-lessons = Lessons
lesson-panel-lessons-label = Lessons:

## Presets picker (src/presets.rs).

presets-label = Preset
# The picker's choice when the learner has edited the preset's values.
presets-edited = (edited)

## Which pass the timeline plays (src/pass_toggle.rs).

pass-label = Pass
pass-forward = Forward
pass-backward = Backward

## torch.manual_seed(…) field (src/seed_field.rs).

seed-label = Seed
# Button: initialise the parameters again from the seed.
seed-reinit = Re-init

## One output cell's computation (src/formula.rs).

formula-label = formula
# $products products whose value is 0, left out of the written sum.
formula-zeros = { $products ->
        [one] { $products } product is 0
       *[other] { $products } products are 0
    } (one factor is 0)
# $products nonzero products left out of the written sum.
formula-rest = { $products ->
        [one] { $products } more product not written out
       *[other] { $products } more products not written out
    }
# Both notes (formula-zeros, then formula-rest) together.
formula-parts = { $first }; { $second }
# Under a long formula: $products is how many products the sum has; $parts says which are left out.
formula-note = Of { $products } products: { $parts }.

## Heat map of a large tensor (src/heatmap.rs).

# The value under the cursor: $cell is its PyTorch name (weight[3, 5]), $value its number, $row
# the first numbers of its row.
heatmap-readout = { $cell } = { $value } · row: [{ $row }]
# What a screen reader hears on the heat map; $name is the tensor's name.
heatmap-summary = heat map of { $name }: { $rows ->
        [one] { $rows } row
       *[other] { $rows } rows
    } × { $columns ->
        [one] { $columns } column
       *[other] { $columns } columns
    }; arrow keys, Page Up and Page Down move the cursor, the value under it is read out below
# Colour legend: a blue swatch, then these words.
heatmap-below = below 0 ·
# Colour legend: an orange swatch, then these words.
heatmap-above = above 0

## Grid cells (src/grid/).

# Read out on a cell after its own value: $value is its gradient's number, $name the gradient's
# PyTorch name (output.grad[0]).
grid-cell-gradient = { $value } (its gradient, { $name })

## "Run N steps" (src/runner.rs): why a run ended early.

runner-replaced = Run stopped after { $done } of { $steps } steps: the scene was replaced, so none were kept.
# $why says what ended the run ("Cancelled", "Run stopped by another change", runner-left).
runner-kept = { $why } after { $done } of { $steps } steps; those steps are kept.
# The learner left the scene while steps were running (used as $why of runner-kept).
runner-left = Left
# $error is why PyTorch refused the next step.
runner-failed = Stopped after { $done } of { $steps } steps: { $error }

## Web workers (src/worker.rs): why a worker stopped, put inside another sentence
## ("the worker stopped: …").

# $error is the browser's error.
worker-not-started = the worker could not start: { $error }
worker-not-loaded = its files could not be loaded
