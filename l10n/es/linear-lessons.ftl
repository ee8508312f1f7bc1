# The lessons of the Linear scene (core/src/scene/linear/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-linear-row-or-column
lesson-linear-row-or-column-question = nn.Linear(6, 10) tiene un weight de 10×6. ¿La entrada es una fila o una columna? ¿Qué cambia entre un solo vector y un lote (batch)?
lesson-linear-row-or-column-step-1 = { $module } guarda weight como (out_features, in_features) = { $weight_shape }: una fila por cada característica de salida y una columna por cada característica de entrada.
lesson-linear-row-or-column-step-2 = output[0] combina input con la fila 0 de weight: se multiplican número a número, se suman los productos y luego se suma bias[0]. Eso da { $output_0 }.
lesson-linear-row-or-column-step-3 = Cada salida usa una fila completa de weight: output[3] = input · weight[3] + bias[3] = { $output_3 }. El input se alinea con las filas de weight; por eso PyTorch escribe y = x Wᵀ + b.
lesson-linear-row-or-column-step-4 = Cada fila de weight hace un producto punto con el mismo input, y cada una da una salida: un input 1-D de forma { $input_shape } funciona como W @ x y da un output de forma { $output_shape }.
lesson-linear-row-or-column-step-5 = Un lote de forma { $input_shape } contiene una entrada por fila. output[1, 0] toma la fila 1 de input con la fila 0 de weight, más bias[0]: { $output_1_0 }.
lesson-linear-row-or-column-step-6 = Cada fila de input se convierte en una fila de output, { $input_shape } → { $output_shape }: la dimensión del lote se conserva, y cada fila se combina con el mismo weight.
lesson-linear-row-or-column-step-7 = Las dimensiones iniciales, sean cuantas sean, se conservan: { $input_shape } → { $output_shape }. La fila 0 de weight es toda ceros, así que cada output[..., 0] es solo bias[0]: output[0, 1, 0] = { $output_0_1_0 }.
lesson-linear-row-or-column-step-8 = La respuesta: el input es una fila. weight se guarda como (out_features, in_features), y cada fila de input se combina con todas las filas de weight, así que y = x Wᵀ + b. Un vector es una sola fila (W @ x da los mismos números), y un lote son muchas filas.
