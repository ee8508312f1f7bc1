# The lessons of the RNN scene (core/src/scene/rnn/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-rnn-unroll
lesson-rnn-unroll-question = nn.RNN 输出的是什么：output 还是 h_n？batch_first 改变了什么？
lesson-rnn-unroll-step-1 = { $module } 读入一批序列，每个时间步有几个特征：input 是 (batch, seq, feature) = { $input_shape }。
lesson-rnn-unroll-step-2 = 第一个单元一次处理所有序列的时间步 0：h = { $nonlinearity }(x W_ihᵀ + b_ih + h0 W_hhᵀ + b_hh)，其中 h0 全为零。它的结果是 output[:, 0]：output[0, 0, 0] = { $output_0_0_0 }。
lesson-rnn-unroll-step-3 = 同样的权重处理时间步 1，时间步 0 的隐藏状态通过 weight_hh_l0 重新输入：output[0, 1, 0] = { $output_0_1_0 }。
lesson-rnn-unroll-step-4 = output 是顶层在每一步的隐藏状态，在 batch_first 下形状为 { $output_shape }。h_n 是每一层在最后一步的状态，{ $h_n_shape }：h_n[0, 0, 0] = { $h_n_0_0_0 } 就是 output[0, 1, 0] = { $output_0_1_0 }，而且 h_n 从不把 batch 放在第一维。
lesson-rnn-unroll-step-5 = 当 batch_first = { $batch_first } 时，同样的数按 (seq, batch, feature) 排列：input 为 { $input_shape }，output 为 { $output_shape }。h_n 无论哪种都是 { $h_n_shape }。
lesson-rnn-unroll-step-6 = 反向传播沿时间反方向进行：最后一步的单元先算，把 input.grad[:, 1] 传回 input，input.grad[0, 1, 0] = { $input_grad_0_1_0 }；它经 weight_hh_l0 传回的部分到达前一步。
lesson-rnn-unroll-step-7 = 所有步共用同一个 weight_ih_l0，所以它的梯度对每一步、每个序列各加一项：weight_ih_l0.grad[0, 0] = { $weight_ih_l0_grad_0_0 }。weight_hh_l0.grad 在时间步 0 的那一项为 0：它乘的是全为零的 h0。
lesson-rnn-unroll-step-8 = 所以 nn.RNN 给出两样东西：output，即顶层在每一步的隐藏状态（只有设置 batch_first 时 batch 才在第一维）；h_n，即每一层在最后一步的隐藏状态，(num_layers × directions, batch, hidden_size)。只有一层时，h_n 就是 output 的最后一步。

## lesson-rnn-vanishing-exploding
lesson-rnn-vanishing-exploding-question = 为什么梯度在长 RNN 中会消失或爆炸？
lesson-rnn-vanishing-exploding-step-1 = { $module } 使用 { $nonlinearity }，运行 12 个时间步：output[11, 0, 0] = { $output_11_0_0 }。
lesson-rnn-vanishing-exploding-step-2 = 损失是 { $loss_fn }。它的 target 在时间步 0 到 10 复制 output，所以这些步的误差为 0；而在时间步 11，target 为 0，target[11, 0, 0] = { $target_11_0_0 }：只有最后一步有误差要回传，这样就能看出从它出发有多少能到达前面的步。
lesson-rnn-vanishing-exploding-step-3 = 反向传播从最后一步开始：input.grad[11, 0, 0] = { $input_grad_11_0_0 }。
lesson-rnn-vanishing-exploding-step-4 = 每往回一步，梯度都要乘以 { $nonlinearity } 的斜率和 weight_hh_l0，这里两者都很小，所以到第一步时它几乎消失了：input.grad[0, 0, 0] = { $input_grad_0_0_0_full }，保留四位小数就是 0.0000。
lesson-rnn-vanishing-exploding-step-5 = 如果改用 loss = { $loss_fn }，每一步的 output 都会送出自己的梯度，input.grad[0, 0, 0] = { $input_grad_0_0_0 }：大部分来自时间步 0 自己。从时间步 11 传回来的部分仍然消失了，只是被总和掩盖了。
lesson-rnn-vanishing-exploding-step-6 = 现在换成 { $nonlinearity }，weight_hh_l0 = [[{ $weight_hh_l0_0_0 }, { $weight_hh_l0_0_1 }], [{ $weight_hh_l0_1_0 }, { $weight_hh_l0_1_1 }]]：每一行之和为 2，所以每一步都让隐藏状态翻倍。
lesson-rnn-vanishing-exploding-step-7 = 翻倍 10 步之后，output[9, 0, 0] 达到 { $output_9_0_0 }。
lesson-rnn-vanishing-exploding-step-8 = 以 loss = { $loss_fn } 做反向传播，从最后一步开始：input.grad[9, 0, 0] = { $input_grad_9_0_0 }。
lesson-rnn-vanishing-exploding-step-9 = 每往回一步都要再乘一次 weight_hh_l0，所以它每一步都翻倍，而不是变小：input.grad[0, 0, 0] = { $input_grad_0_0_0 }。梯度爆炸了。
lesson-rnn-vanishing-exploding-step-10 = weight_hh_l0.grad 把所有这些项加起来：weight_hh_l0.grad[0, 1] = { $weight_hh_l0_grad_0_1 }。这么大的一步 SGD 会把权重彻底毁掉，所以训练 RNN 时要先裁剪梯度的范数（torch.nn.utils.clip_grad_norm_）。
lesson-rnn-vanishing-exploding-step-11 = 所以在长 RNN 中，梯度在传向 input.grad 的途中，每往回一步都要乘以 weight_hh_l0 和非线性函数的斜率：小于 1 就消失，大于 1 就爆炸。裁剪可以抑制梯度爆炸；而 LSTM 和 GRU 的门能让梯度穿过一步而不缩小，设计它们主要是为了对付梯度消失。
