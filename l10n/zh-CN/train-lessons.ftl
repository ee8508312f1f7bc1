# The lessons of the Train scene (core/src/scene/train/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-train-learned
lesson-train-learned-question = 嵌入（embedding）的值是如何学到的？它们是随机的吗？
lesson-train-learned-step-1 = torch.manual_seed({ $seed }) 让 { $module } 的两张表都填上服从正态分布的随机数：user_factors.weight 是 { $user_factors_weight_shape }，movie_factors.weight 是 { $movie_factors_weight_shape }。此时还什么都没学到。
lesson-train-learned-step-2 = 预测值是一个点积：用户 0 在 user_factors.weight 中的行，与电影 0 在 movie_factors.weight 中的行逐个数相乘，再求和。output[0] = { $output_0 }，与它的评分相差很远。
lesson-train-learned-step-3 = 损失是 { $loss_fn } = { $loss }。反向传播只给评分用到的行梯度：用户 3 和 4 没有任何评分，所以它们在 user_factors.weight.grad 中的行都是 { $user_factors_weight_grad_3_0 }。
lesson-train-learned-step-4 = 以 lr = { $lr } 做一步 SGD，把每一行移动 −lr × 它的梯度：user_factors.weight[0, 0] 现在是 { $user_factors_weight_0_0 }，损失为 { $loss }。用户 3 和 4 的行没有移动。
lesson-train-learned-step-5 = 再走 20 步：损失降到 { $loss }，output[0] = { $output_0 } 正在逼近它的评分。
lesson-train-learned-step-6 = 用户 3 和 4 仍保持随机的初始值：user_factors.weight[3, 0] = { $user_factors_weight_3_0 }。嵌入只在数据触及的地方才会被学习。
lesson-train-learned-step-7 = 所以嵌入的值一开始是随机的，是由种子抽出的正态分布随机数，之后再被学习：每一步 SGD 把 user_factors.weight 和 movie_factors.weight 中评分用到的行按 −lr × 梯度移动；没有任何评分触及的行永远不会移动。
