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
