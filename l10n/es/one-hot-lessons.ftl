# The lessons of the One-hot scene (core/src/scene/one_hot/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-one-hot-same-numbers
lesson-one-hot-same-numbers-question = ¿Un embedding es lo mismo que un vector one-hot por una matriz de pesos? ¿Cuánto cuesta el camino one-hot y en qué se diferencia su pasada hacia atrás?
lesson-one-hot-same-numbers-step-1 = Los mismos ids, por dos caminos. emb.weight es la tabla de { $emb_weight_shape }; linear.weight, el weight de la capa Linear, es la misma tabla traspuesta, { $linear_weight_shape }.
lesson-one-hot-same-numbers-step-2 = La búsqueda: input[0] = { $input_0 } copia la fila 2 de emb.weight, sin ninguna operación aritmética. emb(input)[0, 0] = { $emb_input_0_0 }.
lesson-one-hot-same-numbers-step-3 = El camino one-hot primero convierte input[0] = { $input_0 } en una fila de one_hot: un 1 en la columna 2 y 0 en todas las demás columnas.
lesson-one-hot-same-numbers-step-4 = Luego cada número de la salida es un producto punto de one_hot[0] con una fila de linear.weight, y todos los productos menos uno son por cero. Solo sobrevive linear.weight[0, 2]: linear(one_hot)[0, 0] = { $linear_one_hot_0_0 }, el número que copió la búsqueda.
lesson-one-hot-same-numbers-step-5 = Las dos salidas, emb(input) y linear(one_hot), son iguales bit a bit. La búsqueda copió 15 números; el camino one-hot hizo 60 multiplicaciones-suma, 45 de ellas por cero, y con un vocabulario real casi todas lo son.
lesson-one-hot-same-numbers-step-6 = Pasada hacia atrás, primer id: la capa Linear escribió filas enteras de linear.weight.grad, ceros incluidos; la búsqueda suma su gradiente solo en la fila 2 de emb.weight.grad: emb.weight.grad[2, 0] = { $emb_weight_grad_2_0 }.
lesson-one-hot-same-numbers-step-7 = Al final los dos contienen los mismos números, emb.weight.grad[1, 0] = { $emb_weight_grad_1_0 } = linear.weight.grad[0, 1] = { $linear_weight_grad_0_1 }, pero la capa Linear escribió cada entrada de su gradiente denso, mientras que la búsqueda solo tocó las filas que eligieron sus ids.
lesson-one-hot-same-numbers-step-8 = Así que sí: un embedding es one-hot × Linear, emb(input) = linear(one_hot) con linear.weight = emb.weight.T, los mismos números en la pasada hacia adelante y en la pasada hacia atrás. Pero el camino one-hot multiplica por cada cero y escribe un gradiente denso, mientras que la búsqueda copia filas y solo toca las filas que usó.
