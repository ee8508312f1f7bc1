//! The corpus as the learner wrote it, what the tokenizer made of it (the vocabulary with ids and
//! counts, the words `min_count` left out), and the sentence the next step trains on with the
//! pair on show lit: its centre and its context.

use leptos::prelude::*;
use rowflow_core::scene::word2vec::{Computed, State};
use rowflow_core::Phase;

/// A textarea that commits on leaving it (or Ctrl+Enter); refused text stays with the reason.
#[component]
pub fn CorpusText(
    #[prop(into)] value: Signal<String>,
    on_commit: Callback<String, Result<(), String>>,
) -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let commit = move |text: String| problem.set(on_commit.try_run(text).and_then(Result::err));
    view! {
        <label class="corpus-text">
            <span>{t!("word2vec-corpus-label")}</span>
            <textarea
                rows="8"
                spellcheck="false"
                aria-invalid=move || problem.get().map(|_| "true")
                prop:value=move || value.get()
                on:change=move |ev| commit(event_target_value(&ev))
            ></textarea>
            {move || problem.get().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </label>
        // The tokenizer's rule (core's `corpus::words`), where the text is written.
        <p class="hint">
            {t!("word2vec-tokenizer-hint")}
        </p>
    }
}

/// Every word of the vocabulary with its id and count.
#[component]
pub fn Vocabulary(computed: Memo<Computed>, state: RwSignal<State>) -> impl IntoView {
    let rows = move || {
        computed.with(|c| {
            c.words
                .iter()
                .zip(&c.counts)
                .enumerate()
                .map(|(id, (w, n))| view! { <li><code>{id}</code>" "{w.clone()}" "<span class="count">{format!("×{n}")}</span></li> })
                .collect_view()
        })
    };
    let dropped = move || {
        computed.with(|c| {
            let words: Vec<String> = c.dropped.iter().map(|(w, n)| format!("{w} ×{n}")).collect();
            (!words.is_empty()).then(|| {
                let min = state.with(|s| s.min_count);
                view! { <p class="hint dropped">{t!("word2vec-left-out", min = min, words = words.join(", "))}</p> }
            })
        })
    };
    view! {
        <div class="vocabulary">
            <h2>{move || computed.with(|c| t!("word2vec-vocabulary-title", words = c.words.len(), tokens = c.tokens))}</h2>
            <ol class="vocab-list" aria-label=t!("word2vec-vocabulary-list")>{rows}</ol>
            {dropped}
        </div>
    }
}

/// The pair the timeline is on: step k of forward is pair k − 1; backward runs last pair first.
pub fn pair_on_show(c: &Computed, pass: Phase, playhead: usize) -> Option<usize> {
    let n = c.pairs.len();
    match (pass, playhead) {
        (_, 0) => None,
        (Phase::Forward, k) => Some(k - 1).filter(|&p| p < n),
        (Phase::Backward, k) => n.checked_sub(k),
    }
}

/// The next step's sentence, each word marked centre or context for the pair on show.
#[component]
pub fn Sentence(computed: Memo<Computed>, pass: RwSignal<Phase>, playhead: RwSignal<usize>) -> impl IntoView {
    let words = move || {
        computed.with(|c| {
            let pair = pair_on_show(c, pass.get(), playhead.get()).and_then(|p| c.pairs.get(p));
            let mut k = 0;
            c.sentence_words
                .iter()
                .map(|(w, id)| {
                    let at = id.map(|_| {
                        k += 1;
                        k - 1
                    });
                    let role = match (pair, at) {
                        (Some(p), Some(i)) if p.centre == i => "centre",
                        (Some(p), Some(i)) if p.context.contains(&i) => "context",
                        (_, None) => "left-out",
                        _ => "",
                    };
                    view! { <span class=format!("word {role}") data-role=role>{w.clone()}</span>" " }
                })
                .collect_view()
        })
    };
    let title = move || {
        computed.with(|c| match c.sentence {
            Some(s) => t!("word2vec-sentence-title", line = s + 1, pairs = c.pairs.len()),
            None => t!("word2vec-no-sentence"),
        })
    };
    view! {
        <div class="sentence-box">
            <h2>{title}</h2>
            <p class="sentence" aria-live="polite">{words}</p>
            <p class="hint">{t!("word2vec-sentence-hint")}</p>
        </div>
    }
}
