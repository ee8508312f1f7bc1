//! Every step of every preset's two passes draws where its numbers go: at least one edge, from a
//! cell the step reads to a cell it writes, so the page always has a flow to show.

use rowflow_core::scene::contract::{Scene, View};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use rowflow_core::Phase;

fn every_step_flows<S: Scene>() {
    for (id, _) in S::PRESETS {
        let view = S::preset(id).expect("a preset").compute();
        for phase in [Phase::Forward, Phase::Backward] {
            for (k, step) in
                view.trace(phase).map(|t| t.steps.iter().collect()).unwrap_or_else(Vec::new).into_iter().enumerate()
            {
                let flows = step.flows();
                assert!(!flows.is_empty(), "{} {id} {phase:?} step {}: no flow", S::NAME, k + 1);
                for (from, to) in flows {
                    assert!(step.reads.contains(from) || step.writes.contains(from), "{from}");
                    assert!(step.writes.contains(to), "{to}");
                }
            }
        }
    }
}

#[test]
fn every_step_of_every_preset_flows_from_what_it_reads_to_what_it_writes() {
    every_step_flows::<linear::State>();
    every_step_flows::<embedding::State>();
    every_step_flows::<one_hot::State>();
    every_step_flows::<rnn::State>();
    every_step_flows::<train::State>();
    every_step_flows::<word2vec::State>();
}
