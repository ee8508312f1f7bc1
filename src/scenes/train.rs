//! The Train scene: the fastai `DotProduct` recommender learning from a tiny ratings table by SGD.
//! The learner steps once or many times and watches the loss curve fall, the rated rows move
//! (and only them), the factors drift on a scatter plot, and the gradient flow back on the
//! timeline.

use crate::code_panel::CodePanel;
use crate::field::Field;
use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::issue_list::IssueList;
use crate::pass_toggle::PassToggle;
use crate::presets::Presets;
use crate::seed_field::SeedField;
use crate::share_panel::SharePanel;
use crate::storage::{change, on_cell, on_preset, use_scene};
use crate::timeline::Timeline;
use leptos::prelude::*;
use rowflow_core::codegen;
use rowflow_core::format::{full, short};
use rowflow_core::ops::find;
use rowflow_core::scene::train::{Computed, Point, State, PRESETS};
use rowflow_core::scene::Issue;
use rowflow_core::Phase;

const USERS: &str = "user_factors.weight";
const MOVIES: &str = "movie_factors.weight";

/// The loss curve draws a point (with its value) for at most this many steps.
const CURVE_POINTS: usize = 200;

#[component]
pub fn TrainScene() -> impl IntoView {
    let scene = use_scene::<State>("rowflow.train");
    let state = scene.state;
    let computed = Memo::new(move |_| state.with(State::compute));
    let playhead = RwSignal::new(0usize);
    let pass = RwSignal::new(Phase::Forward);
    let focus = RwSignal::new(None::<Vec<usize>>);
    let notice = RwSignal::new(None::<String>);
    let n = RwSignal::new("20".to_string());

    let edit = move |tensor: &'static str| on_cell(state, move |s, i, t| s.edit(tensor, i, t));
    let paste = move |tensor: &'static str| on_cell(state, move |s, i, t| s.paste(tensor, i, t));
    let pick = on_preset(state, State::preset, move || {
        playhead.set(0);
        focus.set(None);
    });
    let preset = Signal::derive(move || state.with(|s| s.preset.clone()));

    // The timeline plays the forward or the backward trace.
    let marks = Memo::new(move |_| {
        computed.with(|c| match pass.get() {
            Phase::Forward => c.forward.marks_at(playhead.get()),
            Phase::Backward => c.backward.marks_at(playhead.get()),
        })
    });
    let len = Signal::derive(move || {
        computed.with(|c| match pass.get() {
            Phase::Forward => c.forward.len(),
            Phase::Backward => c.backward.len(),
        })
    });
    let describe = Signal::derive(move || computed.with(|c| describe(c, pass.get(), playhead.get())));
    Effect::new(move |_| {
        pass.track();
        playhead.set(0);
    });

    let issues_of = move |tensor: &'static str| {
        Signal::derive(move || {
            computed.with(|c| {
                let pinned = c.issues.iter().filter(|i| i.tensor == tensor);
                pinned.filter_map(|i| Some((i.cell?, message(i)))).collect::<Vec<_>>()
            })
        })
    };
    let users = Memo::new(move |_| state.with(|s| GridData::floats(&s.user_factors)));
    let movies = Memo::new(move |_| state.with(|s| GridData::floats(&s.movie_factors)));
    let ratings = Memo::new(move |_| state.with(ratings_data));
    let output = Memo::new(move |_| computed.with(|c| GridData::floats(&c.output)));
    let output_grad = Memo::new(move |_| computed.with(|c| GridData::floats(&c.output_grad)));
    let grad = move |name: &'static str| {
        Memo::new(move |_| computed.with(|c| find(&c.grads, name).map(GridData::floats).unwrap_or_default()))
    };
    let (user_grad, movie_grad) = (grad(USERS), grad(MOVIES));
    let stale = Memo::new(move |_| computed.with(|c| c.stale));
    let factors = Memo::new(move |_| state.with(State::n_factors));
    // Cells of the rows the last step changed, and a fade on the rows no rating uses.
    let changed = move |rows: fn(&Computed) -> &Vec<usize>| {
        Signal::derive(move || {
            let f = factors.get();
            computed.with(|c| rows(c).iter().flat_map(|&r| r * f..(r + 1) * f).collect::<Vec<_>>())
        })
    };
    let unused = move |rows: fn(&Computed) -> &Vec<usize>| {
        Callback::new(move |index: Vec<usize>| {
            computed.with_untracked(|c| index.first().is_some_and(|r| !rows(c).contains(r)))
        })
    };
    let formula = Signal::derive(move || {
        computed.with(|c| {
            let current = (pass.get() == Phase::Forward)
                .then(|| playhead.get().checked_sub(1).filter(|&k| k < c.forward.len()).map(|k| vec![k]))
                .flatten();
            focus.get().or(current).and_then(|index| c.formula("output", &index))
        })
    });
    let loss_text = move || {
        computed.with(|c| match c.loss {
            Some(l) => format!("loss = {}", short(l)),
            None => "loss: PyTorch raises on the current ratings".to_string(),
        })
    };
    let captions = move || computed.with(|c| c.captions.iter().map(|t| view! { <li>{t.clone()}</li> }).collect_view());
    let other_issues = Signal::derive(move || {
        computed.with(|c| c.issues.iter().filter(|i| i.tensor != "lr").cloned().collect::<Vec<_>>())
    });

    view! {
        <section class="scene train" aria-labelledby="train-title">
            <header class="scene-head">
                <h1 id="train-title">"Training the DotProduct recommender"</h1>
                <Presets presets=PRESETS current=preset on_pick=pick />
                <SharePanel scene=scene />
            </header>
            <p class="lede">
                "Each user and each movie is a row of random numbers: "
                <code>"torch.manual_seed(S)"</code>
                ", then every entry drawn from normal(0, 1). A rating is predicted as the dot product of the user's row and the movie's row. "
                "Each SGD step nudges the rows against the gradient of the MSE loss, "
                <code>"param -= lr * param.grad"</code>
                ", and only the rows the ratings use get a gradient, so only they move."
            </p>
            <p class="call">
                <code>"pred = (user_factors(x[:, 0]) * movie_factors(x[:, 1])).sum(1)"</code>
                <span class="shape-equation">{move || computed.with(|c| c.shape_equation.clone())}</span>
            </p>
            <IssueList issues=other_issues />

            <div class="train-main">
                <div class="train-left">
                    <Controls state=state computed=computed notice=notice n=n />

                    <div class="tensors train-flow">
                        <Grid
                            name="ratings"
                            data=ratings
                            on_edit=edit("ratings")
                            on_paste=paste("ratings")
                            marks=marks
                            issues=issues_of("ratings")
                        />
                        <Grid
                            name=USERS
                            data=users
                            on_edit=edit(USERS)
                            on_paste=paste(USERS)
                            marks=marks
                            changed=changed(|c| &c.changed_users)
                            dim=unused(|c| &c.touched_users)
                        />
                        <Grid
                            name=MOVIES
                            data=movies
                            on_edit=edit(MOVIES)
                            on_paste=paste(MOVIES)
                            marks=marks
                            issues=issues_of(MOVIES)
                            changed=changed(|c| &c.changed_movies)
                            dim=unused(|c| &c.touched_movies)
                        />
                        <div class="train-output" class:stale=stale>
                            <Grid
                                name="output"
                                data=output
                                marks=marks
                                on_focus=Callback::new(move |i: Vec<usize>| focus.set(Some(i)))
                            />
                            <p class="loss" role="status" aria-label="Loss">{loss_text}</p>
                            {move || stale.get().then(|| view! {
                                <p class="stale-note">
                                    "PyTorch raises on the current ratings, so these are the last predictions that ran."
                                </p>
                            })}
                        </div>
                    </div>
                    <p class="hint moved-note">
                        "Outlined cells moved in the last step. Faded rows belong to users or movies no rating uses: their gradient is zero, so SGD never moves them."
                    </p>

                </div>
                <div class="train-charts">
                    <LossCurve computed=computed />
                    {move || (factors.get() == 2).then(|| view! { <Scatter computed=computed /> })}
                </div>

            </div>

            <details class="train-grads" open=move || pass.get() == Phase::Backward>
                <summary>"Gradients of the current step"</summary>
                <div class="tensors">
                    <Grid name="output.grad" data=output_grad marks=marks />
                    <Grid name="user_factors.weight.grad" data=user_grad marks=marks />
                    <Grid name="movie_factors.weight.grad" data=movie_grad marks=marks />
                </div>
                <p class="hint">
                    "output.grad = 2·(output − rating)/R; each rating adds output.grad[b]·movie row into its user's gradient row, and output.grad[b]·user row into its movie's."
                </p>
            </details>

            <div class="train-explain">
                <div>
                    <h2>"Where a prediction comes from"</h2>
                    <FormulaView formula=formula />
                    {move || formula.with(Option::is_none).then(|| view! {
                        <p class="hint">"Click a prediction in output, or step the forward animation, to see its sum of products."</p>
                    })}
                </div>
                <ul class="captions">{captions}</ul>
            </div>

            <div class="train-timeline">
                <PassToggle pass=pass />
                <Timeline len=len playhead=playhead describe=describe />
            </div>
            <CodePanel code=Signal::derive(move || state.with(|s| codegen::train(s, n.get().trim().parse().unwrap_or(20)))) />
        </section>
    }
}

