//! Each example a learner might paste, read to the right explanation, and the scene it opens
//! showing the same message.

use super::*;
use crate::scene::contract::{Scene, View};
use crate::scene::share::from_link;
use crate::ErrorKind;

fn explained(text: &str) -> Explanation {
    match explain(text) {
        Reading::Explained(e) => e,
        other => panic!("{text}: {other:?}"),
    }
}

/// The messages the scene shows in the state a link's payload holds.
fn shown<S: Scene>(payload: &str) -> Vec<String> {
    from_link::<S>(payload).unwrap().compute().issues().iter().map(|i| i.error.to_string()).collect()
}

/// The scene the explanation opens shows `e.error` beside a cell or tensor.
fn opens_failing(e: &Explanation) {
    let open = e.open.as_ref().unwrap_or_else(|| panic!("{}: no scene to open", e.error));
    let messages = match e.route {
        "linear" => shown::<crate::scene::linear::State>(open),
        "embedding" => shown::<crate::scene::embedding::State>(open),
        "rnn" => shown::<crate::scene::rnn::State>(open),
        other => panic!("no scene {other}"),
    };
    assert!(messages.contains(&e.error.to_string()), "{}: the scene shows {messages:?}", e.error);
}

#[test]
fn a_linear_message_marks_the_last_size_against_in_features() {
    let e = explained("RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)");
    assert_eq!(e.layer, "nn.Linear");
    assert_eq!(e.error.to_string(), "RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)");
    assert_eq!((e.shapes[0].dims.clone(), e.shapes[0].marked.clone()), (vec![2, 5], vec![1]));
    assert_eq!((e.shapes[1].dims.clone(), e.shapes[1].marked.clone()), (vec![10, 6], vec![1]));
    assert!(e.why.contains("5 ≠ 6"), "{}", e.why);
    assert_eq!(e.fixes[0].code, "nn.Linear(5, 10)");
    assert_eq!(e.fixes[0].gives, "x (2, 5) → output (2, 10)");
    assert_eq!(e.fixes[1].code, "x = torch.randn(2, 6)");
    opens_failing(&e);
}

#[test]
fn a_linear_line_is_run_through_the_ops_own_check() {
    let e = explained("nn.Linear(6, 10)(torch.randn(2, 5))");
    assert_eq!(e.error.to_string(), "RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)");
    let e = explained("lin = nn.Linear(6, 10, bias=False)\nlin(torch.randn(6, 2))");
    assert_eq!(e.error.to_string(), "RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (6x2 and 6x10)");
    let codes: Vec<&str> = e.fixes.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(codes, ["nn.Linear(2, 10)", "x.T", "x.reshape(-1, 6)"]);
    assert_eq!(e.fixes[1].gives, "x (2, 6) → output (2, 10)");
    opens_failing(&e);
    assert_eq!(
        explain("nn.Linear(6, 10)(torch.randn(3, 6))"),
        Reading::Runs { line: "nn.Linear(6, 10)(x), x of shape (3, 6)".into(), output: "output (3, 10)".into() }
    );
}

#[test]
fn an_id_out_of_range_is_set_against_num_embeddings() {
    let e = explained("nn.Embedding(4, 5)(torch.tensor([4]))");
    assert_eq!(e.error.to_string(), "IndexError: index out of range in self");
    assert!(e.why.contains("Id 4 has no row"), "{}", e.why);
    assert_eq!(e.shapes[0].dims, [4, 5]);
    assert_eq!(e.fixes[0].code, "nn.Embedding(5, 5)");
    assert_eq!(e.fixes[1].code, "ids - 1");
    opens_failing(&e);
    let e = explained("IndexError: index out of range in self");
    assert!(e.shapes.is_empty());
    opens_failing(&e);
}

#[test]
fn ids_that_are_floats_are_told_to_be_long() {
    let text = "RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: \
                Long, Int; but got torch.FloatTensor instead";
    let e = explained(text);
    assert_eq!(e.fixes[0].code, "ids.long()");
    opens_failing(&e);
    let e = explained("nn.Embedding(4, 5)(torch.tensor([1., 2.]))");
    assert!(e.error.message.ends_with("but got torch.FloatTensor instead (while checking arguments for embedding)"));
    assert_eq!(e.fixes[0].gives, "ids (2,) of int64 → output (2, 5)");
    opens_failing(&e);
    // The scene opened holds those ids as floats; `ids.long()` there runs.
    let mut s = from_link::<crate::scene::embedding::State>(e.open.as_deref().unwrap()).unwrap();
    assert_eq!((s.input.data(), s.num_embeddings()), (&[1, 2][..], 4));
    s.field("dtype", "torch.long").unwrap();
    assert!(s.compute().issues.is_empty());
    let e = explained("nn.Embedding(4, 5)(torch.tensor([1, 2], dtype=torch.float64))");
    assert!(e.error.message.contains("torch.DoubleTensor"), "{}", e.error);
    opens_failing(&e);
    assert!(matches!(explain("nn.Embedding(4, 5)(torch.tensor([1, 2]))"), Reading::Runs { .. }));
}

