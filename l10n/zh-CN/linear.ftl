# The Linear scene (src/scenes/linear/).

linear-title = nn.Linear：每一行输入都与 weight 的每一行相遇
# The name of the shape equation beside the module's call (e.g. "(3,) → (2,)").
linear-shape-equation = 形状等式
# Follows the core's note on weight when weight is shown transposed.
linear-shown-transposed = 这里显示为 weight.T：第 i 列就是那一行。
# A checkbox label.
linear-show-transposed = 将 weight 显示为 weight.T (in, out)
# Follows the code "bias=False" when the layer has no bias.
linear-no-bias = ：什么也不加。
linear-stale = 这些形状会让 PyTorch 报错，因此这里显示的是最后一次成功运行的输出。
linear-formula-heading = 一个数从哪里来
linear-formula-hint = 点击输出或梯度的单元格，或逐步播放动画，查看它的求和过程。
linear-layer-legend = 修改层
linear-input-legend = 修改输入
# A group of three radio buttons choosing the input's rank.
linear-input-layout = 输入布局
linear-rank-vector = 单个向量 (in,)
linear-rank-batch = 一个批次 (N, in)
linear-rank-3d = 三维 (B, N, in)
