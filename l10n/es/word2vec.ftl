# The word2vec scene (src/scenes/word2vec/): its settings, corpus and vocabulary, the task's
# table compared with word2vec's, and word2vec at real scale in a worker.

word2vec-title = ¿word2vec o la tarea?
# The lede reads: [word2vec-lede-is] nn.Embedding [word2vec-lede]. The code between is left as it is.
word2vec-lede-is = ¿Es{" "}
word2vec-lede = {" "}word2vec? No: es una tabla de filas, aprendida con cualquier pérdida con la que se la entrene. Aquí el mismo vocabulario se aprende dos veces. word2vec (skip-gram o CBOW, con muestreo negativo) lo aprende prediciendo las palabras que rodean a cada palabra, de modo que las palabras que aparecen en la misma compañía terminan cerca. Un clasificador lo aprende a partir de la etiqueta de cada oración, de modo que las palabras terminan cerca cuando la etiqueta lo requiere.
# A checkbox's label, after the box.
word2vec-cbow = CBOW (predecir la palabra central a partir de su contexto; desactivado: skip-gram)
word2vec-moved-note = Las filas atenuadas son palabras que este paso no busca: su gradiente es 0, así que SGD nunca las mueve. Las celdas recuadradas cambiaron en el último paso.
word2vec-score-title = De dónde sale una puntuación
# pos and neg are the names of two tensors.
word2vec-score-hint = Al hacer clic en una puntuación de pos o neg, o al avanzar la animación de la pasada hacia adelante, se ve su suma de productos.

## The sentence classifier ("the task") trained on the same vocabulary.

word2vec-task-title = Las mismas palabras, entrenadas por una tarea
# The hint reads: [mean] nn.Embedding [then] nn.Linear(D, 1) [and] F.binary_cross_entropy_with_logits
# [label] from_pretrained(w, freeze=True) [fine-tuned] freeze=False [end]
word2vec-task-hint-mean = Un clasificador: la media de las filas de una oración en un{" "}
word2vec-task-hint-then = , luego{" "}
word2vec-task-hint-and = {" "}y{" "}
word2vec-task-hint-label = {" "}frente a la etiqueta de la oración (1 elogio, 0 queja; se pueden editar). Su tabla empieza aleatoria, o desde el in_embed de word2vec congelado (
word2vec-task-hint-fine-tuned = ), o ajustado (
word2vec-task-hint-end = ).
word2vec-task-legend = La tarea
# Radio buttons follow: the three starts of the task's table (word2vec-start-*).
word2vec-starts-legend = Comparar la tabla de word2vec con
# How the task's table starts: random, word2vec's table frozen, or word2vec's table fine-tuned.
word2vec-start-random = aleatoria
word2vec-start-frozen = word2vec, congelada
word2vec-start-fine-tuned = word2vec, ajustada
# The chart of the task's loss curves.
word2vec-curves-label = La pérdida de la tarea para cada inicio, paso a paso
# A legend line: $start is one of word2vec-start-*; $first and $last are losses as PyTorch prints them.
word2vec-curve-legend = { $start }: pérdida { $first } → { $last }

## Which words are close: nearest neighbours and PCA maps of both tables.

word2vec-compare-title = ¿Qué palabras están cerca?
word2vec-near-word2vec = in_embed de word2vec
word2vec-pca-word2vec = in_embed de word2vec, PCA
# $start is one of word2vec-start-*.
word2vec-near-task = La tabla de la tarea ({ $start })
# $start is one of word2vec-start-*.
word2vec-pca-task = La tabla de la tarea ({ $start }), PCA
# Followed by the list of words left off the PCA map.
word2vec-unplaced = {" "}— fuera del mapa, sus filas contienen inf o nan:{" "}

## The corpus, its vocabulary and the sentence the next step trains on.

word2vec-corpus-label = Corpus: una oración por línea (editar y luego salir del cuadro)
word2vec-tokenizer-hint = Una palabra es una secuencia de letras, dígitos y apóstrofos; solo A–Z se pasan a minúsculas, así que ÉMILE se lee Émile, una palabra distinta de émile.
# $min is the setting min_count; $words lists the words left out, each as "word ×count".
word2vec-left-out = Excluidas (vistas menos de min_count = { $min } { $min ->
        [one] vez
       *[other] veces
    }): { $words }
word2vec-vocabulary-title = Vocabulario: { $words ->
        [one] { $words } palabra
       *[other] { $words } palabras
    } de { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }
