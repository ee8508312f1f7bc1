# The RNN scene (src/scenes/rnn/). Tensor names (output, h_n, h0, x_t, h_t, input, target, .grad)
# and code stay as they are.

rnn-title = nn.RNN: output y h_n
# Between the module's call and the rule every RNN cell computes (code): "rnn = nn.RNN(…) — every cell: h_t = tanh(…)".
rnn-every-cell = — cada celda:
# Accessible name of the shape equation line.
rnn-shapes = Formas
# A checkbox, "add h_n.sum() to the loss": the code h_n.sum() sits between these two parts.
rnn-loss-add = sumar{" "}
rnn-loss-add-end = {" "}a la pérdida
rnn-output-grad-note = Bajo cada número, output.grad = dL/doutput: ahí empieza la pasada hacia atrás.
rnn-target-note = F.mse_loss(output, target): target se puede editar.
rnn-h-n-grad-in-loss = h_n.grad = dL/dh_n = 1: h_n.sum() está en la pérdida.
rnn-h-n-grad-not-in-loss = h_n.grad = dL/dh_n = 0: h_n no está en la pérdida.
rnn-stale = PyTorch lanza un error con las entradas actuales (ver el campo marcado), así que output y h_n siguen mostrando la última llamada que se ejecutó.
rnn-da-relu = da = h.grad · (h > 0): el gradiente en la preactivación de una celda (relu solo lo deja pasar donde h > 0).
rnn-da-tanh = da = h.grad · (1 − h²): el gradiente en la preactivación de una celda (tanh′ = 1 − tanh²).
rnn-formula-hint = Para ver cómo se obtiene un número, avanza la animación paso a paso o haz clic en una celda de output o de h_n (en la pasada hacia atrás, en una celda .grad).

## Settings

rnn-settings = Configuración
# $seed: the seed as the learner typed it.
rnn-seed-note = Parámetros generados tras torch.manual_seed({ $seed }); al cambiar un tamaño se vuelven a generar con la misma semilla.
# Legend of the input's sizes.
rnn-input-legend = Entrada
# Legend of the pack_padded_sequence options.
rnn-packing-legend = Empaquetado

## Parameters, inputs

# A layer and direction of the RNN: $layer is the layer's index (0, 1, …); $direction is
# "forward" or "reverse" (the two directions of a bidirectional RNN).
rnn-layer-direction = capa { $layer }, { $direction ->
        [reverse] inversa
       *[forward] directa
    }
# Heading of the parameters: $tensors tensors holding $numbers numbers in all.
rnn-params-heading = Parámetros: { $tensors ->
        [one] { $tensors } tensor
       *[other] { $tensors } tensores
    }, { $numbers ->
        [one] { $numbers } número
       *[other] { $numbers } números
    }
rnn-what-goes-in = Lo que entra

## The unrolled diagram

# A button picking sequence $sequence of the batch, whose length (a packed sequence's) is $length.
rnn-sequence-length = { $sequence } (longitud { $length })
rnn-sequence-shown = Secuencia mostrada
# Before the buttons that pick the sequence: "Sequence b = 0 1 2" (b is the batch index).
rnn-sequence-b = Secuencia b =
rnn-unrolled-cells = Celdas de la RNN desenrollada
# Header of the time axis, pointing right.
rnn-time = tiempo →
# Under "output": output is the top layer's h_t.
rnn-top-layer = capa superior
# The diagram's caption: "Unrolled — each box is one cell: it takes x_t from above and h_{t-1}
# from the side, and passes h_t on. Click a cell to go to its step." The code x_t, h_{t-1} and
# h_t sit between the parts; mind the spaces.
rnn-unrolled = Desenrollada
rnn-unrolled-takes = {" "}— cada caja es una celda: toma{" "}
rnn-unrolled-from-above = {" "}de arriba y{" "}
rnn-unrolled-from-side = {" "}del costado, y pasa{" "}
rnn-unrolled-on = {" "}a la siguiente. Un clic en una celda lleva a su paso.
# In a box, for a time step past a packed sequence's length.
rnn-padding = relleno
# A box lists a few numbers, then how many it left out ($count).
rnn-more = … { $count } más
# What flows into a cell: "h_l0[1, 0] ← input[0, 1] and h_l0[0, 0]" ($cell, $x, $prev are those names).
rnn-feeds = { $cell } ← { $x } y { $prev }
# A cell past its sequence's end does not run: two lines in its box.
rnn-skipped = omitida
rnn-skipped-ended = (terminada)
# Above a lane's first cell: $cell is where its state comes from, e.g. "h0[0, 1]".
rnn-from-h0 = desde { $cell }
# Read by screen readers after a cell's name "h_l0[2]": sequence $sequence, layer $layer, direction.
rnn-cell-sr = , secuencia { $sequence }, capa { $layer }, { $direction ->
        [reverse] inversa
       *[forward] directa
    }:
