/// Milliseconds per call of `work`, repeated until `budget_ms` has passed (or a stuck clock has
/// seen a million calls), and the number of calls.
pub(super) fn per_call<T>(now: &mut impl FnMut() -> f64, budget_ms: f64, mut work: impl FnMut() -> T) -> (f64, u32) {
    let start = now();
    let mut calls = 0u32;
    loop {
        std::hint::black_box(work());
        calls += 1;
        let elapsed = now() - start;
        if elapsed >= budget_ms || calls >= 1_000_000 {
            return (elapsed / calls as f64, calls);
        }
    }
}

/// Both ways timed in the browser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub lookup_ms: f64,
    pub lookup_calls: u32,
    pub one_hot_ms: f64,
    pub one_hot_calls: u32,
}

impl Timing {
    /// How many times longer the one-hot way takes.
    pub fn ratio(&self) -> f64 {
        self.one_hot_ms / self.lookup_ms.max(f64::MIN_POSITIVE)
    }

    /// `Lookup 0.000412 ms per call, one-hot × Linear 21.3 ms per call: 51,699× the lookup's time.`
    pub fn caption(&self) -> String {
        let r = self.ratio();
        let ratio = if r >= 10.0 { grouped(r.round() as usize) } else { format!("{r:.1}") };
        format!(
            "Lookup {} ms per call, one-hot × Linear {} ms per call: {ratio}× the lookup's time.",
            significant(self.lookup_ms),
            significant(self.one_hot_ms),
        )
    }
}

/// A count with its thousands marked, as read aloud: `9,600,000`.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Three significant digits: `0.000412`, `21.3`, `1530`.
fn significant(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return format!("{x}");
    }
    let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}
