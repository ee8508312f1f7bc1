//! Tables drawn in the worker, and the scene saved as its seed's draw and the cells set since.

use super::*;
use crate::scene::contract::{Edit, Scene};

#[test]
fn a_table_drawn_elsewhere_resizes_as_one_drawn_here() {
    let mut here = State::default();
    here.edit(TABLE, 3, "7").unwrap();
    let mut there = here.clone();
    here.set_vocab("200").unwrap();
    let drawn = Draw { seed: "123".into(), v: 200, d: 5 }.run().unwrap();
    there.resize_drawn("123", drawn.clone()).unwrap();
    assert_eq!(there, here);
    assert_eq!(crate::scene::to_json(&there), crate::scene::to_json(&here));
    // The learner changed the seed while it was drawn: it is not theirs any more.
    there.reinit("5").unwrap();
    assert_eq!(there.resize_drawn("123", drawn), Err("the seed is 5 now, not 123".into()));
    assert_eq!(there.sizes(), (200, 5));
    let big = Draw { seed: "123".into(), v: 50_000, d: 256 }.run().unwrap_err();
    assert!(big.contains("at most"), "{big}");
    assert!(Draw { seed: "x".into(), v: 4, d: 5 }.run().is_err());
}

#[test]
fn a_table_made_ready_lands_with_what_was_edited_meanwhile() {
    let mut s = State::default();
    let drawn = Draw { seed: s.seed.clone(), v: 200, d: 5 }.run().unwrap();
    let ready = s.ready_drawn(&s.seed.clone(), drawn.clone()).unwrap();
    // Not the scene's yet; then typed over between the two tasks, and the edit kept.
    assert_eq!(s.sizes(), (4, 5));
    s.edit(TABLE, 3, "7").unwrap();
    let mut want = s.clone();
    want.resize_drawn(&s.seed.clone(), drawn.clone()).unwrap();
    s.land(ready.clone()).unwrap();
    assert_eq!(s, want);
    assert_eq!(s.table.data()[3], 7.0);
    // The seed changed meanwhile: not the scene's draw any more.
    let mut reseeded = State::default();
    reseeded.reinit("5").unwrap();
    assert_eq!(reseeded.land(ready), Err(format!("the seed is 5 now, not {}", State::default().seed)));
    assert_eq!(reseeded.sizes(), (4, 5));
}

#[test]
fn a_new_seed_drawn_elsewhere_lands_as_one_drawn_here() {
    let mut here = State::default();
    here.edit(TABLE, 3, "7").unwrap();
    here.apply(&Edit::Step).unwrap();
    let mut there = here.clone();
    here.reinit("7").unwrap();
    let drawn = Draw { seed: "7".into(), v: 4, d: 5 }.run().unwrap();
    // Typed as the learner may type it; the scene keeps the seed as torch reads it.
    let ready = there.ready_reinit(" 007", drawn.clone()).unwrap();
    assert_eq!(there.seed, State::default().seed, "not the scene's until it lands");
    there.land(ready).unwrap();
    assert_eq!(there, here);
    assert_eq!(there.seed, "7");
    assert_eq!(crate::scene::to_json(&there), crate::scene::to_json(&here));
    assert_eq!(there.learning.steps, 0, "a new table starts its learning afresh");
    // A bad seed is refused as torch refuses it; a table resized meanwhile is not the draw's.
    let err = there.ready_reinit("1.5", drawn.clone()).unwrap_err();
    assert_eq!(err, "ValueError: invalid literal for int() with base 10: '1.5'");
    let ready = there.ready_reinit("8", drawn).unwrap();
    there.set_vocab("10").unwrap();
    assert_eq!(there.land(ready), Err("emb.weight is (10, 5) now, not (4, 5)".into()));
    assert_eq!((there.sizes(), there.seed.as_str()), ((10, 5), "7"));
}