/// The ratings as a `(R, 3)` table: user and movie ids, then the rating.
fn ratings_data(s: &State) -> GridData {
    let mut d = GridData { shape: vec![s.ratings.len(), 3], ..GridData::default() };
    for r in &s.ratings {
        let ids = [r.user.to_string(), r.movie.to_string()];
        d.short.extend(ids.iter().cloned().chain([short(r.rating)]));
        d.full.extend(ids.into_iter().chain([full(r.rating)]));
        d.values.extend([r.user as f32, r.movie as f32, r.rating]);
    }
    d
}

/// The timeline's words for the current step of the chosen pass.
fn describe(c: &Computed, pass: Phase, playhead: usize) -> String {
    let trace = if pass == Phase::Forward { &c.forward } else { &c.backward };
    let n = trace.len();
    if n == 0 {
        return "Nothing to play: PyTorch raises on the current ratings.".into();
    }
    let Some(step) = playhead.checked_sub(1).and_then(|k| trace.steps.get(k)) else {
        return match pass {
            Phase::Forward => format!("Forward: {n} steps, one per rating. Press Step forward to start."),
            Phase::Backward => {
                format!("Backward: {n} steps, from the last rating back to the first. Press Step forward to start.")
            }
        };
    };
    let reads: Vec<String> = step.reads.iter().map(|s| s.to_string()).collect();
    let writes: Vec<String> = step.writes.iter().map(|s| s.to_string()).collect();
    match pass {
        Phase::Forward => format!(
            "Forward step {playhead} of {n}: {} = ({} * {}).sum() for {}",
            writes.join(", "),
            reads.get(1).cloned().unwrap_or_default(),
            reads.get(2).cloned().unwrap_or_default(),
            reads.first().cloned().unwrap_or_default(),
        ),
        Phase::Backward => format!(
            "Backward step {playhead} of {n}: {} · {} is added into {}, and {} · {} into {}",
            reads.first().cloned().unwrap_or_default(),
            reads.get(2).cloned().unwrap_or_default(),
            writes.first().cloned().unwrap_or_default(),
            reads.first().cloned().unwrap_or_default(),
            reads.get(1).cloned().unwrap_or_default(),
            writes.get(1).cloned().unwrap_or_default(),
        ),
    }
}

