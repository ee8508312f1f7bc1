# The lessons of the One-hot scene (core/src/scene/one_hot/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-one-hot-same-numbers
lesson-one-hot-same-numbers-question = 嵌入（embedding）等同于 one-hot 向量乘以权重矩阵吗？one-hot 的做法代价是什么？它的反向传播有何不同？
lesson-one-hot-same-numbers-step-1 = 同样的 id，两种做法。emb.weight 是 { $emb_weight_shape } 的表；linear.weight 即 Linear 的 weight，是同一张表的转置，{ $linear_weight_shape }。
lesson-one-hot-same-numbers-step-2 = 查表：input[0] = { $input_0 } 复制 emb.weight 的第 2 行，不做任何运算。emb(input)[0, 0] = { $emb_input_0_0 }。
lesson-one-hot-same-numbers-step-3 = one-hot 的做法先把 input[0] = { $input_0 } 变成 one_hot 的一行：第 2 列是 1，其余各列都是 0。
lesson-one-hot-same-numbers-step-4 = 接着，每个输出数都是 one_hot[0] 与 linear.weight 某一行的点积，除了一个乘积以外全是乘以零。只有 linear.weight[0, 2] 留了下来：linear(one_hot)[0, 0] = { $linear_one_hot_0_0 }，正是查表复制的那个数。
lesson-one-hot-same-numbers-step-5 = 两个输出 emb(input) 与 linear(one_hot) 逐位（bit）相等。查表复制了 15 个数；one-hot 的做法做了 60 次乘加，其中 45 次是乘以零，而在真实的词表上几乎全都是。
lesson-one-hot-same-numbers-step-6 = 反向传播，第一个 id：Linear 写入了 linear.weight.grad 的整行，包括其中的零；查表只把梯度加到 emb.weight.grad 的第 2 行：emb.weight.grad[2, 0] = { $emb_weight_grad_2_0 }。
lesson-one-hot-same-numbers-step-7 = 最终两者存着相同的数，emb.weight.grad[1, 0] = { $emb_weight_grad_1_0 } = linear.weight.grad[0, 1] = { $linear_weight_grad_0_1 }；但 Linear 写入了其稠密梯度的每一个元素，而查表只动了它的 id 选中的那些行。
lesson-one-hot-same-numbers-step-8 = 所以答案是肯定的：嵌入就是 one-hot × Linear，在 linear.weight = emb.weight.T 时 emb(input) = linear(one_hot)，前向传播和反向传播的数都相同。但 one-hot 的做法要乘以每一个零，并写出稠密的梯度，而查表只复制行，也只动它用到的行。
