# The Embedding scene (src/scenes/embedding/).

embedding-title = nn.Embedding es una búsqueda (lookup)
# The last item of a list cut short; $more is how many items are not listed.
embedding-more = … y { $more } más
# The list of rows selected, when PyTorch raises on the input.
embedding-no-picks = ninguna: PyTorch lanza un error antes de buscar nada
embedding-stale = PyTorch lanza un error con las entradas actuales, así que esta sigue siendo la última salida que se ejecutó.
# A heading, and the name of the list under it.
embedding-rows-selected = Filas seleccionadas
embedding-formula-heading = De dónde sale un número
embedding-formula-hint = Haz clic en una celda de la salida, o avanza la animación, para ver qué valor de weight copia.
# After the code "weight.grad (sparse)": $n is the number of entries of PyTorch's sparse (COO)
# gradient, $rows the list of rows they sum into, e.g. "0, 2, 5".
embedding-sparse-entries = { $n ->
        [one] { $n } entrada
       *[other] { $n } entradas
    }, una por id, sin combinar; .coalesce() las suma en las filas [{ $rows }]
# After the code "weight.grad" (a frozen table): $why is the reason, in English for now.
embedding-no-grad = es None: { $why }
# After a line "weight.grad[2] += output.grad[0, 1]" of the backward list, when that id was seen before.
embedding-adds-again = (se suma a la fila de un id anterior)
embedding-gradient-heading = A dónde va el gradiente
# The name of the list of backward steps ("weight.grad[r] += output.grad[k]").
embedding-gradient-adds = Sumas del gradiente
# Settings: the table's group, the ids' group, and the checkbox for 2-D ids.
embedding-table-legend = Tabla
embedding-ids-legend = Ids
embedding-batched = lote × secuencia

## Captions (core/src/scene/embedding/)

# The timeline before the first forward step: $ids is how many ids there are, $lookups how many
# lookup steps the timeline plays.
embedding-caption-forward = { $ids ->
        [one] { $ids } id
       *[other] { $ids } ids
    }, { $lookups ->
        [one] { $lookups } búsqueda
       *[other] { $lookups } búsquedas
    }: avanza paso a paso para ver cómo cada id elige su fila.
embedding-caption-stale = Aquí PyTorch lanzaría un error, así que no hay nada que reproducir: corrige lo que está marcado.
# Many ids, played as one step: $ids is how many.
embedding-caption-all-at-once = Los { $ids } ids buscan a la vez sus filas de weight.
# A forward step: $input is the id's cell ("input[1]"), $row the id it holds (also the row of
# weight it selects), $output the output's cell it is copied to ("output[1]").
embedding-step-pick = { $input } = { $row } selecciona weight[{ $row }], que se copia en { $output }
# The backward timeline of a table given with from_pretrained(freeze=True).
embedding-caption-frozen = from_pretrained(freeze=True) fija weight.requires_grad=False: la pasada hacia atrás no calcula weight.grad y SGD no tiene qué actualizar.
embedding-caption-stale-backward = Aquí PyTorch lanzaría un error, así que no hay pasada hacia atrás: corrige lo que está marcado.
# $error is PyTorch's error message, in English.
embedding-caption-no-backward = La pasada hacia atrás no puede empezar: { $error }
# Many ids, played as one backward step.
embedding-caption-backward-at-once = El gradiente de cada fila de la salida se suma, todo a la vez, en la fila de weight.grad que seleccionó su id.
# The timeline before the first backward step: $rows is how many gradient rows (ids) flow back.
embedding-caption-backward = { $rows ->
        [one] { $rows } fila de gradiente vuelve y se suma a la fila de weight.grad que eligió su id.
       *[other] { $rows } filas de gradiente vuelven; cada una se suma a la fila de weight.grad que eligió su id.
    } Las filas que ningún id eligió quedan en cero.
# The same with padding_idx set: $padding is the padding row's index (and id).
embedding-caption-backward-padding = { $rows ->
        [one] { $rows } fila de gradiente vuelve y se suma a la fila de weight.grad que eligió su id.
       *[other] { $rows } filas de gradiente vuelven; cada una se suma a la fila de weight.grad que eligió su id.
    } weight.grad[{ $padding }] es la fila de relleno (padding): el id { $padding } no envía nada.
# The same, shorter, when the above is too long for the timeline.
embedding-caption-backward-short = { $rows ->
        [one] { $rows } fila de gradiente vuelve y se suma a la fila de weight.grad que eligió su id.
       *[other] { $rows } filas de gradiente vuelven; cada una se suma a la fila de weight.grad que eligió su id.
    }
# A backward step: $row is the row of weight.grad (the id), $grad the row of output.grad added
# into it ("output.grad[0, 1]"), $input the id's cell ("input[0, 1]").
embedding-step-grad = weight.grad[{ $row }] += { $grad }: { $input } = { $row } buscó esa fila.
# The same, when the id was looked up by an earlier step.
embedding-step-grad-again = weight.grad[{ $row }] += { $grad }: el id { $row } ya se buscó antes, así que su gradiente se acumula.
# The notes under the scene (the first is its lede).
embedding-caption-lookup = Cada id elige una fila de weight y la copia a la salida. No se multiplica nada.
# $rows and $dim are the table's sizes (num_embeddings, embedding_dim).
embedding-caption-table = weight es ({ $rows }, { $dim }): la fila i pertenece al id i y se usa tal como está guardada, sin transponer (el weight de un Linear es (out, in) y se transpone).
# $ids_shape is the ids' shape ("(2, 4)"), $dim how many numbers each id adds, $shape the
# output's shape ("(2, 4, 3)").
embedding-caption-output = La salida conserva la forma { $ids_shape } de los ids y añade { $dim ->
        [one] { $dim } número
       *[other] { $dim } números
    } por id: { $shape }.
# $id is an id that occurs more than once in the input.
embedding-caption-repeated-one = El id { $id } aparece más de una vez: su fila se copia en cada lugar.
# $ids lists the ids that occur more than once ("1, 7").
embedding-caption-repeated = Los ids { $ids } aparecen más de una vez: cada fila se copia en cada lugar.
# $padding is the padding row's index; $start is where its numbers come from: "pretrained" (a
# table given with from_pretrained) or "drawn" (drawn by nn.Embedding).
embedding-caption-padding = weight[{ $padding }] es la fila de relleno (padding): { $start ->
        [pretrained] from_pretrained la conserva tal como se dio
       *[drawn] nn.Embedding la llena de ceros
    }, y nunca recibe gradiente, así que el entrenamiento nunca la modifica.
embedding-caption-freeze = freeze=True: la tabla está fija (requires_grad=False); no le llega ningún gradiente.
embedding-caption-no-freeze = freeze=False: la tabla sigue aprendiendo como un nn.Embedding nuevo.
embedding-caption-sparse = sparse=True: weight.grad contendrá solo las filas buscadas.
# A large table: $rows × $dim = $numbers numbers in all; $ids ids × $dim = $copied of them copied.
embedding-caption-big-table = La tabla tiene { $rows } × { $dim } = { $numbers } números; esta búsqueda copia solo { $ids } × { $dim } = { $copied } de ellos.
