# The RNN scene (src/scenes/rnn/). Tensor names (output, h_n, h0, x_t, h_t, input, target, .grad)
# and code stay as they are.

rnn-title = nn.RNN：output 与 h_n
# Between the module's call and the rule every RNN cell computes (code): "rnn = nn.RNN(…) — every cell: h_t = tanh(…)".
rnn-every-cell = — 每个单元：
# Accessible name of the shape equation line.
rnn-shapes = 形状
# A checkbox, "add h_n.sum() to the loss": the code h_n.sum() sits between these two parts.
rnn-loss-add = 把{" "}
rnn-loss-add-end = {" "}加入损失
rnn-output-grad-note = 每个数下方是 output.grad = dL/doutput：反向传播从这里开始。
rnn-target-note = F.mse_loss(output, target)：可以编辑 target。
rnn-h-n-grad-in-loss = h_n.grad = dL/dh_n = 1：h_n.sum() 在损失中。
rnn-h-n-grad-not-in-loss = h_n.grad = dL/dh_n = 0：h_n 不在损失中。
rnn-stale = PyTorch 在当前输入上报错（见标出的字段），所以 output 和 h_n 仍显示上一次成功运行的调用。
rnn-da-relu = da = h.grad · (h > 0)：单元激活前（pre-activation）处的梯度（relu 只在 h > 0 处让它通过）。
rnn-da-tanh = da = h.grad · (1 − h²)：单元激活前（pre-activation）处的梯度（tanh′ = 1 − tanh²）。
rnn-formula-hint = 逐步播放动画，或点击 output 或 h_n 的单元格（反向传播时点击 .grad 单元格），即可查看这个数是怎么算出来的。

## Settings

rnn-settings = 设置
# $seed: the seed as the learner typed it.
rnn-seed-note = 参数在 torch.manual_seed({ $seed }) 之后抽取；改变尺寸时会用同一种子重新抽取。
# Legend of the input's sizes.
rnn-input-legend = 输入
# Legend of the pack_padded_sequence options.
rnn-packing-legend = 打包（packing）

## Parameters, inputs

# A layer and direction of the RNN: $layer is the layer's index (0, 1, …); $direction is
# "forward" or "reverse" (the two directions of a bidirectional RNN).
rnn-layer-direction = 第 { $layer } 层，{ $direction ->
        [reverse] 逆向
       *[forward] 正向
    }
# Heading of the parameters: $tensors tensors holding $numbers numbers in all.
rnn-params-heading = 参数：{ $tensors } 个张量，共 { $numbers } 个数
rnn-what-goes-in = 输入内容

## The unrolled diagram

# A button picking sequence $sequence of the batch, whose length (a packed sequence's) is $length.
rnn-sequence-length = { $sequence }（长度 { $length }）
rnn-sequence-shown = 显示的序列
# Before the buttons that pick the sequence: "Sequence b = 0 1 2" (b is the batch index).
rnn-sequence-b = 序列 b =
rnn-unrolled-cells = 展开的 RNN 单元
# Header of the time axis, pointing right.
rnn-time = 时间 →
# Under "output": output is the top layer's h_t.
rnn-top-layer = 顶层
# The diagram's caption: "Unrolled — each box is one cell: it takes x_t from above and h_{t-1}
# from the side, and passes h_t on. Click a cell to go to its step." The code x_t, h_{t-1} and
# h_t sit between the parts; mind the spaces.
rnn-unrolled = 展开图
rnn-unrolled-takes = {" "}— 每个方框是一个单元：从上方接收{" "}
rnn-unrolled-from-above = ，从侧面接收{" "}
rnn-unrolled-from-side = ，并把{" "}
rnn-unrolled-on = {" "}传下去。点击单元可跳到它的步骤。
# In a box, for a time step past a packed sequence's length.
rnn-padding = 填充
# A box lists a few numbers, then how many it left out ($count).
rnn-more = … 还有 { $count } 个
# What flows into a cell: "h_l0[1, 0] ← input[0, 1] and h_l0[0, 0]" ($cell, $x, $prev are those names).
rnn-feeds = { $cell } ← { $x } 和 { $prev }
# A cell past its sequence's end does not run: two lines in its box.
rnn-skipped = 已跳过
rnn-skipped-ended = （序列已结束）
# Above a lane's first cell: $cell is where its state comes from, e.g. "h0[0, 1]".
rnn-from-h0 = 来自 { $cell }
# Read by screen readers after a cell's name "h_l0[2]": sequence $sequence, layer $layer, direction.
rnn-cell-sr = ，序列 { $sequence }，第 { $layer } 层，{ $direction ->
        [reverse] 逆向
       *[forward] 正向
    }：
# Accessible name of a bar chart; $lane is a state's name, e.g. h_l0.
rnn-norms-chart = { $lane } 每个时间步的 ‖dL/dh_t‖
# After the bold "‖dL/dh_t‖".
rnn-norms-caption = 按时间步显示（对数刻度）：有多少梯度到达每一步。往回（向左）越来越小是梯度消失，越来越大是梯度爆炸。

