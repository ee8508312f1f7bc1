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
