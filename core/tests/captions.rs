//! Every caption of every preset's timelines, forward and backward, fits two lines of the
//! projector's 24 px timeline: at most `format::CAPTION` characters.

use rowflow_core::format::CAPTION as MOST;
use rowflow_core::scene::contract::{Scene, View};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use rowflow_core::trace::Phase;

fn captions<S: Scene>() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for (id, _) in S::PRESETS {
        let view = S::preset(id).unwrap().compute();
        for phase in [Phase::Forward, Phase::Backward] {
            for playhead in 0..=view.steps(phase) {
                all.push((format!("{} {id} {phase:?} {playhead}", S::NAME), view.describe(phase, playhead)));
            }
        }
    }
    all
}

#[test]
fn every_caption_fits_two_lines() {
    let all = [
        captions::<linear::State>(),
        captions::<embedding::State>(),
        captions::<one_hot::State>(),
        captions::<rnn::State>(),
        captions::<train::State>(),
        captions::<word2vec::State>(),
    ];
    let long: Vec<String> = all
        .concat()
        .into_iter()
        .filter(|(_, c)| c.chars().count() > MOST)
        .map(|(at, c)| format!("{at} ({} characters): {c}", c.chars().count()))
        .collect();
    assert!(long.is_empty(), "longer than {MOST} characters:\n{}", long.join("\n"));
}