# Accessible name of a bar chart; $lane is a state's name, e.g. h_l0.
rnn-norms-chart = ‖dL/dh_t‖ de { $lane } por paso de tiempo
# After the bold "‖dL/dh_t‖".
rnn-norms-caption = por paso de tiempo (escala logarítmica): cuánto gradiente llega a cada paso. Si se reduce hacia atrás (hacia la izquierda), el gradiente se desvanece; si crece, explota.

## Captions (core/src/scene/rnn/)
# The timeline's captions of the steps. $lane is a layer and direction's states, named as PyTorch
# names them (h_l0, h_l1_reverse); $t a time step; $func tanh or relu. Every span like
# input[:, 1], h0[2] or t = 0 is code and stays as it is.

# Forward, before the first step, when ids are looked up in emb.weight first.
rnn-caption-start-lookup = Avanza un paso: primero cada id copia su fila de emb.weight en input; luego se ejecutan las celdas de la RNN.
# Forward, before the first step.
rnn-caption-start = Avanza un paso para ejecutar la primera celda: capa 0, directa, t = 0.
rnn-caption-nothing-run = Todavía no se ha ejecutado nada: corrige el campo marcado.
rnn-caption-no-backward = No hay pasada hacia atrás mientras PyTorch lanza un error en la llamada hacia adelante.
# The loss raised: $error is PyTorch's error message, in English as PyTorch writes it.
rnn-caption-backward-raises = { $error }
# Backward, before the first step: $h_n is "in" when h_n.sum() is in the loss, else "out".
rnn-caption-backward-start = Avanza un paso: el gradiente parte de output.grad { $h_n ->
        [in] y h_n.grad = 1 (h_n.sum() está en la pérdida)
       *[out] (h_n no está en la pérdida)
    } y va hacia atrás desde la última celda.
# A caption said in full: sentence $first, then sentence $next (each ends with its own full stop).
rnn-step-then = { $first } { $next }
# A trace too long to show cell by cell: one step per layer and direction.
rnn-step-every-t = { $lane }: todos los pasos de tiempo a la vez.
rnn-step-backward-every-t = { $lane }: hacia atrás por todos los pasos de tiempo a la vez.
# An id's lookup, forward: "ids[0, 1] = 2: row 2 of emb.weight is copied to input[0, 1]."
rnn-step-lookup = { $ids } = { $id }: la fila { $id } de emb.weight se copia en { $input }.
# An id's lookup, backward: "ids[0, 1] = 2: input.grad[0, 1] is added into row 2 of emb.weight.grad."
rnn-step-lookup-backward = { $ids } = { $id }: { $input_grad } se suma a la fila { $id } de emb.weight.grad.
# A cell, forward: "h_l0[1]: input[:, 1] and h_l0[0] times their weights, plus biases, through
# tanh." What comes in, $x, is a slice of input ($x_from "input") or h[1] of layer $layer below
# ($x_from "layer"): "h_l1[0]: layer 0's h[0] and …". The state before, $prev, is the lane's
# (h_l0[0]), or where the lane starts, h0[2] ($first "yes"). $bias is "yes" when the RNN has
# biases, else "no".
rnn-step-cell = { $lane }[{ $t }]: { $x_from ->
        [layer] { $x } de la capa { $layer }
       *[input] { $x }
    } y { $first ->
        [yes] el estado inicial { $prev }
       *[no] { $prev }
    } multiplicados por sus pesos{ $bias ->
        [yes] , más los sesgos
       *[no] {""}
    }, a través de { $func }.
# After a cell's caption: $count sequences ($sequences, e.g. "2, 3") have no cell at this time
# step; going forward ($direction "forward") they have already ended, going back ("reverse") they
# are shorter than this time step.
rnn-step-no-step = Sin paso para { $count ->
        [one] la secuencia { $sequences }: { $direction ->
            [reverse] es más corta
           *[forward] ya terminó
        }
       *[other] las secuencias { $sequences }: { $direction ->
            [reverse] son más cortas
           *[forward] ya terminaron
        }
    }.
# After a cell's caption, what the cell's state is: $slice of output (e.g. output[:, 1]); with
# $output "half", half of it (a bidirectional RNN's output holds both directions).
rnn-step-it-is-output = Es { $output ->
        [half] la mitad de { $slice }
       *[whole] { $slice }
    }.
# … or row $row of h_n (e.g. h_n[1]); with $h_n "some", only for $count sequences ($sequences,
# e.g. "0, 1": the others end at other steps).
rnn-step-it-is-h-n = Es { $h_n ->
        [some] { $row } para { $count ->
            [one] la secuencia
           *[other] las secuencias
        } { $sequences }
       *[all] { $row }
    }.
# … or both: "It is output[:, 1] and h_n[0]."
rnn-step-it-is-both = Es { $output ->
        [half] la mitad de { $slice }
       *[whole] { $slice }
    } y { $h_n ->
        [some] { $row } para { $count ->
            [one] la secuencia
           *[other] las secuencias
        } { $sequences }
       *[all] { $row }
    }.
# After a cell's caption: these sequences start here from h0 (packed sequences of different lengths).
rnn-step-start-from-h0 = Aquí { $count ->
        [one] la secuencia { $sequences } empieza
       *[other] las secuencias { $sequences } empiezan
    } desde h0[{ $k }].
