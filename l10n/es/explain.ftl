# The Explain page, #/explain (src/explain/). The explanations themselves come from rowflow-core.

explain-title = Explicar un error
explain-lede = Pega el error que imprimió PyTorch, la línea que lo provocó o ambos: verás las formas como las ve la capa, dónde no coinciden y cómo corregirlo, y luego podrás abrirlo en la escena.
explain-text-label = Error de PyTorch o línea de código
explain-examples = Ejemplos
explain-nothing-yet = Todavía no se ha pegado nada: pega arriba o elige un ejemplo.
# "PyTorch runs this without an error: <the line> gives <its output>." The code sits between the parts; mind the spaces.
explain-runs = PyTorch ejecuta esto sin error:{" "}
explain-runs-gives = {" "}da{" "}
explain-runs-end = .
# A scene's name, as the navigation says it; $route is the scene's address.
explain-scene = { $route ->
        [linear] { nav-linear }
        [embedding] { nav-embedding }
        [one-hot] { nav-one-hot }
        [rnn] { nav-rnn }
        [train] { nav-train }
       *[word2vec] { nav-word2vec }
    }
# A link; $scene is a scene's name (explain-scene).
explain-open = Abrir en la escena { $scene }
# "See nn.Linear in the Linear scene.": the layer (code) sits between the first two parts, then
# the link (explain-scene-link), then the end; mind the spaces.
explain-see = Ver{" "}
explain-see-in = {" "}en la{" "}
explain-scene-link = escena { $scene }
explain-see-end = .
# Before the call that raised the error (code).
explain-from = Viene de{" "}
explain-fixes = Correcciones
explain-unknown = Este no es uno de los mensajes que rowflow conoce, así que no dice nada sobre él en lugar de adivinar. Reconoce:
# After a kind of error rowflow reads (English text from rowflow-core), before the link to its scene (explain-scene-link).
explain-kind-shown = , que se muestra en la{" "}