#[test]
fn a_save_at_real_scale_reads_over_its_draw_made_elsewhere() {
    use crate::scene::share::{decode, link_text, to_link};
    use crate::scene::to_json;
    let mut s = State::default();
    s.set_vocab("50000").unwrap();
    s.apply(&Edit::cell(TABLE, 5 * 40_000, "2.5")).unwrap();
    s.apply(&Edit::Step).unwrap();
    let json = to_json(&s);
    let draw = Draw { seed: s.seed.clone(), v: 50_000, d: 5 };
    assert_eq!(draws_in(&json), std::slice::from_ref(&draw), "the table's draw, once for it and Reset's table");
    assert_eq!(draws_in(&link_text(&to_link(&s)).unwrap()), std::slice::from_ref(&draw));
    // Read over the draw handed in, not one of its own: a stand-in shows through where no
    // cell is set; the cells set stay set.
    let stand_in = Tensor::new(vec![50_000, 5], vec![0.25; 250_000]).unwrap();
    let read: State = with_drawn(vec![(draw.clone(), stand_in)], || decode(&json)).unwrap();
    assert_eq!(read.table.data()[5 * 49_999], 0.25);
    assert_eq!(read.table.data()[5 * 40_000], 2.5);
    // Only while `with_drawn` runs: read again, it is the scene as saved.
    let again: State = decode(&json).unwrap();
    assert_eq!(again.table, s.table);
    assert_ne!(draw.run().unwrap().data()[5 * 49_999], 0.25);
    // A table as drawn (a new seed, no cell set since) is the draw handed in, its numbers and
    // what was made of them ahead shared, not copied.
    let mut fresh = s.clone();
    fresh.reinit("7").unwrap();
    let drawn = Draw { seed: "7".into(), v: 50_000, d: 5 }.run().unwrap();
    prepare(&drawn);
    let read: State =
        with_drawn(vec![(Draw { seed: "7".into(), v: 50_000, d: 5 }, drawn.clone())], || decode(&to_json(&fresh)))
            .unwrap();
    assert!(read.table.shares_data(&drawn));
    assert_eq!(read.table, fresh.table);
    // Nothing to draw in a table saved whole, nor in text that is not a scene.
    let mut whole = s.clone();
    whole.drawn = Default::default();
    assert_eq!(draws_in(&to_json(&whole)), []);
    assert_eq!(draws_in("{\"seed\": 3"), []);
}

