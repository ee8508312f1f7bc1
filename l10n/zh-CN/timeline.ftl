# The timeline under every scene (src/timeline.rs).

timeline =
    .aria-label = 动画
# Before the first step; $steps is the pass's number of steps.
timeline-ready = 就绪：共 { $steps } 步。按“播放”、空格键或 → 逐步前进。
# $caption is the step's caption (what the step does).
timeline-step = 第 { $step } 步，共 { $steps } 步：{ $caption }
timeline-first = 第一步
timeline-back = 后退一步
timeline-play = 播放
timeline-pause = 暂停
timeline-play-button = ▶ 播放
timeline-pause-button = ‖ 暂停
timeline-forward = 前进一步
timeline-last = 最后一步
timeline-step-slider = 步骤
timeline-speed = 速度
