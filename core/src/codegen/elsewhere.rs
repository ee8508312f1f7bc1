//! Copy code's script and Download notebook's file written from the scene as saved, away from the
//! page: One-hot's worker writes them when the panel's script leaves numbers out (at 50,000 × 64
//! a 5 MB script, ~100 ms of writing that would pause the page). The save holds everything a
//! script reads, so the text is the page's own.

use super::{notebook_of, Notebook, Numbers};
use crate::scene::share::{decode, Shared};
use serde::{Deserialize, Serialize};

/// Which file: Copy code's script, or the notebook under the page's title.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum File {
    Script,
    Notebook { title: String },
}

/// A file to write, asked of a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Write {
    pub file: File,
    /// The SGD steps Train's script runs (`run_steps`); the other scenes take none.
    pub steps: usize,
    /// The scene as saved (`scene::to_json`).
    pub save: String,
    /// The page's language and the text of its messages (`l10n/<lang>/*.ftl` as the page has
    /// them), in which a worker writes what the core says in a notebook (its captions).
    #[serde(default)]
    pub messages: (String, Vec<String>),
}

impl File {
    /// The file's text for `state` and its `view`, `steps` as for [`Write::steps`]: the page's, or
    /// a worker's from the save.
    pub fn of<S: Notebook>(&self, state: &S, view: &S::View, steps: usize) -> String {
        match self {
            File::Script => state.script(view, steps, Numbers::All).text(),
            File::Notebook { title } => notebook_of(state, view, title, steps),
        }
    }
}

impl Write {
    /// The file's text, or why the save does not read as the scene `S`.
    pub fn run<S: Notebook + Shared>(&self) -> Result<String, String> {
        let state: S = decode(&self.save)?;
        Ok(self.file.of(&state, &state.compute(), self.steps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::contract::Scene;
    use crate::scene::{one_hot, to_json, train};

    fn both<S: Notebook + Shared>(state: &S, steps: usize) {
        let save = to_json(state);
        let view = state.compute();
        let script =
            Write { file: File::Script, steps, save: save.clone(), messages: Default::default() }.run::<S>().unwrap();
        assert_eq!(script, state.script(&view, steps, Numbers::All).text());
        let title = "One-hot × Linear".to_string();
        let notebook =
            Write { file: File::Notebook { title: title.clone() }, steps, save, messages: Default::default() }
                .run::<S>()
                .unwrap();
        assert_eq!(notebook, notebook_of(state, &view, &title, steps));
    }

    #[test]
    fn a_scene_written_from_its_save_is_the_page_s_own_text() {
        // Grown from 5 columns: 2,999 × 5 numbers kept over the draw, more than the panel shows.
        let mut grown = one_hot::State::default();
        grown.resize_table(3_000, 5).unwrap();
        grown.resize_table(3_000, 64).unwrap();
        let view = grown.compute();
        assert_eq!(grown.script(&view, 0, Numbers::Shown).left_out, 14_995);
        both(&grown, 0);
        // Stepped by SGD, and then a table saved whole: most of its cells typed over the draw.
        grown.apply(&crate::scene::contract::Edit::Step).unwrap();
        both(&grown, 0);
        let mut whole = one_hot::State::default();
        for k in 0..whole.table.numel() {
            whole.edit(one_hot::TABLE, k, &format!("{k}.5")).unwrap();
        }
        assert!(whole.drawn_and_set().is_none());
        both(&whole, 0);
        for (id, _) in one_hot::State::PRESETS {
            let s = one_hot::State::preset(id).unwrap();
            assert_eq!(s.script(&s.compute(), 0, Numbers::Shown).left_out, 0, "{id}");
            both(&s, 0);
        }
        both(&train::State::default(), 7);
    }

    #[test]
    fn a_save_that_does_not_read_says_why() {
        let bad = Write { file: File::Script, steps: 0, save: "{}".into(), messages: Default::default() };
        assert!(bad.run::<one_hot::State>().unwrap_err().contains("missing field"));
    }
}
