//! Whatever a learner does, in any order, no scene panics. Each scene starts from a random preset
//! and takes a random sequence of actions through every entry point the app offers (cell edits and
//! pastes on every tensor name, sizes, flags, re-init, the loss, lr, SGD steps, undo, reset, preset
//! switches), fed random text: numbers, words, `nan`, `1e40`, huge ints, blocks of any size,
//! unicode, sizes at and past the scene's limits. After every action:
//! - a refused action (`Err`, with a message) left the state exactly as it was;
//! - `compute()`, the views of what it computed and the PyTorch script don't panic, and the
//!   scene's stated invariants hold;
//! - the state survives `to_json` → `share::decode`, the checked read that saves, links and files
//!   go through: a state the scene made is never refused on reload (the undo history aside: it is
//!   in-memory only).
//!
//! Every action is an [`Edit`], the language the app, links and tours speak.
//!
//! The long run: `PROPTEST_CASES=10000 cargo test -p rowflow-core --release --test scene_edits`.

mod common;
#[path = "scene_edits/embedding.rs"]
mod embedding;
#[path = "scene_edits/linear.rs"]
mod linear;
#[path = "scene_edits/one_hot.rs"]
mod one_hot;
#[path = "scene_edits/rnn.rs"]
mod rnn;
#[path = "scene_edits/train.rs"]
mod train;

use common::gen::{cell_text, lr_text, paste_text, preset_id, said, seed_text};
use proptest::prelude::*;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::share::decode;
use rowflow_core::scene::to_json;
use std::fmt::Debug;

/// Cases per scene in `cargo test`; `PROPTEST_CASES` overrides it.
pub const CASES: u32 = 64;

/// A scene under test: the invariants its every state keeps.
pub trait Driven: Scene {
    /// `compute()` and the views of it; the scene's invariants.
    fn invariants(&self) -> Result<(), TestCaseError>;
}

/// The same to the bit: `Debug` writes every float exactly (unlike `==`, NaN equals NaN here, and
/// -0.0 differs from 0.0).
pub fn same<T: Debug>(a: &T, b: &T) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// Runs the actions on `state` (`Edit`s through `Scene::apply`, or what `act` makes of them),
/// checking everything the module doc lists after each one.
pub fn drive<S: Driven, A: Debug>(
    mut state: S,
    actions: &[A],
    act: impl Fn(&mut S, &A) -> Result<(), String>,
) -> Result<(), TestCaseError> {
    state.invariants()?;
    round_trip(&state)?;
    for (k, edit) in actions.iter().enumerate() {
        let before = state.clone();
        let done = act(&mut state, edit);
        said(&done)?;
        if let Err(e) = &done {
            prop_assert!(same(&before, &state), "edit {} {:?} was refused ({}) but changed the state", k, edit, e);
        }
        state.invariants()?;
        round_trip(&state)?;
    }
    Ok(())
}

fn round_trip<S: Driven>(state: &S) -> Result<(), TestCaseError> {
    let json = to_json(state);
    let back = decode::<S>(&json);
    prop_assert!(back.is_ok(), "a saved state does not load: {:?}", back.err());
    // The undo history is in memory only.
    let (mut saved, mut back) = (state.clone(), back.unwrap());
    saved.params().0.history.clear();
    back.params().0.history.clear();
    prop_assert!(same(&saved, &back), "the state changed through JSON:\n{:?}\n{:?}", saved, back);
    Ok(())
}

/// A flat cell index: small, past the end of any tensor here, and at the end of `usize`.
pub fn cell() -> impl Strategy<Value = usize> {
    prop_oneof![8 => 0usize..12, 2 => 0usize..3000, 1 => prop::sample::select(vec![usize::MAX, usize::MAX / 2])]
}

/// A tensor name for `edit`/`paste`: mostly one the scene accepts, else one it refuses.
pub fn name(editable: &'static [&'static str], other: &'static [&'static str]) -> BoxedStrategy<&'static str> {
    prop_oneof![4 => prop::sample::select(editable), 1 => prop::sample::select(other)].boxed()
}

/// A setting typed into `field`.
pub fn field(field: &'static str, text: impl Strategy<Value = String>) -> impl Strategy<Value = Edit> {
    text.prop_map(move |t| Edit::field(field, &t))
}

/// An option turned on or off.
pub fn flag(flag: &'static str) -> impl Strategy<Value = Edit> {
    any::<bool>().prop_map(move |on| Edit::flag(flag, on))
}

/// The edits every scene takes: typing and pasting into its tensors (and some it refuses),
/// then `learning_edits`. Weighted as a learner's clicks are.
pub fn shared_edits<S: Scene>(
    editable: &'static [&'static str],
    other: &'static [&'static str],
    limits: &'static [usize],
) -> BoxedStrategy<Edit> {
    let tensor = || name(editable, other);
    prop_oneof![
        6 => (tensor(), cell(), cell_text(limits)).prop_map(|(n, i, t)| Edit::cell(n, i, &t)),
        2 => (tensor(), cell(), paste_text(limits)).prop_map(|(n, i, t)| Edit::paste(n, i, &t)),
        9 => learning_edits::<S>(),
    ]
    .boxed()
}

/// The edits every scene takes besides its cells: re-init, the loss, lr, steps, undo, reset and
/// presets.
pub fn learning_edits<S: Scene>() -> BoxedStrategy<Edit> {
    prop_oneof![
        1 => seed_text().prop_map(|seed| Edit::Reinit { seed }),
        1 => lr_text().prop_map(|text| Edit::Lr { text }),
        1 => any::<bool>().prop_map(|mse| Edit::Loss { mse }),
        2 => Just(Edit::Step),
        1 => (0usize..4).prop_map(|steps| Edit::Run { steps }),
        1 => Just(Edit::Undo),
        1 => Just(Edit::Reset),
        1 => preset_id(S::PRESETS).prop_map(|id| Edit::Preset { id: id.into() }),
    ]
    .boxed()
}

/// A scene from one of its presets (or the default) and a sequence of up to 20 actions.
pub fn case<S: Scene, A: Debug>(action: impl Strategy<Value = A>) -> impl Strategy<Value = (S, Vec<A>)> {
    let start = prop::option::of(preset_id(S::PRESETS)).prop_map(|id| id.and_then(S::preset).unwrap_or_default());
    (start, prop::collection::vec(action, 0..20))
}

/// The property test of one scene's `State`: from a random preset, any sequence of `actions`,
/// each done by `act` (`State::apply` where the actions are `Edit`s).
#[macro_export]
macro_rules! takes_any_edits {
    ($test:ident, $actions:expr, $act:expr) => {
        proptest! {
            #![proptest_config($crate::common::gen::config($crate::CASES, file!()))]

            #[test]
            fn $test((start, actions) in $crate::case::<State, _>($actions)) {
                $crate::drive(start, &actions, $act)?;
            }
        }
    };
}
