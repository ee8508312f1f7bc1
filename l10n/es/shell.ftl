# index.html's static shell (boot.js writes it before the WebAssembly arrives) and what boot.js says.

meta-description =
    .content = rowflow: qué calculan exactamente nn.Linear, nn.Embedding, one-hot × Linear y nn.RNN de PyTorch, con los mismos números que PyTorch.

nav =
    .aria-label = Escenas

# Scene names: PyTorch names stay as they are.
nav-linear = Linear
nav-embedding = Embedding
nav-one-hot = One-hot × Linear
nav-rnn = RNN
nav-train = Entrenar
nav-word2vec = word2vec
nav-explain = Explicar un error

projector = Proyector
controls = Controles
fullscreen = Pantalla completa
fullscreen-exit = Salir de pantalla completa
fullscreen-refused = Se rechazó la pantalla completa: { $error }
present-not-kept = No se recordará en la próxima visita: este navegador no permitió guardarlo ({ $error }).
language = Idioma
lang-unsaved = Tu trabajo más reciente no está guardado en este navegador (el aviso de abajo explica por qué), así que la página no se recargó en otro idioma: primero expórtalo a un archivo.

update-ready = Hay una nueva versión de rowflow disponible.
update-reload = Recargar
update-unsaved = Hay una nueva versión de rowflow disponible, pero tu trabajo más reciente no está guardado en este navegador (el aviso de abajo explica por qué): expórtalo a un archivo y luego presiona Recargar.

start-title = Qué calculan las capas de PyTorch, fila por fila
start-lede = Cada número de esta página es el mismo que imprime PyTorch: calculado en tu navegador, en float32 como PyTorch, y <code>torch.manual_seed</code> da exactamente los mismos pesos iniciales. Edita cualquier celda y observa cómo el resultado se actualiza.
start-lede-more = Cada escena reproduce la pasada hacia adelante y la pasada hacia atrás, da pasos de SGD, termina con el código de PyTorch que imprime exactamente sus números y se comparte como enlace o como archivo.
card-linear =
    .data-lede = Una entrada 1-D es una sola muestra, una sola fila: output[i] = input · weight[i] + bias[i]. Eso es weight @ input + bias, y también input @ weight.T + bias da los mismos 10 números.
card-linear-says = ¿La entrada es una fila o una columna? Mira y = x Wᵀ + b celda por celda, para un solo vector, un lote o una entrada 3-D.
card-embedding =
    .data-lede = Un embedding es una búsqueda (lookup): observa cómo cada id toma su fila de la tabla, con los números que PyTorch genera a partir de la semilla. Cada id toma una fila de weight y la copia en la salida. No se multiplica nada.
card-embedding-says = Un embedding es una búsqueda (lookup): observa cómo cada id toma su fila de la tabla, con los números que PyTorch genera a partir de la semilla.
card-one-hot =
    .data-lede = Un embedding busca la fila de cada id. Una fila one-hot multiplicada por linear.weight = emb.weight.T da exactamente los mismos números, pero cada número cuesta V multiplicaciones con suma, y en todas menos una se multiplica por cero.
card-one-hot-says = Los mismos números que una búsqueda, pero por el camino largo: cuenta las multiplicaciones por cero y cronometra los dos caminos.
card-rnn =
    .data-lede = Desenrolla nn.RNN paso a paso: output frente a h_n, capas, direcciones, batch_first y secuencias empaquetadas. Cada celda calcula h_t = tanh(x_t W_ihᵀ + b_ih + h_(t−1) W_hhᵀ + b_hh) con los propios números de PyTorch.
card-rnn-says = Desenrolla nn.RNN paso a paso: output frente a h_n, capas, direcciones, batch_first y secuencias empaquetadas.
card-train =
    .data-lede = Cada usuario y cada película es una fila de números aleatorios: torch.manual_seed(S) y luego cada valor se toma de normal(0, 1). Una calificación se predice como el producto escalar de la fila del usuario y la fila de la película. Cada paso de SGD empuja las filas en contra del gradiente de la pérdida MSE, param -= lr * param.grad, y solo las filas que usan las calificaciones reciben gradiente, así que solo ellas se mueven.
card-train-says = Entrena el recomendador DotProduct de fastai con SGD y observa cómo solo se mueven las filas que recibieron calificaciones.
card-word2vec =
    .data-lede = ¿nn.Embedding es word2vec? No: es una tabla de filas que se aprende con cualquier pérdida con la que se entrene. Aquí el mismo vocabulario se aprende dos veces. word2vec (skip-gram o CBOW, con muestreo negativo) lo aprende prediciendo las palabras que rodean a cada palabra, así que las palabras que aparecen en los mismos contextos terminan cerca. Un clasificador lo aprende a partir de la etiqueta de cada oración, así que las palabras terminan cerca cuando la etiqueta lo requiere.
card-word2vec-says = Skip-gram y CBOW junto a un embedding entrenado por su tarea, a partir de filas aleatorias o preentrenadas: ¿qué palabras terminan cerca?
card-explain =
    .data-lede = Pega el error que imprimió PyTorch, la línea que lo provocó, o ambos: mira las formas tal como las ve la capa, dónde no coinciden y cómo corregirlas; luego ábrelo en la escena.
card-explain-says = ¿nn.Linear, nn.Embedding o nn.RNN te dio un error de formas? Pégalo y mira dónde no coinciden las formas.

lessons-title = Lecciones
lessons-lede = Cada una tiene unos pocos pasos y responde una sola pregunta. Avanza con AvPág (PageDown) o con un control de presentaciones; Esc sale de la lección y deja la escena tal como está.
lesson-linear-row-or-column = ¿La entrada es una fila o una columna?
lesson-embedding-lookup = Un embedding es una búsqueda (lookup)
lesson-embedding-gradient-rows = Qué filas reciben gradiente: repeticiones y relleno (padding)
lesson-one-hot-same-numbers = Una búsqueda es one-hot × Linear, y lo que cuestan los ceros
lesson-rnn-unroll = Cómo se desenrolla nn.RNN: output frente a h_n
lesson-rnn-vanishing-exploding = Desvanecimiento y explosión de gradientes
lesson-train-learned = Cómo se aprenden los embeddings
lesson-word2vec-cbow-or-skip-gram = ¿nn.Embedding es word2vec? ¿CBOW o skip-gram?
lesson-word2vec-learned = ¿Aprendido por word2vec o por la tarea?
lesson-word2vec-pretrained = ¿Vectores preentrenados o no?
# A lesson's scene (its name, as in the navigation) and its number of steps.
lesson-meta = { $scene ->
        [linear] { nav-linear }
        [embedding] { nav-embedding }
        [one-hot] { nav-one-hot }
        [rnn] { nav-rnn }
        [train] { nav-train }
       *[word2vec] { nav-word2vec }
    }, { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }
loading = Cargando el laboratorio…

crash-not-set-aside = No se pudo apartar tu trabajo guardado ({ $error }), así que no se cambió nada: primero descárgalo.
boot-error = rowflow no pudo iniciarse en este navegador ({ $error }). Necesita un navegador con WebAssembly y sus instrucciones SIMD: Chrome o Edge 91, Firefox 89, Safari 16.4 o versiones posteriores.
