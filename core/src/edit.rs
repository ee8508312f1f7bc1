//! What a learner types or pastes into a grid, read the way Python would read it: a cell's text
//! (`1.5`, `-2e-3`, `nan`, `inf`) and a pasted block, either spreadsheet cells (tabs/commas and
//! newlines) or a Python/PyTorch literal (`[[1, 2], [3, 4]]`, `tensor([1., 2.])`).

use crate::decimal;

/// A float cell's text as `float()` reads it, or a plain-words reason.
pub fn parse_float(text: &str) -> Result<f32, String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    // One sign at most: `-inf`, not `--inf`.
    let special = match lower.strip_prefix(['+', '-']).unwrap_or(&lower) {
        "nan" => Some(f32::NAN),
        "inf" | "infinity" => Some(f32::INFINITY),
        _ => None,
    };
    if let Some(v) = special {
        return Ok(if lower.starts_with('-') { -v } else { v });
    }
    let plain = t.replace('_', "");
    let numeric = !plain.is_empty() && plain.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    match decimal::parse(&plain) {
        // float32 would make it inf without a word: say so, and let inf be typed as inf.
        Some(v) if numeric && underscores_between_digits(t) && (v as f32).is_infinite() => Err(format!(
            "{t} is too large for float32, whose largest number is about 3.4e38; type inf if infinity is meant"
        )),
        Some(v) if numeric && underscores_between_digits(t) => Ok(v as f32),
        _ if t.is_empty() => Err("type a number".into()),
        _ if t.contains(',') && decimal::parse(&t.replace(',', ".")).is_some() => Err(format!(
            "could not convert string to float: '{t}'. Type a number such as 0.5, with a point, not a comma"
        )),
        _ => Err(format!("could not convert string to float: '{t}'. {FLOAT_HINT}")),
    }
}

/// What a float cell takes, in plain words.
const FLOAT_HINT: &str = "Type a number such as 0.5, -2 or 1e-3";

/// An int field's text as `int()` reads it (`3`, `-1`), or a plain-words reason.
pub fn parse_int(text: &str) -> Result<i64, String> {
    int(text, INT_HINT)
}

/// An id cell's text, as `parse_int`, for a table of `rows` rows: the hint names their range.
/// Range checks are the op's: PyTorch only complains when the id is used.
pub fn parse_id(text: &str, rows: usize) -> Result<i64, String> {
    match rows {
        0 => int(text, "Ids are whole numbers, and this table has no rows yet"),
        1 => int(text, "Ids are whole numbers, and this table's only row is 0"),
        _ => int(text, &format!("Ids are whole numbers from 0 to {}", rows - 1)),
    }
}

fn int(text: &str, hint: &str) -> Result<i64, String> {
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'_') || !underscores_between_digits(t) {
        return Err(format!("invalid literal for int() with base 10: '{t}'. {hint}"));
    }
    t.replace('_', "").parse::<i64>().map_err(|_| format!("{t} does not fit in int64"))
}

/// What an int field takes, in plain words.
const INT_HINT: &str = "Type a whole number such as 0, 1 or 2";

/// Python reads `1_000` (PEP 515): each `_` sits between two digits, so not `_1`, `1_`, `1__0`.
fn underscores_between_digits(t: &str) -> bool {
    let b = t.as_bytes();
    let digit = |i: Option<usize>| i.and_then(|i| b.get(i)).is_some_and(u8::is_ascii_digit);
    (0..b.len()).filter(|&i| b[i] == b'_').all(|i| digit(i.checked_sub(1)) && digit(Some(i + 1)))
}

/// A pasted block as rows of cell texts. `[[1, 2], [3, 4]]` and `tensor([1., 2.])` are read as
/// Python literals (a 1-D list is one row, a 3-D list stacks its matrices' rows); anything else
/// as spreadsheet rows split on tabs, commas or spaces.
pub fn parse_block(text: &str) -> Result<Vec<Vec<String>>, String> {
    let t = text.trim();
    let inner = t.strip_prefix("torch.tensor(").or_else(|| t.strip_prefix("tensor(")).map(|r| {
        let r = r.trim_end().strip_suffix(')').unwrap_or(r);
        // Drop trailing keyword arguments such as `, dtype=torch.float32`.
        r.rfind(']').map_or(r, |i| &r[..=i])
    });
    let t = inner.unwrap_or(t);
    if t.starts_with('[') {
        return parse_literal(t);
    }
    let rows: Vec<Vec<String>> = t
        .lines()
        .map(|line| line.split(['\t', ',', ' ']).filter(|c| !c.is_empty()))
        .map(|cells| cells.map(str::to_string).collect::<Vec<_>>())
        .filter(|row| !row.is_empty())
        .collect();
    if rows.is_empty() {
        Err("nothing to paste".into())
    } else {
        Ok(rows)
    }
}

