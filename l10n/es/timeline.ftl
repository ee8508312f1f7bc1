# The timeline under every scene (src/timeline.rs).

timeline =
    .aria-label = Animación
# Before the first step; $steps is the pass's number of steps.
timeline-ready = Listo: { $steps ->
        [one] { $steps } paso
       *[other] { $steps } pasos
    }. Presiona Reproducir, Espacio o → para avanzar.
# $caption is the step's caption (what the step does).
timeline-step = Paso { $step } de { $steps }: { $caption }
timeline-first = Primer paso
timeline-back = Retroceder un paso
timeline-play = Reproducir
timeline-pause = Pausa
timeline-play-button = ▶ Reproducir
timeline-pause-button = ‖ Pausa
timeline-forward = Avanzar un paso
timeline-last = Último paso
timeline-step-slider = Paso
timeline-speed = Velocidad
