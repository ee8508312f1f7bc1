# The lessons of the Embedding scene (core/src/scene/embedding/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-embedding-lookup
lesson-embedding-lookup-question = nn.Embedding 与不带 bias 的 Linear 有什么不同？
lesson-embedding-lookup-step-1 = { $module } 存着一张表，每个 id 一行：weight 是 (num_embeddings, embedding_dim) = { $weight_shape }，按存储的样子直接使用，不做转置。
lesson-embedding-lookup-step-2 = input[0] = { $input_0 } 选中 weight 的第 { $input_0 } 行，output[0] 就是它的副本：output[0, 0] = { $output_0_0 }，正是 weight[2, 0]。没有任何乘法。
lesson-embedding-lookup-step-3 = 每个 id 复制一行：形状为 { $input_shape } 的 input 中的 id 得到形状为 { $output_shape } 的 output，每个 id 对应表中的一行。
lesson-embedding-lookup-step-4 = 换一个 id，复制的就是另一行：input[1] = { $input_1 } 现在取来 weight 的第 0 行，所以 output[1, 0] = { $output_1_0 }。
lesson-embedding-lookup-step-5 = id 可以是任意形状：形状为 { $input_shape } 的一批 id 得到形状为 { $output_shape } 的 output，input[0] 填满 output[0]，每个 id 一行。这张 from_pretrained 表的第 i 行存的就是 i，所以 output 的每一行都显示是哪个 id 选中了它。
lesson-embedding-lookup-step-6 = 反向传播：output 每一行的梯度只回到它的 id 选中的那一行。用到的 id 是 2、3 和 1；第 0 行没被用到，所以 weight.grad[0] 保持为 { $weight_grad_0_0 }。
lesson-embedding-lookup-step-7 = 所以 nn.Embedding 就是查表：每个 id 复制 weight 中属于它的那一行，没有任何乘法。不带 bias 的 Linear 则要把每个输入数乘以一个权重再相加；因此任意形状 (*) 的 id 得到形状为 (*, embedding_dim) 的 output。

## lesson-embedding-gradient-rows
lesson-embedding-gradient-rows-question = 嵌入（embedding）的每一行都会得到梯度吗？重复的 id 呢？padding_idx 呢？
lesson-embedding-gradient-rows-step-1 = { $module }：weight 的第 { $padding_idx } 行是填充（padding）行，一开始就全是零。
lesson-embedding-gradient-rows-step-2 = 形状为 { $input_shape } 的 input 中，id 1 出现三次，id 2 出现两次；每次查表都把对应的行复制到 output，填充行也不例外。
lesson-embedding-gradient-rows-step-3 = 以 loss = { $loss_fn } 做反向传播：每个 output.grad 都是 1。第一个 id 是 2，它把 output.grad[0, 0] 加到 weight.grad[2] 中，此时 weight.grad[2, 0] = { $weight_grad_2_0 }。
lesson-embedding-gradient-rows-step-4 = id 2 第二次被查到，所以 output.grad[1, 0] 加到同一行：weight.grad[2, 0] 现在是 { $weight_grad_2_0 }。
lesson-embedding-gradient-rows-step-5 = id 1 是填充 id：它的三次查表都不回传任何梯度，weight.grad[1, 0] 保持为 { $weight_grad_1_0 }，和所有没被任何 id 查到的行一样。
lesson-embedding-gradient-rows-step-6 = 以 lr = { $lr } 做一步 SGD，只移动有梯度的行：weight[2, 0] 现在是 { $weight_2_0 }，减小了 2 × lr。weight[5, 0] 仍是 { $weight_5_0 }。
lesson-embedding-gradient-rows-step-7 = 所以并非每一行都会得到梯度：weight.grad 中只有被查到的行才有，重复的 id 每查一次就累加一次，padding_idx 那一行什么也得不到。一步 SGD 只移动这个批次用到的行。