word2vec-vocabulary-list = Vocabulario: id, palabra, cantidad
# $line is the line of the corpus (from 1); $pairs how many (centre, context) pairs it gives.
word2vec-sentence-title = El próximo paso entrena con la línea { $line } ({ $pairs ->
        [one] { $pairs } par
       *[other] { $pairs } pares
    })
word2vec-no-sentence = No hay ninguna oración con la que entrenar
word2vec-sentence-hint = La palabra central en azul y su contexto en naranja, para el par en el que está la línea de tiempo; las palabras tachadas no están en el vocabulario.

## "At real scale": word2vec trained on a large corpus in a Web Worker.

word2vec-scale-summary = A escala real: 120,002 tokens entrenados en un worker
# Followed by a "Try again" button.
word2vec-scale-unloaded = No se pudo descargar esta parte de rowflow (por la red, o por una nueva versión del sitio).{" "}
word2vec-try-again = Reintentar
# The intro reads: [intro] in_embed [intro-from] (torch.rand(V, D) - 0.5) / D [intro-and] out_embed [intro-zeros]
word2vec-scale-intro = La misma pérdida sobre un corpus mil veces más grande, entrenada como la entrenan word2vec.c y gensim: un paso de SGD por par en cuanto se conoce su gradiente, con la tasa de aprendizaje bajando de 0.025 a 0.0001,{" "}
word2vec-scale-intro-from = {" "}a partir de{" "}
word2vec-scale-intro-and = {" "}y{" "}
word2vec-scale-intro-zeros = {" "}en ceros. Se ejecuta en un Web Worker, así que la página sigue respondiendo mientras entrena.
word2vec-scale-loading = Cargando el corpus…
# $sentences and $kb are numbers already written with thousands separators.
word2vec-scale-corpus = Corpus: { $sentences } oraciones, { $kb } KB, generado por tools/time_word2vec.py a partir de los dos temas de la escena y sus palabras de elogio y de queja.
# $why is one of word2vec-scale-no-window, -unreachable, -server, -unreadable.
word2vec-scale-corpus-failed = No se pudo cargar el corpus: { $why }.
word2vec-scale-no-window = no hay ventana
word2vec-scale-unreachable = no se puede acceder a la red
# $status is the HTTP status code, e.g. 404.
word2vec-scale-server = el servidor respondió { $status }
word2vec-scale-unreadable = no se pudo leer su texto
# $method is CBOW or skip-gram.
word2vec-scale-settings = { $method }, D = 100, ventana 5, 5 negativos
# Followed by a drop-down of 1, 5 or 20.
word2vec-scale-epochs = Épocas{" "}
word2vec-scale-train = Entrenar
word2vec-scale-cancel = Cancelar
word2vec-scale-reading = Leyendo el corpus en el worker…
# Numbers are already written with thousands separators; $loss as PyTorch prints it.
word2vec-scale-training = { $words } de { $of } palabras, { $speed } palabras/s, pérdida { $loss }
word2vec-scale-cancelled-after = Cancelado tras { $words } de { $of } palabras.
word2vec-scale-cancelled = Cancelado.
# $seconds is the time taken, e.g. 3.52; $loss as PyTorch prints it.
word2vec-scale-trained = Entrenado: { $words } palabras en { $seconds } s, { $speed } palabras/s; pérdida de los últimos pares: { $loss }.
# $why is why the run stopped (word2vec-scale-wrong-size, -unexpected, -trainer-stopped, or the worker's own message).
word2vec-scale-stopped = Detenido: { $why }
word2vec-scale-wrong-size = el entrenador devolvió una tabla de tamaño incorrecto
# $error is the JSON parser's message (English).
word2vec-scale-unexpected = el entrenador respondió algo inesperado: { $error }
# $why is the browser's message (English).
word2vec-scale-trainer-stopped = el entrenador se detuvo: { $why }
# The table comparing words per second: its caption, column headings, and the first row's name.
word2vec-scale-speeds = Palabras por segundo, skip-gram, D = { $dim }, ventana { $window }, { $negatives } negativos, { $epochs ->
        [one] { $epochs } época
       *[other] { $epochs } épocas
    }
