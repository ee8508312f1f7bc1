//! The real-scale panel's body, in a part of its own (`super::part`): the corpus fetched when it
//! first shows, trained in the `trainer` worker (worker/src/trainer.rs) while the page stays free,
//! with progress, words per second as it goes and Cancel; gensim's and PyTorch's words per second
//! on the same work beside it; and the trained table's nearest words to the scene's chosen word.

use super::super::compare::Neighbours;
use super::Inputs;
use crate::worker::Running;
use leptos::prelude::*;
use rowflow_core::format::{fixed, grouped};
use rowflow_core::scene::word2vec::compare::neighbours;
use rowflow_core::scene::word2vec::scale::{table, Progress, Reference, Report, Request};
use rowflow_core::Tensor;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::MessageEvent;

/// Trunk's loader for the trainer (`data-loader-shim` in index.html) and the corpus beside
/// index.html (`tools/time_word2vec.py --write`).
const TRAINER: &str = "trainer_loader.js";
const CORPUS: &str = "word2vec_corpus.txt";
const EPOCHS: [usize; 3] = [1, 5, 20];

#[derive(Clone, Debug, PartialEq)]
enum Corpus {
    Loading,
    Loaded(String),
    Failed(String),
}

/// Where the last run got to, and how it ended.
#[derive(Clone, Debug, PartialEq)]
enum Run {
    Idle,
    Reading,
    Training(Progress),
    Cancelled(Option<Progress>),
    Trained { progress: Progress, words: Vec<String>, table: Tensor },
    Failed(String),
}

impl Run {
    fn progress(&self) -> Option<Progress> {
        match self {
            Run::Training(p) | Run::Cancelled(Some(p)) | Run::Trained { progress: p, .. } => Some(*p),
            _ => None,
        }
    }
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or_else(|| t!("word2vec-scale-no-window"))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| t!("word2vec-scale-unreachable"))?
        .unchecked_into();
    if !response.ok() {
        return Err(t!("word2vec-scale-server", status = response.status().to_string()));
    }
    let text = response.text().map_err(|_| t!("word2vec-scale-unreadable"))?;
    JsFuture::from(text).await.ok().and_then(|t| t.as_string()).ok_or_else(|| t!("word2vec-scale-unreadable"))
}

