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
