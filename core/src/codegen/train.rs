//! The Train scene's script: the fastai `DotProduct` (as in `tools/make_fixtures.py`) with the
//! factors on show (the seed's draw and the SGD steps the page took, replayed, where they lead
//! there), the ratings, the output, `F.mse_loss` and every `.grad` the page shows; then, apart,
//! "Run N steps": `steps` more steps of `torch.optim.SGD`.

use super::{by_hand, float, same, string, Numbers, Py, Script, Section};
use crate::scene::contract::{Edit, Scene};
use crate::scene::train::{Computed, State};
use crate::tensor::{Ids, Tensor};
use crate::torch_rng::Generator;

const DOT_PRODUCT: &str = r#"class DotProduct(nn.Module):
    """The fastai book's recommender: a user's and a movie's factors, multiplied and summed."""

    def __init__(self, n_users, n_movies, n_factors):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, n_factors)
        self.movie_factors = nn.Embedding(n_movies, n_factors)

    def forward(self, x):
        users = self.user_factors(x[:, 0])
        movies = self.movie_factors(x[:, 1])
        return (users * movies).sum(dim=1)"#;

/// What `torch.manual_seed(seed); DotProduct(...)` draws: users first, then movies.
fn drawn(s: &State) -> Option<(i128, Tensor, Tensor)> {
    let seed = Generator::parse_seed(&s.seed).ok()?;
    let mut g = Generator::manual_seed(seed).ok()?;
    let users = g.embedding(s.n_users(), s.n_factors(), None).ok()?;
    let movies = g.embedding(s.n_movies(), s.movie_factors.shape().get(1).copied()?, None).ok()?;
    Some((seed, users, movies))
}

/// Multiply-adds a script's replay of the page's steps may cost the page to check: past them,
/// the factors are written out instead.
const REPLAY_WORK: usize = 1 << 20;

/// How many SGD steps from the seed's draw (`draw`) make the factors on show, when replaying
/// them gives those very bits (and the loss curve): no factor edited since, nor the ratings or
/// `lr` changed along the way.
fn replayed(s: &State, draw: &(i128, Tensor, Tensor)) -> Option<usize> {
    let (k, start) = (s.learning.steps, s.learning.start.as_ref()?);
    let drawn = |name: &str, t: &Tensor| start.iter().any(|(n, p)| n == name && same(p, t));
    let work = k.saturating_mul(s.ratings.len()).saturating_mul(s.n_factors());
    if k == 0 || work > REPLAY_WORK || !drawn("user_factors.weight", &draw.1) || !drawn("movie_factors.weight", &draw.2)
    {
        return None;
    }
    let mut replay = s.clone();
    (replay.user_factors, replay.movie_factors) = (draw.1.clone(), draw.2.clone());
    replay.learning.forget();
    replay.apply(&Edit::Run { steps: k }).ok()?;
    let bits = |t: &[f32]| t.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let tables = [(&replay.user_factors, &s.user_factors), (&replay.movie_factors, &s.movie_factors)];
    let same_tables = tables.iter().all(|(a, b)| same(a, b));
    (same_tables && bits(&replay.learning.losses) == bits(&s.learning.losses)).then_some(k)
}

/// The script in its sections, which a notebook makes its cells.
pub(super) fn sections(s: &State, c: &Computed, steps: usize, numbers: Numbers) -> Script {
    let mut py = Py::new(c.issues.first().map(|i| &i.error), numbers);
    py.blank();
    DOT_PRODUCT.lines().for_each(|l| py.line(l));
    py.blank();
    py.blank();
    let draw = drawn(s);
    let replay = draw.as_ref().and_then(|d| replayed(s, d));
    let tables = [("model.user_factors.weight", &s.user_factors), ("model.movie_factors.weight", &s.movie_factors)];
    let matches = |k: usize| replay.is_some() || draw.as_ref().is_some_and(|d| same([&d.1, &d.2][k], tables[k].1));
    let seeded = matches(0) || matches(1);
    if let (true, Some((seed, ..))) = (seeded, &draw) {
        py.line(format!("torch.manual_seed({seed})"));
    }
    py.line(format!("model = DotProduct({}, {}, {})", s.n_users(), s.n_movies(), s.n_factors()));
    let edited: Vec<(String, &Tensor)> =
        (0..2).filter(|&k| !seeded || !matches(k)).map(|k| (tables[k].0.to_string(), tables[k].1)).collect();
    py.set_by_hand(&edited, &by_hand(s.learning.losses.len(), seeded));
    py.comment("one rating per row: (user, movie) in x, the rating in target");
    let pairs = s.ratings.iter().flat_map(|r| [r.user, r.movie]).collect();
    let x = Ids::new(vec![s.ratings.len(), 2], pairs).unwrap_or_else(|_| Ids::vector(Vec::new()));
    py.assign("x", &x, &[]);
    py.assign("target", &Tensor::vector(s.ratings.iter().map(|r| r.rating).collect()), &[]);
    py.line(format!("opt = torch.optim.SGD(model.parameters(), lr={})", lr(&s.learning.lr)));
    if let Some(k) = replay {
        let steps = if k == 1 { "step".to_string() } else { format!("{k} steps") };
        py.comment(&format!(
            "the SGD {steps} the page took, each as it took it: each prints its loss, the page's loss curve"
        ));
        sgd_loop(&mut py, k, "loss", false);
    }
    py.section(Section::Forward);
    py.line("output = model(x)");
    py.show("output");
    py.section(Section::Backward);
    py.line("opt.zero_grad()");
    py.line("loss = F.mse_loss(output, target)");
    py.line("loss.backward()  # only the rated rows get gradient");
    py.show("loss");
    py.show("model.user_factors.weight.grad");
    py.show("model.movie_factors.weight.grad");
    py.section(Section::Sgd);
    py.comment(&format!("Run N steps: {steps} more SGD steps from the numbers on the page, as its button takes them"));
    py.line("losses = []");
    sgd_loop(&mut py, steps, "step_loss", true);
    py.finish()
}

/// `steps` SGD steps on every rating, each printing its loss (named `loss`), also kept in
/// `losses` if `keep`.
fn sgd_loop(py: &mut Py, steps: usize, loss: &str, keep: bool) {
    py.line(format!("for step in range({steps}):"));
    py.line("    opt.zero_grad()");
    py.line(format!("    {loss} = F.mse_loss(model(x), target)"));
    py.line(format!("    {loss}.backward()"));
    py.line("    opt.step()  # param -= lr * param.grad: only the rated rows have gradient");
    if keep {
        py.line(format!("    losses.append({loss}.item())"));
    }
    py.line(format!("    print(step, {loss}.item())"));
}

/// `lr` as the learner typed it when Python reads it as that number, else its value; text that
/// is no number (only a link can carry it) as `float('...')`, which raises the scene's error and
/// keeps the text a string.
pub(super) fn lr(text: &str) -> String {
    let t = text.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(i) => (&digits[..i], Some(&digits[i + 1..])),
        None => (digits, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && all_digits(e)
    });
    let plain = !int.is_empty() || !frac.is_empty();
    // `01` is a SyntaxError in Python 3; `01.5` and `1e01` are fine.
    let int_literal = !mantissa.contains('.') && exponent.is_none();
    let leading_zero = int_literal && int.len() > 1 && int.starts_with('0') && int.bytes().any(|b| b != b'0');
    if plain && all_digits(int) && all_digits(frac) && exponent_ok && !leading_zero {
        return t.to_string();
    }
    crate::edit::parse_float(t).map(float).unwrap_or_else(|_| format!("float({})", string(t)))
}
