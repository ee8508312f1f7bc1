//! `cargo run --profile worker -p rowflow-core --example word2vec_speed [corpus] [--cbow]`: word2vec
//! at real scale (`scene::word2vec::scale::train`, the code the browser's trainer worker runs)
//! natively, on `assets/word2vec_corpus.txt` by default, so that its words per second can be put
//! beside the browser's and gensim's. Prints the run's figures and the nearest words to a few.

use rowflow_core::scene::word2vec::compare::neighbours;
use rowflow_core::scene::word2vec::scale::{table, train, Report, Request};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.iter().find(|a| !a.starts_with("--")).map_or("assets/word2vec_corpus.txt", String::as_str);
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64();
    train(&Request::new(text, args.iter().any(|a| a == "--cbow")), &now, &mut |report| match report {
        Report::Trained { progress: p, words, in_embed } => {
            println!(
                "{} words in {:.3} s: {:.0} words/s, loss {:.3}",
                p.words,
                p.seconds,
                p.words_per_second(),
                p.loss
            );
            let Some(t) = table(in_embed, words.len()) else { return };
            for w in ["great", "awful", "film", "soup"] {
                let Some(i) = words.iter().position(|x| x == w) else { continue };
                let near: Vec<String> = neighbours(&t, &words, i, 5).into_iter().map(|n| n.word).collect();
                println!("{w}: {}", near.join(", "));
            }
        }
        Report::Refused(why) => eprintln!("{why}"),
        _ => {}
    });
}
