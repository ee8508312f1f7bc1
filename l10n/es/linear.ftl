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

## Notes (core/src/scene/linear/)

# The lede above a 1-D input: $bias_i is the code " + bias[i]" and $bias the code " + bias" (both
# empty when the layer has no bias; keep them right after the code they extend); $out is
# out_features, the number of outputs.
linear-note-lede-vector =
    Una entrada 1-D es una sola muestra, una sola fila: output[i] = input · weight[i]{ $bias_i }. Eso es weight @ input{ $bias }, y también input @ weight.T{ $bias } da { $out ->
        [one] el mismo número
       *[other] los mismos { $out } números
    }.
# The lede above a batch (N, in_features): $n is N, the number of input rows; $bias_i and $bias as
# in linear-note-lede-vector; $other_way is the sentence that follows (linear-note-other-way-runs
# or linear-note-other-way-fails).
linear-note-lede-batch =
    { $n ->
        [one] La única fila de input es una muestra
       *[other] Cada una de las { $n } filas de input es una muestra
    } con su propia fila de output: output[n, i] = input[n] · weight[i]{ $bias_i }, todo de una vez como input @ weight.T{ $bias }. { $other_way }
# Follows linear-note-lede-batch when N = in_features: weight @ input runs too, but means something else.
linear-note-other-way-runs = Al revés, weight @ input también se ejecutaría aquí, pero toma las columnas de input como muestras y da otros números.
# Follows linear-note-lede-batch otherwise: $error is PyTorch's error, in English as PyTorch prints
# it ("mm: mat1 and mat2 shapes cannot be multiplied (10x6 and 2x6)").
linear-note-other-way-fails = Al revés, weight @ input falla: { $error }.
# The lede above an input with several leading dimensions, (B, N, in_features): $lead is their
# shape ("(2, 3)"), $rows the number of rows they hold (B·N), $in_features and $out_features the
# layer's sizes.
linear-note-lede-batches =
    Las dimensiones iniciales { $lead } se conservan tal cual: { $rows ->
        [one] su única fila, de longitud { $in_features }, pasa
       *[other] las { $rows } filas de longitud { $in_features } pasan
    } por el mismo weight, y output conserva { $lead } y termina en out_features = { $out_features } en lugar de in_features = { $in_features }.
# Under the weight tensor: why it is (out_features, in_features). $shape is its shape ("(10, 6)"),
# $n the number of numbers in a row (in_features).
linear-note-weight =
    weight se guarda como (out_features, in_features) = { $shape }: la fila i contiene { $n ->
        [one] el número que da
       *[other] los { $n } números que dan
    } la característica de salida i.
