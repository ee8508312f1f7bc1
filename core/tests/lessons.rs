//! Every scene's lessons play start to end: each step's edits are taken, and each number a
//! caption names is one the scene shows. The start page lists every lesson by its link.

use rowflow_core::lesson::{self, Lesson};
use rowflow_core::scene::contract::Scene;
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};

fn lessons<S: Scene>() -> Vec<Lesson> {
    let lessons: Vec<Lesson> = serde_json::from_str(S::LESSONS).unwrap_or_else(|e| panic!("{}: {e}", S::NAME));
    assert!(!lessons.is_empty(), "{} has no lesson", S::NAME);
    assert_eq!(lesson::of::<S>(), lessons);
    let links: Vec<_> = lessons.iter().map(|l| (l.id.as_str(), l.title.as_str())).collect();
    assert_eq!(lesson::links::<S>(), links, "{}: the scene bar's links", S::NAME);
    for l in &lessons {
        l.check::<S>().unwrap_or_else(|e| panic!("{} lesson {}: {e}", S::NAME, l.id));
        assert_eq!(lesson::find::<S>(&l.id).as_ref(), Some(l));
        if std::env::var_os("ROWFLOW_PRINT_LESSONS").is_some() {
            for (k, step) in l.steps.iter().enumerate() {
                let s: S = l.scene_at(k).unwrap();
                println!("{} {} {}: {}", S::NAME, l.id, k + 1, step.say(&s, &s.compute()).unwrap());
            }
        }
    }
    lessons
}

#[test]
fn every_lesson_plays_and_the_start_page_lists_it() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../index.html")).unwrap();
    let all = [
        ("linear", lessons::<linear::State>()),
        ("embedding", lessons::<embedding::State>()),
        ("one-hot", lessons::<one_hot::State>()),
        ("rnn", lessons::<rnn::State>()),
        ("train", lessons::<train::State>()),
        ("word2vec", lessons::<word2vec::State>()),
    ];
    for (route, lessons) in all {
        for l in lessons {
            // Named by its message too (l10n/<lang>/shell.ftl), for the start page in every language.
            let link = format!(
                "<a href=\"#/{route}?lesson={}\" data-l10n-id=\"{}\">{}</a>",
                l.id,
                rowflow_core::lesson::message(route, &l.id),
                l.title
            );
            assert!(page.contains(&link), "index.html lists no {link}");
        }
    }
}

#[test]
fn a_lesson_that_names_a_number_not_on_show_is_refused() {
    let text = linear::State::LESSONS.replacen("{output[0]}", "{output[10]}", 1);
    let lessons: Vec<Lesson> = serde_json::from_str(&text).unwrap();
    assert!(lessons[0].check::<linear::State>().unwrap_err().contains("step 2"));
}
