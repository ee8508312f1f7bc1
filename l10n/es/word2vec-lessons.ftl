# The lessons of the word2vec scene (core/src/scene/word2vec/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-word2vec-cbow-or-skip-gram
lesson-word2vec-cbow-or-skip-gram-question = Si uso un nn.Embedding de 1000 palabras y 30 números, ¿es word2vec? Si lo es, ¿es CBOW o skip-gram?
lesson-word2vec-cbow-or-skip-gram-step-1 = word2vec son dos tablas, in_embed.weight y out_embed.weight, y una pérdida. Esto es { $model }: la oración “{ $sentence }” da { $pairs } pares, y el par 0 puntúa la fila de la palabra central en in_embed.weight frente a la fila de una palabra del contexto en out_embed.weight: pos[0] = { $pos_0 }.
lesson-word2vec-cbow-or-skip-gram-step-2 = La palabra central del par 0 es “the”, la fila 0 de in_embed.weight: { $in_embed_weight_0_0 }, … Cada fila es una extracción aleatoria, como las genera nn.Embedding, a partir de torch.manual_seed({ $seed }): todavía no se ha aprendido nada.
lesson-word2vec-cbow-or-skip-gram-step-3 = { $model } invierte los papeles: la media de las filas del contexto en in_embed.weight se puntúa frente a la fila de la palabra central en out_embed.weight, pos[0] = { $pos_0 }. La misma oración ahora da { $pairs } pares, uno por palabra central.
lesson-word2vec-cbow-or-skip-gram-step-4 = La pasada hacia atrás solo da gradiente a las filas que buscaron los pares. “soup” no está en ninguno, así que su fila de in_embed.weight.grad contiene { $in_embed_weight_grad_3_0 } y SGD la deja donde está.
lesson-word2vec-cbow-or-skip-gram-step-5 = Así que un nn.Embedding en tu modelo no es ninguno de los dos: word2vec es una forma de entrenar una tabla, con la pérdida { $loss_fn }, y CBOW y skip-gram solo difieren en qué filas de in_embed.weight entran. El embedding de tu modelo lo entrena la pérdida de tu modelo.

## lesson-word2vec-learned
lesson-word2vec-learned-question = ¿Estos valores se aprenden, o son solo vectores aleatorios basados en el vocabulario? ¿Y se aprenden para qué?
lesson-word2vec-learned-step-1 = Al principio, “great” es la fila 6 de in_embed.weight, una extracción aleatoria a partir de torch.manual_seed({ $seed }): { $in_embed_weight_6_0 }, … Las palabras cuyas filas apuntan en la dirección más parecida a la suya, { $near_word2vec }, están ahí por azar.
lesson-word2vec-learned-step-2 = Tras { $steps } pasos de SGD de { $model }, cada uno de los cuales mueve solo las filas que busca su oración, la fila de great en in_embed.weight empieza con { $in_embed_weight_6_0 }, y las palabras más cercanas a ella son { $near_word2vec }.
lesson-word2vec-learned-step-3 = word2vec aprende prediciendo vecinos, y “great” y “awful”, las filas 6 y 8 de in_embed.weight, aparecen en la misma compañía: “the film was great”, “the film was awful”. Como predicen los mismos vecinos, sus filas se vuelven parecidas.
lesson-word2vec-learned-step-4 = La tarea, en cambio, aprende las mismas palabras a partir de etiquetas (labels), 1 para un elogio y 0 para una queja: tras { $task_steps } pasos desde una tabla aleatoria, las palabras más cercanas a “great” en su tabla son { $near_task }.
lesson-word2vec-learned-step-5 = Las dos tablas se aprenden, con SGD sobre una pérdida, y cada una guarda lo que su pérdida necesita: la de word2vec pone { $word } junto a las palabras con las que comparte lugares; la de la tarea, aprendida a partir de las etiquetas (labels), junto a las palabras que su etiqueta necesita juntas.

## lesson-word2vec-pretrained
lesson-word2vec-pretrained-question = ¿Alguna recomendación sobre usar o no vectores preentrenados, por ejemplo de word2vec?
lesson-word2vec-pretrained-step-1 = word2vec entrenó { $steps } pasos de { $model } con estas oraciones. Abajo, el clasificador de la tarea aprende las etiquetas (labels) a partir de una tabla aleatoria y llega a una pérdida de { $task_loss_random } tras { $task_steps } pasos.
lesson-word2vec-pretrained-step-2 = Si se parte de la tabla de word2vec congelada, sus filas nunca se mueven y solo fc aprende las etiquetas (labels): tras { $task_steps } pasos, la pérdida de la tarea es { $task_loss_frozen }.
lesson-word2vec-pretrained-step-3 = Con ajuste fino, las filas de word2vec son solo el punto de partida y luego se mueven con las etiquetas (labels): la pérdida de la tarea llega a { $task_loss_fine_tune }.
lesson-word2vec-pretrained-step-4 = Congeladas, las filas de word2vec frenaron a la tarea: las palabras más cercanas a “great” en ellas son { $near_word2vec }, mientras que las etiquetas de “the film was great” (labels[0]) y “the film was awful” (labels[1]) son distintas.
lesson-word2vec-pretrained-step-5 = ¿Preentrenados o no? Conviene partir de ellos y ajustarlos para la tarea. Ayudan más cuando se aprendieron de mucho más texto que el que cubren las etiquetas (labels) propias; aquí las dos tablas aprenden de las mismas pocas oraciones, así que el ajuste fino termina cerca de donde termina un inicio aleatorio.
