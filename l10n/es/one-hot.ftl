# La escena One-hot × Linear (src/scenes/one_hot/). "Generar" una tabla es sacar sus números
# aleatorios de torch.manual_seed. $table es siempre el nombre del tensor emb.weight; ($v, $d) es su
# forma; $count y $max son números ya escritos con sus comas.

one-hot-title = One-hot × Linear: el camino largo hacia un embedding
# HTML: conservar los elementos <code>…</code> y su contenido tal cual.
one-hot-lede = Un embedding busca la fila de cada id. Una fila one-hot por <code>linear.weight</code> = <code>emb.weight.T</code> da exactamente los mismos números, pero cada número cuesta V multiplicaciones-suma, todas menos una por cero.
one-hot-shape-equation = Ecuación de formas
one-hot-ids-count = número de ids
one-hot-ids-hint = Ids de 0 … V−1, hasta { $max }, menos con V grande (one_hot guarda ids × V números); los dos caminos leen los mismos ids.
one-hot-lookup-heading = nn.Embedding: buscar la fila
one-hot-linear-heading = F.one_hot, luego nn.Linear(V, D, bias=False)
one-hot-weight-hint = = emb.weight.T: la fila j contiene la columna j de la tabla. Se cambia editando emb.weight.
one-hot-verdict = Comprobación de igualdad
one-hot-learn = Pasada hacia atrás y aprendizaje
# HTML: conservar los elementos <code>…</code> y su contenido tal cual.
one-hot-learn-hint = Una sola pérdida para las dos salidas (son iguales). SGD da pasos sobre <code>emb.weight</code>; <code>linear.weight</code> es su traspuesta, así que mueve los mismos números: las filas buscadas, que son las columnas usadas.
one-hot-formulas = De dónde sale un número
one-hot-formulas-heading = De dónde sale un número, por los dos caminos
one-hot-formulas-hint-forward = Al hacer clic en una celda de salida, o al avanzar la animación paso a paso, se ven los dos cálculos de ese número.
one-hot-formulas-hint-backward = Al hacer clic en una celda de cualquiera de los dos gradientes, o al avanzar la animación paso a paso, se ven las dos sumas que la dan.
one-hot-no-outputs = No hay salidas: cada id debe ser una fila de emb.weight, 0 … V−1.

## El trabajo contado, y los dos caminos cronometrados en este navegador (cost.rs).

one-hot-no-ids-to-time = No hay ids que cronometrar.
one-hot-timing = Cronometrando los dos caminos…
one-hot-count-of = { $done } de { $total }
one-hot-lookup = búsqueda
one-hot-bar-one-hot = one-hot
one-hot-bars-hint = A escala: en sólido, los productos que cuentan (uno por número, tantos como copia la búsqueda); rayado, los productos por 0; en azul, lo que la animación lleva hecho.
one-hot-copied = números copiados
one-hot-multiply-adds = multiplicaciones-suma
one-hot-zero-products = … de ellas, × 0
one-hot-work = Trabajo
one-hot-work-heading = El trabajo, contado
one-hot-grow-heading = Aumentar V y D, y cronometrar los dos caminos en este navegador
one-hot-slider-v = V (num_embeddings = num_classes)
one-hot-slider-d = D (embedding_dim = out_features)
one-hot-time-again = Volver a cronometrar
one-hot-seed-hint = Las filas y columnas nuevas salen de torch.manual_seed; con más de 400 números, un tensor se muestra como mapa de calor.

## Una tabla grande generada en segundo plano (drawer.rs, restore.rs).

one-hot-not-drawn = No generada: { $table } cambió mientras se generaba ({ $v }, { $d }).
one-hot-cancelled-size = Cancelado ({ $v }, { $d }): { $table } sigue siendo ({ $v0 }, { $d0 }).
one-hot-cancelled-seed = Cancelado torch.manual_seed({ $seed }): { $table } queda como estaba.
one-hot-cancelled-open = Cancelado: no se abrió nada; la escena queda como estaba.
one-hot-drawing = Generando { $table } ({ $v }, { $d }), { $count } números de torch.manual_seed({ $seed }), en segundo plano…
one-hot-opening = Abriendo la escena: generando { $table } ({ $v }, { $d }), { $count } números de torch.manual_seed({ $seed }), en segundo plano…
one-hot-restoring = Restaurando One-hot × Linear: generando { $table } ({ $v }, { $d }), { $count } números de torch.manual_seed({ $seed }), en segundo plano…
one-hot-drawing-table = Generando la tabla
one-hot-cancel = Cancelar
one-hot-worker-unexpected = el worker respondió algo inesperado
one-hot-worker-stopped = el worker se detuvo: { $error }
one-hot-timer-unexpected = el worker de cronometraje respondió algo inesperado: { $error }
one-hot-timer-stopped = el worker de cronometraje se detuvo: { $error }
one-hot-no-file = el navegador no creó ningún archivo con ello
one-hot-write-cancelled = cancelado