## Captions (core/src/scene/rnn/)
# The timeline's captions of the steps. $lane is a layer and direction's states, named as PyTorch
# names them (h_l0, h_l1_reverse); $t a time step; $func tanh or relu. Every span like
# input[:, 1], h0[2] or t = 0 is code and stays as it is.

# Forward, before the first step, when ids are looked up in emb.weight first.
rnn-caption-start-lookup = 前进一步：先由每个 id 把 emb.weight 中对应的行复制到 input，然后运行 RNN 单元。
# Forward, before the first step.
rnn-caption-start = 前进一步，运行第一个单元：第 0 层，正向，t = 0。
rnn-caption-nothing-run = 还没有任何计算运行：请修正标出的字段。
rnn-caption-no-backward = PyTorch 在前向调用时报错，因此没有反向传播。
# The loss raised: $error is PyTorch's error message, in English as PyTorch writes it.
rnn-caption-backward-raises = { $error }
# Backward, before the first step: $h_n is "in" when h_n.sum() is in the loss, else "out".
rnn-caption-backward-start = 前进一步：梯度从 output.grad{ $h_n ->
        [in] {" "}和 h_n.grad = 1（h_n.sum() 在损失中）
       *[out] （h_n 不在损失中）
    }开始，从最后一个单元往回传。
# A caption said in full: sentence $first, then sentence $next (each ends with its own full stop).
rnn-step-then = { $first }{ $next }
# A trace too long to show cell by cell: one step per layer and direction.
rnn-step-every-t = { $lane }：一次算完所有时间步。
rnn-step-backward-every-t = { $lane }：一次反向传播过所有时间步。
# An id's lookup, forward: "ids[0, 1] = 2: row 2 of emb.weight is copied to input[0, 1]."
rnn-step-lookup = { $ids } = { $id }：emb.weight 的第 { $id } 行复制到 { $input }。
# An id's lookup, backward: "ids[0, 1] = 2: input.grad[0, 1] is added into row 2 of emb.weight.grad."
rnn-step-lookup-backward = { $ids } = { $id }：{ $input_grad } 累加到 emb.weight.grad 的第 { $id } 行。
# A cell, forward: "h_l0[1]: input[:, 1] and h_l0[0] times their weights, plus biases, through
# tanh." What comes in, $x, is a slice of input ($x_from "input") or h[1] of layer $layer below
# ($x_from "layer"): "h_l1[0]: layer 0's h[0] and …". The state before, $prev, is the lane's
# (h_l0[0]), or where the lane starts, h0[2] ($first "yes"). $bias is "yes" when the RNN has
# biases, else "no".
rnn-step-cell = { $lane }[{ $t }]：{ $x_from ->
        [layer] 第 { $layer } 层的 { $x }
       *[input] { $x }
    } 和{ $first ->
        [yes] 初始状态 { $prev }
       *[no] {" "}{ $prev }
    } 各乘以权重{ $bias ->
        [yes] ，加上偏置
       *[no] {""}
    }，再经过 { $func }。
# After a cell's caption: $count sequences ($sequences, e.g. "2, 3") have no cell at this time
# step; going forward ($direction "forward") they have already ended, going back ("reverse") they
# are shorter than this time step.
rnn-step-no-step = 序列 { $sequences } 没有这一步：{ $direction ->
        [reverse] 长度不到这一步
       *[forward] 已经结束
    }。
# After a cell's caption, what the cell's state is: $slice of output (e.g. output[:, 1]); with
# $output "half", half of it (a bidirectional RNN's output holds both directions).
rnn-step-it-is-output = 它就是 { $output ->
        [half] { $slice } 的一半
       *[whole] { $slice }
    }。
# … or row $row of h_n (e.g. h_n[1]); with $h_n "some", only for $count sequences ($sequences,
# e.g. "0, 1": the others end at other steps).
rnn-step-it-is-h-n = 它就是{ $h_n ->
        [some] 序列 { $sequences } 的 { $row }
       *[all] {" "}{ $row }
    }。
# … or both: "It is output[:, 1] and h_n[0]."
rnn-step-it-is-both = 它就是 { $output ->
        [half] { $slice } 的一半和
       *[whole] { $slice } 和
    }{ $h_n ->
        [some] 序列 { $sequences } 的 { $row }
       *[all] {" "}{ $row }
    }。
