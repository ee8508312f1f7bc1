# The lessons of the Train scene (core/src/scene/train/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-train-learned
lesson-train-learned-question = ¿Cómo se aprenden los valores de un embedding? ¿Son aleatorios?
lesson-train-learned-step-1 = torch.manual_seed({ $seed }) llena las dos tablas de { $module } con números aleatorios de una distribución normal: user_factors.weight es { $user_factors_weight_shape } y movie_factors.weight, { $movie_factors_weight_shape }. Todavía no se ha aprendido nada.
lesson-train-learned-step-2 = Una predicción es un producto punto: la fila del usuario 0 en user_factors.weight se multiplica número a número por la fila de la película 0 en movie_factors.weight, y se suman los productos. output[0] = { $output_0 }, lejos de su valoración.
lesson-train-learned-step-3 = La pérdida es { $loss_fn } = { $loss }. La pasada hacia atrás solo da gradiente a las filas que usan las valoraciones: los usuarios 3 y 4 no valoraron nada, así que sus filas de user_factors.weight.grad contienen { $user_factors_weight_grad_3_0 }.
lesson-train-learned-step-4 = Un paso de SGD con lr = { $lr } mueve cada fila en −lr × su gradiente: user_factors.weight[0, 0] ahora vale { $user_factors_weight_0_0 }, y la pérdida, { $loss }. Las filas de los usuarios 3 y 4 no se movieron.
lesson-train-learned-step-5 = Veinte pasos más: la pérdida baja a { $loss }, y output[0] = { $output_0 } se acerca a su valoración.
lesson-train-learned-step-6 = Los usuarios 3 y 4 conservan su valor inicial aleatorio: user_factors.weight[3, 0] = { $user_factors_weight_3_0 }. Un embedding solo se aprende donde los datos lo tocan.
lesson-train-learned-step-7 = Así que los valores de un embedding empiezan siendo aleatorios, números normales generados a partir de la semilla, y se aprenden: cada paso de SGD mueve en −lr × su gradiente las filas de user_factors.weight y de movie_factors.weight que usaron las valoraciones; las filas que ninguna valoración toca nunca se mueven.