## A escala real (scale.rs).

one-hot-scale = A escala real
one-hot-scale-heading = A escala real: V de 10 a 50,000, cronometrado en un worker
one-hot-scale-lede = Los dos caminos, hacia adelante y hacia atrás, con cinco tamaños de vocabulario, en un Web Worker para que la página siga respondiendo. Al lado, los tiempos del propio PyTorch para los mismos tamaños en la máquina donde se midió este laboratorio (marcas huecas).
one-hot-scale-sizes-label = D e ids
one-hot-scale-sizes = Tamaños que cronometrar
one-hot-scale-option = D = { $d }, { $ids } ids
one-hot-scale-run = Cronometrar V = 10 … 50,000
one-hot-scale-progress = V = { $v }: { $what }… { $percent }% del trabajo hecho
one-hot-scale-drawing = generando emb.weight con torch.manual_seed(0)
one-hot-scale-cancelled = Cancelado tras { $done } de { $total } tamaños.
one-hot-scale-done = Listo: cada tamaño cronometrado por los dos caminos.
one-hot-torch-label = PyTorch { $version } ({ $machine }, un hilo)
one-hot-times-caption = Milisegundos por llamada
one-hot-work-caption = El trabajo en cada V, hacia adelante y hacia atrás
one-hot-col-timed-by = cronometrado por
one-hot-col-lookup-ms = búsqueda (ms)
one-hot-col-one-hot-ms = one-hot × Linear (ms)
one-hot-col-lookup-backward-ms = búsqueda hacia atrás (ms)
one-hot-col-one-hot-backward-ms = one-hot hacia atrás (ms)
one-hot-col-gflops = GFLOP/s de one-hot
one-hot-col-copies = números que copia la búsqueda
one-hot-col-multiply-adds = multiplicaciones-suma de one-hot
one-hot-col-linear-grad = números escritos de linear.weight.grad
one-hot-col-emb-grad = números escritos de emb.weight.grad
one-hot-this-browser = este navegador
one-hot-plot = Milisegundos por llamada frente a V, en escalas logarítmicas; los mismos números están en la tabla de abajo
one-hot-plot-x = V (escala logarítmica)
one-hot-plot-y = ms por llamada
one-hot-key-one-hot = one-hot × Linear
one-hot-key-lookup-backward = búsqueda hacia atrás (discontinua)
one-hot-key-one-hot-backward = one-hot hacia atrás (discontinua)

## Leyendas (core/src/scene/one_hot/): lo que dice la línea de tiempo en cada paso, hacia adelante y
## hacia atrás. Los nombres de tensores son de PyTorch y quedan tal cual: emb.weight, emb(input),
## input, one_hot, F.one_hot, linear.weight, linear(one_hot), y sus .grad. $out, $input, $weight,
## $grad, $one_hot son una parte de un tensor, como emb(input)[1] o linear.weight[2, 3]; $id y $j son
## índices; $w y $g, números como los escribe PyTorch. Un mensaje que termina en -short (-shortest)
## es una forma más corta del anterior, que se usa cuando ese no cabe en dos líneas del proyector.

one-hot-caption-forward = Paso a paso: cada id se busca en emb.weight; luego se codifica en one-hot y se multiplica por la capa Linear.
one-hot-step-lookup = { $out } = emb.weight[{ $id }]: { $input } = { $id } elige la fila { $id } y copia { $d ->
        [one] su único número
       *[other] sus { $d } números
    }. Sin aritmética.
one-hot-step-lookup-short = { $out } = emb.weight[{ $id }]: { $input } = { $id } elige la fila { $id }, una copia de { $d ->
        [one] { $d } número
       *[other] { $d } números
    }.
one-hot-step-lookup-rows = emb(input): cada id copia su fila de emb.weight, de { $d ->
        [one] { $d } número
       *[other] { $d } números
    } cada una.