# A cell, backward: "h_l0[1]: gradient from output.grad[:, 1] and t = 2, times tanh's slope, adds
# into weight and bias grads, input.grad[:, 1] and t = 0." The gradient comes from $above, a
# slice of output.grad ($from "output") or the index of the layer above ($from "layer"), and
# ($also "later") the next time step t = $later, or ($also "h-n", the last step) h_n.grad, or
# ($also "none") nothing else. It goes on to $below, a slice of input.grad ($to "input") or the
# index of the layer below ($to "layer"), and to $back (t = 0, or h0.grad[0]). $bias as above.
rnn-step-backward = { $lane }[{ $t }]: gradiente de { $from ->
        [layer] la capa { $above }
       *[output] { $above }
    }{ $also ->
        [later] {" "}y de t = { $later }
        [h-n] {" "}y de h_n.grad
       *[none] {""}
    }, por la pendiente de { $func }, se suma a los gradientes de { $bias ->
        [yes] pesos y sesgos
       *[no] pesos
    }, a { $to ->
        [layer] la capa { $below }
       *[input] { $below }
    } y a { $back }.
# The same without the weight (and bias) grads, when the whole does not fit: "h_l0[1]: gradient
# from output.grad[:, 1] and t = 2, times tanh's slope, adds into input.grad[:, 1] and t = 0."
rnn-step-backward-short = { $lane }[{ $t }]: gradiente de { $from ->
        [layer] la capa { $above }
       *[output] { $above }
    }{ $also ->
        [later] {" "}y de t = { $later }
        [h-n] {" "}y de h_n.grad
       *[none] {""}
    }, por la pendiente de { $func }, se suma a { $to ->
        [layer] la capa { $below }
       *[input] { $below }
    } y a { $back }.

## Notes (core/src/scene/rnn/)
# The notes under output and h_n and above the unrolled diagram (also in the notebook). Every
# span like output[:, -1], h_n[0] or t = 0 is code and stays as it is.

# A note said in full: sentence $first, then sentence $next (each ends with its own full stop).
rnn-note-then = { $first } { $next }
# What output holds: $shape is its shape, e.g. (3, 2, 5). With $layers "many" (a stacked RNN)
# output is the top layer's h_t, $top the index of that layer.
rnn-note-output = output { $shape }: h_t{ $layers ->
        [many] {" "}de la capa superior (capa { $top })
       *[one] {""}
    } en cada paso de tiempo, para cada secuencia.
# A bidirectional RNN's output: each step holds $width numbers, those of the forward direction
# (indices 0 to $last_forward) then those of the reverse one ($first_reverse to $last_reverse).
rnn-note-output-directions = Los { $width } números de cada paso son [directa | inversa]: 0–{ $last_forward } de la dirección directa, { $first_reverse }–{ $last_reverse } de la dirección inversa.
# A packed batch: output holds padding_value ($value, code) past each sequence's length.
rnn-note-output-padding = Más allá de la longitud propia de cada secuencia, output contiene padding_value = { $value }.
# What h_n holds: $shape is its shape; its rows are $layers layers × $directions directions = $rows.
rnn-note-h-n = h_n { $shape }: solo el estado final, una fila por capa y dirección ({ $layers } × { $directions } = { $rows }), para cada secuencia; no tiene eje de tiempo.
# One direction: h_n[-1] equals $last (output[:, -1] or output[-1]), or, when the packed
# sequences have different lengths ($ragged "yes"), each sequence's own last step of output.
rnn-note-h-n-last = h_n[-1] es igual a { $ragged ->
        [yes] output en el último paso propio de cada secuencia
       *[no] { $last }
    }.
# Two directions: the forward half is as above; the reverse direction ends at t = 0, so its
# last state is the second half of $first (output[:, 0] or output[0]).
rnn-note-h-n-both = h_n[-2] (directa) es igual a la primera mitad de { $ragged ->
        [yes] output en el último paso propio de cada secuencia
       *[no] { $last }
    }; h_n[-1] (inversa) termina en t = 0, así que es igual a la segunda mitad de { $first }.
# A stacked RNN: rows h_n[0] to h_n[$last] are the lower layers' last states.
rnn-note-h-n-lower = Las filas h_n[0] a h_n[{ $last }] vienen de las capas inferiores, que output nunca muestra.
# Above the unrolled diagram, when the batch is packed: $lengths is the list, e.g. [2, 2, 1, 1].
rnn-note-packed = Empaquetado con longitudes { $lengths }: cada secuencia ejecuta solo sus propios pasos, y h_n guarda el último paso de cada una.
# The sequences shorter than the longest: $stops lists them ("sequence 2 stops after t = 0, sequence 3 stops after t = 0").
rnn-note-skipped = Aquí { $stops }; sus celdas posteriores se omiten.
# One item of that list: sequence $sequence's last step is t = $t.
rnn-note-stops = la secuencia { $sequence } se detiene después de t = { $t }
# Two or more items of that list: $first (one or more items), then item $next.
rnn-note-list = { $first }, { $next }
