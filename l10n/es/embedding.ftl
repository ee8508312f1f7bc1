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
