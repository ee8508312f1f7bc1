//! "Run N steps" at any size. The steps are taken on a copy of the scene, as many to a task as
//! fit in `SLICE_MS`, the page getting its turn between tasks; the scene becomes the copy after
//! the last step. A run that fits in one task is over before the click returns, as it always
//! was; a longer one (One-hot at 50,000 × 64 takes several ms a step) shows its progress and
//! Cancel. Stopped early — cancelled, by an edit, or left — it keeps the steps it took.

use leptos::prelude::*;
use rowflow_core::scene::contract::{Edit, Scene, MAX_RUN};
use std::time::Duration;

/// Steps are taken for at most about this long before the page gets its turn.
const SLICE_MS: f64 = 35.0;

/// Where a run that outlasted a task stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub done: usize,
    pub of: usize,
}

pub struct Runner<S: Scene> {
    pub progress: RwSignal<Option<Progress>>,
    /// How the last run that outlasted a task ended, when it did not end with its last step.
    pub said: RwSignal<Option<String>>,
    /// The scene the steps are taken on.
    copy: StoredValue<Option<S>>,
    /// Which run a slice belongs to: a slice of a run since ended takes no step.
    run: StoredValue<u64>,
}

impl<S: Scene> Clone for Runner<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Scene> Copy for Runner<S> {}

impl<S: Scene> Runner<S> {
    /// A runner for `state`. A change to it that neither the run nor `stop` made (a lesson's
    /// step, a file opened) ends the run without its steps: they were taken from the scene
    /// before that change. A run going on when the scene is left or the page closed hands the
    /// steps it took to `keep`.
    pub fn new(state: RwSignal<S>, keep: impl Fn(S) + Copy + Send + Sync + 'static) -> Self {
        let (progress, said) = (RwSignal::new(None), RwSignal::new(None));
        let runner = Self { progress, said, copy: StoredValue::new(None), run: StoredValue::new(0) };
        Effect::new(move |_| {
            state.track();
            if let Some(Progress { done, of }) = runner.progress.get_untracked() {
                let why = t!("runner-replaced", done = done, steps = of);
                runner.end(Some(why));
            }
        });
        let leave = move || {
            if let Some(s) = runner.stop(&t!("runner-left")) {
                keep(s);
            }
        };
        let closing = window_event_listener_untyped("pagehide", move |_| leave());
        on_cleanup(move || {
            leave();
            closing.remove();
        });
        runner
    }

    /// Takes `steps` SGD steps (at most `MAX_RUN`) from `scene`, or from where a run going on
    /// stands, then hands the scene to `land`. A first step PyTorch would refuse is refused
    /// here, and nothing changes.
    pub fn run(self, scene: S, steps: usize, land: impl Fn(S) + Copy + 'static) -> Result<(), String> {
        let from = self.end(None).unwrap_or(scene);
        self.said.set(None);
        self.copy.set_value(Some(from));
        self.slice(self.run.get_value(), Progress { done: 0, of: steps.min(MAX_RUN) }, land)
    }

    /// Ends a run going on, saying `why` it ended; the scene with the steps it took.
    pub fn stop(self, why: &str) -> Option<S> {
        let Progress { done, of } = self.progress.try_get_untracked().flatten()?;
        self.end(Some(t!("runner-kept", why = why, done = done, steps = of)))
    }

    /// Steps for one slice of time, then again in the next task, or hands the scene over.
    fn slice(self, run: u64, mut at: Progress, land: impl Fn(S) + Copy + 'static) -> Result<(), String> {
        let (start, mut slowest) = (now(), 0.0f64);
        while at.done < at.of {
            let before = now();
            let Some(step) = self.copy.try_update_value(|c| c.as_mut().map(|s| s.apply(&Edit::Step))).flatten() else {
                return Ok(());
            };
            match step {
                Err(e) if at.done == 0 => {
                    self.end(None);
                    return Err(e);
                }
                Err(e) => {
                    if let Some(s) = self.end(Some(t!("runner-failed", done = at.done, steps = at.of, error = e))) {
                        land(s);
                    }
                    return Ok(());
                }
                Ok(()) => at.done += 1,
            }
            // Another step as slow as the slowest yet would end the slice late: the page's turn.
            let end = now();
            slowest = slowest.max(end - before);
            if at.done < at.of && end - start + slowest > SLICE_MS {
                self.progress.set(Some(at));
                let next = move || {
                    if self.run.try_get_value() == Some(run) {
                        let _ = self.slice(run, at, land);
                    }
                };
                set_timeout(next, Duration::ZERO);
                return Ok(());
            }
        }
        // A run that outlasted a task lands in a task of its own: the scene's compute is a
        // task's worth at real scale.
        if self.progress.get_untracked().is_some() {
            self.progress.set(Some(at));
            set_timeout(move || self.finish(run, land), Duration::ZERO);
        } else {
            self.finish(run, land);
        }
        Ok(())
    }

    /// Hands the scene to `land`, unless run `run` has ended meanwhile.
    fn finish(self, run: u64, land: impl Fn(S)) {
        if self.run.try_get_value() == Some(run) {
            if let Some(s) = self.end(None) {
                land(s);
            }
        }
    }

    /// Ends the run (saying `said`) and hands back its scene; `progress` goes first, so the
    /// scene set from it is not taken for a change made meanwhile.
    fn end(self, said: Option<String>) -> Option<S> {
        self.run.try_update_value(|run| *run += 1);
        self.progress.try_set(None);
        if said.is_some() {
            self.said.try_set(said);
        }
        self.copy.try_update_value(Option::take).flatten()
    }
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}
