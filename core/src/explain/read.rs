//! Reading what a learner pastes: PyTorch's error messages by their templates, and the few
//! lines that build and call a layer (`nn.Linear(6, 10)(torch.randn(2, 5))`).

/// The holes of `template` (`{}` each) as `text` fills them, where the template's words occur
/// in `text` in order: anywhere on one line, so a traceback's last line or a message in a
/// sentence reads the same. A hole never spans a line.
pub fn holes<'a>(template: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let parts: Vec<&str> = template.split("{}").collect();
    text.lines().find_map(|line| {
        let mut at = line.find(parts[0])? + parts[0].len();
        let mut out = Vec::with_capacity(parts.len() - 1);
        for part in &parts[1..] {
            let end = if part.is_empty() { line.len() } else { at + line[at..].find(part)? };
            out.push(line[at..end].trim());
            at = end + part.len();
        }
        Some(out)
    })
}

/// `6` as a size; `None` for anything else (a name, `-1`, a huge number).
pub fn size(text: &str) -> Option<usize> {
    text.trim().parse().ok().filter(|&n| n <= 1 << 20)
}

/// `2, 5` or `(2, 5)` or `[2, 5]` or `torch.Size([2, 5])` as sizes.
pub fn sizes(text: &str) -> Option<Vec<usize>> {
    let inner = text.trim().trim_start_matches("torch.Size(").trim_end_matches(')').trim_end_matches(',');
    let inner = inner.trim_start_matches(['(', '[']).trim_end_matches([')', ']']);
    inner.split(',').map(str::trim).filter(|s| !s.is_empty()).map(size).collect()
}

/// The arguments of the first call of `name(` in `text`, split at top-level commas, or `None`
/// if there is no such call or it is never closed.
pub fn call<'a>(name: &str, text: &'a str) -> Option<Vec<&'a str>> {
    let start = text.find(name)? + name.len();
    let mut depth = 0usize;
    for (i, c) in text[start..].char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' if depth > 0 => depth -= 1,
            ')' => return Some(split_top(&text[start..start + i])),
            _ => {}
        }
    }
    None
}

/// `name=value` among a call's arguments.
pub fn keyword<'a>(args: &[&'a str], name: &str) -> Option<&'a str> {
    args.iter().find_map(|a| a.split_once('=').filter(|(k, _)| k.trim() == name).map(|(_, v)| v.trim()))
}

/// The positional arguments of a call.
pub fn positional<'a>(args: &[&'a str]) -> Vec<&'a str> {
    args.iter().copied().filter(|a| !a.contains('=')).collect()
}

/// A shape made by `torch.randn(2, 5)`, `torch.rand((2, 5))`, `torch.zeros(2, 5)` or
/// `torch.ones(2, 5)`, the first of them in `text` after `from`, and where it ends.
pub fn made_tensor(text: &str, from: usize) -> Option<(Vec<usize>, usize)> {
    let rest = text.get(from..)?;
    let (at, name) = ["torch.randn(", "torch.rand(", "torch.zeros(", "torch.ones(", "torch.empty("]
        .iter()
        .filter_map(|n| rest.find(n).map(|at| (at, *n)))
        .min()?;
    let args = call(name, &rest[at..])?;
    let dims = positional(&args);
    let shape = match dims[..] {
        [one] if one.starts_with(['(', '[']) => sizes(one)?,
        _ => dims.iter().map(|d| size(d)).collect::<Option<Vec<_>>>()?,
    };
    Some((shape, from + at + name.len()))
}

/// A nested list literal's ids and shape: `[4]` → ([4], [1]), `[[1, 2], [3, 4]]` → 2×2. Its
/// numbers as written, to tell `[1., 2.]` (floats) from `[1, 2]`.
pub fn id_list(text: &str) -> Option<(Vec<i64>, Vec<usize>, bool)> {
    let text = text.trim();
    let Some(inner) = text.strip_prefix('[') else {
        return match text.parse::<i64>() {
            Ok(n) => Some((vec![n], Vec::new(), false)),
            Err(_) => text.parse::<f64>().ok().filter(|x| x.is_finite()).map(|x| (vec![x as i64], Vec::new(), true)),
        };
    };
    let items = split_top(inner.strip_suffix(']')?);
    let (mut ids, mut float, mut row) = (Vec::new(), false, None);
    for item in &items {
        let (sub, shape, f) = id_list(item)?;
        if *row.get_or_insert_with(|| shape.clone()) != shape {
            return None;
        }
        ids.extend(sub);
        float |= f;
    }
    let shape = [vec![items.len()], row.unwrap_or_default()].concat();
    Some((ids, shape, float))
}

/// `text` split at its commas outside brackets, each part trimmed, empty ones left out.
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut from, mut out) = (0usize, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(text[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[from..].trim());
    out.retain(|s| !s.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_reads_its_holes_anywhere_on_a_line() {
        let text = "Traceback ...\nRuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)\n";
        let got = holes("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", text);
        assert_eq!(got, Some(vec!["2", "5", "6", "10"]));
        assert_eq!(holes("Expected {}, got {}", "no match here"), None);
    }

    #[test]
    fn calls_tensors_and_lists_read_as_python_writes_them() {
        assert_eq!(call("nn.Linear(", "nn.Linear(6, 10, bias=False)(x)"), Some(vec!["6", "10", "bias=False"]));
        assert_eq!(made_tensor("lin(torch.randn((2, 5)))", 0).map(|t| t.0), Some(vec![2, 5]));
        assert_eq!(made_tensor("torch.zeros(1, 3, 5)", 0).map(|t| t.0), Some(vec![1, 3, 5]));
        assert_eq!(id_list("[[1, 2], [3, 4]]"), Some((vec![1, 2, 3, 4], vec![2, 2], false)));
        assert_eq!(id_list("[1., 2.]"), Some((vec![1, 2], vec![2], true)));
        assert_eq!(id_list("[4]"), Some((vec![4], vec![1], false)));
        assert_eq!(id_list("[[1], [2, 3]]"), None);
        assert_eq!(sizes("torch.Size([1, 3, 5])"), Some(vec![1, 3, 5]));
    }
}
