//! Every caption of every preset's timelines, forward and backward, fits two lines of the
//! projector's 24 px timeline in every language rowflow speaks: at most `say::CAPTION` wide (a
//! Chinese character two), said the longest way that fits, as the page says it.

use rowflow_core::say::{caption, width, Fluent, Say, CAPTION as MOST};
use rowflow_core::scene::contract::{Scene, View};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use rowflow_core::trace::Phase;

fn captions<S: Scene>() -> Vec<(String, Vec<Say>)> {
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
fn every_caption_fits_two_lines_in_every_language() {
    let all = [
        captions::<linear::State>(),
        captions::<embedding::State>(),
        captions::<one_hot::State>(),
        captions::<rnn::State>(),
        captions::<train::State>(),
        captions::<word2vec::State>(),
    ]
    .concat();
    let languages = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../l10n")).unwrap();
    let mut long = Vec::new();
    for lang in languages.flatten().map(|d| d.file_name().into_string().unwrap()) {
        let fluent = Fluent::language(&lang);
        for (at, ways) in &all {
            let said = caption(ways, |s| fluent.say(s));
            if width(&said) > MOST {
                long.push(format!("{lang} {at} ({} wide): {said}", width(&said)));
            }
        }
    }
    assert!(long.is_empty(), "wider than {MOST}:\n{}", long.join("\n"));
}
