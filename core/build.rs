//! Each scene's lessons listed as (id, title), read here from every `src/scene/<name>/lessons.json`:
//! the scene bar links to them, and a scene that opens reads no JSON for it (parsing the lessons
//! whole put serde_json's reader in the first task of every cold open). `lesson::of` reads them
//! whole when one is played.
use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=src/scene");
    let mut scenes: Vec<_> =
        fs::read_dir("src/scene").unwrap_or_else(|e| panic!("src/scene: {e}")).flatten().map(|e| e.path()).collect();
    scenes.sort();
    let mut all = Vec::new();
    for dir in scenes {
        let path = dir.join("lessons.json");
        let Ok(text) = fs::read_to_string(&path) else { continue };
        println!("cargo:rerun-if-changed={}", path.display());
        let lessons: Vec<serde_json::Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let field = |lesson: &serde_json::Value, name: &str| match lesson[name].as_str() {
            Some(text) => text.to_string(),
            None => panic!("{}: a lesson without a {name}", path.display()),
        };
        let listed: Vec<_> = lessons.iter().map(|l| (field(l, "id"), field(l, "title"))).collect();
        all.push(format!("({:?}, &{listed:?})", dir.file_name().unwrap().to_string_lossy()));
    }
    let out = format!("const LINKS: &[(&str, &[(&str, &str)])] = &[{}];\n", all.join(", "));
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join("lesson_links.rs"), out).unwrap();
}
