//! Every timeline caption in every language rowflow speaks: each way said, the one shown fitting
//! the projector's two lines.

use super::tests::said;
use super::*;
use crate::scene::contract::{Edit, Scene};

#[test]
fn every_way_of_every_caption_is_said_and_fits_in_every_language() {
    use crate::say::{caption, width, Fluent, CAPTION};
    use crate::scene::contract::View;
    // The presets, whose English is the longest way; and ids of four dims at V = 50,000, where
    // the shorter ways are said (an id's second add, products by 0, rows 49999).
    let mut states: Vec<State> = PRESETS.iter().map(|(id, _)| State::preset(id).unwrap()).collect();
    let mut s = states[1].clone();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.set_vocab("50000").unwrap();
    s.ids = Ids::new(vec![2, 2, 2, 2], vec![49999, 4, 4, 1, 0, 4, 4, 49999, 9, 4, 4, 1, 0, 4, 4, 4]).unwrap();
    s.settle();
    states.push(s);
    let languages = ["en", "es", "zh-CN"].map(|lang| (lang, Fluent::language(lang)));
    for (n, s) in states.iter().enumerate() {
        let c = s.compute();
        for phase in [crate::trace::Phase::Forward, crate::trace::Phase::Backward] {
            for k in 0..=c.steps(phase) {
                let ways = c.describe(phase, k);
                assert!(!ways.is_empty(), "{phase:?} {k}");
                if n < PRESETS.len() {
                    assert_eq!(said(&ways), crate::say::write(&ways[0]), "English says a preset's longest way");
                }
                for (lang, fluent) in &languages {
                    for way in &ways {
                        let text = fluent.say(way);
                        assert!(text != way.id && !text.contains('{'), "{lang} {}: {text}", way.id);
                    }
                    let text = caption(&ways, |w| fluent.say(w));
                    assert!(width(&text) <= CAPTION, "{lang} {phase:?} {k}: {text}");
                }
            }
        }
    }
}
