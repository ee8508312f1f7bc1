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
