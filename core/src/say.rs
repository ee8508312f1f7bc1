//! What rowflow says in words, as facts: a message of `l10n/<lang>/*.ftl` (Project Fluent) and its
//! arguments. The core says what happened; the app writes it in the learner's language (the
//! app's `src/l10n.rs`), the notebook worker and the tests with Project Fluent's Rust crate
//! ([`Fluent`], feature `fluent`). Numbers a learner compares with PyTorch's are text as rowflow
//! prints them; counts are numbers, so the language agrees with them.

/// A message and its arguments, made with [`say!`].
#[derive(Clone, Debug, PartialEq)]
pub struct Say {
    /// A literal, but for the messages a lesson's steps say (`lesson-linear-row-or-column-step-2`).
    pub id: std::borrow::Cow<'static, str>,
    /// Named as the message's variables: literals, but for a lesson's (`output_0_1`).
    pub args: Vec<(std::borrow::Cow<'static, str>, Arg)>,
}

/// One argument: a count, text, or a message of its own said first (a part of a sentence).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Count(f64),
    Text(String),
    Say(Box<Say>),
}

macro_rules! counts {
    ($($t:ty),*) => {$(impl From<$t> for Arg {
        fn from(n: $t) -> Self { Arg::Count(n as f64) }
    })*};
}
counts!(usize, u32, u64, i32, i64, f64);

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Text(s.to_owned())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Text(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Self {
        Arg::Text(s.clone())
    }
}
impl From<Say> for Arg {
    fn from(s: Say) -> Self {
        Arg::Say(Box::new(s))
    }
}

impl Say {
    pub fn new(
        id: impl Into<std::borrow::Cow<'static, str>>,
        args: Vec<(std::borrow::Cow<'static, str>, Arg)>,
    ) -> Self {
        Self { id: id.into(), args }
    }
}

/// A [`Say`]: the message's id, a string literal (tools/l10n_check.mjs finds each one written
/// here), then `name = value` for each argument.
#[macro_export]
macro_rules! say {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::say::Say::new($id, vec![$((stringify!($name).into(), $crate::say::Arg::from($value))),*])
    };
}

/// How wide a caption may be: two lines of the projector's 24 px timeline after its
/// `Step 12 of 40: `, in half-width characters (a Chinese character is two).
pub const CAPTION: usize = 140;

/// `text`'s width in half-width characters: East Asian wide characters count two.
pub fn width(text: &str) -> usize {
    text.chars().map(|c| if wide(c) { 2 } else { 1 }).sum()
}

fn wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6)
}

/// A caption said the longest way that fits two lines (`ways`, the most said first; the last is
/// said whatever its length), each way written by `write`.
pub fn caption(ways: &[Say], write: impl Fn(&Say) -> String) -> String {
    let mut said = String::new();
    for way in ways {
        said = write(way);
        if width(&said) <= CAPTION {
            break;
        }
    }
    said
}

/// What writes a [`Say`] as text.
type Writer = Box<dyn Fn(&Say) -> String>;

thread_local! {
    static WRITER: std::cell::RefCell<Option<Writer>> = const { std::cell::RefCell::new(None) };
}

/// Makes `writer` what [`write`] writes with: the page's (the learner's language, through
/// boot.js), or a worker's ([`Fluent`] over the messages the page sent it).
pub fn install(writer: impl Fn(&Say) -> String + 'static) {
    WRITER.with(|w| *w.borrow_mut() = Some(Box::new(writer)));
}

/// `say` in the language installed (the notebook's captions); in the native tests English; with
/// none, its id.
pub fn write(say: &Say) -> String {
    let written = WRITER.with(|w| w.borrow().as_ref().map(|w| w(say)));
    match written {
        Some(text) => text,
        #[cfg(all(feature = "fluent", not(target_arch = "wasm32")))]
        None => {
            thread_local!(static ENGLISH: Fluent = Fluent::english());
            ENGLISH.with(|e| e.say(say))
        }
        #[cfg(not(all(feature = "fluent", not(target_arch = "wasm32"))))]
        None => say.id.to_string(),
    }
}

/// Project Fluent's Rust formatter over one language's messages: for the notebook worker, which
/// has no page to ask, and for the tests, in English.
#[cfg(feature = "fluent")]
pub struct Fluent(fluent_bundle::FluentBundle<fluent_bundle::FluentResource>);

#[cfg(feature = "fluent")]
impl Fluent {
    /// `lang`'s messages, from the text of its `.ftl` files.
    pub fn new(lang: &str, ftl: &[String]) -> Result<Self, String> {
        let tag = lang.parse().map_err(|e| format!("{lang}: {e:?}"))?;
        let mut bundle = fluent_bundle::FluentBundle::new(vec![tag]);
        bundle.set_use_isolating(false);
        for text in ftl {
            let resource =
                fluent_bundle::FluentResource::try_new(text.clone()).map_err(|(_, e)| format!("{lang}: {e:?}"))?;
            bundle.add_resource(resource).map_err(|e| format!("{lang}: {e:?}"))?;
        }
        Ok(Self(bundle))
    }

    /// English, from the repository's `l10n/en/` (the tests').
    #[cfg(not(target_arch = "wasm32"))]
    pub fn english() -> Self {
        Self::language("en")
    }

    /// A language of the repository's `l10n/` (the tests').
    #[cfg(not(target_arch = "wasm32"))]
    pub fn language(lang: &str) -> Self {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../l10n").join(lang);
        let mut files: Vec<_> = std::fs::read_dir(&dir).expect("l10n/<lang>").flatten().map(|e| e.path()).collect();
        files.sort();
        let texts: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).expect("an .ftl file")).collect();
        Self::new(lang, &texts).expect("the messages parse")
    }

    /// `say` in this language; a message it lacks is its id.
    pub fn say(&self, say: &Say) -> String {
        use fluent_bundle::{FluentArgs, FluentValue};
        let id: &str = &say.id;
        let (name, attribute) = id.split_once('.').map_or((id, None), |(m, a)| (m, Some(a)));
        let Some(message) = self.0.get_message(name) else { return say.id.to_string() };
        let pattern = match attribute {
            Some(a) => message.get_attribute(a).map(|a| a.value()),
            None => message.value(),
        };
        let Some(pattern) = pattern else { return say.id.to_string() };
        let mut args = FluentArgs::new();
        for (name, value) in &say.args {
            let value = match value {
                Arg::Count(n) => FluentValue::from(*n),
                Arg::Text(t) => FluentValue::from(t.clone()),
                Arg::Say(s) => FluentValue::from(self.say(s)),
            };
            args.set(name.to_string(), value);
        }
        let mut errors = Vec::new();
        self.0.format_pattern(pattern, Some(&args), &mut errors).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chinese_character_is_two_wide() {
        assert_eq!(width("output[0] = 1.5"), 15);
        assert_eq!(width("第 3 步"), 7);
        assert_eq!(width("（，）"), 6);
    }

    #[test]
    fn a_caption_is_the_longest_way_that_fits() {
        let long = say!("long");
        let short = say!("short");
        let write = |s: &Say| if s.id == "long" { "x".repeat(CAPTION + 1) } else { "fits".into() };
        assert_eq!(caption(&[long.clone(), short], write), "fits");
        assert_eq!(caption(&[long], write).len(), CAPTION + 1);
    }
}
