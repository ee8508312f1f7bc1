# The Linear scene (src/scenes/linear/).

linear-title = nn.Linear: cada fila de la entrada se encuentra con cada fila de weight
# The name of the shape equation beside the module's call (e.g. "(3,) → (2,)").
linear-shape-equation = Ecuación de formas
# Follows the core's note on weight when weight is shown transposed.
linear-shown-transposed = Aquí se muestra como weight.T: la columna i es esa fila.
# A checkbox label.
linear-show-transposed = mostrar weight como weight.T (in, out)
# Follows the code "bias=False" when the layer has no bias.
linear-no-bias = : no se suma nada.
linear-stale = PyTorch lanza un error con estas formas, así que esta es la última salida que se ejecutó.
linear-formula-heading = De dónde sale un número
linear-formula-hint = Haz clic en una celda de la salida o de un gradiente, o avanza la animación, para ver su suma.
linear-layer-legend = Cambiar la capa
linear-input-legend = Cambiar la entrada
# A group of three radio buttons choosing the input's rank.
linear-input-layout = Forma de la entrada
linear-rank-vector = un vector (in,)
linear-rank-batch = un lote (N, in)
linear-rank-3d = 3-D (B, N, in)

## Captions (core/src/scene/linear/)

# The timeline's caption when the layer cannot run, so the forward pass has no steps.
linear-caption-no-shapes = No hay nada que calcular hasta que las formas encajen.
# Before the first forward step ("Step forward" is the timeline's button): each step computes a
# whole row of output (when there are too many cells to show one by one).
linear-caption-forward-rows = Avanza paso a paso: cada paso calcula una fila entera de output.
# Before the first forward step: each step computes one cell.
linear-caption-forward-cells = Avanza paso a paso: cada paso calcula una celda de output a partir de una fila de input y una fila de weight.
# The backward pass has no steps.
linear-caption-no-gradient = No hay gradiente hasta que puedan ejecutarse la pasada hacia adelante y la pérdida.
# Before the first backward step; $unit is "row" (each step is a whole row of output) or "cell".
linear-caption-backward =
    Avanza: la pérdida devuelve output.grad desde la última { $unit ->
        [row] fila
       *[cell] celda
    } de output hasta la primera y lo suma a weight.grad, bias.grad e input.grad.
# The same, for a layer without bias.
linear-caption-backward-no-bias =
    Avanza: la pérdida devuelve output.grad desde la última { $unit ->
        [row] fila
       *[cell] celda
    } de output hasta la primera y lo suma a weight.grad e input.grad.
# Part of a step's caption: the whole 1-D input.
linear-caption-the-input = la entrada
# Part of a step's caption: $tensor is weight or weight.grad, $row the row's index.
linear-caption-row-of = la fila { $row } de { $tensor }
# Part of a step's caption: $tensor is input or input.grad, $row the row's index.
linear-caption-tensor-row = la fila { $row } de { $tensor }
# A forward step: $target is the output cell computed (output[1, 3]); $x the input row
# (linear-caption-the-input, linear-caption-tensor-row, or a span like input[1, 2]); $w the weight
# row (linear-caption-row-of); $bias the bias cell (bias[3]); $value the result as PyTorch prints it.
linear-step-forward = { $target }: se multiplica { $x } por { $w } número a número y se suma, más { $bias } = { $value }.
# The same, for a layer without bias.
linear-step-forward-no-bias = { $target }: se multiplica { $x } por { $w } número a número y se suma = { $value }.
# The same, when the value is unknown.
linear-step-forward-no-value = { $target }: se multiplica { $x } por { $w } número a número y se suma, más { $bias }.
# The same, without bias and value.
linear-step-forward-bare = { $target }: se multiplica { $x } por { $w } número a número y se suma.
# A forward step that computes a whole row of output at once: $target is that row (output[0, 1]),
# $x the input row, $bias the whole bias.
linear-step-forward-rows = { $target }: se multiplica { $x } por todas las filas de weight a la vez (input @ weight.T), más { $bias }.
# The same, for a layer without bias.
linear-step-forward-rows-no-bias = { $target }: se multiplica { $x } por todas las filas de weight a la vez (input @ weight.T).
# A backward step: $grad is the output.grad cell (output.grad[1, 9]) and $value its number; $into
# the weight.grad row it adds into (linear-caption-row-of); $x the input row (as in
# linear-step-forward); $bias the bias.grad cell; $dx the input.grad row (linear-caption-tensor-row,
# or input.grad itself); $w the weight row.
linear-step-backward-value = { $grad } = { $value } vuelve a { $into } (por { $x }), a { $dx } (por { $w }) y a { $bias }.
# The same, for a layer without bias.
linear-step-backward-value-no-bias = { $grad } = { $value } vuelve a { $into } (por { $x }) y a { $dx } (por { $w }).
# linear-step-backward-value without the value, when that is too long.
linear-step-backward = { $grad } vuelve a { $into } (por { $x }), a { $dx } (por { $w }) y a { $bias }.
# The same, for a layer without bias.
linear-step-backward-no-bias = { $grad } vuelve a { $into } (por { $x }) y a { $dx } (por { $w }).
# The shortest way, when linear-step-backward is too long: where output.grad adds in, without the
# "times" parts.
linear-step-backward-short = { $grad } vuelve a { $into }, a { $dx } y a { $bias }.
# The same, for a layer without bias.
linear-step-backward-short-no-bias = { $grad } vuelve a { $into } y a { $dx }.
