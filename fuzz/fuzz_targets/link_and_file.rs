//! Share links and files (`scene::share`) for all five scenes. The input is tried as a file's
//! text, as a link's payload, and base64url-encoded as a link (so the link path reaches the JSON
//! reader). Whatever decodes must be usable as the app uses it after opening a link:
//! - a file and a link carrying the same JSON give the same scene (or the same refusal);
//! - `compute()` doesn't panic, also after an SGD step and its undo;
//! - its own link and file read back to it (compared as JSON, where NaN equals NaN);
//! - its PyTorch script is written without a panic and carries nothing from the link as code.
#![no_main]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use libfuzzer_sys::fuzz_target;
use rowflow_core::codegen;
use rowflow_core::scene::contract::{self, Edit};
use rowflow_core::scene::share::{from_file, from_link, to_file, to_link, Shared, MAX_FILE, MAX_LINK};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, to_json, train};
use std::fmt::Debug;

/// What the app does with a scene once it is open.
trait Scene: Shared + PartialEq + Debug {
    /// `compute()`, whose result the views draw.
    fn compute(&self);
    /// The PyTorch panel's script.
    fn code(&self) -> String;
    /// The "SGD step" button, then "Undo" (refusals are fine).
    fn step(&mut self);
}

/// The four scenes on the shared contract: a step and its undo are `Edit`s.
macro_rules! learning_scene {
    ($($scene:ident;)*) => {$(
        impl Scene for $scene::State {
            fn compute(&self) {
                let _ = $scene::State::compute(self);
            }
            fn code(&self) -> String {
                codegen::$scene(self)
            }
            fn step(&mut self) {
                let _ = contract::Scene::apply(self, &Edit::Step);
                let _ = contract::Scene::apply(self, &Edit::Undo);
            }
        }
    )*};
}
learning_scene! {
    linear;
    embedding;
    one_hot;
    rnn;
}

impl Scene for train::State {
    fn compute(&self) {
        let _ = train::State::compute(self);
    }
    fn code(&self) -> String {
        let py = codegen::train(self, 3);
        check_lr(&self.learning.lr, &py);
        py
    }
    fn step(&mut self) {
        let _ = contract::Scene::apply(self, &Edit::Step);
        let _ = contract::Scene::apply(self, &Edit::Undo);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let link = URL_SAFE_NO_PAD.encode(text);
    check::<linear::State>(text, &link);
    check::<embedding::State>(text, &link);
    check::<one_hot::State>(text, &link);
    check::<rnn::State>(text, &link);
    check::<train::State>(text, &link);
});

fn check<S: Scene>(text: &str, link: &str) {
    let file = from_file::<S>(text);
    if link.len() <= MAX_LINK {
        match (&file, from_link::<S>(link)) {
            (Ok(a), Ok(b)) => assert_eq!(to_json(a), to_json(&b), "a file and a link of the same JSON differ"),
            (Err(a), Err(b)) => assert_eq!(a, &b),
            (a, b) => panic!("the file gives {a:?}, the link with the same JSON {b:?}"),
        }
    }
    if let Ok(s) = &file {
        usable(s);
    }
    if let Ok(s) = from_link::<S>(text) {
        usable(&s);
    }
}

fn usable<S: Scene>(s: &S) {
    s.compute();
    let shared = s.shared();
    let json = to_json(&shared);
    let (link, file) = (to_link(s), to_file(s));
    if link.len() <= MAX_LINK {
        let back = from_link::<S>(&link).unwrap_or_else(|e| panic!("its own link is refused: {e}\n{json}"));
        same(&back, &shared, &json);
    }
    if file.len() <= MAX_FILE {
        let back = from_file::<S>(&file).unwrap_or_else(|e| panic!("its own file is refused: {e}\n{json}"));
        same(&back, &shared, &json);
    }
    script_is_ours(&s.code());
    let mut stepped = s.clone();
    stepped.step();
    stepped.compute();
    script_is_ours(&stepped.code());
}

/// Equal as JSON; also by `==` unless a NaN (never equal to itself) is in it.
fn same<S: Scene>(back: &S, shared: &S, json: &str) {
    assert_eq!(to_json(back), json, "the link or file reads back as another scene");
    if !json.contains("nan") {
        assert_eq!(back, shared);
    }
}

/// The script's structure comes from the code generator, never from the link: the imports are
/// its own, Python sees the lines Rust wrote (no `\r`, which Python also ends a line at, and no
/// NUL, which Python refuses in source), and the error comment is one comment line.
fn script_is_ours(py: &str) {
    assert!(py.starts_with("import torch\nfrom torch import nn\n"), "{py}");
    assert!(!py.contains(['\r', '\0']), "{py}");
    let lines: Vec<&str> = py.lines().collect();
    let header = if lines.get(2) == Some(&"import torch.nn.functional as F") { 3 } else { 2 };
    for (i, line) in lines.iter().enumerate().skip(header) {
        assert!(!line.starts_with("import ") && !line.starts_with("from "), "line {i} imports: {py}");
        if line.starts_with("# PyTorch raises on this state: ") {
            assert_eq!(lines.get(i + 1), Some(&"# (the scene shows the same error)"), "{py}");
        }
    }
}

/// `SGD(lr=...)` holds a number, or `float('...')` of a string literal holding the link's `lr`.
fn check_lr(lr: &str, py: &str) {
    let line = py.lines().find(|l| l.starts_with("opt = torch.optim.SGD(")).expect("the optimizer line");
    let arg = line.strip_prefix("opt = torch.optim.SGD(model.parameters(), lr=").and_then(|r| r.strip_suffix(')'));
    let arg = arg.unwrap_or_else(|| panic!("{line}"));
    let number = !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_digit() || b"+-.eE_".contains(&b));
    let special = ["float('nan')", "float('inf')", "-float('inf')"].contains(&arg);
    let string = arg.strip_prefix("float(").and_then(|r| r.strip_suffix(')')).and_then(python_string);
    assert!(number || special || string.as_deref() == Some(lr.trim()), "lr {lr:?} is written as {arg:?}");
}

/// The text of a single-quoted Python string literal of printable ASCII with `\\`, `\'`, `\xNN`,
/// `\uNNNN` and `\UNNNNNNNN` escapes (what the code generator writes), `None` if it is not one.
fn python_string(lit: &str) -> Option<String> {
    let body = lit.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = body.chars();
    let mut out = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let width = match chars.next()? {
                    e @ ('\\' | '\'') => {
                        out.push(e);
                        continue;
                    }
                    'x' => 2,
                    'u' => 4,
                    'U' => 8,
                    _ => return None,
                };
                let hex: String = chars.by_ref().take(width).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?).filter(|_| hex.len() == width)?);
            }
            '\'' => return None,
            ' '..='~' => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}
