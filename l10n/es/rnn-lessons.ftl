# The lessons of the RNN scene (core/src/scene/rnn/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-rnn-unroll
lesson-rnn-unroll-question = ¿Qué devuelve nn.RNN: output o h_n? ¿Qué cambia batch_first?
lesson-rnn-unroll-step-1 = { $module } lee un lote de secuencias, con unas pocas características en cada paso de tiempo: input es (batch, seq, feature) = { $input_shape }.
lesson-rnn-unroll-step-2 = La primera celda procesa el paso de tiempo 0 de todas las secuencias a la vez: h = { $nonlinearity }(x W_ihᵀ + b_ih + h0 W_hhᵀ + b_hh), con h0 todo en ceros. Su resultado es output[:, 0]: output[0, 0, 0] = { $output_0_0_0 }.
lesson-rnn-unroll-step-3 = Los mismos pesos procesan el paso de tiempo 1, y el estado oculto del paso 0 vuelve a entrar a través de weight_hh_l0: output[0, 1, 0] = { $output_0_1_0 }.
lesson-rnn-unroll-step-4 = output es el estado oculto de la capa superior en cada paso, { $output_shape } con batch_first. h_n es el estado de cada capa en el último paso, { $h_n_shape }: h_n[0, 0, 0] = { $h_n_0_0_0 } es output[0, 1, 0] = { $output_0_1_0 }, y h_n nunca pone la dimensión batch primero.
lesson-rnn-unroll-step-5 = Con batch_first = { $batch_first }, los mismos números se disponen como (seq, batch, feature): input { $input_shape } y output { $output_shape }. h_n es { $h_n_shape } en ambos casos.
lesson-rnn-unroll-step-6 = La pasada hacia atrás recorre el tiempo en sentido contrario: la celda del último paso va primero y devuelve input.grad[:, 1] a input, input.grad[0, 1, 0] = { $input_grad_0_1_0 }; lo que devuelve a través de weight_hh_l0 llega al paso anterior.
lesson-rnn-unroll-step-7 = Un solo weight_ih_l0 sirve a todos los pasos, así que su gradiente suma un término por cada paso y cada secuencia: weight_ih_l0.grad[0, 0] = { $weight_ih_l0_grad_0_0 }. El término del paso 0 en weight_hh_l0.grad es 0: multiplica h0, que es todo ceros.
lesson-rnn-unroll-step-8 = Así que nn.RNN devuelve dos cosas: output, el estado oculto de la capa superior en cada paso (con la dimensión batch primero solo con batch_first), y h_n, el estado oculto de cada capa en el último paso, (num_layers × directions, batch, hidden_size). Con una sola capa, h_n es el último paso de output.

## lesson-rnn-vanishing-exploding
lesson-rnn-vanishing-exploding-question = ¿Por qué los gradientes se desvanecen o explotan a lo largo de una RNN larga?
lesson-rnn-vanishing-exploding-step-1 = { $module } con { $nonlinearity }, ejecutada durante 12 pasos de tiempo: output[11, 0, 0] = { $output_11_0_0 }.
lesson-rnn-vanishing-exploding-step-2 = La pérdida es { $loss_fn }. Su target copia output en los pasos 0 a 10, así que allí el error es 0, y en el paso 11 vale 0, target[11, 0, 0] = { $target_11_0_0 }: solo el último paso tiene un error que enviar hacia atrás, así que vemos qué llega de él a los primeros pasos.
lesson-rnn-vanishing-exploding-step-3 = La pasada hacia atrás empieza en el último paso: input.grad[11, 0, 0] = { $input_grad_11_0_0 }.
lesson-rnn-vanishing-exploding-step-4 = Cada paso hacia atrás multiplica el gradiente por la pendiente de { $nonlinearity } y por weight_hh_l0, ambos pequeños aquí, así que al llegar al primer paso casi se ha desvanecido: input.grad[0, 0, 0] = { $input_grad_0_0_0_full }, 0.0000 con cuatro decimales.
lesson-rnn-vanishing-exploding-step-5 = Si en cambio loss = { $loss_fn }, el output de cada paso envía su propio gradiente, e input.grad[0, 0, 0] = { $input_grad_0_0_0 }: casi todo es el gradiente propio del paso 0. Lo que viaja hacia atrás desde el paso 11 sigue desvaneciéndose; la suma lo oculta.
lesson-rnn-vanishing-exploding-step-6 = Ahora con { $nonlinearity } y weight_hh_l0 = [[{ $weight_hh_l0_0_0 }, { $weight_hh_l0_0_1 }], [{ $weight_hh_l0_1_0 }, { $weight_hh_l0_1_1 }]]: cada una de sus filas suma 2, así que cada paso duplica el estado oculto.
lesson-rnn-vanishing-exploding-step-7 = Tras 10 pasos de duplicarse, output[9, 0, 0] llega a { $output_9_0_0 }.
lesson-rnn-vanishing-exploding-step-8 = La pasada hacia atrás con loss = { $loss_fn } empieza en el último paso: input.grad[9, 0, 0] = { $input_grad_9_0_0 }.
lesson-rnn-vanishing-exploding-step-9 = Cada paso hacia atrás lo vuelve a multiplicar por weight_hh_l0, así que se duplica en cada paso en lugar de reducirse: input.grad[0, 0, 0] = { $input_grad_0_0_0 }. Explota.
lesson-rnn-vanishing-exploding-step-10 = weight_hh_l0.grad suma todos esos términos: weight_hh_l0.grad[0, 1] = { $weight_hh_l0_grad_0_1 }. Un paso de SGD de este tamaño echaría a perder los pesos; por eso las RNN se entrenan recortando antes la norma del gradiente (torch.nn.utils.clip_grad_norm_).
lesson-rnn-vanishing-exploding-step-11 = Así que, en una RNN larga, el gradiente, en su camino hacia input.grad, se multiplica en cada paso hacia atrás por weight_hh_l0 y por la pendiente de la no linealidad: por debajo de 1 se desvanece; por encima de 1, explota. El recorte controla los gradientes que explotan; las compuertas de LSTM y GRU, que dejan pasar el gradiente de un paso al anterior sin reducirlo, se idearon sobre todo contra los que se desvanecen.
