//! Share links, exported files and saves. Links and files carry a scene's state without its
//! steps (the receiver starts from what the sender sees), as JSON in a file or as base64url JSON
//! after `?s=` in a link. Reading any of them goes through the scene's checked deserialisation and
//! then its `check`, so a damaged or hostile link, file or save is refused whole, never
//! half-applied, and never asks for more than the scene's own controls could make. Each names
//! its [`FORMAT`] first, so that a release reads every earlier one (`tests/saves.rs` opens what
//! each wrote) and refuses, saying so, one written by a newer release.

use super::{from_json, to_json};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// The format of the saves, links and files this release writes. 1: everything written before
/// formats were numbered, which has no `format` field; 2: the same fields after `"format": 2`;
/// 3: the Embedding scene's ids name their `dtype` (absent, `torch.long`), and word2vec's saves
/// join `tests/saves/`.
/// A format that changes a field migrates the older ones in [`decode`], and its release's saves
/// join `tests/saves/`.
pub const FORMAT: u64 = 3;

/// A scene as written: its format first, then its own fields.
#[derive(Serialize)]
struct Versioned<'a, S> {
    format: u64,
    #[serde(flatten)]
    scene: &'a S,
}

/// `scene` as saved in the browser: compact JSON, its format first.
pub fn to_save<S: Shared>(scene: &S) -> String {
    to_json(&Versioned { format: FORMAT, scene })
}

/// The format `text` names: where [`to_save`] writes it, at the start, or anywhere in a text
/// edited by hand; 1 when it names none.
fn format_of(text: &str) -> u64 {
    let head = text.trim_start().strip_prefix('{').map(str::trim_start).and_then(|t| t.strip_prefix("\"format\""));
    let digits = head.and_then(|t| t.trim_start().strip_prefix(':')).map(|t| {
        let t = t.trim_start();
        &t[..t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len())]
    });
    if let Some(n) = digits.and_then(|d| d.parse().ok()) {
        return n;
    }
    #[derive(Deserialize)]
    struct Named {
        format: Option<u64>,
    }
    match text.contains("\"format\"") {
        true => serde_json::from_str::<Named>(text).ok().and_then(|n| n.format).unwrap_or(1),
        false => 1,
    }
}

/// A link longer than this is refused before it is decoded: it bounds the work a hostile one can
/// ask for, and longer URLs are cut by the apps that carry them. A scene past it goes by file.
pub const MAX_LINK: usize = 2 << 20;

/// A file longer than this is refused before it is decoded. The largest scene a learner can make
/// is well under it: a one-hot table of `MAX_NUMEL` numbers and its start for reset, each number
/// at most 15 characters of JSON, is under 130 MB.
pub const MAX_FILE: usize = 192 << 20;

/// A scene as a link or a file carries it: without what only the sender can use.
pub trait Shared: Clone + Serialize + DeserializeOwned {
    fn forget_history(&mut self);

    /// Whether a decoded state is one the scene could have made: every size within its declared
    /// limits and every text field (seed, lr, preset) one its controls accept.
    fn check(&self) -> Result<(), String>;

    /// What the first compute of a decoded state makes for itself, made ahead (`Scene::prepare`).
    fn prepare(&self);

    fn shared(&self) -> Self {
        let mut s = self.clone();
        s.forget_history();
        s
    }
}

/// A scene read back from its JSON (a save, a file, a link's payload), or why it can't be.
/// Formats 1 and 2 hold the same fields, so both read as they are.
pub fn decode<S: Shared>(text: &str) -> Result<S, String> {
    let format = format_of(text);
    if format > FORMAT {
        return Err(format!(
            "it was written by a newer rowflow (format {format}; this one reads formats 1 to {FORMAT}): reload the page to update rowflow"
        ));
    }
    let scene: S = from_json(text)?;
    scene.check().map_err(|e| format!("not a scene rowflow makes: {e}"))?;
    Ok(scene)
}

/// The `s=` payload of a share link.
pub fn to_link<S: Shared>(scene: &S) -> String {
    URL_SAFE_NO_PAD.encode(to_save(&scene.shared()))
}

/// The scene a link's payload holds, or why it can't be read.
pub fn from_link<S: Shared>(payload: &str) -> Result<S, String> {
    decode(&link_text(payload)?)
}

