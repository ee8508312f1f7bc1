use super::task::Start;
use super::*;
use crate::say::{caption, write};
use crate::scene::contract::{Edit, Scene};
use crate::trace::Phase;

fn moved_rows(before: &Tensor, after: &Tensor) -> Vec<usize> {
    let d = before.shape()[1];
    let mut rows: Vec<usize> =
        before.data().iter().zip(after.data()).enumerate().filter(|(_, (a, b))| a != b).map(|(i, _)| i / d).collect();
    rows.dedup();
    rows
}

use crate::tensor::Tensor;

#[test]
fn the_default_corpus_reads_into_a_vocabulary_and_the_first_sentences_pairs() {
    let s = State::default();
    let v = s.compute();
    assert!(v.issues.is_empty(), "{:?}", v.issues);
    assert_eq!(v.words[0], "the");
    assert!(v.dropped.iter().any(|(w, n)| w == "cold" && *n == 1), "min_count 2 drops a word seen once");
    assert_eq!(s.in_embed.shape(), [v.words.len(), 8]);
    // "the film was great", window 2: 2 + 3 + 3 + 2 skip-gram pairs.
    assert_eq!(v.sentence, Some(0));
    assert_eq!(v.pairs.len(), 10);
    assert_eq!(v.forward.len(), 10);
    assert_eq!(v.negatives.shape(), [10, 3]);
    let cbow = State::preset("cbow").unwrap().compute();
    assert_eq!(cbow.pairs.len(), 4);
    assert_eq!(cbow.input.shape(), [4, 3]);
}

/// A step moves exactly the rows its pairs read: the sentence's words in `in_embed`, targets and
/// negatives in `out_embed`; then the next step takes the next sentence.
#[test]
fn a_step_moves_only_the_rows_it_reads() {
    for preset in ["skip_gram", "cbow"] {
        let mut s = State::preset(preset).unwrap();
        let v = s.compute();
        let (i0, o0) = (s.in_embed.clone(), s.out_embed.clone());
        s.apply(&Edit::Step).unwrap();
        assert_eq!(moved_rows(&i0, &s.in_embed), v.rows_in, "{preset}");
        assert_eq!(moved_rows(&o0, &s.out_embed), v.rows_out, "{preset}");
        let after = s.compute();
        assert_eq!(after.changed_in, v.rows_in);
        assert_eq!(after.sentence, Some(1));
        assert_eq!(after.loss_curve.len(), 2);
        s.apply(&Edit::Undo).unwrap();
        assert_eq!((s.in_embed.clone(), s.compute().sentence), (i0, Some(0)));
    }
}

#[test]
fn training_lowers_the_loss_and_groups_words_by_their_company() {
    let mut s = State::default();
    s.apply(&Edit::Run { steps: 1000 }).unwrap();
    let v = s.compute();
    let losses = &s.learning.losses;
    let mean = |xs: &[f32]| xs.iter().sum::<f32>() / xs.len() as f32;
    assert!(mean(&losses[900..]) < mean(&losses[..32]) * 0.7, "{} → {}", mean(&losses[..32]), mean(&losses[900..]));
    assert_eq!(v.near_word2vec.len(), 5);
    assert_eq!(v.map_word2vec.spots.len(), v.words.len());
}

#[test]
fn the_task_learns_the_labels_from_every_start_and_frozen_leaves_the_table() {
    let v = State::default().compute();
    assert_eq!(v.runs.len(), 3);
    for r in &v.runs {
        assert_eq!(r.losses.len(), 151);
        assert!(r.losses[150] < r.losses[0], "{:?} did not learn", r.start);
    }
    let frozen = v.run(Start::Frozen).unwrap();
    assert_eq!(frozen.table, State::default().in_embed);
    assert_ne!(v.run(Start::FineTuned).unwrap().table, frozen.table);
}

