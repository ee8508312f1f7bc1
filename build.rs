//! The split build (`--features split`) links with relocations kept: wasm-split-cli needs them to
//! move each scene's functions into its own chunk (tools/split.mjs).
fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_SPLIT");
    if std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo:rustc-link-arg-bin=rowflow=--emit-relocs");
    }
}
