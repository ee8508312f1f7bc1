//! Each scene's lessons listed as (id, title), read from its `lessons.json` here: the scene bar
//! links to them, and a scene that opens reads no JSON for it (parsing the lessons whole put
//! serde_json's reader in the first task of every cold open). `lesson::of` reads them whole when
//! one is played.
use std::fmt::Write;
use std::{env, fs, path::Path};

fn main() {
    let mut out = String::new();
    for scene in ["linear", "embedding", "one_hot", "rnn", "train"] {
        let path = format!("src/scene/{scene}/lessons.json");
        println!("cargo:rerun-if-changed={path}");
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let lessons: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let field = |lesson: &serde_json::Value, name: &str| match lesson[name].as_str() {
            Some(text) => text.to_string(),
            None => panic!("{path}: a lesson without a {name}"),
        };
        let listed: Vec<_> = lessons.iter().map(|l| (field(l, "id"), field(l, "title"))).collect();
        writeln!(out, "pub const {}: &[(&str, &str)] = &{listed:?};", scene.to_uppercase()).unwrap();
    }
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join("lesson_links.rs"), out).unwrap();
}