one-hot-step-one-hot = { $out } = F.one_hot({ $input } = { $id }): { $v } números, un 1 en la columna { $id } y 0 en todas las demás.
one-hot-step-one-hot-rows = one_hot = F.one_hot(input, num_classes={ $v }): una fila por id, con un solo 1 cada una.
one-hot-step-linear-cell = { $out }: { $v } productos con la fila { $j } de linear.weight, { $zeros } son 0 × w; el 1 de la columna { $id } conserva { $weight } = { $w }.
one-hot-step-linear-cell-short = { $out }: { $v } productos, { $zeros } son 0 × w; el 1 de la columna { $id } conserva { $weight } = { $w }.
one-hot-step-linear-cell-shortest = { $out }: { $zeros } productos 0 × w, y 1 × { $weight } = { $w }.
one-hot-step-linear-row = { $out } = fila de one_hot @ linear.weight.T: { $multiply_adds } multiplicaciones-suma, { $zeros } de ellas por 0.
one-hot-step-write = { $span }
one-hot-caption-backward = Paso a paso hacia atrás: la Linear escribe todo linear.weight.grad; la búsqueda solo suma en las filas de emb.weight.grad de sus ids.
one-hot-caption-backward-short = Hacia atrás: la Linear escribe todo linear.weight.grad; la búsqueda solo suma en las filas de emb.weight.grad de sus ids.
one-hot-step-loss-sum = { $loss }: d loss / d output = 1 en cada celda de las dos salidas.
one-hot-step-loss-mse = { $loss }: d loss / d output = 2·(output − target)/{ $n } en cada celda de las dos salidas.
one-hot-step-weight-grad-row = Fila { $j } de linear.weight.grad: se escriben los { $v } números, { $zeros } de ellos g × 0 = 0; solo [{ $j }, { $id }] recibe g = { $grad } = { $g }.
one-hot-step-weight-grad-row-short = Fila { $j } de linear.weight.grad: { $v } números escritos, { $zeros } de ellos 0; solo [{ $j }, { $id }] recibe g = { $g }.
one-hot-step-weight-grad = linear.weight.grad += { $grad }ᵀ · { $one_hot }: se escriben los { $count } números, y solo una columna no es cero.
one-hot-step-table-grad = { $grad } += { $out } ({ $input } = { $id }): { $d ->
        [one] { $d } número entra
       *[other] { $d } números entran
    } solo en la fila { $id }.
one-hot-step-table-grad-again = { $grad } += { $out } ({ $input } = { $id }): { $d ->
        [one] { $d } número entra
       *[other] { $d } números entran
    } solo en la fila { $id }. La fila { $id } ya tenía un gradiente: se suman.
one-hot-step-table-grad-again-short = { $grad } += { $out } ({ $input } = { $id }): { $d ->
        [one] { $d } número entra
       *[other] { $d } números entran
    } en la fila { $id }, que ya tenía un gradiente: se suman.
one-hot-step-table-grad-again-shortest = { $grad } += { $out }: la fila { $id } ya tenía un gradiente: se suman.

## Notas (core/src/scene/one_hot/): las frases de la escena junto a las cuadrículas (el trabajo
## contado, la comprobación de igualdad, el recuento de los gradientes, el tiempo de cada camino),
## que también se escriben en el cuaderno. Los nombres de tensores son de PyTorch y quedan tal cual.
## $copies, $multiply_adds, $zeros, $written y $adds son números ya escritos con sus comas.

one-hot-note-cost = La búsqueda copia { $copies } números. El camino one-hot hace { $multiply_adds } multiplicaciones-suma, { $zeros } de ellas por 0: { $v }× el trabajo para el mismo resultado.
one-hot-note-equal = Cada número de linear(one_hot) es un 1 × w más ceros, así que es el propio w, hasta el último bit.
one-hot-note-equal-signed-zero = Cada número de linear(one_hot) es un 1 × w más ceros, así que es el propio w, hasta el último bit. Solo puede diferir el signo de un cero: la suma 0 + (−0) es +0, y −0 == 0.
one-hot-note-nan-both = { $out } es nan por los dos caminos, y nan nunca es igual a nan.
one-hot-note-nan-linear = { $out } es nan: su suma multiplica por 0 un inf o nan de { $weight }, y 0 × inf = nan. La búsqueda nunca lee ese número.
one-hot-note-differ = { $lookup } = { $a }, pero { $linear } = { $b }.
one-hot-note-verdict = { $code }: { $why }
one-hot-note-stale = Las salidas siguen siendo las de la última entrada válida [{ $ids }]; se actualizan al corregir el id marcado.
one-hot-note-linear-grad = linear.weight.grad es denso ({ $d }, { $v }): se escriben sus { $written } entradas ({ $multiply_adds } multiplicaciones-suma), { $zeros } de ellas 0, las de las columnas que ningún id usa.
one-hot-note-table-grad = emb.weight.grad: { $ids ->
        [one] { $ids } id
       *[other] { $ids } ids
    } × { $d } = { $adds } números sumados en { $rows ->
        [one] { $rows } fila buscada
       *[other] { $rows } filas buscadas
    }; las otras { $zeros } entradas se quedan en 0, nunca se escriben.
one-hot-note-timing = Búsqueda, { $lookup } ms por llamada; one-hot × Linear, { $one_hot } ms por llamada: { $ratio }× el tiempo de la búsqueda.
