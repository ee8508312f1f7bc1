//! Undo history: what each SGD step changed, newest last.
//!
//! It lives in memory beside the scene and is never saved or shared: a save holds the scene a
//! learner sees, so it stays small enough for the browser's storage however many steps were
//! taken. It is capped by steps and by bytes, so the steps of a big table can't fill memory;
//! the oldest go first. Steps are shared, so copying a scene copies no numbers.

use std::collections::VecDeque;
use std::sync::Arc;

/// Undo reaches back at most this many steps.
pub const MAX_UNDO_STEPS: usize = 500;
/// ... and at most this many bytes of numbers (about 8 million float32s).
pub const MAX_UNDO_BYTES: usize = 32 << 20;

/// Something that can be remembered: its size in bytes, for the cap.
pub trait Snapshot {
    fn bytes(&self) -> usize;
}

#[derive(Clone, Debug)]
pub struct History<T> {
    steps: VecDeque<Arc<T>>,
    bytes: usize,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        Self { steps: VecDeque::new(), bytes: 0 }
    }
}

/// The past is not part of what a scene is: two states that show the same scene are equal,
/// whatever their undo history (a scene read back from a save has none).
impl<T> PartialEq for History<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T: Snapshot> History<T> {
    /// Remembers `snapshot` as the newest step, forgetting the oldest ones past the caps.
    pub fn push(&mut self, snapshot: T) {
        self.bytes += snapshot.bytes();
        self.steps.push_back(Arc::new(snapshot));
        while self.steps.len() > MAX_UNDO_STEPS || (self.bytes > MAX_UNDO_BYTES && self.steps.len() > 1) {
            if let Some(old) = self.steps.pop_front() {
                self.bytes -= old.bytes();
            }
        }
    }

    /// The newest step, taken out.
    pub fn pop(&mut self) -> Option<T>
    where
        T: Clone,
    {
        let last = self.steps.pop_back()?;
        self.bytes -= last.bytes();
        Some(Arc::unwrap_or_clone(last))
    }
}

impl<T> History<T> {
    pub fn last(&self) -> Option<&T> {
        self.steps.back().map(|s| &**s)
    }

    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The bytes of numbers held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn clear(&mut self) {
        self.steps.clear();
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step that holds `bytes` of numbers.
    #[derive(Clone, Debug, PartialEq)]
    struct Step {
        id: usize,
        bytes: usize,
    }

    impl Snapshot for Step {
        fn bytes(&self) -> usize {
            self.bytes
        }
    }

    #[test]
    fn capped_by_steps_and_bytes_oldest_first() {
        let mut h = History::default();
        for id in 0..MAX_UNDO_STEPS + 5 {
            h.push(Step { id, bytes: 4 });
        }
        assert_eq!((h.len(), h.bytes()), (MAX_UNDO_STEPS, MAX_UNDO_STEPS * 4));
        assert_eq!(h.pop().unwrap().id, MAX_UNDO_STEPS + 4);

        // A 1000 × 1000 table is 4 MB a step: only 8 steps fit.
        let mut big = History::default();
        for id in 0..12 {
            big.push(Step { id, bytes: 4_000_000 });
        }
        assert_eq!(big.len(), MAX_UNDO_BYTES / 4_000_000);
        assert!(big.bytes() <= MAX_UNDO_BYTES);
        assert_eq!(big.pop().unwrap().id, 11);
    }

    #[test]
    fn one_step_is_kept_even_past_the_byte_cap() {
        let mut h = History::default();
        h.push(Step { id: 0, bytes: 36_000_000 });
        assert_eq!(h.len(), 1);
        assert!(h.pop().is_some() && h.is_empty() && h.bytes() == 0);
    }
}
