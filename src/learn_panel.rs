use crate::field::Field;
use leptos::prelude::*;
use rowflow_core::format::short;
use rowflow_core::scene::contract::Edit;

/// The learning controls every scene shares: the loss that starts backward (`sum` of the output,
/// or `mse` against an editable target, unless the scene's model fixes it), its value, and SGD
/// with a learning rate: one step or N, a step counter, undo and reset. Every control is an
/// [`Edit`]; a refusal shows beside the controls.
#[component]
pub fn LearnPanel(
    apply: Callback<Edit, Result<(), String>>,
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
    let act = move |edit: fn() -> Edit| move |_| error.set(apply.run(edit()).err());
    let run = move |_| {
        let result = match n.get_untracked().trim().parse::<usize>() {
            Ok(steps) => apply.run(Edit::Run { steps }),
            Err(_) => Err(format!("N must be a whole number ≥ 0, not {:?}", n.get_untracked())),
        };
        error.set(result.err());
    };
    let choice = move || {
        match fixed_loss {
        Some(loss) => view! { <span class="flag">"loss = "<code>{loss}</code></span> }.into_any(),
        None => view! {
            <label class="flag">
                "loss = "
                <select aria-label="Loss" on:change=move |ev| error.set(apply.run(Edit::Loss { mse: event_target_value(&ev) == "mse" }).err())>
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
            <legend>"Backward and learning"</legend>
            {choice}
            <output class="loss-value" aria-label="Loss value">
                {move || loss.get().map_or("loss: —".to_string(), |v| format!("loss = {}", short(v)))}
            </output>
            <Field label="lr" value=lr on_commit=Callback::new(move |text| apply.run(Edit::Lr { text })) />
            <button type="button" class="primary" on:click=act(|| Edit::Step)>"SGD step"</button>
            <span class="run">
                <button type="button" on:click=run>"Run N steps"</button>
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
            <button type="button" disabled=move || !can_undo.get() on:click=act(|| Edit::Undo)>"Undo"</button>
            <button type="button" on:click=act(|| Edit::Reset)>"Reset"</button>
            // An <output> (a status): a name on a plain span may be read instead of its count.
            <output class="step-count" aria-label="Steps taken">{move || format!("steps: {}", steps.get())}</output>
            {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </fieldset>
    }
}
