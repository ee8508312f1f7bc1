# The lessons of the Linear scene (core/src/scene/linear/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-linear-row-or-column
lesson-linear-row-or-column-question = nn.Linear(6, 10) 的 weight 是 10×6。输入是行还是列？单个向量和一个批次分别是什么情况？
lesson-linear-row-or-column-step-1 = { $module } 把 weight 存为 (out_features, in_features) = { $weight_shape }：每个输出特征一行，每个输入特征一列。
lesson-linear-row-or-column-step-2 = output[0] 由 input 与 weight 的第 0 行相配得到：两者逐个数相乘，乘积相加，再加上 bias[0]，结果是 { $output_0 }。
lesson-linear-row-or-column-step-3 = 每个输出都用到 weight 的一整行：output[3] = input · weight[3] + bias[3] = { $output_3 }。input 与 weight 的行对齐，所以 PyTorch 写作 y = x Wᵀ + b。
lesson-linear-row-or-column-step-4 = weight 的每一行都与同一个 input 做点积，每行得到一个输出：形状为 { $input_shape } 的一维 input 就像 W @ x，得到形状为 { $output_shape } 的 output。
lesson-linear-row-or-column-step-5 = 形状为 { $input_shape } 的批次每行是一个输入。output[1, 0] 取 input 的第 1 行与 weight 的第 0 行，再加上 bias[0]：{ $output_1_0 }。
lesson-linear-row-or-column-step-6 = input 的每一行变成 output 的一行，{ $input_shape } → { $output_shape }：批次维度原样保留，每一行都与同一个 weight 相配。
lesson-linear-row-or-column-step-7 = 前面不论有多少维，都原样保留：{ $input_shape } → { $output_shape }。weight 的第 0 行全是零，所以每个 output[..., 0] 都只是 bias[0]：output[0, 1, 0] = { $output_0_1_0 }。
lesson-linear-row-or-column-step-8 = 答案：input 是行。weight 按 (out_features, in_features) 存储，input 的每一行都与 weight 的每一行相配，所以 y = x Wᵀ + b。单个向量就是一行（W @ x 得到相同的数），一个批次就是许多行。