/// The JSON a link's payload carries, not yet read as a scene.
pub fn link_text(payload: &str) -> Result<String, String> {
    if payload.len() > MAX_LINK {
        return Err(format!(
            "the link is {} characters long; a scene's link is at most 2 MiB ({MAX_LINK} characters)",
            payload.len()
        ));
    }
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim()).map_err(|_| "the link is damaged (cut short or edited)")?;
    String::from_utf8(bytes).map_err(|_| "the link is damaged (not text)".into())
}

/// The text of an exported file: each field on its own line, each array on one.
pub fn to_file<S: Shared>(scene: &S) -> String {
    let mut out = Vec::new();
    let mut json = serde_json::Serializer::with_formatter(&mut out, Layout::default());
    match (Versioned { format: FORMAT, scene: &scene.shared() }).serialize(&mut json) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// serde_json's pretty layout for objects, with arrays written as `to_json` writes them: a table's
/// numbers and a scene's ids are not one to a line. At One-hot's 50,000 × 64 grown from 5
/// columns, the file was 3.5 MB pretty, 1.6 MB of it line breaks and indents, and a 40–55 ms task.
#[derive(Default)]
struct Layout {
    /// Objects open, outside arrays.
    depth: usize,
    /// Arrays open: inside one, everything is written compactly.
    arrays: usize,
    /// Whether the object being written has a field yet.
    has_value: bool,
}

impl Layout {
    fn line<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        (0..self.depth).try_for_each(|_| w.write_all(b"  "))
    }
}

impl serde_json::ser::Formatter for Layout {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.arrays += 1;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.arrays -= 1;
        w.write_all(b"]")
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if self.arrays == 0 {
            self.depth += 1;
            self.has_value = false;
        }
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if self.arrays == 0 {
            self.depth -= 1;
            if self.has_value {
                self.line(w)?;
            }
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        match self.arrays {
            0 => self.line(w),
            _ => Ok(()),
        }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.arrays == 0 { b": " } else { b":" })
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        if self.arrays == 0 {
            self.has_value = true;
        }
        Ok(())
    }
}

