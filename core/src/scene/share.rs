//! Share links and exported files. Both carry a scene's state without its undo history (the
//! receiver starts from what the sender sees), as JSON in a file or as base64url JSON after
//! `?s=` in a link. Reading either goes through the scene's checked deserialisation, so a
//! damaged or hostile link or file is refused whole, never half-applied.

use super::{from_json, to_json};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{de::DeserializeOwned, Serialize};

/// A link or file longer than this is refused before it is decoded: no scene's limits need more,
/// and it bounds the work a hostile one can ask for.
pub const MAX_SHARED: usize = 2 << 20;

/// A scene as a link or a file carries it: without what only the sender can use.
pub trait Shared: Clone + Serialize + DeserializeOwned {
    fn forget_history(&mut self);

    fn shared(&self) -> Self {
        let mut s = self.clone();
        s.forget_history();
        s
    }
}

/// The `s=` payload of a share link.
pub fn to_link<S: Shared>(scene: &S) -> String {
    URL_SAFE_NO_PAD.encode(to_json(&scene.shared()))
}

/// The scene a link's payload holds, or why it can't be read.
pub fn from_link<S: Shared>(payload: &str) -> Result<S, String> {
    if payload.len() > MAX_SHARED {
        return Err(format!("the link is {} characters long, more than a scene can be", payload.len()));
    }
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim()).map_err(|_| "the link is damaged (cut short or edited)")?;
    let text = String::from_utf8(bytes).map_err(|_| "the link is damaged (not text)")?;
    from_json(&text)
}

/// The text of an exported file.
pub fn to_file<S: Shared>(scene: &S) -> String {
    serde_json::to_string_pretty(&scene.shared()).unwrap_or_default()
}

/// The scene an imported file holds, or why it can't be read.
pub fn from_file<S: Shared>(text: &str) -> Result<S, String> {
    if text.len() > MAX_SHARED {
        return Err(format!("the file is {} bytes, more than a scene can be", text.len()));
    }
    from_json(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{embedding, linear, one_hot, rnn, train};

    fn round_trip<S: Shared + PartialEq + std::fmt::Debug>(s: &S) {
        assert_eq!(&from_link::<S>(&to_link(s)).unwrap(), &s.shared());
        assert_eq!(&from_file::<S>(&to_file(s)).unwrap(), &s.shared());
    }

    #[test]
    fn every_scene_survives_a_link_and_a_file_without_its_history() {
        let mut l = linear::State::default();
        l.sgd_step().unwrap();
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
        t.run(3).unwrap();
        let back: train::State = from_link(&to_link(&t)).unwrap();
        assert_eq!((back.losses.len(), back.history.len()), (3, 0));
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
        assert!(from_link::<linear::State>(&"A".repeat(MAX_SHARED + 1)).unwrap_err().contains("characters long"));
    }
}
