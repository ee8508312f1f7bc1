//! The word2vec scene: is `nn.Embedding` word2vec, CBOW or skip-gram? Learned, or random?
//! Pretrained or not? (the last seed questions). A small corpus, its vocabulary and training
//! pairs; skip-gram or CBOW with negative sampling written with two `nn.Embedding` tables, each
//! SGD step moving only the rows its pairs look up; beside it, the same vocabulary trained by a
//! sentence classifier from a random table, from word2vec's frozen, or from word2vec's
//! fine-tuned; and both tables compared by nearest neighbours and a PCA map.

pub mod compare;
mod compute;
mod contract;
pub mod corpus;
pub mod scale;
mod state;
pub mod task;
#[cfg(test)]
mod tests;

pub use compute::Computed;
pub use state::State;

/// (id, label) of every preset; the first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("skip_gram", "torch.manual_seed(0); skip-gram, window 2, 3 negatives, D = 8, lr = 0.5"),
    ("cbow", "torch.manual_seed(0); CBOW, window 2, 3 negatives, D = 8, lr = 0.5"),
];

/// The default corpus: two topics (films and food) and words of praise and of complaint that sit
/// in the same places, each sentence labelled 1 (praise) or 0 (complaint) for the task.
pub const CORPUS: &[(f32, &str)] = &[
    (1., "the film was great"),
    (0., "the film was awful"),
    (1., "the plot was great"),
    (0., "the plot was boring"),
    (1., "the actors were wonderful"),
    (0., "the actors were terrible"),
    (1., "the soup was great"),
    (0., "the soup was awful"),
    (1., "the pasta was good"),
    (0., "the pasta was bland"),
    (1., "the sauce was wonderful"),
    (0., "the sauce was terrible"),
    (1., "a great film with good actors"),
    (0., "a boring film with bad actors"),
    (1., "a good plot and great scenes"),
    (0., "a dull plot and awful scenes"),
    (1., "a lovely soup with fresh bread"),
    (0., "a cold soup with stale bread"),
    (1., "good pasta and lovely sauce"),
    (0., "bland pasta and awful sauce"),
    (1., "we loved the film"),
    (0., "we hated the film"),
    (1., "we loved the soup"),
    (0., "we hated the soup"),
    (1., "the scenes were good"),
    (0., "the scenes were dull"),
    (1., "the bread was fresh"),
    (0., "the bread was stale"),
    (1., "i would watch this film again"),
    (0., "i would never watch this film again"),
    (1., "i would eat this pasta again"),
    (0., "i would never eat this pasta again"),
];

/// Limits a save, link or typed size must keep: small enough to draw, step and autosave.
pub const MAX_CHARS: usize = 20_000;
pub const MAX_SENTENCES: usize = 500;
pub const MAX_VOCAB: usize = 1000;
pub const MAX_DIM: usize = 64;
pub const MAX_WINDOW: usize = 10;
pub const MAX_NEGATIVES: usize = 20;
pub const MAX_TASK_STEPS: usize = 500;
/// `task_steps × words × embedding_dim` at most: every change trains the task's three starts
/// again, so a large corpus and many steps together must not freeze the page.
pub const MAX_TASK_WORK: usize = 5_000_000;

const IN: &str = "in_embed.weight";
const OUT: &str = "out_embed.weight";
