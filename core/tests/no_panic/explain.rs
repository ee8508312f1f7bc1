//! Explain my error: any text a learner pastes, and pieces of the messages and lines it reads
//! put together in any order with any numbers, is explained, said to run, or said to be unknown;
//! every scene it opens reads back from its link and computes.

use crate::common::gen::text;
use crate::CASES;
use proptest::prelude::*;
use rowflow_core::explain::{explain, Reading};
use rowflow_core::scene::contract::View;
use rowflow_core::scene::share::from_link;
use rowflow_core::scene::{embedding, linear, rnn};

/// The words of what `explain` reads, and numbers at and past every limit.
fn pieces() -> impl Strategy<Value = String> {
    let words = vec![
        "nn.Linear(",
        "nn.Embedding(",
        "nn.RNN(",
        "torch.randn(",
        "torch.zeros(",
        "torch.tensor(",
        "torch.FloatTensor(",
        "mat1 and mat2 shapes cannot be multiplied (",
        "addmm: ",
        "mm: ",
        "x",
        " and ",
        ")",
        "(",
        "[",
        "]",
        ", ",
        ",",
        "index out of range in self",
        "input.size(-1) must be equal to input_size. Expected ",
        ", got ",
        "Expected hidden size (",
        "got [",
        "Expected tensor for argument #1 'indices' to have one of the following \
        scalar types: Long, Int; but got torch.",
        "FloatTensor instead",
        "dtype=torch.long",
        "batch_first=True",
        "bidirectional=True",
        "num_layers=",
        "bias=False",
        "in_features=",
        "=",
        "\n",
        "1.",
        "-1",
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "16",
        "64",
        "65",
        "1000",
        "1048576",
        "1048577",
        "9223372036854775807",
        "99999999999999999999",
        "é",
        "🙂",
        " ",
    ];
    prop::collection::vec(prop::sample::select(words), 0..40).prop_map(|w| w.concat())
}

fn opens(route: &str, payload: &str) -> Result<(), String> {
    match route {
        "linear" => from_link::<linear::State>(payload).map(|s| s.compute().issues().len()),
        "embedding" => from_link::<embedding::State>(payload).map(|s| s.compute().issues().len()),
        "rnn" => from_link::<rnn::State>(payload).map(|s| s.compute().issues().len()),
        other => Err(format!("no scene {other}")),
    }
    .and_then(|n| if n > 0 { Ok(()) } else { Err("the scene shows no error".into()) })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn any_paste_is_explained_or_said_unknown(text in prop_oneof![3 => pieces(), 1 => text(&[64, 1000])]) {
        if let Reading::Explained(e) = explain(&text) {
            prop_assert!(!e.why.is_empty() && !e.fixes.is_empty(), "{text:?}: {e:?}");
            if let Some(open) = &e.open {
                prop_assert_eq!(opens(e.route, open), Ok(()), "{:?}", text);
            }
        }
    }
}
