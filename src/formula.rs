use leptos::prelude::*;
use rowflow_core::format::short;
use rowflow_core::scene::{Factor, Formula};

/// At most this many products are written out; the rest are summarised in words.
const SHOWN: usize = 8;

/// At most this many terms a line, and about this many characters of names, so a long sum wraps
/// instead of scrolling sideways.
const PER_LINE: usize = 4;
const LINE_CHARS: usize = 100;

/// Terms per line for this formula's names: fewer when they are long (`weight_ih_l1_reverse`);
/// its numbers are short and keep `PER_LINE`.
fn per_line(f: &Formula) -> usize {
    let longest = f.products.iter().map(|(a, b)| a.name.chars().count() + b.name.chars().count() + 3).max();
    (LINE_CHARS / longest.unwrap_or(1).max(1)).clamp(1, PER_LINE)
}

/// One output cell's computation as MathML: the names, then the numbers, then the value:
/// `output[0, 3] = input[0, 0]·weight[3, 0] + … + bias[3]`, `= 0.1200·(−0.2000) + … `, `= 0.4321`.
#[component]
pub fn FormulaView(#[prop(into)] formula: Signal<Option<Formula>>) -> impl IntoView {
    move || {
        formula.get().map(|f| {
            let (shown, note) = visible(&f);
            let named = |x: &Factor| view! { <mi>{x.name.clone()}</mi> }.into_any();
            let mut rows = lines(&f, &shown, per_line(&f), named, Some(&f.target));
            rows.extend(lines(&f, &shown, PER_LINE, |x| number(x.value), None));
            rows.push(
                view! { <mtr><mtd><mrow><mo>"="</mo><mn class="result">{short(f.value)}</mn></mrow></mtd></mtr> }
                    .into_any(),
            );
            view! {
                <figure class="formula" aria-label=t!("formula-label") tabindex="0">
                    <math display="block">
                        <mtable columnalign="left">{rows}</mtable>
                    </math>
                    {note.map(|n| view! { <figcaption>{n}</figcaption> })}
                </figure>
            }
        })
    }
}

/// The products written out, and a note for the ones left out (zeros first, as in a one-hot).
fn visible(f: &Formula) -> (Vec<usize>, Option<String>) {
    let listed = f.products.len();
    let n = listed + f.zeros;
    if n <= SHOWN {
        return ((0..listed).collect(), None);
    }
    let nonzero: Vec<usize> = (0..listed).filter(|&k| f.products[k].0.value * f.products[k].1.value != 0.0).collect();
    let shown: Vec<usize> = nonzero.iter().copied().take(SHOWN).collect();
    let zeros = n - nonzero.len();
    let rest = nonzero.len() - shown.len();
    let mut parts = Vec::new();
    if zeros > 0 {
        parts.push(t!("formula-zeros", products = zeros));
    }
    if rest > 0 {
        parts.push(t!("formula-rest", products = rest));
    }
    let parts = match &parts[..] {
        [a, b] => t!("formula-parts", first = a, second = b),
        _ => parts.concat(),
    };
    (shown, Some(t!("formula-note", products = n, parts = parts)))
}

/// `func( a·b + … + c )` with each factor drawn by `show`, as table rows of `per` terms; the
/// first row starts with `target =` (or a bare `=`).
fn lines(
    f: &Formula,
    shown: &[usize],
    per: usize,
    show: impl Fn(&Factor) -> AnyView,
    target: Option<&str>,
) -> Vec<AnyView> {
    let mut terms: Vec<AnyView> = shown
        .iter()
        .map(|&k| {
            let (a, b) = &f.products[k];
            view! { <mrow>{show(a)}<mo>"·"</mo>{show(b)}</mrow> }.into_any()
        })
        .collect();
    if shown.len() < f.products.len() + f.zeros {
        terms.push(view! { <mi>"…"</mi> }.into_any());
    }
    terms.extend(f.constants.iter().map(&show));
    if terms.is_empty() {
        terms.push(view! { <mn>"0"</mn> }.into_any());
    }
    let count = terms.len();
    let mut rows = Vec::new();
    let mut terms = terms.into_iter().enumerate().peekable();
    while terms.peek().is_some() {
        let first = rows.is_empty();
        let mut items: Vec<AnyView> = Vec::new();
        if first {
            items.push(match target {
                Some(t) => view! { <mi>{t.to_string()}</mi><mo>"="</mo> }.into_any(),
                None => view! { <mo>"="</mo> }.into_any(),
            });
            items.extend(f.func.clone().map(|func| view! { <mi>{func}</mi><mo>"("</mo> }.into_any()));
        }
        for (k, term) in terms.by_ref().take(per) {
            if k > 0 {
                items.push(view! { <mo>"+"</mo> }.into_any());
            }
            items.push(term);
            if k + 1 == count && f.func.is_some() {
                items.push(view! { <mo>")"</mo> }.into_any());
            }
        }
        rows.push(view! { <mtr><mtd><mrow>{items}</mrow></mtd></mtr> }.into_any());
    }
    rows
}

/// A number as PyTorch prints it, bracketed when negative so `a·(−b)` reads right.
fn number(v: f32) -> AnyView {
    let text = short(v);
    if text.starts_with('-') {
        view! { <mrow><mo>"("</mo><mn>{text}</mn><mo>")"</mo></mrow> }.into_any()
    } else {
        view! { <mn>{text}</mn> }.into_any()
    }
}
