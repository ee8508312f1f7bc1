# The controls every scene shares: the learning panel (src/learn_panel.rs), the lesson panel
# (src/lesson_panel.rs), presets, the pass toggle, the seed field, formulas, heat maps, grids,
# "Run N steps" (src/runner.rs) and web workers (src/worker.rs).

## Learning panel (src/learn_panel.rs). "N" is the number of steps the learner types.

learn-legend = 反向传播与学习
learn-loss = 损失
learn-loss-value = 损失值
# The loss value when it can't be computed.
learn-loss-none = 损失：—
# $value is the loss as PyTorch prints it.
learn-loss-is = 损失 = { $value }
learn-sgd-step = 执行一步 SGD
learn-run-n = 运行 N 步
learn-undo = 撤销
learn-reset = 重置
learn-steps-taken = 已执行步数
# $steps: how many SGD steps have been taken so far.
learn-step-count = 步数：{ $steps }
# While a long run of $steps steps is going on.
learn-running = 正在运行 { $steps } 步…
learn-run-progress = 运行进度
# Beside the progress bar: $done of $steps steps taken.
learn-run-count = { $done } / { $steps }
learn-cancel = 取消
# $typed is the text the learner typed for N, in quotes.
learn-n-invalid = N 必须是 ≥ 0 的整数，而不是 { $typed }

## Lesson panel (src/lesson_panel.rs).

lesson-panel-where = 课程 · 第 { $step } 步，共 { $steps } 步
lesson-panel-back = ◀ 上一步
lesson-panel-next = 下一步 ▶
lesson-panel-finish = 完成课程
lesson-panel-leave = 退出课程（Esc）
# The scene's list of lessons: its name, and the words before it.
lesson-panel-lessons = 课程
lesson-panel-lessons-label = 课程：

## Presets picker (src/presets.rs).

presets-label = 预设
# The picker's choice when the learner has edited the preset's values.
presets-edited = （已编辑）

## Which pass the timeline plays (src/pass_toggle.rs).

pass-label = 传播方向
pass-forward = 前向
pass-backward = 反向

## torch.manual_seed(…) field (src/seed_field.rs).

seed-label = 种子
# Button: initialise the parameters again from the seed.
seed-reinit = 重新初始化

## One output cell's computation (src/formula.rs).

formula-label = 公式
# $products products whose value is 0, left out of the written sum.
formula-zeros = { $products } 个乘积为 0（有一个因子为 0）
# $products nonzero products left out of the written sum.
formula-rest = 另有 { $products } 个乘积未写出
# Both notes (formula-zeros, then formula-rest) together.
formula-parts = { $first }；{ $second }
# Under a long formula: $products is how many products the sum has; $parts says which are left out.
formula-note = 共 { $products } 个乘积：{ $parts }。

## Heat map of a large tensor (src/heatmap.rs).

# The value under the cursor: $cell is its PyTorch name (weight[3, 5]), $value its number, $row
# the first numbers of its row.
heatmap-readout = { $cell } = { $value } · 行：[{ $row }]
# What a screen reader hears on the heat map; $name is the tensor's name.
heatmap-summary = { $name } 的热力图：{ $rows } 行 × { $columns } 列；方向键、Page Up 和 Page Down 移动光标，光标处的值在下方读出
# Colour legend: a blue swatch, then these words.
heatmap-below = 小于 0 ·
# Colour legend: an orange swatch, then these words.
heatmap-above = 大于 0

## Grid cells (src/grid/).

# Read out on a cell after its own value: $value is its gradient's number, $name the gradient's
# PyTorch name (output.grad[0]).
grid-cell-gradient = { $value }（其梯度，{ $name }）

## "Run N steps" (src/runner.rs): why a run ended early.

runner-replaced = 运行在 { $steps } 步中的第 { $done } 步后停止：场景已被替换，因此没有保留任何步。
# $why says what ended the run ("Cancelled", "Run stopped by another change", runner-left).
runner-kept = { $why }：已执行 { $steps } 步中的 { $done } 步，这些步已保留。
# The learner left the scene while steps were running (used as $why of runner-kept).
runner-left = 已离开场景
# $error is why PyTorch refused the next step.
runner-failed = 已执行 { $steps } 步中的 { $done } 步后停止：{ $error }

## Web workers (src/worker.rs): why a worker stopped, put inside another sentence
## ("the worker stopped: …").

# $error is the browser's error.
worker-not-started = worker 无法启动：{ $error }
worker-not-loaded = 其文件无法加载
