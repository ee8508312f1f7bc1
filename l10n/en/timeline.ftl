# The timeline under every scene (src/timeline.rs).

timeline =
    .aria-label = Animation
# Before the first step; $steps is the pass's number of steps.
timeline-ready = Ready: { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }. Press Play, Space or → to step.
# $caption is the step's caption (what the step does).
timeline-step = Step { $step } of { $steps }: { $caption }
timeline-first = First step
timeline-back = Step back
timeline-play = Play
timeline-pause = Pause
timeline-play-button = ▶ Play
timeline-pause-button = ‖ Pause
timeline-forward = Step forward
timeline-last = Last step
timeline-step-slider = Step
timeline-speed = Speed