/// PyTorch's error, then the plain-words hint.
fn message(i: &Issue) -> String {
    format!("{} — {}", i.error, i.hint)
}

/// Step, run, undo, reset; lr, seed and sizes. `n` is the "Run N steps" count as typed (the
/// PyTorch panel runs as many).
#[component]
fn Controls(
    state: RwSignal<State>,
    computed: Memo<Computed>,
    notice: RwSignal<Option<String>>,
    n: RwSignal<String>,
) -> impl IntoView {
    let act = move |f: fn(&mut State, usize) -> Result<(), String>| {
        move |_| {
            let count = n.get_untracked().trim().parse::<usize>();
            let result = match count {
                Ok(k) => change(state, |s| f(s, k)),
                Err(_) => Err(format!("N must be a whole number ≥ 0, not {:?}", n.get_untracked())),
            };
            notice.set(result.err());
        }
    };
    let field = move |set: fn(&mut State, &str) -> Result<(), String>| {
        Callback::new(move |text: String| change(state, |s| set(s, &text)))
    };
    let shown = move |get: fn(&State) -> String| Signal::derive(move || state.with(get));
    let lr_issue = Signal::derive(move || computed.with(|c| c.issues.iter().find(|i| i.tensor == "lr").map(message)));
    let reseed = Callback::new(move |seed: String| change(state, |s| s.reinit(&seed)));
    let steps = move || state.with(|s| s.losses.len());
    let can_undo = move || state.with(|s| !s.history.is_empty());
    view! {
        <div class="train-controls controls">
            <fieldset class="train-steps">
                <legend>"SGD"</legend>
                <button type="button" class="primary" on:click=act(|s, _| s.step().map(|_| ()))>"Step"</button>
                <span class="run">
                    <button type="button" on:click=act(|s, k| s.run(k).map(|_| ()))>"Run N steps"</button>
                    <label class="field">
                        <code>"N"</code>
                        " "
                        <input
                            type="text"
                            size="4"
                            inputmode="numeric"
                            aria-label="N"
                            prop:value=move || n.get()
                            on:input=move |ev| n.set(event_target_value(&ev))
                        />
                    </label>
                </span>
                <button type="button" disabled=move || !can_undo() on:click=act(|s, _| s.undo())>"Undo"</button>
                <button type="button" on:click=act(|s, _| s.reset())>"Reset"</button>
                <Field label="lr" value=shown(|s| s.lr.clone()) on_commit=field(State::set_lr) issue=lr_issue />
                <output class="step-count" aria-label="Steps taken">{move || format!("steps: {}", steps())}</output>
                {move || notice.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            </fieldset>
            <fieldset>
                <legend>"Model"</legend>
                <Field label="n_users" value=shown(|s| s.n_users().to_string()) on_commit=field(State::set_n_users) />
                <Field label="n_movies" value=shown(|s| s.n_movies().to_string()) on_commit=field(State::set_n_movies) />
                <Field label="n_factors" value=shown(|s| s.n_factors().to_string()) on_commit=field(State::set_n_factors) />
                <Field
                    label="ratings"
                    value=shown(|s| s.ratings.len().to_string())
                    on_commit=field(State::set_n_ratings)
                />
                <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone())) />
            </fieldset>
        </div>
    }
}

