//! Each example a learner might paste, read to the right explanation, and the scene it opens
//! showing the same message.

use super::*;
use crate::scene::contract::View;
use crate::scene::share::from_link;

fn explained(text: &str) -> Explanation {
    match explain(text) {
        Reading::Explained(e) => e,
        other => panic!("{text}: {other:?}"),
    }
}

/// The scene the explanation opens shows `e.error` beside a cell or tensor.
fn opens_failing(e: &Explanation) {
    let open = e.open.as_ref().unwrap_or_else(|| panic!("{}: no scene to open", e.error));
    let messages: Vec<String> = match open.route {
        "linear" => from_link::<crate::scene::linear::State>(&open.payload)
            .unwrap()
            .compute()
            .issues()
            .iter()
            .map(|i| i.error.to_string())
            .collect(),
        "embedding" => from_link::<crate::scene::embedding::State>(&open.payload)
            .unwrap()
            .compute()
            .issues()
            .iter()
            .map(|i| i.error.to_string())
            .collect(),
        "rnn" => from_link::<crate::scene::rnn::State>(&open.payload)
            .unwrap()
            .compute()
            .issues()
            .iter()
            .map(|i| i.error.to_string())
            .collect(),
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
    let e = explained("nn.Embedding(4, 5)(torch.tensor([1., 2.]))");
    assert!(e.error.message.ends_with("but got torch.FloatTensor instead (while checking arguments for embedding)"));
    assert_eq!(e.fixes[0].gives, "ids (2,) of int64 → output (2, 5)");
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