/// The scene an imported file holds, or why it can't be read.
pub fn from_file<S: Shared>(text: &str) -> Result<S, String> {
    if text.len() > MAX_FILE {
        return Err(format!("the file is {} bytes; a scene's file is at most 192 MiB ({MAX_FILE} bytes)", text.len()));
    }
    decode(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::contract::{Edit, Scene};
    use crate::scene::{embedding, linear, one_hot, rnn, train};

    fn round_trip<S: Shared + PartialEq + std::fmt::Debug>(s: &S) {
        assert_eq!(&from_link::<S>(&to_link(s)).unwrap(), &s.shared());
        assert_eq!(&from_file::<S>(&to_file(s)).unwrap(), &s.shared());
    }

    #[test]
    fn every_scene_survives_a_link_and_a_file_without_its_history() {
        let mut l = linear::State::default();
        l.apply(&Edit::Step).unwrap();
        assert!(!l.learning.history.is_empty());
        let back: linear::State = from_link(&to_link(&l)).unwrap();
        assert_eq!((back.weight, back.learning.history.len()), (l.weight.clone(), 0));
        round_trip(&l);
        round_trip(&embedding::State::default());
        round_trip(&one_hot::State::default());
        let mut r = rnn::State::default();
        r.set_h_n_in_loss(true);
        round_trip(&r);
        let mut t = train::State::default();
        t.apply(&Edit::Run { steps: 3 }).unwrap();
        let back: train::State = from_link(&to_link(&t)).unwrap();
        assert_eq!((back.learning.losses.len(), back.learning.history.len()), (3, 0));
        assert_eq!(back.user_factors, t.user_factors);
    }

    #[test]
    fn damaged_wrong_and_hostile_links_are_refused() {
        let link = to_link(&linear::State::default());
        let cut = &link[..link.len() / 2];
        assert!(from_link::<linear::State>(cut).is_err());
        assert!(from_link::<linear::State>("%%%").unwrap_err().contains("damaged"));
        // A link made by another scene.
        assert!(from_link::<rnn::State>(&link).unwrap_err().starts_with("not a saved scene"));
        // Shapes that don't match their data, deep nesting, a huge length.
        let lie = r#"{"preset":"x","weight":{"shape":[1000000,1000000],"data":[1]},"bias":{"shape":[1],"data":[0]},"has_bias":true,"input":{"shape":[1],"data":[1]}}"#;
        assert!(from_file::<linear::State>(lie).is_err());
        assert!(from_file::<linear::State>(&"[".repeat(100_000)).is_err());
        assert!(from_link::<linear::State>(&"A".repeat(MAX_LINK + 1)).unwrap_err().contains("characters long"));
    }

    /// A file reads as the scene's JSON, a field to a line and an array on one.
    #[test]
    fn a_file_has_a_field_to_a_line_and_its_arrays_on_one() {
        let mut s = one_hot::State::default();
        s.apply(&Edit::Step).unwrap();
        let file = to_file(&s);
        let value = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        assert_eq!(value(&file), value(&to_save(&s.shared())));
        assert!(file.starts_with("{\n  \"format\": 3,\n  \"preset\": "), "{file}");
        assert!(file.ends_with("\n}"), "{file}");
        assert!(file.contains("\n  \"table\": {\n    \""), "{file}");
        assert!(file.contains("\n  \"ids\": {\n    \"shape\": [3],\n    \"data\": [2,3,1]\n  }"), "{file}");
        assert!(file.lines().all(|line| line.len() < 400 || line.trim_start().starts_with('"')), "{file}");
    }

    /// Every save, link and file names its format first; one without reads as format 1, one
    /// of a newer rowflow is refused with what to do, wherever a hand-edited file names it.
    #[test]
    fn formats_are_named_and_a_newer_one_is_refused() {
        let s = linear::State::default();
        assert!(to_save(&s).starts_with(r#"{"format":3,"preset":"#));
        assert!(link_text(&to_link(&s)).unwrap().starts_with(r#"{"format":3,"#));
        assert_eq!(from_file::<linear::State>(&to_json(&s)).unwrap(), s, "format 1: no field");
        let newer = to_save(&s).replacen(r#""format":3"#, r#""format":4"#, 1);
        assert_eq!(
            decode::<linear::State>(&newer).unwrap_err(),
            "it was written by a newer rowflow (format 4; this one reads formats 1 to 3): reload the page to update rowflow"
        );
        let moved = to_json(&s).replacen('{', r#"{"note":"by hand","format": 12 ,"#, 1);
        assert!(decode::<linear::State>(&moved).unwrap_err().contains("format 12"));
        for (text, format) in [(" {\n \"format\" :\t7 ,", 7), (r#"{"format":"2"}"#, 1), ("{}", 1), ("[", 1)] {
            assert_eq!(format_of(text), format, "{text}");
        }
    }

    /// A scene too large for a link still goes through a file: what Export writes, Import reads.
    #[test]
    fn a_scene_past_the_link_limit_goes_by_file() {
        let mut s = one_hot::State::default();
        s.set_vocab("50000").unwrap();
        s.set_dim("8").unwrap();
        s.apply(&Edit::Step).unwrap();
        let file = to_file(&s);
        assert!(to_link(&s).len() > MAX_LINK && file.len() > MAX_LINK);
        assert_eq!(from_file::<one_hot::State>(&file).unwrap(), s.shared());
    }

    /// Every preset of every scene, and each after a step and an edit, reads back whole.
    #[test]
    fn everything_the_scenes_make_passes_the_check() {
        fn all<S: Shared + PartialEq + std::fmt::Debug>(ids: &[(&str, &str)], preset: fn(&str) -> Option<S>) {
            for (id, _) in ids {
                round_trip(&preset(id).unwrap());
            }
        }
        all(linear::PRESETS, linear::State::preset);
        all(embedding::PRESETS, embedding::State::preset);
        all(one_hot::PRESETS, one_hot::State::preset);
        all(rnn::PRESETS, rnn::State::preset);
        all(train::PRESETS, train::State::preset);
        let mut l = linear::State::default();
        l.apply(&Edit::Loss { mse: true }).unwrap();
        l.apply(&Edit::Step).unwrap();
        l.reinit("-5").unwrap();
        l.set_in_features(&linear::MAX_SIZE.to_string()).unwrap();
        round_trip(&l);
        let mut e = embedding::State::preset("big_1000x30").unwrap();
        e.apply(&Edit::Step).unwrap();
        round_trip(&e);
    }

    /// What a hand-made link may hold: markup in every text field, numbers no save holds,
    /// sizes past the scene's limits, another scene's valid JSON. Each is refused with a reason.
    #[test]
    fn hostile_fields_are_refused_with_a_reason() {
        let linear = serde_json::to_value(linear::State::default()).unwrap();
        let with = |path: &[&str], value: serde_json::Value| {
            let mut v = linear.clone();
            let (last, parents) = path.split_last().unwrap();
            let mut at = &mut v;
            for p in parents {
                at = &mut at[*p];
            }
            at[*last] = value;
            from_file::<linear::State>(&v.to_string())
        };
        let markup = serde_json::json!("<img src=x onerror=alert(1)>");
        assert!(with(&["preset"], markup.clone()).unwrap_err().contains("names a preset this scene does not have"));
        assert!(with(&["seed"], markup.clone()).unwrap_err().contains("its seed is not one"));
        assert!(with(&["learning", "lr"], markup.clone()).unwrap_err().contains("lr: could not convert"));
        assert!(with(&["learning", "lr"], serde_json::json!("-1")).unwrap_err().contains("Invalid learning rate"));
        let big = serde_json::json!({"shape": [65, 6], "data": vec![0.0; 390]});
        assert!(with(&["weight"], big)
            .unwrap_err()
            .contains("weight has shape (65, 6); this scene allows 2 dimensions of at most 64"));
        let huge = serde_json::from_str::<serde_json::Value>(r#"{"shape": [1], "data": [1e39]}"#).unwrap();
        assert!(with(&["bias"], huge).unwrap_err().contains("out of float32's range"));
        // The first weight number swapped for what JSON or a save never holds.
        let json = to_json(&linear::State::default());
        let weight = "\"weight\":{\"shape\":[10,6],\"data\":[";
        let start = json.find(weight).unwrap() + weight.len();
        let end = start + json[start..].find(',').unwrap();
        assert!(from_file::<linear::State>(&json).is_ok());
        for number in ["NaN", "Infinity", "1e39", "\"1e39\"", "\"<b>x</b>\"", "{}"] {
            let bad = format!("{}{number}{}", &json[..start], &json[end..]);
            assert!(from_file::<linear::State>(&bad).is_err(), "{number}");
        }
        // Valid JSON of another scene, and of no scene.
        let rnn = to_file(&rnn::State::default());
        assert!(from_file::<linear::State>(&rnn).unwrap_err().starts_with("not a saved scene"));
        assert!(from_file::<train::State>(&to_file(&embedding::State::default())).is_err());
        assert!(from_file::<linear::State>("{}").is_err() && from_file::<linear::State>("[]").is_err());
        // Deep nesting, and a payload just under the size limit.
        let deep = format!("{{\"preset\":{}1{}}}", "[".repeat(5000), "]".repeat(5000));
        assert!(from_file::<linear::State>(&deep).is_err());
        let filler = format!("{{\"preset\":\"{}\"}}", "x".repeat(1_900_000));
        assert!(from_link::<linear::State>(&URL_SAFE_NO_PAD.encode(&filler)).is_err());
        // Sizes past each scene's limits.
        let mut e = serde_json::to_value(embedding::State::default()).unwrap();
        e["input"] = serde_json::json!({"shape": [1025], "data": vec![0; 1025]});
        assert!(from_file::<embedding::State>(&e.to_string()).unwrap_err().contains("input has shape (1025,)"));
        let mut t = serde_json::to_value(train::State::default()).unwrap();
        t["lr"] = serde_json::json!("abc");
        assert!(from_file::<train::State>(&t.to_string())
            .unwrap_err()
            .contains("lr: could not convert string to float"));
        let mut r = serde_json::to_value(rnn::State::default()).unwrap();
        r["model"]["config"]["hidden_size"] = serde_json::json!(17);
        assert!(from_file::<rnn::State>(&r.to_string())
            .unwrap_err()
            .contains("hidden_size is 17; this scene allows at most 16"));
        let mut o = serde_json::to_value(one_hot::State::default()).unwrap();
        o["seed"] = serde_json::json!("1.5");
        assert!(from_file::<one_hot::State>(&o.to_string()).is_err());
    }
}
