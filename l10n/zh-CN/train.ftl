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
