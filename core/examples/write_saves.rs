//! Writes this release's save, link and file of every case of `tests/common/saves.rs`, with the
//! numbers each shows, for `tests/saves.rs` to open in every later release. By hand, once per
//! new format (`rowflow_core::scene::share::FORMAT`), never over a folder already committed:
//!
//!     cargo run -p rowflow-core --example write_saves -- core/tests/saves/format-N

#[path = "../tests/common/saves.rs"]
mod saves;

use rowflow_core::scene::share::{to_file, to_link, to_save, MAX_LINK};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use saves::{cases, numbers, Shown};
use std::path::Path;

fn write<S: Shown>(dir: &Path) {
    let dir = dir.join(S::NAME);
    std::fs::create_dir_all(&dir).expect("the folder");
    for (case, s) in cases::<S>() {
        let put = |ext: &str, text: String| std::fs::write(dir.join(format!("{case}.{ext}")), text).expect("a file");
        put("save.json", to_save(&s));
        let link = to_link(&s);
        if link.len() <= MAX_LINK {
            put("link", link);
        }
        put("file.json", to_file(&s));
        put("numbers.json", serde_json::to_string(&numbers(&s)).expect("JSON"));
    }
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: write_saves <folder>");
    let dir = Path::new(&dir);
    assert!(!dir.exists(), "{} exists: a format's saves are written once", dir.display());
    write::<linear::State>(dir);
    write::<embedding::State>(dir);
    write::<one_hot::State>(dir);
    write::<rnn::State>(dir);
    write::<train::State>(dir);
    write::<word2vec::State>(dir);
}