/// Nested brackets → the innermost lists as rows.
fn parse_literal(t: &str) -> Result<Vec<Vec<String>>, String> {
    let (mut depth, mut max_depth, mut rows, mut cell, mut row) =
        (0usize, 0usize, Vec::new(), String::new(), Vec::new());
    for c in t.chars() {
        match c {
            '[' => {
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            ']' | ',' => {
                let text = cell.trim().to_string();
                if !text.is_empty() {
                    row.push(text);
                }
                cell.clear();
                if c == ']' {
                    if depth == 0 {
                        return Err("unbalanced ']'".into());
                    }
                    if !row.is_empty() {
                        rows.push(std::mem::take(&mut row));
                    }
                    depth -= 1;
                }
            }
            c if depth > 0 => cell.push(c),
            c if c.is_whitespace() => {}
            _ => return Err(format!("unexpected '{c}' outside the brackets")),
        }
    }
    match (depth, rows.is_empty()) {
        (0, false) => Ok(rows),
        (0, true) => Err("the list is empty".into()),
        _ => Err(format!("{depth} '[' left open")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[&str]]) -> Vec<Vec<String>> {
        v.iter().map(|r| r.iter().map(|s| s.to_string()).collect()).collect()
    }

    #[test]
    fn floats_read_like_python() {
        assert_eq!(parse_float(" 1.5 "), Ok(1.5));
        assert_eq!(parse_float("-2e-3"), Ok(-0.002));
        assert_eq!(parse_float("1_000"), Ok(1000.0));
        assert!(parse_float("nan").unwrap().is_nan());
        assert_eq!(parse_float("-inf"), Ok(f32::NEG_INFINITY));
        // Found by fuzz/numbers: one sign, as in Python's float().
        assert_eq!(parse_float("+Infinity"), Ok(f32::INFINITY));
        for bad in ["+++inf", "--inf", "-+nan"] {
            assert_eq!(parse_float(bad), Err(format!("could not convert string to float: '{bad}'. {FLOAT_HINT}")));
        }
        assert_eq!(parse_float("abc"), Err(format!("could not convert string to float: 'abc'. {FLOAT_HINT}")));
        assert!(parse_float("1,5").unwrap_err().ends_with("with a point, not a comma"));
        assert!(parse_float("1e40").unwrap_err().starts_with("1e40 is too large for float32"));
        assert_eq!(parse_float("3.4e38"), Ok(3.4e38));
        assert!(parse_float("1..2").is_err());
        // Found by fuzz/numbers: `_` only between digits, as in Python's float().
        assert_eq!(parse_float("1_0.2_5e1_0"), Ok(1.025e11));
        for bad in ["-_1", "1__0", "1_.5", "1._5", "1_e5", "1e_5", "_1", "1_"] {
            assert_eq!(parse_float(bad), Err(format!("could not convert string to float: '{bad}'. {FLOAT_HINT}")));
        }
        assert!(parse_float("").is_err());
        assert_eq!(parse_int("-3"), Ok(-3));
        assert_eq!(parse_int("2.5"), Err(format!("invalid literal for int() with base 10: '2.5'. {INT_HINT}")));
        // Found by fuzz/numbers: Python's int() reads underscores between digits.
        assert_eq!(parse_int("1_000"), Ok(1000));
        let hint = "invalid literal for int() with base 10: '1.5'. Ids are whole numbers";
        assert_eq!(parse_id("1.5", 4), Err(format!("{hint} from 0 to 3")));
        assert_eq!(parse_id("1.5", 1), Err(format!("{hint}, and this table's only row is 0")));
        assert_eq!(parse_id("7", 4), Ok(7), "out of range is the op's to say, as PyTorch does");
        for bad in ["_1", "1_", "1__0", "+_1", "_"] {
            assert_eq!(parse_int(bad), Err(format!("invalid literal for int() with base 10: '{bad}'. {INT_HINT}")));
        }
    }

    #[test]
    fn blocks_from_spreadsheets_and_python() {
        assert_eq!(parse_block("1\t2\n3\t4\n"), Ok(rows(&[&["1", "2"], &["3", "4"]])));
        assert_eq!(parse_block("[[1, 2], [3, 4]]"), Ok(rows(&[&["1", "2"], &["3", "4"]])));
        assert_eq!(parse_block("tensor([0.5, -1.])"), Ok(rows(&[&["0.5", "-1."]])));
        assert_eq!(
            parse_block("torch.tensor([[[1,1],[2,2]],[[3,3],[4,4]]], dtype=torch.float32)"),
            Ok(rows(&[&["1", "1"], &["2", "2"], &["3", "3"], &["4", "4"]]))
        );
        assert!(parse_block("[[1, 2]").is_err());
        assert!(parse_block("   ").is_err());
    }
}
