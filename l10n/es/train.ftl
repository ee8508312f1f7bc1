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

## Captions (core/src/scene/train/)

# Beside the scene's diagram: $factors is n_factors, the products summed for each rating's score.
train-caption-score =
    Cada puntuación es (user_factors[u] * movie_factors[m]).sum(): { $factors ->
        [one] se suma { $factors } producto
       *[other] se suman { $factors } productos
    } por valoración.
# Beside the diagram: $users and $movies list the rows no rating uses ("3, 4"; may be empty).
train-caption-still = Solo las filas valoradas reciben gradiente, así que solo ellas se mueven: los usuarios [{ $users }] y las películas [{ $movies }] conservan sus valores iniciales aleatorios.
# The timeline's caption when there is nothing to play.
train-caption-nothing = Nada que reproducir: PyTorch lanza un error con las valoraciones actuales.
# Before the first step of the forward pass; $steps is its number of steps. "Step forward" is the
# timeline's button.
train-caption-forward =
    Pasada hacia adelante: { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }, uno por valoración. Presiona Avanzar un paso para empezar.
# Before the first step of the backward pass.
train-caption-backward =
    Pasada hacia atrás: { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }, de la última valoración a la primera. Presiona Avanzar un paso para empezar.
# A forward step: $b is the rating's index, $user and $movie the rows used, $value the prediction
# as PyTorch prints it.
train-step-forward = output[{ $b }]: se multiplica la fila del usuario { $user } por la de la película { $movie } número a número y se suma = { $value }.
# The same, when the prediction is unknown.
train-step-forward-bare = se multiplica la fila del usuario { $user } por la de la película { $movie } y se suma.
# A backward step: $b is the rating's index and $grad its output.grad as PyTorch prints it; $user
# and $movie the rows whose gradients it adds into.
train-step-backward = output.grad[{ $b }] = { $grad }: por la fila de la película { $movie } se suma al gradiente del usuario { $user }; por la del usuario { $user }, al de la película { $movie }.
# The same, when output.grad is unknown.
train-step-backward-bare = por la fila de la película { $movie } se suma al gradiente del usuario { $user }; por la del usuario { $user }, al de la película { $movie }.