/// A point of a chart in SVG units: `v` from `lo..=hi` onto `from..=to`. In f64, as a range as
/// wide as float32's (a learner may type 3.4e38) would overflow float32 to inf / inf = NaN.
fn scale(v: f32, lo: f64, hi: f64, from: f64, to: f64) -> f64 {
    let t = if hi > lo { (f64::from(v) - lo) / (hi - lo) } else { 0.5 };
    from + if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) } * (to - from)
}

/// A chart's axis limit as a tick label: whole numbers while short, else 3.9e38.
fn tick(lim: f64) -> String {
    if lim < 1e6 {
        format!("{lim}")
    } else {
        format!("{lim:.1e}")
    }
}

/// The loss after each step (measured before its update), then the current loss.
#[component]
fn LossCurve(computed: Memo<Computed>) -> impl IntoView {
    const W: f64 = 360.0;
    const H: f64 = 200.0;
    const L: f64 = 48.0;
    const B: f64 = 28.0;
    let chart = move || {
        computed.with(|c| {
            let losses: Vec<f32> = c.loss_curve.clone();
            let finite: Vec<f32> = losses.iter().copied().filter(|x| x.is_finite()).collect();
            let hi = finite.iter().copied().fold(f32::NEG_INFINITY, f32::max).max(0.0);
            let hi = if hi > 0.0 { hi } else { 1.0 };
            let last = losses.len().saturating_sub(1).max(1);
            let x = move |k: usize| L + (W - L - 10.0) * k as f64 / last as f64;
            let y = move |v: f32| scale(v, 0.0, f64::from(hi), H - B, 10.0);
            let line: Vec<String> = losses
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(|(k, &v)| format!("{:.1},{:.1}", x(k), y(v)))
                .collect();
            let every = losses.len().div_ceil(CURVE_POINTS).max(1);
            let points = losses
                .iter()
                .enumerate()
                .filter(|(k, _)| k % every == 0 || *k + 1 == losses.len())
                .map(|(k, &v)| {
                    let (cx, cy) = (x(k), if v.is_finite() { y(v) } else { 10.0 });
                    let now = k + 1 == losses.len();
                    view! {
                        <circle class="loss-point" class:now=now cx=format!("{cx:.1}") cy=format!("{cy:.1}") r=if now { "4.5" } else { "3" } data-step=k>
                            <title>{format!("step {k}: {}", short(v))}</title>
                        </circle>
                    }
                })
                .collect_view();
            view! {
                <line class="axis" x1=L y1=H - B x2=W - 10.0 y2=H - B />
                <line class="axis" x1=L y1=10.0 x2=L y2=H - B />
                <text class="tick" x=L - 6.0 y=H - B + 4.0 text-anchor="end">"0"</text>
                <text class="tick" x=L - 6.0 y=14.0 text-anchor="end">{short(hi)}</text>
                <text class="tick" x=L y=H - 8.0 text-anchor="middle">"0"</text>
                <text class="tick" x=W - 10.0 y=H - 8.0 text-anchor="end">{format!("step {}", losses.len().saturating_sub(1))}</text>
                <polyline class="loss-line" points=line.join(" ") />
                {points}
            }
        })
    };
    let now = move || {
        computed.with(|c| match c.loss {
            Some(l) => format!("now {} at step {}", short(l), c.loss_curve.len().saturating_sub(1)),
            None => "no current loss: PyTorch raises".to_string(),
        })
    };
    view! {
        <figure class="chart loss-curve">
            <figcaption>"Loss curve " <span class="now-loss">{now}</span></figcaption>
            <svg role="img" aria-label="Loss curve" viewBox=format!("0 0 {W} {H}") width=W height=H>
                {chart}
            </svg>
        </figure>
    }
}

