//! The rowflow app: Leptos components over `rowflow-core`. Data flows one way: an edit changes a
//! scene's state, the core computes values and traces from it, and views derive what they show.

#[macro_use]
mod l10n;
mod address;
mod app;
mod class_link;
mod code_panel;
pub mod crash;
mod explain;
mod field;
mod flag;
mod flow;
mod formula;
mod grid;
mod heatmap;
mod issue_list;
mod learn_panel;
mod lesson_panel;
mod more;
mod param;
mod pass_toggle;
mod presets;
mod runner;
mod scenes;
mod seed_field;
mod share_panel;
mod shell;
mod storage;
mod timeline;
mod worker;

pub use app::{App, Route, MOUNT};
pub use code_panel::CodePanel;
pub use field::Field;
pub use formula::FormulaView;
pub use grid::{Grad, Grid, GridData};
pub use learn_panel::LearnPanel;
pub use pass_toggle::PassToggle;
pub use presets::Presets;
pub use scenes::{embedding::EmbeddingScene, linear::LinearScene, one_hot::OneHotScene, rnn::RnnScene};
pub use seed_field::SeedField;
pub use share_panel::SharePanel;
pub use storage::{use_scene, Notice, Scene};
pub use timeline::Timeline;