# After a cell's caption: these sequences start here from h0 (packed sequences of different lengths).
rnn-step-start-from-h0 = 序列 { $sequences } 在这里从 h0[{ $k }] 开始。
# A cell, backward: "h_l0[1]: gradient from output.grad[:, 1] and t = 2, times tanh's slope, adds
# into weight and bias grads, input.grad[:, 1] and t = 0." The gradient comes from $above, a
# slice of output.grad ($from "output") or the index of the layer above ($from "layer"), and
# ($also "later") the next time step t = $later, or ($also "h-n", the last step) h_n.grad, or
# ($also "none") nothing else. It goes on to $below, a slice of input.grad ($to "input") or the
# index of the layer below ($to "layer"), and to $back (t = 0, or h0.grad[0]). $bias as above.
rnn-step-backward = { $lane }[{ $t }]：梯度来自{ $also ->
        [later] {" "}t = { $later } 和
        [h-n] {" "}h_n.grad 和
       *[none] {""}
    }{ $from ->
        [layer] 第 { $above } 层
       *[output] {" "}{ $above }
    }，乘以 { $func } 的斜率，累加到{ $bias ->
        [yes] 权重和偏置的梯度
       *[no] 权重的梯度
    }、{ $to ->
        [layer] 第 { $below } 层和
       *[input] { $below } 和
    } { $back }。
# The same without the weight (and bias) grads, when the whole does not fit: "h_l0[1]: gradient
# from output.grad[:, 1] and t = 2, times tanh's slope, adds into input.grad[:, 1] and t = 0."
rnn-step-backward-short = { $lane }[{ $t }]：梯度来自{ $also ->
        [later] {" "}t = { $later } 和
        [h-n] {" "}h_n.grad 和
       *[none] {""}
    }{ $from ->
        [layer] 第 { $above } 层
       *[output] {" "}{ $above }
    }，乘以 { $func } 的斜率，累加到{ $to ->
        [layer] 第 { $below } 层和
       *[input] {" "}{ $below } 和
    } { $back }。

## Notes (core/src/scene/rnn/)
# The notes under output and h_n and above the unrolled diagram (also in the notebook). Every
# span like output[:, -1], h_n[0] or t = 0 is code and stays as it is.

# A note said in full: sentence $first, then sentence $next (each ends with its own full stop).
rnn-note-then = { $first }{ $next }
# What output holds: $shape is its shape, e.g. (3, 2, 5). With $layers "many" (a stacked RNN)
# output is the top layer's h_t, $top the index of that layer.
rnn-note-output = output { $shape }：{ $layers ->
        [many] 顶层（第 { $top } 层）在每个时间步、每个序列上的 h_t
       *[one] 每个时间步、每个序列上的 h_t
    }。
# A bidirectional RNN's output: each step holds $width numbers, those of the forward direction
# (indices 0 to $last_forward) then those of the reverse one ($first_reverse to $last_reverse).
rnn-note-output-directions = 每一步的 { $width } 个数按 [正向 | 逆向] 排列：0–{ $last_forward } 来自正向，{ $first_reverse }–{ $last_reverse } 来自逆向。
# A packed batch: output holds padding_value ($value, code) past each sequence's length.
rnn-note-output-padding = 超出序列自身长度的位置都是 padding_value = { $value }。
# What h_n holds: $shape is its shape; its rows are $layers layers × $directions directions = $rows.
rnn-note-h-n = h_n { $shape }：只有最终状态，每层每个方向一行（{ $layers } × { $directions } = { $rows }），每个序列各有一份；它没有时间轴。
# One direction: h_n[-1] equals $last (output[:, -1] or output[-1]), or, when the packed
# sequences have different lengths ($ragged "yes"), each sequence's own last step of output.
rnn-note-h-n-last = h_n[-1] 等于{ $ragged ->
        [yes] 每个序列自己最后一步的 output
       *[no] {" "}{ $last }
    }。
# Two directions: the forward half is as above; the reverse direction ends at t = 0, so its
# last state is the second half of $first (output[:, 0] or output[0]).
rnn-note-h-n-both = h_n[-2]（正向）等于{ $ragged ->
        [yes] 每个序列自己最后一步 output 的前一半
       *[no] {" "}{ $last } 的前一半
    }；h_n[-1]（逆向）在 t = 0 结束，所以等于 { $first } 的后一半。
# A stacked RNN: rows h_n[0] to h_n[$last] are the lower layers' last states.
rnn-note-h-n-lower = h_n[0] 到 h_n[{ $last }] 来自下面的层，output 从不显示它们。
# Above the unrolled diagram, when the batch is packed: $lengths is the list, e.g. [2, 2, 1, 1].
rnn-note-packed = 按长度 { $lengths } 打包：每个序列只运行自己的步，h_n 保存每个序列自己的最后一步。
# The sequences shorter than the longest: $stops lists them ("sequence 2 stops after t = 0, sequence 3 stops after t = 0").
rnn-note-skipped = 这里{ $stops }；之后的单元都被跳过。
# One item of that list: sequence $sequence's last step is t = $t.
rnn-note-stops = 序列 { $sequence } 在 t = { $t } 之后停止
# Two or more items of that list: $first (one or more items), then item $next.
rnn-note-list = { $first }，{ $next }
