# The lessons of the Embedding scene (core/src/scene/embedding/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-embedding-lookup
lesson-embedding-lookup-question = ¿Qué hace nn.Embedding de distinto que una capa Linear sin bias?
lesson-embedding-lookup-step-1 = { $module } contiene una tabla con una fila por id: weight es (num_embeddings, embedding_dim) = { $weight_shape } y se usa tal como está guardado, sin trasponer.
lesson-embedding-lookup-step-2 = input[0] = { $input_0 } selecciona la fila { $input_0 } de weight, y output[0] es una copia de ella: output[0, 0] = { $output_0_0 }, exactamente weight[2, 0]. No se multiplica nada.
lesson-embedding-lookup-step-3 = Cada id copia una fila: los ids de input, de forma { $input_shape }, dan un output de forma { $output_shape }, una fila de la tabla por id.
lesson-embedding-lookup-step-4 = Si se cambia un id, se copia otra fila: input[1] = { $input_1 } ahora trae la fila 0 de weight, así que output[1, 0] = { $output_1_0 }.
lesson-embedding-lookup-step-5 = Los ids pueden tener cualquier forma: un lote de ids { $input_shape } da un output { $output_shape }; input[0] llena output[0], una fila por id. Esta tabla de from_pretrained tiene i en la fila i, así que cada fila de output muestra qué id la eligió.
lesson-embedding-lookup-step-6 = Pasada hacia atrás: el gradiente de cada fila de output vuelve a la única fila que eligió su id. Se usaron los ids 2, 3 y 1; la fila 0 no, así que weight.grad[0] se queda en { $weight_grad_0_0 }.
lesson-embedding-lookup-step-7 = Así que nn.Embedding es una búsqueda (lookup): cada id copia su fila de weight, y no se multiplica nada. Una capa Linear sin bias multiplicaría cada número de la entrada por un peso y sumaría; por eso ids de cualquier forma (*) dan un output de forma (*, embedding_dim).

## lesson-embedding-gradient-rows
lesson-embedding-gradient-rows-question = ¿Todas las filas de un embedding reciben gradiente? ¿Y un id repetido, o padding_idx?
lesson-embedding-gradient-rows-step-1 = { $module }: la fila { $padding_idx } de weight es la fila de relleno (padding), con ceros desde el principio.
lesson-embedding-gradient-rows-step-2 = Los ids de input, { $input_shape }, usan el id 1 tres veces y el id 2 dos veces; cada búsqueda copia su fila en output, incluido el relleno.
lesson-embedding-gradient-rows-step-3 = Pasada hacia atrás con loss = { $loss_fn }: cada output.grad vale 1. El primer id, 2, suma output.grad[0, 0] en weight.grad[2], que ahora contiene weight.grad[2, 0] = { $weight_grad_2_0 }.
lesson-embedding-gradient-rows-step-4 = El id 2 se busca por segunda vez, así que output.grad[1, 0] se suma en la misma fila: weight.grad[2, 0] ahora vale { $weight_grad_2_0 }.
lesson-embedding-gradient-rows-step-5 = El id 1 es el id de relleno: sus tres búsquedas no devuelven nada, y weight.grad[1, 0] se queda en { $weight_grad_1_0 }, como toda fila que ningún id buscó.
lesson-embedding-gradient-rows-step-6 = Un paso de SGD con lr = { $lr } mueve solo las filas que tienen gradiente: weight[2, 0] ahora vale { $weight_2_0 }, 2 × lr menos. weight[5, 0] sigue en { $weight_5_0 }.
lesson-embedding-gradient-rows-step-7 = Así que no todas las filas reciben gradiente: solo lo reciben las filas buscadas de weight.grad, un id repetido suma una vez por cada búsqueda, y la fila de padding_idx no recibe nada. Un paso de SGD mueve solo las filas que usó el lote.