/// Users (circles) and movies (squares) at (factor 0, factor 1).
#[component]
fn Scatter(computed: Memo<Computed>) -> impl IntoView {
    const S: f64 = 340.0;
    const PAD: f64 = 18.0;
    let plot = move || {
        computed.with(|c| {
            let reach = c.scatter.iter().flat_map(|p| [p.x.abs(), p.y.abs()]).filter(|v| v.is_finite()).fold(1.0, f32::max);
            let lim = (f64::from(reach) * 1.15).ceil();
            let at = move |p: &Point| {
                let x = if p.x.is_finite() { scale(p.x, -lim, lim, PAD, S - PAD) } else { S / 2.0 };
                let y = if p.y.is_finite() { scale(p.y, -lim, lim, S - PAD, PAD) } else { S / 2.0 };
                (x, y)
            };
            let touched = |p: &Point| {
                let id = p.name.rsplit(' ').next().and_then(|i| i.parse::<usize>().ok());
                let rows = if p.user { &c.touched_users } else { &c.touched_movies };
                id.is_some_and(|i| rows.contains(&i))
            };
            let mid = S / 2.0;
            let spots: Vec<(f64, f64)> = c.scatter.iter().map(at).collect();
            let names: Vec<&str> = c.scatter.iter().map(|p| p.name.as_str()).collect();
            let labels = place_labels(&spots, &names, S);
            let points = c
                .scatter
                .iter()
                .zip(spots.iter().zip(labels))
                .map(|(p, (&(x, y), (lx, ly, anchor)))| {
                    let title = format!("{}: ({}, {})", p.name, short(p.x), short(p.y));
                    let shape = if p.user {
                        view! { <circle cx=format!("{x:.1}") cy=format!("{y:.1}") r="5"><title>{title}</title></circle> }
                            .into_any()
                    } else {
                        view! {
                            <rect x=format!("{:.1}", x - 4.5) y=format!("{:.1}", y - 4.5) width="9" height="9">
                                <title>{title}</title>
                            </rect>
                        }
                        .into_any()
                    };
                    view! {
                        <g class="pt" class:user=p.user class:movie=!p.user class:unused=!touched(p)>
                            {shape}
                            <text x=format!("{lx:.1}") y=format!("{ly:.1}") text-anchor=anchor>{p.name.clone()}</text>
                        </g>
                    }
                })
                .collect_view();
            view! {
                <line class="axis" x1=PAD y1=mid x2=S - PAD y2=mid />
                <line class="axis" x1=mid y1=PAD x2=mid y2=S - PAD />
                <text class="tick" x=S - PAD y=mid + 12.0 text-anchor="end">{tick(lim)}</text>
                <text class="tick" x=mid + 4.0 y=PAD + 2.0>{tick(lim)}</text>
                {points}
            }
        })
    };
    view! {
        <figure class="chart scatter">
            <figcaption>"Factors: x = factor 0, y = factor 1"<br />"● user, ■ movie; faded: never rated"</figcaption>
            <svg role="img" aria-label="Factors" viewBox=format!("0 0 {S} {S}") width=S height=S>
                {plot}
            </svg>
        </figure>
    }
}

