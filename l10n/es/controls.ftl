# The controls every scene shares: the learning panel (src/learn_panel.rs), the lesson panel
# (src/lesson_panel.rs), presets, the pass toggle, the seed field, formulas, heat maps, grids,
# "Run N steps" (src/runner.rs) and web workers (src/worker.rs).

## Learning panel (src/learn_panel.rs). "N" is the number of steps the learner types.

learn-legend = Pasada hacia atrás y aprendizaje
learn-loss = Pérdida
learn-loss-value = Valor de la pérdida
# The loss value when it can't be computed.
learn-loss-none = pérdida: —
# $value is the loss as PyTorch prints it.
learn-loss-is = pérdida = { $value }
learn-sgd-step = Paso de SGD
learn-run-n = Ejecutar N pasos
learn-undo = Deshacer
learn-reset = Restablecer
learn-steps-taken = Pasos dados
# $steps: how many SGD steps have been taken so far.
learn-step-count = pasos: { $steps }
# While a long run of $steps steps is going on.
learn-running = Ejecutando { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }…
learn-run-progress = Progreso de la ejecución
# Beside the progress bar: $done of $steps steps taken.
learn-run-count = { $done } de { $steps }
learn-cancel = Cancelar
# $typed is the text the learner typed for N, in quotes.
learn-n-invalid = N debe ser un número entero ≥ 0, no { $typed }

## Lesson panel (src/lesson_panel.rs).

lesson-panel-where = Lección · paso { $step } de { $steps }
lesson-panel-back = ◀ Atrás
lesson-panel-next = Siguiente ▶
lesson-panel-finish = Terminar la lección
lesson-panel-leave = Salir de la lección (Esc)
# The scene's list of lessons: its name, and the words before it.
lesson-panel-lessons = Lecciones
lesson-panel-lessons-label = Lecciones:

## Presets picker (src/presets.rs).

presets-label = Ejemplo
# The picker's choice when the learner has edited the preset's values.
presets-edited = (editado)

## Which pass the timeline plays (src/pass_toggle.rs).

pass-label = Pasada
pass-forward = Adelante
pass-backward = Atrás

## torch.manual_seed(…) field (src/seed_field.rs).

seed-label = Semilla
# Button: initialise the parameters again from the seed.
seed-reinit = Reinicializar

## One output cell's computation (src/formula.rs).

formula-label = fórmula
# $products products whose value is 0, left out of the written sum.
formula-zeros = { $products ->
        [one] { $products } producto es 0
       *[other] { $products } productos son 0
    } (un factor es 0)
# $products nonzero products left out of the written sum.
formula-rest = { $products ->
        [one] { $products } producto más sin escribir
       *[other] { $products } productos más sin escribir
    }
# Both notes (formula-zeros, then formula-rest) together.
formula-parts = { $first }; { $second }
# Under a long formula: $products is how many products the sum has; $parts says which are left out.
formula-note = De { $products } productos: { $parts }.

## Heat map of a large tensor (src/heatmap.rs).

# The value under the cursor: $cell is its PyTorch name (weight[3, 5]), $value its number, $row
# the first numbers of its row.
heatmap-readout = { $cell } = { $value } · fila: [{ $row }]
# What a screen reader hears on the heat map; $name is the tensor's name.
heatmap-summary = mapa de calor de { $name }: { $rows ->
        [one] { $rows } fila
       *[other] { $rows } filas
    } × { $columns ->
        [one] { $columns } columna
       *[other] { $columns } columnas
    }; las flechas, Re Pág y Av Pág mueven el cursor, y el valor bajo el cursor se lee abajo
# Colour legend: a blue swatch, then these words.
heatmap-below = menor que 0 ·
# Colour legend: an orange swatch, then these words.
heatmap-above = mayor que 0

## Grid cells (src/grid/).

# Read out on a cell after its own value: $value is its gradient's number, $name the gradient's
# PyTorch name (output.grad[0]).
grid-cell-gradient = { $value } (su gradiente, { $name })

## "Run N steps" (src/runner.rs): why a run ended early.

runner-replaced = Ejecución detenida tras { $done } de { $steps } pasos: la escena se reemplazó, así que no se conservó ninguno.
# $why says what ended the run ("Cancelled", "Run stopped by another change", runner-left).
runner-kept = { $why } tras { $done } de { $steps } pasos; esos pasos se conservan.
# The learner left the scene while steps were running (used as $why of runner-kept).
runner-left = Escena abandonada
# $error is why PyTorch refused the next step.
runner-failed = Detenido tras { $done } de { $steps } pasos: { $error }

## Web workers (src/worker.rs): why a worker stopped, put inside another sentence
## ("the worker stopped: …").

# $error is the browser's error.
worker-not-started = el worker no pudo iniciarse: { $error }
worker-not-loaded = no se pudieron cargar sus archivos