word2vec-scale-trained-by = entrenado por
word2vec-scale-words-per-second = palabras/s
word2vec-scale-of-gensim = respecto a gensim
word2vec-scale-this-browser = este navegador, el worker de entrenamiento
# $machine describes the computer (English, as the timing script wrote it).
word2vec-scale-timed = gensim (un hilo de worker) y PyTorch (un hilo) se cronometraron en { $machine } con tools/time_word2vec.py sobre el mismo corpus y el mismo trabajo.
word2vec-scale-not-like = {" "}Esta ejecución no es ese trabajo (CBOW, o más épocas): sus palabras por segundo no son comparables.
# $word is the word chosen in the scene.
word2vec-scale-nearest = Las más cercanas a “{ $word }” tras entrenar a escala real
# great, awful, film, soup are words of the corpus: keep them in English.
word2vec-scale-not-in-corpus = Esa palabra no está en este corpus: hay que elegir arriba una de sus palabras (great, awful, film, soup…).

## Captions (core/src/scene/word2vec/)

# What the next step does, under the scene's sentence. $model is cbow or skip-gram; $pairs the
# step's (centre, context) pairs; $rows the vocabulary's rows.
word2vec-caption-step = { $model ->
        [cbow] CBOW predice cada palabra central a partir de la media de las filas de su contexto
       *[skip-gram] Skip-gram predice cada palabra de contexto a partir de la fila de su palabra central
    }: { $pairs ->
        [one] el { $pairs } par de este paso lee y mueve
       *[other] los { $pairs } pares de este paso leen y mueven
    } { $rows ->
        [one] la única fila
       *[other] algunas de las { $rows } filas
    } del vocabulario; el gradiente de cualquier otra fila es 0.
# The task's loss after its $steps SGD steps from each start; $random, $frozen, $fine_tuned are
# losses as PyTorch prints them.
word2vec-caption-task = La tarea tras { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }: pérdida { $random } desde una tabla aleatoria, { $frozen } desde la de word2vec congelada, { $fine_tuned } ajustada.
word2vec-step-nothing = Nada que reproducir: el corpus no da ningún par con el que entrenar.
# Before the first step. "Step forward" is the timeline's button (timeline-forward).
word2vec-step-forward-overview = Pasada hacia adelante: { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }, uno por cada par de la oración. Presiona Avanzar un paso para empezar.
word2vec-step-backward-overview = Pasada hacia atrás: { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }, del último par al primero. Presiona Avanzar un paso para empezar.
# A forward step: pair $pair (an index) scores its target word. $input is the centre word
# ($kind word) or the context's words, comma-separated ($kind mean: their rows' mean); $target
# the word predicted; $pos the score as PyTorch prints it; $negatives the words sampled against
# it. Words are the corpus's: keep them as they are. pos and neg are tensors.
word2vec-step-forward = Par { $pair }: { $kind ->
        [mean] la media de { $input }
       *[word] { $input }
    } → { $target }: pos[{ $pair }] = { $pos }; los negativos { $negatives } dan neg[{ $pair }].
# A backward step: $grad is pos.grad[$pair] as PyTorch prints it; the other arguments as in
# word2vec-step-forward. in_embed and out_embed are the two tables.
word2vec-step-backward = pos.grad[{ $pair }] = { $grad }: solo reciben gradiente las filas { $kind ->
        [mean] del contexto { $input }
       *[word] de { $input }
    } (in_embed) y de { $target }, { $negatives } (out_embed).
# word2vec-step-forward with the negatives counted ($count), not listed: said when that does not fit.
word2vec-step-forward-counted = Par { $pair }: { $kind ->
        [mean] la media de { $input }
       *[word] { $input }
    } → { $target }: pos[{ $pair }] = { $pos }; { $count ->
        [one] su negativo da
       *[other] sus { $count } negativos dan
    } neg[{ $pair }].
# The shortest way of word2vec-step-forward.
word2vec-step-forward-short = Par { $pair }: pos[{ $pair }] = { $pos }, la puntuación de { $target }.
# word2vec-step-backward with the negatives counted ($count), not listed: said when that does not fit.
word2vec-step-backward-counted = pos.grad[{ $pair }] = { $grad }: solo reciben gradiente las filas { $kind ->
        [mean] del contexto { $input }
       *[word] de { $input }
    } (in_embed) y de { $target } y { $count ->
        [one] su negativo
       *[other] sus { $count } negativos
    } (out_embed).
# The shortest way of word2vec-step-backward.
word2vec-step-backward-short = pos.grad[{ $pair }] = { $grad }: solo reciben gradiente las filas que lee el par { $pair }.