/// Where each point's label goes (x, baseline, anchor) so that no two labels overlap and none
/// covers a point, where a spot allows it: each label tries the corners around its point, then
/// rows further out, and takes the first free one (or the least covered).
fn place_labels(points: &[(f64, f64)], names: &[&str], size: f64) -> Vec<(f64, f64, &'static str)> {
    // An 11px monospace label's box: 6.625px a character, from 10px above the baseline to 3 below.
    const CHAR: f64 = 6.7;
    const HIGH: f64 = 13.0;
    const ABOVE: f64 = 10.0;
    type Rect = (f64, f64, f64, f64);
    let overlap = |a: Rect, b: Rect| {
        let w = (a.0 + a.2).min(b.0 + b.2) - a.0.max(b.0);
        let h = (a.1 + a.3).min(b.1 + b.3) - a.1.max(b.1);
        if w > 0.0 && h > 0.0 {
            w * h
        } else {
            0.0
        }
    };
    let marks: Vec<Rect> = points.iter().map(|&(x, y)| (x - 5.0, y - 5.0, 10.0, 10.0)).collect();
    let mut placed: Vec<Rect> = Vec::new();
    let mut out = Vec::new();
    for (k, (&(x, y), name)) in points.iter().zip(names).enumerate() {
        let w = CHAR * name.chars().count() as f64;
        let mut best = (f64::MAX, (x + 7.0, y - 6.0, "start"));
        'search: for ring in 0..4 {
            let up = -6.0 - (HIGH + 1.0) * ring as f64;
            let down = 14.0 + (HIGH + 1.0) * ring as f64;
            for (dx, dy, anchor) in [(7.0, up, "start"), (7.0, down, "start"), (-7.0, up, "end"), (-7.0, down, "end")] {
                let (lx, base) = (x + dx, y + dy);
                let left = if anchor == "end" { lx - w } else { lx };
                let rect = (left, base - ABOVE, w, HIGH);
                let outside = if left < 0.0 || left + w > size || rect.1 < 0.0 || base > size { 1e6 } else { 0.0 };
                let others = marks.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, m)| overlap(rect, *m));
                let cost = outside + placed.iter().map(|p| overlap(rect, *p)).sum::<f64>() + others.sum::<f64>();
                if cost < best.0 {
                    best = (cost, (lx, base, anchor));
                }
                if cost == 0.0 {
                    break 'search;
                }
            }
        }
        let (lx, base, anchor) = best.1;
        let left = if anchor == "end" { lx - w } else { lx };
        placed.push((left, base - ABOVE, w, HIGH));
        out.push(best.1);
    }
    out
}
