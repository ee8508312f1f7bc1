use crate::field::Field;
use leptos::prelude::*;
use rowflow_core::format::short;

/// The learning controls every scene shares: the loss that starts backward (`sum` of the output,
/// or `mse` against an editable target), its value, and SGD steps with a learning rate, a step
/// counter, undo and reset. Refusals show beside the control that caused them.
#[component]
pub fn LearnPanel(
    #[prop(into)] mse: Signal<bool>,
    /// The loss value, `None` while the output can't be computed.
    #[prop(into)]
    loss: Signal<Option<f32>>,
    #[prop(into)] lr: Signal<String>,
    #[prop(into)] steps: Signal<usize>,
    on_loss: Callback<bool, Result<(), String>>,
    on_lr: Callback<String, Result<(), String>>,
    on_step: Callback<(), Result<(), String>>,
    on_undo: Callback<(), Result<(), String>>,
    on_reset: Callback<(), Result<(), String>>,
) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let act = move |cb: Callback<(), Result<(), String>>| move |_| error.set(cb.run(()).err());
    view! {
        <fieldset class="learn-panel">
            <legend>"Backward and learning"</legend>
            <label class="flag">
                "loss = "
                <select
                    aria-label="Loss"
                    on:change=move |ev| error.set(on_loss.run(event_target_value(&ev) == "mse").err())
                >
                    <option value="sum" selected=move || !mse.get()>"output.sum()"</option>
                    <option value="mse" selected=move || mse.get()>"F.mse_loss(output, target)"</option>
                </select>
            </label>
            <output class="loss-value" aria-label="Loss value">
                {move || loss.get().map_or("loss: —".to_string(), |v| format!("loss = {}", short(v)))}
            </output>
            <Field label="lr" value=lr on_commit=on_lr />
            <button type="button" on:click=act(on_step)>"SGD step"</button>
            <button type="button" on:click=act(on_undo)>"Undo"</button>
            <button type="button" on:click=act(on_reset)>"Reset"</button>
            // An <output> (a status): a name on a plain span may be read instead of its count.
            <output class="step-count" aria-label="Steps taken">{move || format!("steps: {}", steps.get())}</output>
            {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </fieldset>
    }
}
