//! Numbers as PyTorch prints them: 4 decimals by default (`-0.0000` keeps its sign), `nan`,
//! `inf`, `-inf`; and the full float32 (the shortest text that reads back to the same bits).
//! Counts in words with their noun: `1 row`, `3 rows`.

/// `0.6957`, `-1.8061`, `-0.0000`, `nan`, `-inf`.
pub fn short(x: f32) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        format!("{x:.4}")
    }
}

/// Every digit a float32 needs to round-trip: `0.69572306`.
pub fn full(x: f32) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        format!("{x}")
    }
}

/// `n` and its noun, singular for 1: `1 row`, `0 rows`, `3 ids`. The nouns here all add an s.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// What a tensor's nan and inf cells mean, said out loud where they show: `None` when every
/// value is finite.
pub fn not_finite(values: &[f32]) -> Option<String> {
    if values.iter().all(|v| v.is_finite()) {
        return None;
    }
    let nan = values.iter().filter(|v| v.is_nan()).count();
    let inf = values.iter().filter(|v| v.is_infinite()).count();
    let cells = |n: usize, what: &str| format!("{} {} {what}", count(n, "cell"), if n == 1 { "is" } else { "are" });
    const INF: &str = "inf: past float32's largest number, about 3.4e38, or typed as inf";
    const NAN: &str = "nan (not a number): typed, or made by inf − inf or 0 × inf; every sum it enters is nan too";
    match (nan, inf) {
        (0, 0) => None,
        (0, inf) => Some(format!("{}.", cells(inf, INF))),
        (nan, 0) => Some(format!("{}.", cells(nan, NAN))),
        (nan, inf) => Some(format!("{}. {}.", cells(inf, INF), cells(nan, NAN))),
    }
}

/// How long a step's caption may be: two lines of the projector's 24 px timeline, after its
/// `Step 12 of 40: `.
pub const CAPTION: usize = 140;

/// A caption: `lead`, then each of `more` (sentences that say less) while it still fits.
pub fn caption(lead: String, more: impl IntoIterator<Item = String>) -> String {
    more.into_iter().fold(lead, |s, m| match s.chars().count() + 1 + m.chars().count() <= CAPTION {
        true => s + " " + &m,
        false => s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_and_inf_are_said_out_loud() {
        assert_eq!(not_finite(&[0.5, -2.0]), None);
        let one = not_finite(&[f32::NAN, 1.0]).unwrap();
        assert!(one.starts_with("1 cell is nan (not a number)"), "{one}");
        let both = not_finite(&[f32::INFINITY, f32::NEG_INFINITY, f32::NAN]).unwrap();
        assert!(both.starts_with("2 cells are inf: past float32's largest number"), "{both}");
        assert!(both.contains("1 cell is nan"), "{both}");
    }

    #[test]
    fn a_caption_keeps_what_fits() {
        let long = "x".repeat(CAPTION - 10);
        assert_eq!(caption("Lead.".into(), ["More.".into()]), "Lead. More.");
        assert_eq!(caption(long.clone(), ["Too long to add.".into(), "Fits.".into()]), long.clone() + " Fits.");
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(1, "row"), "1 row");
        assert_eq!(count(0, "row"), "0 rows");
        assert_eq!(count(3, "id"), "3 ids");
    }

    #[test]
    fn prints_like_pytorch() {
        assert_eq!(short(0.695_723_1), "0.6957");
        assert_eq!(short(-1.806_08), "-1.8061");
        assert_eq!(short(-0.0), "-0.0000");
        assert_eq!(short(-0.000_01), "-0.0000");
        assert_eq!(short(f32::NAN), "nan");
        assert_eq!(short(f32::INFINITY), "inf");
        assert_eq!(short(f32::NEG_INFINITY), "-inf");
        assert_eq!(full(0.1), "0.1");
        assert_eq!(full(-0.0), "-0");
        assert_eq!(full(f32::NAN), "nan");
    }
}