#[test]
fn a_real_scale_table_saves_as_its_draw_and_the_cells_set_since() {
    use crate::scene::share::decode;
    use crate::scene::{from_json, to_json};
    let mut s = State::default();
    s.edit(TABLE, 2, "nan").unwrap();
    s.set_vocab("50000").unwrap();
    s.apply(&Edit::cell(TABLE, 5 * 49_999 + 4, "2.5")).unwrap();
    s.apply(&Edit::Step).unwrap();
    let json = to_json(&s);
    // The 20 cells kept from the 4 × 5 table (one of them nan), the last one typed, the three
    // looked-up rows the step moved, and the table Reset returns to: not 250,000 numbers.
    assert!(json.len() < 4_000, "{} bytes", json.len());
    let back: State = decode(&json).unwrap();
    let mut want = s.clone();
    want.learning.history = Default::default();
    assert_eq!(back, want, "the scene, but for the steps undo remembers in memory only");
    assert!(back.table.data()[2].is_nan());
    assert_eq!(back.learning.start, s.learning.start);
    // What it was saved against comes back too: saved again, it is the same text.
    assert_eq!(to_json(&back), json);
    let mut reset = back.clone();
    reset.apply(&Edit::Reset).unwrap();
    assert_eq!(reset.table.get(&[49_999, 4]), Some(2.5));

    // A table mostly set by hand is saved whole: its draw would not save anything.
    let mut most = State::default();
    (0..11).for_each(|i| most.edit(TABLE, i, "9").unwrap());
    assert!(to_json(&most).contains(r#""table":{"shape":[4,5],"data":[9.0,"#));
    assert_eq!(from_json::<State>(&to_json(&most)).unwrap(), most);

    // A save from before (the table whole) still opens, and is saved whole again; the code
    // still finds its seed, by drawing it afresh.
    let mut old: serde_json::Value = serde_json::from_str(&to_json(&State::default())).unwrap();
    old["table"] = serde_json::to_value(&State::default().table).unwrap();
    let old: State = from_json(&old.to_string()).unwrap();
    assert_eq!(old, State::default());
    assert_eq!(old.drawn_and_set(), Some((123, vec![])));
    assert_eq!(State::default().drawn_and_set(), Some((123, vec![])));
    let set: Vec<usize> = [2].into_iter().chain(4..20).chain([249_999]).collect();
    assert_eq!(back.drawn_and_set(), Some((123, set)));
    assert_eq!(most.drawn_and_set(), None);

    // A damaged one is refused, never drawn beyond the browser's limits.
    let damaged = |from: &str, to: &str| from_json::<State>(&json.replacen(from, to, 1)).unwrap_err();
    let big = damaged("[50000,5]", "[50000,50000]");
    assert!(big.contains("this lab holds at most"), "{big}");
    assert!(damaged("\"seed\":\"123\"", "\"seed\":\"x\"").contains("its seed is not one"));
    assert!(damaged("\"at\":\"", "\"at\":\"*").contains("its runs of set cells are damaged"));
    // Saved before the runs were in base64, as [first, count] pairs: read alike, and refused
    // where they do not fit the table or its values.
    let with_at = |at: &str| {
        let mut saved: serde_json::Value = serde_json::from_str(&json).unwrap();
        saved["table"]["at"] = serde_json::from_str(at).unwrap();
        saved.to_string()
    };
    assert_eq!(decode::<State>(&with_at("[[2,1],[4,16],[249999,1]]")).unwrap(), back);
    let past = from_json::<State>(&with_at("[[249999,2],[2,1],[4,16],[249999,1]]")).unwrap_err();
    assert!(past.contains("no cells 249999 … 249999+2"), "{past}");
    assert!(from_json::<State>(&with_at("[[7,1],[2,1],[4,16],[249999,1]]")).unwrap_err().contains("fewer set values"));
    assert!(damaged("\"values\":\"", "\"values\":\"AAAAAA").contains("more set values"));
    assert!(damaged("\"values\":\"", "\"values\":\"*").contains("damaged"));
    let neither = damaged("\"values\":", "\"valued\":");
    assert!(neither.contains("emb.weight is saved neither as its draw"), "{neither}");
    let whole = to_json(&most).replacen(r#""shape":[4,5]"#, r#""shape":[4,6]"#, 1);
    let short = from_json::<State>(&whole).unwrap_err();
    assert!(short.contains("invalid for input of size 20"), "{short}");
}

#[test]
fn resets_table_is_saved_as_the_cells_the_steps_moved() {
    use crate::scene::{from_json, to_json};
    // Grown to 50,000 × 64 from 5 columns: 250,000 cells kept, unlike the draw.
    let mut s = State::default();
    s.set_vocab("50000").unwrap();
    s.set_dim("64").unwrap();
    let unstepped = to_json(&s);
    s.apply(&Edit::Step).unwrap();
    s.apply(&Edit::Step).unwrap();
    let json = to_json(&s);
    // Reset's table as the three rows the steps moved, not the 250,000 cells again.
    let start = &json[json.rfind(r#""start":"#).unwrap()..];
    assert!(start.starts_with(r#""start":{"over_table":[50000,64],"at":""#), "{}", &start[..100]);
    let saved: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::from_value::<super::runs::Runs>(saved["start"]["at"].clone()).unwrap().0, [[64, 192]]);
    assert!(json.len() < unstepped.len() + 4_000, "{} bytes, {} before the steps", json.len(), unstepped.len());
    let back: State = from_json(&json).unwrap();
    assert_eq!(back.learning.start, s.learning.start);
    assert_eq!(to_json(&back), json);
    let mut reset = back;
    reset.apply(&Edit::Reset).unwrap();
    assert_eq!(to_json(&reset), unstepped, "Reset: the scene as before the steps");

    // Saved before this form, Reset's table against the draw, it reads the same.
    let mut old: serde_json::Value = serde_json::from_str(&json).unwrap();
    old["start"] = serde_json::from_str::<serde_json::Value>(&unstepped).unwrap()["table"].clone();
    assert_eq!(from_json::<State>(&old.to_string()).unwrap().learning.start, s.learning.start);
    // Over a table of another size, or the table over itself: refused, saying so.
    let other =
        from_json::<State>(&json.replace(r#""over_table":[50000,64]"#, r#""over_table":[50000,63]"#)).unwrap_err();
    assert!(other.contains("Reset's emb.weight is saved over a table [50000, 63] unlike the one on show"), "{other}");
    let mut itself: serde_json::Value = serde_json::from_str(&json).unwrap();
    itself["table"] = itself["start"].clone();
    let itself = from_json::<State>(&itself.to_string()).unwrap_err();
    assert!(itself.contains("emb.weight is saved over itself"), "{itself}");
}

#[test]
fn a_save_read_with_its_kept_draw_handed_in_draws_nothing() {
    let mut s = State::default();
    s.resize_table(300, 5).unwrap();
    s.resize_table(300, 64).unwrap();
    let (draw, base) = s.kept_draw().unwrap();
    assert_eq!(draw, Draw { seed: s.seed.clone(), v: 300, d: 64 });
    assert_eq!(base.data(), draw.run().unwrap().data());
    let save = crate::scene::to_json(&s);
    assert_eq!(crate::scene::share::decode::<State>(&save).unwrap(), s);
    // Marked where the table is still the draw: read back, the mark shows it was not drawn again.
    let mut marked = base.clone();
    let last = marked.numel() - 1;
    marked.data_mut()[last] = 99.0;
    let read: State = with_drawn(vec![(draw, marked)], || crate::scene::share::decode(&save)).unwrap();
    assert_eq!(read.table.data()[last], 99.0);
    assert_eq!(read.table.data()[..last], s.table.data()[..last]);
}
