//! The word2vec scene: a corpus, its vocabulary and the pairs of the sentence the next step
//! trains on; skip-gram or CBOW with negative sampling on two `nn.Embedding` tables, each step
//! lighting (and moving) only the rows it reads; the same vocabulary trained by a sentence
//! classifier from three starts; both tables compared by neighbours and a PCA map; and word2vec
//! at real scale in a worker. The shell gives it its header, learning controls, timeline and
//! PyTorch panel.

mod compare;
mod corpus;
mod scale;

use crate::flag::Flag;
use crate::formula::FormulaView;
use crate::grid::{Grid, GridData, RowNames};
use crate::issue_list::IssueList;
use crate::param::Param;
use crate::seed_field::SeedField;
use crate::shell::{SceneModel, SceneShell};
use compare::{start_name, Neighbours, PcaMap, TaskCurves};
use corpus::{CorpusText, Sentence, Vocabulary};
use leptos::prelude::*;
use rowflow_core::ops::find;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::word2vec::task::Start;
use rowflow_core::scene::word2vec::{Computed, State};
use rowflow_core::Phase;
use scale::ScalePanel;

const IN: &str = "in_embed.weight";
const OUT: &str = "out_embed.weight";

#[component]
pub fn Word2VecScene() -> impl IntoView {
    let model = SceneModel::<State>::new();
    let SceneModel { state, view: computed, pass, playhead, focus, marks, .. } = model;
    let table = move |name: &'static str| {
        Memo::new(move |_| state.with(|s| GridData::floats(if name == IN { &s.in_embed } else { &s.out_embed })))
    };
    let labels = Memo::new(move |_| state.with(|s| GridData::floats(&s.labels)));
    let pos = Memo::new(move |_| computed.with(|c| GridData::floats(&c.pos)));
    let neg = Memo::new(move |_| computed.with(|c| GridData::floats(&c.neg)));
    let grad = move |name: &'static str| {
        model.grad_of(format!("{name}.grad"), move |c: &Computed| find(&c.grads, name).cloned(), None)
    };
    let score_grad = move |name: &'static str, pick: fn(&Computed) -> &rowflow_core::Tensor| {
        model.grad_of(format!("{name}.grad"), move |c: &Computed| Some(pick(c).clone()).filter(|g| g.numel() > 0), None)
    };
    // Rows the step reads: every other row is faded, its gradient 0.
    let unread = move |rows: fn(&Computed) -> &Vec<usize>| {
        Callback::new(move |index: Vec<usize>| {
            computed.with_untracked(|c| index.first().is_some_and(|r| !rows(c).contains(r)))
        })
    };
    let changed = move |rows: fn(&Computed) -> &Vec<usize>| {
        Memo::new(move |_| {
            let d = state.with(State::dim);
            computed.with(|c| rows(c).iter().flat_map(|&r| r * d..(r + 1) * d).collect::<Vec<_>>())
        })
    };
    let formula = Signal::derive(move || {
        let current = (pass.get() == Phase::Forward).then(|| playhead.get().checked_sub(1).map(|k| vec![k])).flatten();
        computed.with(|c| {
            focus.get().or(current).and_then(|index| c.formula(if index.len() == 2 { "neg" } else { "pos" }, &index))
        })
    });
    let captions =
        move || computed.with(|c| c.captions.iter().map(|t| view! { <li>{crate::l10n::say(t)}</li> }).collect_view());
    let reseed = Callback::new(move |seed: String| model.apply(Edit::Reinit { seed }));
    let start = Signal::derive(move || state.with(State::start));
    let pick_start = move |s: Start| {
        view! {
            <label class="start-choice">
                <input type="radio" name="task-start" prop:checked=move || start.get() == s on:change=move |_| { let _ = model.apply(Edit::field("start", s.id())); } />
                {start_name(s)}
            </label>
        }
    };
    let near = move |task: bool| {
        Signal::derive(move || computed.with(|c| if task { c.near_task.clone() } else { c.near_word2vec.clone() }))
    };
    let map = move |task: bool| {
        Signal::derive(move || computed.with(|c| if task { c.map_task.clone() } else { c.map_word2vec.clone() }))
    };
    let word = Signal::derive(move || state.with(|s| s.word.clone()));
    let task_title = move |pca: bool| {
        Signal::derive(move || {
            let start = start_name(start.get());
            if pca {
                t!("word2vec-pca-task", start = start)
            } else {
                t!("word2vec-near-task", start = start)
            }
        })
    };
    let fixed = |text: String| Signal::stored(text);
    // Each row of both tables is a word of the vocabulary: named before it, on a projector too.
    // A memo: the tables are built again only when the words change.
    let words = Memo::new(move |_| computed.with(|c| c.words.join("\n")));
    provide_context(RowNames { tensors: &[IN, OUT], lines: words.into() });

    view! {
        <SceneShell model=model title=t!("word2vec-title")>
            <p class="lede">
                {t!("word2vec-lede-is")} <code>"nn.Embedding"</code> {t!("word2vec-lede")}
            </p>
            <p class="call">
                <code>"loss = (-F.logsigmoid((u * v).sum(-1)) - F.logsigmoid(-(n * v.unsqueeze(1)).sum(-1)).sum(-1)).mean()"</code>
                <span class="shape-equation">{move || computed.with(|c| c.shape_equation.clone())}</span>
            </p>
            <IssueList issues=Signal::derive(move || computed.with(|c| c.issues.clone())) />

            <div class="w2v-main">
                <div class="w2v-left">
                    <div class="controls">{model.learn()}</div>
                    <div class="controls scene-settings">
                        <fieldset>
                            <legend>"word2vec"</legend>
                            <Flag checked=Signal::derive(move || state.with(|s| s.cbow)) on_toggle=model.on_flag("cbow")>
                                " " {t!("word2vec-cbow")}
                            </Flag>
                            {model.field("window", |s| s.window.to_string())}
                            {model.field("negatives", |s| s.negatives.to_string())}
                            {model.field("min_count", |s| s.min_count.to_string())}
                            {model.field("embedding_dim", |s| s.dim().to_string())}
                            <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone())) />
                        </fieldset>
                    </div>
                    <Sentence computed=computed pass=pass playhead=playhead />
                    <div class="tensors w2v-flow">
                        <Param name=IN data=table(IN) changed=changed(|c| &c.changed_in) dim=unread(|c| &c.rows_in) grad=grad(IN) />
                        <Param name=OUT data=table(OUT) changed=changed(|c| &c.changed_out) dim=unread(|c| &c.rows_out) grad=grad(OUT) />
                        <div class="w2v-scores">
                            <Grid name="pos" data=pos marks=marks on_focus=model.on_focus() grad=Some(score_grad("pos", |c| &c.pos_grad)) column=true />
                            <Grid name="neg" data=neg marks=marks on_focus=model.on_focus() grad=Some(score_grad("neg", |c| &c.neg_grad)) />
                        </div>
                    </div>
                    <p class="hint moved-note">
                        {t!("word2vec-moved-note")}
                    </p>
                </div>
                <div class="w2v-side">
                    <Vocabulary computed=computed state=state />
                    <CorpusText value=Signal::derive(move || state.with(|s| s.corpus.clone())) on_commit=model.on_field("corpus") />
                </div>
            </div>

            <div class="w2v-explain">
                <div>
                    <h2>{t!("word2vec-score-title")}</h2>
                    <FormulaView formula=formula />
                    {move || formula.with(Option::is_none).then(|| view! {
                        <p class="hint">{t!("word2vec-score-hint")}</p>
                    })}
                </div>
                <ul class="captions">{captions}</ul>
            </div>

            <section class="w2v-task" aria-labelledby="w2v-task-title">
                <h2 id="w2v-task-title">{t!("word2vec-task-title")}</h2>
                <p class="hint">
                    {t!("word2vec-task-hint-mean")} <code>"nn.Embedding"</code> {t!("word2vec-task-hint-then")} <code>"nn.Linear(D, 1)"</code>
                    {t!("word2vec-task-hint-and")} <code>"F.binary_cross_entropy_with_logits"</code> {t!("word2vec-task-hint-label")}
                    <code>"from_pretrained(w, freeze=True)"</code> {t!("word2vec-task-hint-fine-tuned")} <code>"freeze=False"</code> {t!("word2vec-task-hint-end")}
                </p>
                <div class="w2v-task-row">
                    <div class="controls scene-settings">
                        <fieldset>
                            <legend>{t!("word2vec-task-legend")}</legend>
                            {model.field("task_lr", |s| s.task_lr.clone())}
                            {model.field("task_steps", |s| s.task_steps.to_string())}
                        </fieldset>
                        <fieldset class="starts">
                            <legend>{t!("word2vec-starts-legend")}</legend>
                            {Start::ALL.into_iter().map(pick_start).collect_view()}
                        </fieldset>
                    </div>
                    <TaskCurves computed=computed />
                    // One label per line of the corpus, downwards as the lines are.
                    <Grid name="labels" data=labels on_edit=model.on_cell("labels") on_paste=model.on_paste("labels") marks=marks column=true />
                </div>
            </section>

            <section class="w2v-compare" aria-labelledby="w2v-compare-title">
                <h2 id="w2v-compare-title">{t!("word2vec-compare-title")}</h2>
                <div class="controls">{model.field("word", |s| s.word.clone())}</div>
                <div class="w2v-compare-row">
                    <Neighbours title=fixed(t!("word2vec-near-word2vec")) near=near(false) class="near-word2vec" />
                    <Neighbours title=task_title(false) near=near(true) class="near-task" />
                    <PcaMap title=fixed(t!("word2vec-pca-word2vec")) map=map(false) near=near(false) word=word class="map-word2vec" />
                    <PcaMap title=task_title(true) map=map(true) near=near(true) word=word class="map-task" />
                </div>
            </section>

            <ScalePanel cbow=Signal::derive(move || state.with(|s| s.cbow)) word=word />

            {model.timeline()}
        </SceneShell>
    }
}