#[test]
fn bad_settings_are_refused_and_leave_the_state() {
    let mut s = State::default();
    let before = s.clone();
    for (field, text) in [("window", "0"), ("negatives", "x"), ("word", "zebra"), ("start", "warm"), ("task_lr", "-1")]
    {
        assert!(s.apply(&Edit::field(field, text)).is_err(), "{field} = {text}");
    }
    assert!(s.apply(&Edit::cell("labels", 99, "1")).is_err());
    assert_eq!(s, before);
    s.apply(&Edit::field("word", "Soup")).unwrap();
    assert_eq!(s.word, "soup");
    // 500 steps are allowed, and 64 numbers per word, but not both on the corpus twice over.
    let twice = format!("{0}\n{0}", s.corpus);
    s.apply(&Edit::field("corpus", &twice)).unwrap();
    s.apply(&Edit::field("embedding_dim", "64")).unwrap();
    let before = s.clone();
    let e = s.apply(&Edit::field("task_steps", "500")).unwrap_err();
    assert!(e.contains("redoes the task on every change"), "{e}");
    assert_eq!(s, before);
}

#[test]
fn a_new_corpus_draws_new_tables_and_keeps_a_label_per_line() {
    let mut s = State::default();
    s.apply(&Edit::field("corpus", "the cat sat\nthe dog sat\nthe cat ran")).unwrap();
    let v = s.compute();
    assert_eq!(v.words, ["the", "cat", "sat"]);
    assert_eq!(s.in_embed.shape(), [3, 8]);
    assert_eq!(s.labels.numel(), 3);
    assert!(s.limits().is_ok());
    s.apply(&Edit::field("corpus", "")).unwrap();
    let v = s.compute();
    assert!(!v.issues.is_empty() && v.forward.is_empty());
    assert!(caption(&v.describe(Phase::Forward, 0), write).contains("no pair"));
}

#[test]
fn a_caption_names_the_pair_and_its_rows() {
    let v = State::default().compute();
    let said = caption(&v.describe(Phase::Forward, 1), write);
    assert!(said.starts_with("Pair 0: the → film: pos[0] = "), "{said}");
    let back = caption(&v.describe(Phase::Backward, 1), write);
    assert!(back.contains("pos.grad[9]"), "{back}");
    assert_eq!(
        caption(&v.describe(Phase::Forward, 0), write),
        "Forward: 10 steps, one per pair of the sentence. Press Step forward to start."
    );
    assert_eq!(
        write(&v.captions[0]),
        "Skip-gram predicts each context word from its centre's row: 10 pairs of the vocabulary's 35 rows are read \
         and moved by this step; every other row's gradient is 0."
    );
    assert!(write(&v.captions[1]).starts_with("The task after 150 steps: from a random table loss "));
    let cbow = State::preset("cbow").unwrap().compute();
    let said = caption(&cbow.describe(Phase::Forward, 1), write);
    assert!(said.starts_with("Pair 0: the mean of film, was → the: pos[0] = "), "{said}");
    let back = caption(&cbow.describe(Phase::Backward, 1), write);
    assert!(back.contains("only the rows of the mean of film, was (in_embed)"), "{back}");
    let f = v.formula("pos", &[0]).unwrap();
    assert_eq!(f.products.len(), 8);
    assert_eq!(f.products[0].1.name, "in_embed.weight[0, 0]");
}

/// Twenty negatives listed do not fit two lines: the caption counts them instead, or says the
/// pair's score alone.
#[test]
fn a_long_caption_counts_the_negatives() {
    let mut s = State::default();
    s.apply(&Edit::field("negatives", "20")).unwrap();
    let v = s.compute();
    let ways = v.describe(Phase::Forward, 2);
    assert_eq!(ways.len(), 3);
    assert!(crate::say::width(&write(&ways[0])) > crate::say::CAPTION);
    let said = caption(&ways, write);
    assert!(
        said.starts_with("Pair 1: the → was: pos[1] = ") && said.ends_with("; its 20 negatives make neg[1]."),
        "{said}"
    );
    assert!(write(&ways[2]).ends_with(", the score of was."), "{}", write(&ways[2]));
    let back = caption(&v.describe(Phase::Backward, 1), write);
    assert!(back.ends_with("and its 20 negatives (out_embed) get gradient."), "{back}");
}
