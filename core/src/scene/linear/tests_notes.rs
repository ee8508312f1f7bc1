//! What the scene says of its layer: the module, the shape equation, the weight note and the
//! lede, in English as the page says them.

use super::tests::preset;
use super::*;
use crate::say::write;

#[test]
fn shape_equations_and_explanations() {
    let c = State::default().compute();
    assert_eq!(c.module, "nn.Linear(6, 10)");
    assert_eq!(
        c.shape_equation,
        "weight (10, 6) @ input (6,) + bias (10,) → output (10,), the same computation as \
         input (6,) @ weight.T (6, 10) + bias (10,)"
    );
    assert_eq!(
        write(&c.weight_note),
        "weight is stored (out_features, in_features) = (10, 6): row i holds the 6 numbers that make output feature i."
    );
    // The landing page's card paints this very lede before the scene loads (shell.ftl).
    assert_eq!(
        write(&c.lede),
        "A 1-D input is one sample, a single row: output[i] = input · weight[i] + bias[i]. That is weight @ input \
         + bias, and input @ weight.T + bias gives the same 10 numbers."
    );
    let c = preset("batch_6_to_10").compute();
    assert_eq!(c.shape_equation, "input (2, 6) @ weight.T (6, 10) + bias (10,) → output (2, 10)");
    assert_eq!(
        write(&c.lede),
        "Each of the 2 rows of input is one sample with its own output row: output[n, i] = input[n] · weight[i] \
         + bias[i], all at once as input @ weight.T + bias. The other way round, weight @ input fails: mm: mat1 \
         and mat2 shapes cannot be multiplied (10x6 and 2x6)."
    );
    let mut s = preset("fixed_2_to_3_3d");
    assert_eq!(
        write(&s.compute().lede),
        "The leading dims (2, 3) are carried along: all 6 rows of length 2 go through the same weight, and output \
         keeps (2, 3), ending in out_features = 3 instead of in_features = 2."
    );
    s.set_bias(false);
    let c = s.compute();
    assert_eq!(c.shape_equation, "input (2, 3, 2) @ weight.T (2, 3) → output (2, 3, 3)");
    assert_eq!(c.module, "nn.Linear(2, 3, bias=False)");
    s.set_rank(1).unwrap();
    assert_eq!(
        write(&s.compute().lede),
        "A 1-D input is one sample, a single row: output[i] = input · weight[i]. That is weight @ input, and \
         input @ weight.T gives the same 3 numbers."
    );
    let mut s = preset("batch_6_to_10");
    s.set_lead(0, "6").unwrap();
    assert_eq!(
        write(&s.compute().lede),
        "Each of the 6 rows of input is one sample with its own output row: output[n, i] = input[n] · weight[i] \
         + bias[i], all at once as input @ weight.T + bias. The other way round, weight @ input, would also run \
         here, but it treats input's columns as samples and gives other numbers."
    );
    s.set_lead(0, "1").unwrap();
    assert!(write(&s.compute().lede).starts_with("The one row of input is one sample with its own output row"));
    // A count of one is said in the singular.
    s.set_in_features("1").unwrap();
    s.set_out_features("1").unwrap();
    assert!(write(&s.compute().weight_note).ends_with("row i holds the 1 number that makes output feature i."));
    s.set_rank(1).unwrap();
    assert!(write(&s.compute().lede).ends_with("gives the same 1 number."));
    s.set_rank(3).unwrap();
    assert!(write(&s.compute().lede).contains("carried along: the 1 row of length 1 goes through the same weight"));
}