#[component]
pub fn ScaleBody() -> impl IntoView {
    let Inputs { cbow, word } = expect_context();
    let corpus = RwSignal::new(Corpus::Loading);
    let run = RwSignal::new(Run::Idle);
    let epochs = RwSignal::new(EPOCHS[0]);
    let running = StoredValue::new_local(None::<Running>);
    on_cleanup(move || {
        running.try_update_value(|r| *r = None);
    });
    let reference = Reference::stored();
    // The run asked for, but for its text: read (not copied) only when a run starts.
    let settings = move || Request { epochs: epochs.get(), ..Request::new(String::new(), cbow.get()) };
    let loaded = move || corpus.with(|c| matches!(c, Corpus::Loaded(_)));

    let load = move || {
        corpus.set(Corpus::Loading);
        leptos::task::spawn_local(async move {
            let text = fetch_text(CORPUS).await;
            corpus.try_set(
                text.map_or_else(|why| Corpus::Failed(t!("word2vec-scale-corpus-failed", why = why)), Corpus::Loaded),
            );
        });
    };
    load();
    let start = move |_| {
        let text = corpus.with_untracked(|c| if let Corpus::Loaded(text) = c { Some(text.clone()) } else { None });
        let Some(text) = text else { return };
        let Ok(json) = serde_json::to_string(&Request { text, ..settings() }) else { return };
        running.update_value(|r| *r = None);
        run.set(Run::Reading);
        let on_message = move |message: MessageEvent| {
            let report = serde_json::from_str::<Report>(&message.data().as_string().unwrap_or_default());
            run.try_update(|r| {
                *r = match report {
                    Ok(Report::Read { .. }) => Run::Reading,
                    Ok(Report::Progress(p)) => Run::Training(p),
                    Ok(Report::Trained { progress, words, in_embed }) => match table(in_embed, words.len()) {
                        Some(table) => Run::Trained { progress, words, table },
                        None => Run::Failed(t!("word2vec-scale-wrong-size")),
                    },
                    Ok(Report::Refused(why)) => Run::Failed(why),
                    Err(e) => Run::Failed(t!("word2vec-scale-unexpected", error = e.to_string())),
                }
            });
        };
        let on_error = move |why: String| {
            run.try_set(Run::Failed(t!("word2vec-scale-trainer-stopped", why = why)));
        };
        match Running::spawn(TRAINER, json.into(), js_sys::Array::new(), on_message, on_error) {
            Ok(r) => running.set_value(Some(r)),
            Err(why) => run.set(Run::Failed(why)),
        }
    };
    let cancel = move |_| {
        running.update_value(|r| *r = None);
        run.update(|r| *r = Run::Cancelled(r.progress()));
    };
    // A memo: the button and the bar are drawn once a run, not again at each report.
    let busy = Memo::new(move |_| matches!(run.get(), Run::Reading | Run::Training(_)));
    let done = move || run.with(|r| if let Run::Training(p) = r { (p.words, p.of) } else { (0, 1) });

    let status = move || match run.get() {
        Run::Idle => String::new(),
        Run::Reading => t!("word2vec-scale-reading"),
        // Numbers as grouped text ("120,002"), the way the rest of the panel writes them.
        Run::Training(p) => t!(
            "word2vec-scale-training",
            words = grouped(p.words),
            of = grouped(p.of),
            speed = grouped(p.words_per_second().round() as usize),
            loss = fixed(p.loss, 3)
        ),
        Run::Cancelled(p) => match p {
            Some(p) => t!("word2vec-scale-cancelled-after", words = grouped(p.words), of = grouped(p.of)),
            None => t!("word2vec-scale-cancelled"),
        },
        Run::Trained { progress: p, .. } => t!(
            "word2vec-scale-trained",
            words = grouped(p.words),
            seconds = fixed(p.seconds, 2),
            speed = grouped(p.words_per_second().round() as usize),
            loss = fixed(p.loss, 3)
        ),
        Run::Failed(why) => t!("word2vec-scale-stopped", why = why),
    };
    let corpus_note = move || {
        corpus.with(|c| match c {
            Corpus::Loading => t!("word2vec-scale-loading"),
            Corpus::Loaded(text) => t!(
                "word2vec-scale-corpus",
                sentences = grouped(text.lines().count()),
                kb = grouped(text.len().div_ceil(1000))
            ),
            Corpus::Failed(why) => why.clone(),
        })
    };
    let compared = move || {
        let (Some(r), Some(p)) = (reference.clone(), run.with(Run::progress)) else {
            return None;
        };
        let this = p.words_per_second();
        let rows = [
            (t!("word2vec-scale-this-browser"), this),
            (r.gensim.by.clone(), r.gensim.words_per_second),
            (r.torch.by.clone(), r.torch.words_per_second),
        ];
        let same = r.matches(&settings());
        Some(view! {
            <table class="w2v-speeds">
                <caption>{t!("word2vec-scale-speeds", dim = r.dim, window = r.window, negatives = r.negatives, epochs = r.epochs)}</caption>
                <thead><tr><th scope="col">{t!("word2vec-scale-trained-by")}</th><th scope="col">{t!("word2vec-scale-words-per-second")}</th><th scope="col">{t!("word2vec-scale-of-gensim")}</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(by, wps)| view! {
                        <tr><th scope="row">{by}</th><td>{grouped(wps.round() as usize)}</td><td>{format!("{}%", fixed(100.0 * wps / r.gensim.words_per_second, 0))}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            <p class="hint">
                {t!("word2vec-scale-timed", machine = &r.machine)}
                {(!same).then(|| t!("word2vec-scale-not-like"))}
            </p>
        })
    };
    let near = Signal::derive(move || {
        run.with(|r| match r {
            Run::Trained { words, table, .. } => {
                let w = word.get().trim().to_ascii_lowercase();
                words.iter().position(|x| *x == w).map(|i| neighbours(table, words, i, 5)).unwrap_or_default()
            }
            _ => Vec::new(),
        })
    });
    let trained_words = move || run.with(|r| matches!(r, Run::Trained { .. }));

    view! {
            <p>
                {t!("word2vec-scale-intro")}
                <code>"in_embed"</code> {t!("word2vec-scale-intro-from")} <code>"(torch.rand(V, D) - 0.5) / D"</code> {t!("word2vec-scale-intro-and")} <code>"out_embed"</code> {t!("word2vec-scale-intro-zeros")}
            </p>
            <p class="hint">
                {corpus_note}
                {move || corpus.with(|c| matches!(c, Corpus::Failed(_))).then(|| view! {
                    " " <button type="button" on:click=move |_| load()>{t!("word2vec-try-again")}</button>
                })}
            </p>
            <div class="w2v-scale-controls">
                <span>{move || t!("word2vec-scale-settings", method = if cbow.get() { "CBOW" } else { "skip-gram" })}</span>
                <label>
                    {t!("word2vec-scale-epochs")}
                    <select
                        prop:value=move || epochs.get().to_string()
                        on:change=move |ev| epochs.set(event_target_value(&ev).parse().unwrap_or(EPOCHS[0]))
                        disabled=busy
                    >
                        {EPOCHS.iter().map(|e| view! { <option value=e.to_string()>{e.to_string()}</option> }).collect_view()}
                    </select>
                </label>
                {move || match busy.get() {
                    false => view! { <button type="button" class="w2v-train" on:click=start disabled=move || !loaded()>{t!("word2vec-scale-train")}</button> }.into_any(),
                    true => view! { <button type="button" class="w2v-cancel" on:click=cancel>{t!("word2vec-scale-cancel")}</button> }.into_any(),
                }}
            </div>
            <div class="w2v-scale-status" role="status">
                {move || busy.get().then(|| view! {
                    <progress max=move || done().1.to_string() value=move || done().0.to_string()></progress>
                })}
                <span>{status}</span>
            </div>
            {compared}
            {move || trained_words().then(|| view! {
                <Neighbours title=Signal::derive(move || t!("word2vec-scale-nearest", word = word.get())) near=near class="near-scale" />
                {move || near.with(Vec::is_empty).then(|| view! { <p class="hint">{t!("word2vec-scale-not-in-corpus")}</p> })}
            })}
    }
}
