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
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| "the network is unreachable".to_string())?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("the server answered {}", response.status()));
    }
    let text = response.text().map_err(|_| "its text could not be read".to_string())?;
    JsFuture::from(text).await.ok().and_then(|t| t.as_string()).ok_or_else(|| "its text could not be read".to_string())
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
                text.map_or_else(|why| Corpus::Failed(format!("The corpus did not load: {why}.")), Corpus::Loaded),
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
                        None => Run::Failed("the trainer sent back a table of the wrong size".into()),
                    },
                    Ok(Report::Refused(why)) => Run::Failed(why),
                    Err(e) => Run::Failed(format!("the trainer said something unexpected: {e}")),
                }
            });
        };
        let on_error = move |why: String| {
            run.try_set(Run::Failed(format!("the trainer stopped: {why}")));
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
        Run::Reading => "Reading the corpus in the worker…".into(),
        Run::Training(p) => format!(
            "{} of {} words, {} words/s, loss {}",
            grouped(p.words),
            grouped(p.of),
            grouped(p.words_per_second().round() as usize),
            fixed(p.loss, 3)
        ),
        Run::Cancelled(p) => match p {
            Some(p) => format!("Cancelled after {} of {} words.", grouped(p.words), grouped(p.of)),
            None => "Cancelled.".into(),
        },
        Run::Trained { progress: p, .. } => format!(
            "Trained: {} words in {} s, {} words/s; the last pairs' loss {}.",
            grouped(p.words),
            fixed(p.seconds, 2),
            grouped(p.words_per_second().round() as usize),
            fixed(p.loss, 3)
        ),
        Run::Failed(why) => format!("Stopped: {why}"),
    };
    let corpus_note = move || {
        corpus.with(|c| match c {
            Corpus::Loading => "Loading the corpus…".to_string(),
            Corpus::Loaded(text) => format!(
                "Corpus: {} sentences, {} KB, made by tools/time_word2vec.py from the scene's two topics and its words of praise and of complaint.",
                grouped(text.lines().count()),
                grouped(text.len().div_ceil(1000))
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
            ("this browser, the trainer worker".to_string(), this),
            (r.gensim.by.clone(), r.gensim.words_per_second),
            (r.torch.by.clone(), r.torch.words_per_second),
        ];
        let same = r.matches(&settings());
        Some(view! {
            <table class="w2v-speeds">
                <caption>{format!("Words per second, skip-gram, D = {}, window {}, {} negatives, {} epoch{}", r.dim, r.window, r.negatives, r.epochs, if r.epochs == 1 { "" } else { "s" })}</caption>
                <thead><tr><th scope="col">"trained by"</th><th scope="col">"words/s"</th><th scope="col">"of gensim's"</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(by, wps)| view! {
                        <tr><th scope="row">{by}</th><td>{grouped(wps.round() as usize)}</td><td>{format!("{}%", fixed(100.0 * wps / r.gensim.words_per_second, 0))}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            <p class="hint">
                {format!("gensim (one worker thread) and PyTorch (one thread) were timed on {} by tools/time_word2vec.py on the same corpus and work.", r.machine)}
                {(!same).then_some(" This run is not that work (CBOW, or more epochs): its words per second are not like for like.")}
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
                "The same loss on a corpus a thousand times larger, trained the way word2vec.c and gensim train it: "
                "one SGD step per pair as soon as its gradient is known, the learning rate falling from 0.025 to 0.0001, "
                <code>"in_embed"</code> " from " <code>"(torch.rand(V, D) - 0.5) / D"</code> " and " <code>"out_embed"</code> " zeros. "
                "It runs in a Web Worker, so the page stays free while it trains."
            </p>
            <p class="hint">
                {corpus_note}
                {move || corpus.with(|c| matches!(c, Corpus::Failed(_))).then(|| view! {
                    " " <button type="button" on:click=move |_| load()>"Try again"</button>
                })}
            </p>
            <div class="w2v-scale-controls">
                <span>{move || format!("{}, D = 100, window 5, 5 negatives", if cbow.get() { "CBOW" } else { "skip-gram" })}</span>
                <label>
                    "Epochs "
                    <select
                        prop:value=move || epochs.get().to_string()
                        on:change=move |ev| epochs.set(event_target_value(&ev).parse().unwrap_or(EPOCHS[0]))
                        disabled=busy
                    >
                        {EPOCHS.iter().map(|e| view! { <option value=e.to_string()>{e.to_string()}</option> }).collect_view()}
                    </select>
                </label>
                {move || match busy.get() {
                    false => view! { <button type="button" class="w2v-train" on:click=start disabled=move || !loaded()>"Train"</button> }.into_any(),
                    true => view! { <button type="button" class="w2v-cancel" on:click=cancel>"Cancel"</button> }.into_any(),
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
                <Neighbours title=Signal::derive(move || format!("Nearest to “{}” after training at scale", word.get())) near=near class="near-scale" />
                {move || near.with(Vec::is_empty).then_some(view! { <p class="hint">"That word is not in this corpus: choose one of its words above (great, awful, film, soup…)."</p> })}
            })}
    }
}
