//! The split build (`--features split`) links with relocations kept: wasm-split-cli needs them to
//! move each scene's functions into its own chunk (tools/split.mjs).
//!
//! It also joins English's messages (`l10n/en/*.ftl`) into one file for the component tests
//! (tests/l10n/mod.rs), which format them as boot.js does on the site.
fn main() {
    println!("cargo:rerun-if-changed=l10n/en");
    let mut files: Vec<_> = std::fs::read_dir("l10n/en").expect("l10n/en").flatten().map(|e| e.path()).collect();
    files.sort();
    let english: String = files.iter().map(|f| std::fs::read_to_string(f).expect("an .ftl file") + "\n").collect();
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out.join("en.ftl"), english).expect("OUT_DIR/en.ftl");
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_SPLIT");
    if std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo:rustc-link-arg-bin=rowflow=--emit-relocs");
    }
}
