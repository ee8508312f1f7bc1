//! The rowflow app: Leptos components over `rowflow-core`. Views derive what they show from the
//! core's values and traces; they never compute math themselves.

mod app;
mod grid;
mod seed_embedding;

pub use app::App;
pub use grid::TensorGrid;
pub use seed_embedding::SeedEmbedding;