#[test]
fn an_rnn_input_size_and_hidden_size_are_laid_out() {
    let e = explained("RuntimeError: input.size(-1) must be equal to input_size. Expected 4, got 3");
    assert_eq!(e.error.message, "input.size(-1) must be equal to input_size. Expected 4, got 3");
    assert_eq!(e.fixes[0].code, "nn.RNN(3, 5)");
    opens_failing(&e);
    let e = explained("nn.RNN(4, 5)(torch.randn(3, 2, 3))");
    assert_eq!(e.shapes[0].dims, [3, 2, 3]);
    assert_eq!(e.fixes[1].code, "input = torch.randn(3, 2, 4)");
    assert_eq!(e.fixes[1].gives, "output (3, 2, 5), h_n (1, 2, 5)");
    opens_failing(&e);

    let e = explained("RuntimeError: Expected hidden size (1, 2, 5), got [1, 3, 5]");
    assert_eq!(e.shapes[0].marked, [1]);
    assert!(e.why.contains("a batch of 3"), "{}", e.why);
    assert_eq!(e.fixes[0].code, "h0 = torch.zeros(1, 2, 5)");
    opens_failing(&e);
    let e = explained(
        "rnn = nn.RNN(4, 5, num_layers=2, batch_first=True)\nrnn(torch.randn(3, 6, 4), torch.zeros(3, 2, 5))",
    );
    assert_eq!(e.error.message, "Expected hidden size (2, 3, 5), got [3, 2, 5]");
    assert_eq!(e.fixes[0].code, "h0.transpose(0, 1)");
    opens_failing(&e);
}

#[test]
fn text_rowflow_cannot_read_is_said_to_be_unknown() {
    for text in [
        "",
        "hello",
        "RuntimeError: CUDA out of memory",
        "nn.Linear(6)(x)",
        "mat1 and mat2 shapes cannot be multiplied (ax5 and 6x10)",
    ] {
        assert_eq!(explain(text), Reading::Unknown, "{text}");
    }
}

/// Every message the core raises, as its class and its text with each `{…}` filled in by a
/// number, read from the core's own source: a `TorchError::index/runtime/value/assertion(` (or
/// RNN's `runtime(`) given a literal, a `format!` of one, or a `const` holding one.
fn raised() -> Vec<(ErrorKind, String)> {
    let mut files = vec![std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))];
    let mut found = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let name = path.to_string_lossy();
        if !name.ends_with(".rs") || name.contains("/explain/") || name.contains("tests") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let calls = [
            ("TorchError::index(", ErrorKind::IndexError),
            ("TorchError::value(", ErrorKind::ValueError),
            ("TorchError::assertion(", ErrorKind::AssertionError),
            ("runtime(", ErrorKind::RuntimeError),
        ];
        for (call, kind) in calls {
            for (at, _) in text.match_indices(call) {
                let rest = text[at + call.len()..].trim_start();
                let rest = rest.strip_prefix("format!(").unwrap_or(rest).trim_start();
                let literal = match rest.strip_prefix('"') {
                    Some(body) => Some(body),
                    None => {
                        let ident: String = rest.chars().take_while(|c| c.is_ascii_uppercase() || *c == '_').collect();
                        let def = format!("const {ident}: &str = \"");
                        (ident.len() > 1).then(|| text.find(&def).map(|d| &text[d + def.len()..])).flatten()
                    }
                };
                if let Some(body) = literal {
                    found.push((kind, fill(&unescape(body))));
                }
            }
        }
    }
    found
}

/// A Rust string literal's text up to its closing quote, its `\` line breaks joined.
fn unescape(body: &str) -> String {
    let (mut out, mut chars) = (String::new(), body.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('\n') => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                Some(e) => out.push(e),
                None => break,
            },
            c => out.push(c),
        }
    }
    out
}

/// Each `{…}` of a format string as a number, 2, 3, 4, … in order.
fn fill(template: &str) -> String {
    let (mut out, mut n, mut rest) = (String::new(), 2, template);
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
        out.push_str(&rest[..open]);
        out.push_str(&n.to_string());
        n += 1;
        rest = &rest[close..];
    }
    out + rest
}

#[test]
fn every_message_the_core_raises_is_explained() {
    let all = raised();
    assert!(all.len() > 35, "only {} messages found: {all:?}", all.len());
    for (kind, message) in all {
        match explain(&format!("{}: {message}", kind.name())) {
            Reading::Explained(e) => {
                assert_eq!(e.error.kind, kind, "{message}: read as {}", e.error);
                assert!(!e.why.is_empty() && !e.fixes.is_empty(), "{message}");
            }
            other => panic!("{message}: {other:?}"),
        }
    }
}
