# The Train scene (src/scenes/train/).

train-title = 训练 DotProduct 推荐模型
# The lede is cut around two pieces of code: "torch.manual_seed(S)" follows train-lede-rows, and
# "param -= lr * param.grad" follows train-lede-sgd; train-lede-moved ends the paragraph.
train-lede-rows = 每个用户和每部电影都是一行随机数：先执行
train-lede-sgd = ，再从 normal(0, 1) 中抽取每个元素。一条评分的预测值是该用户的行与该电影的行的点积。每一步 SGD 都沿 MSE 损失梯度的反方向微调这些行，即
train-lede-moved = ；只有评分用到的行才会得到梯度，所以只有它们会移动。
# The group of the model's sizes (n_users, n_movies, n_factors, ratings) and seed.
train-model-legend = 模型
# The current loss under the predictions; $loss is the number as PyTorch prints it.
train-loss = 损失 = { $loss }
train-no-loss = 损失：当前评分会让 PyTorch 报错
# The name of the status line that shows the loss.
train-loss-label = 损失
train-stale = 当前评分会让 PyTorch 报错，因此这里显示的是最后一次成功运行的预测值。
train-moved-hint = 带边框的单元格在上一步中发生了变化。变淡的行属于没有任何评分用到的用户或电影：它们的梯度为零，所以 SGD 永远不会移动它们。
# R is the number of ratings; b a rating's row.
train-grads-hint = 反向传播时，每个数的 .grad 显示在它下方：output.grad = 2·(output − rating)/R；每条评分把 output.grad[b]·电影行 加到其用户的梯度行上，把 output.grad[b]·用户行 加到其电影的梯度行上。
train-formula-heading = 一个预测值从哪里来
train-formula-hint = 点击 output 中的一个预测值，或逐步播放前向传播动画，查看它的乘积之和。

## The charts.

# The loss curve's caption and name.
train-loss-curve = 损失曲线
# Beside the caption: $loss is the current loss as PyTorch prints it, $step the number of steps taken.
train-loss-now = 当前为 { $loss }（第 { $step } 步）
train-no-loss-now = 当前没有损失值：PyTorch 报错
# A point's tooltip: the loss measured at step $step.
train-point = 第 { $step } 步：{ $loss }
# Under the x axis's right end: the last step.
train-last-step = 第 { $step } 步
# The scatter plot's name and its two caption lines (● and ■ are the points' shapes).
train-factors = 因子
train-factors-axes = 因子：x = 因子 0，y = 因子 1
train-factors-key = ● 用户，■ 电影；变淡：从未被评分

## Captions (core/src/scene/train/)

# Beside the scene's diagram: $factors is n_factors, the products summed for each rating's score.
train-caption-score = 每个得分都是 (user_factors[u] * movie_factors[m]).sum()：每条评分把 { $factors } 个乘积相加。
# Beside the diagram: $users and $movies list the rows no rating uses ("3, 4"; may be empty).
train-caption-still = 只有被评分的行才有梯度，所以只有它们会移动：用户 [{ $users }] 和电影 [{ $movies }] 保持随机的初始值。
# The timeline's caption when there is nothing to play.
train-caption-nothing = 无可播放：当前评分会让 PyTorch 报错。
# Before the first step of the forward pass; $steps is its number of steps. "Step forward" is the
# timeline's button.
train-caption-forward = 前向传播：共 { $steps } 步，每条评分一步。按“前进一步”开始。
# Before the first step of the backward pass.
train-caption-backward = 反向传播：共 { $steps } 步，从最后一条评分回到第一条。按“前进一步”开始。
# A forward step: $b is the rating's index, $user and $movie the rows used, $value the prediction
# as PyTorch prints it.
train-step-forward = output[{ $b }]：用户 { $user } 的行与电影 { $movie } 的行逐个相乘后求和 = { $value }。
# The same, when the prediction is unknown.
train-step-forward-bare = 用户 { $user } 的行与电影 { $movie } 的行相乘后求和。
# A backward step: $b is the rating's index and $grad its output.grad as PyTorch prints it; $user
# and $movie the rows whose gradients it adds into.
train-step-backward = output.grad[{ $b }] = { $grad }：乘以电影 { $movie } 的行，累加到用户 { $user } 的梯度行；乘以用户 { $user } 的行，累加到电影 { $movie } 的梯度行。
# The same, when output.grad is unknown.
train-step-backward-bare = 乘以电影 { $movie } 的行，累加到用户 { $user } 的梯度行；乘以用户 { $user } 的行，累加到电影 { $movie } 的梯度行。
