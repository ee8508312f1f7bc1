use crate::field::Field;
use crate::runner::Progress;
use leptos::prelude::*;
use rowflow_core::format::short;
use rowflow_core::scene::contract::Edit;

/// The learning controls every scene shares: the loss that starts backward (`sum` of the output,
/// or `mse` against an editable target, unless the scene's model fixes it), its value, and SGD
/// with a learning rate: one step or N, a step counter, undo and reset. Every control is an
/// [`Edit`] but N steps, which may take many tasks; a refusal shows beside the controls.
#[component]
pub fn LearnPanel(
    apply: Callback<Edit, Result<(), String>>,
    /// Runs N steps.
    run: Callback<usize, Result<(), String>>,
    /// Where N steps stand while they outlast a task, with Cancel; how the last such run ended
    /// early.
    #[prop(into)]
    progress: Signal<Option<Progress>>,
    #[prop(into)] said: Signal<Option<String>>,
    on_cancel: Callback<()>,
    /// The loss the scene's model always uses, shown instead of the choice.
    fixed_loss: Option<&'static str>,
    #[prop(into)] mse: Signal<bool>,
    /// The loss value, `None` while the output can't be computed.
    #[prop(into)]
    loss: Signal<Option<f32>>,
    #[prop(into)] lr: Signal<String>,
    #[prop(into)] steps: Signal<usize>,
    #[prop(into)] can_undo: Signal<bool>,
    /// "Run N steps" as typed: the PyTorch panel runs as many.
    n: RwSignal<String>,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let of = Memo::new(move |_| progress.get().map(|p| p.of));
    let done = move || progress.get().map_or(0, |p| p.done);
    let act = move |edit: fn() -> Edit| move |_| error.set(apply.run(edit()).err());
    let run_n = move |_| {
        let result = match n.get_untracked().trim().parse::<usize>() {
            Ok(steps) => run.run(steps),
            Err(_) => Err(t!("learn-n-invalid", typed = format!("{:?}", n.get_untracked()))),
        };
        error.set(result.err());
    };
    let choice = move || {
        match fixed_loss {
        Some(loss) => view! { <span class="flag">"loss = "<code>{loss}</code></span> }.into_any(),
        None => view! {
            <label class="flag">
                "loss = "
                <select aria-label=t!("learn-loss") on:change=move |ev| error.set(apply.run(Edit::Loss { mse: event_target_value(&ev) == "mse" }).err())>
                    <option value="sum" selected=move || !mse.get()>"output.sum()"</option>
                    <option value="mse" selected=move || mse.get()>"F.mse_loss(output, target)"</option>
                </select>
            </label>
        }
        .into_any(),
    }
    };
    view! {
        <fieldset class="learn-panel">
            <legend>{t!("learn-legend")}</legend>
            {choice}
            <output class="loss-value" aria-label=t!("learn-loss-value")>
                {move || loss.get().map_or_else(|| t!("learn-loss-none"), |v| t!("learn-loss-is", value = short(v)))}
            </output>
            <Field label="lr" value=lr on_commit=Callback::new(move |text| apply.run(Edit::Lr { text })) />
            <button type="button" class="primary" on:click=act(|| Edit::Step)>{t!("learn-sgd-step")}</button>
            <span class="run">
                <button type="button" on:click=run_n>{t!("learn-run-n")}</button>
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
            <button type="button" disabled=move || !can_undo.get() on:click=act(|| Edit::Undo)>{t!("learn-undo")}</button>
            <button type="button" on:click=act(|| Edit::Reset)>{t!("learn-reset")}</button>
            // An <output> (a status): a name on a plain span may be read instead of its count.
            <output class="step-count" aria-label=t!("learn-steps-taken")>{move || t!("learn-step-count", steps = steps.get())}</output>
            // Said once when a run outlasts a task (a status read out on every slice would
            // be read out dozens of times); the count beside the bar is not a live region.
            {move || of.get().map(|of| view! {
                <span class="run-progress">
                    <span role="status">{t!("learn-running", steps = of)}</span>
                    <progress aria-label=t!("learn-run-progress") max=of.to_string() value=move || done().to_string()></progress>
                    <span class="run-count">{move || t!("learn-run-count", done = done(), steps = of)}</span>
                    <button type="button" on:click=move |_| on_cancel.run(())>{t!("learn-cancel")}</button>
                </span>
            })}
            {move || said.get().map(|s| view! { <span class="run-said" role="status">{s}</span> })}
            {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </fieldset>
    }
}
