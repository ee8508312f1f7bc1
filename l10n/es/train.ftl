# The Train scene (src/scenes/train/).

train-title = Entrenar el recomendador DotProduct
# The lede is cut around two pieces of code: "torch.manual_seed(S)" follows train-lede-rows, and
# "param -= lr * param.grad" follows train-lede-sgd; train-lede-moved ends the paragraph.
train-lede-rows = Cada usuario y cada película es una fila de números aleatorios:
train-lede-sgd = , y luego cada entrada se extrae de normal(0, 1). Una valoración se predice como el producto punto de la fila del usuario y la fila de la película. Cada paso de SGD empuja las filas en contra del gradiente de la pérdida MSE,
train-lede-moved = , y solo las filas que usan las valoraciones reciben gradiente, así que solo ellas se mueven.
# The group of the model's sizes (n_users, n_movies, n_factors, ratings) and seed.
train-model-legend = Modelo
# The current loss under the predictions; $loss is the number as PyTorch prints it.
train-loss = pérdida = { $loss }
train-no-loss = pérdida: PyTorch lanza un error con las valoraciones actuales
# The name of the status line that shows the loss.
train-loss-label = Pérdida
train-stale = PyTorch lanza un error con las valoraciones actuales, así que estas son las últimas predicciones que se ejecutaron.
train-moved-hint = Las celdas resaltadas con borde cambiaron en el último paso. Las filas atenuadas son de usuarios o películas que ninguna valoración usa: su gradiente es cero, así que SGD nunca las mueve.
# R is the number of ratings; b a rating's row.
train-grads-hint = En la pasada hacia atrás, el .grad de cada número aparece debajo de él: output.grad = 2·(output − rating)/R; cada valoración suma output.grad[b]·fila de la película a la fila de gradiente de su usuario, y output.grad[b]·fila del usuario a la de su película.
train-formula-heading = De dónde sale una predicción
train-formula-hint = Haz clic en una predicción de output, o avanza la animación hacia adelante, para ver su suma de productos.

## The charts.

# The loss curve's caption and name.
train-loss-curve = Curva de pérdida
# Beside the caption: $loss is the current loss as PyTorch prints it, $step the number of steps taken.
train-loss-now = ahora { $loss } en el paso { $step }
train-no-loss-now = no hay pérdida actual: PyTorch lanza un error
# A point's tooltip: the loss measured at step $step.
train-point = paso { $step }: { $loss }
# Under the x axis's right end: the last step.
train-last-step = paso { $step }
# The scatter plot's name and its two caption lines (● and ■ are the points' shapes).
train-factors = Factores
train-factors-axes = Factores: x = factor 0, y = factor 1
train-factors-key = ● usuario, ■ película; atenuados: sin valoraciones
