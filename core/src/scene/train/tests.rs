use super::state::draw;
use super::*;
use crate::ops::find;
use crate::say::{caption, write};
use crate::scene::contract::{Edit, Scene, MAX_RUN};
use crate::scene::fixtures::{fixture, floats};
use crate::scene::{from_json, history, to_json, Factor};
use crate::tensor::Tensor;
use crate::trace::Phase;
use serde_json::Value;

fn lr(text: &str) -> Edit {
    Edit::Lr { text: text.into() }
}
fn run(steps: usize) -> Edit {
    Edit::Run { steps }
}
fn bits(xs: &[f32]) -> Vec<u32> {
    xs.iter().map(|x| x.to_bits()).collect()
}
fn close(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-5 + 1e-4 * w.abs(), "{what}: {g} vs {w}");
    }
}
fn params_close(s: &State, want: &Value, what: &str) {
    close(s.user_factors.data(), &floats(&want[USERS]), what);
    close(s.movie_factors.data(), &floats(&want[MOVIES]), what);
}

/// A preset against its fixture: the seeded tables bit for bit, the batch, then every step.
fn trains_like_pytorch(preset: &str, name: &str) {
    let (mut s, f) = (State::preset(preset).unwrap(), fixture(name));
    assert_eq!(bits(s.user_factors.data()), bits(&floats(&f["params"][USERS])), "{preset} users");
    assert_eq!(bits(s.movie_factors.data()), bits(&floats(&f["params"][MOVIES])), "{preset} movies");
    assert_eq!((s.n_users(), s.n_movies()), (5, 6));
    assert_eq!(s.n_factors() as u64, f["config"]["n_factors"].as_u64().unwrap());
    let x: Vec<i64> = s.ratings.iter().flat_map(|r| [r.user, r.movie]).collect();
    let want_x: Vec<i64> = f["input"]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(x, want_x);
    assert_eq!(s.ratings.iter().map(|r| r.rating).collect::<Vec<_>>(), floats(&f["target"]));
    assert_eq!(s.learning.lr() as f32, f["optimizer"]["lr"].as_f64().unwrap() as f32);
    let want: Vec<f32> = f["losses"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
    s.step().unwrap();
    params_close(&s, &f["params_after_first_step"], "after step 1");
    s.apply(&run(want.len() - 1)).unwrap();
    close(&s.learning.losses, &want, "losses");
    params_close(&s, &f["params_after"], "after the last step");
    let c = s.compute();
    close(c.output.data(), &floats(&f["output_after"]), "output_after");
    assert_eq!(c.loss_curve.len(), want.len() + 1);
}

#[test]
fn presets_train_like_pytorch() {
    trains_like_pytorch("tiny_factors2", "train_dot_product_sgd_factors2");
    trains_like_pytorch("factors3_lr05", "train_dot_product_sgd_factors3_lr05");
}

#[test]
fn captions_say_each_step() {
    let c = State::default().compute();
    let said = |phase, k| caption(&c.describe(phase, k), write);
    assert_eq!(said(Phase::Forward, 0), "Forward: 8 steps, one per rating. Press Step forward to start.");
    let y = crate::format::short(c.output.data()[1]);
    assert_eq!(
        said(Phase::Forward, 2),
        format!("output[1]: user 0's row times movie 2's row, number by number, summed = {y}.")
    );
    assert_eq!(
        said(Phase::Backward, 0),
        "Backward: 8 steps, from the last rating back to the first. Press Step forward to start."
    );
    let g = crate::format::short(c.output_grad.data()[7]);
    assert_eq!(
        said(Phase::Backward, 1),
        format!(
            "output.grad[7] = {g}: times movie {m}'s row, it adds into user {u}'s gradient row; times user {u}'s \
             row, into movie {m}'s.",
            u = State::default().ratings[7].user,
            m = State::default().ratings[7].movie
        )
    );
    assert_eq!(
        write(&c.captions[0]),
        "Each score is (user_factors[u] * movie_factors[m]).sum(): 2 products added per rating."
    );
    let mut s = State::default();
    s.set_size("n_factors", "1").unwrap();
    assert!(write(&s.compute().captions[0]).ends_with(": 1 product added per rating."));
    // Ratings of users the table no longer has: PyTorch raises, nothing to play.
    s.set_size("n_users", "1").unwrap();
    let c = s.compute();
    assert!(c.stale);
    for phase in [Phase::Forward, Phase::Backward] {
        let said = caption(&c.describe(phase, 0), write);
        assert_eq!(said, "Nothing to play: PyTorch raises on the current ratings.");
    }
}

#[test]
fn only_rated_rows_move() {
    let mut s = State::default();
    let start = s.clone();
    let c = s.compute();
    assert_eq!((c.touched_users.clone(), c.touched_movies.clone()), (vec![0, 1, 2], vec![0, 1, 2, 3, 4]));
    assert!(c.changed_users.is_empty() && c.grads.len() == 2);
    assert!(write(&c.captions[1]).contains("users [3, 4] and movies [5]"));
    let g = find(&c.grads, USERS).unwrap();
    assert!(g.data()[6..].iter().all(|&x| x == 0.0) && g.data()[..6].iter().all(|&x| x != 0.0));
    s.step().unwrap();
    let c = s.compute();
    assert_eq!((c.changed_users, c.changed_movies), (c.touched_users, c.touched_movies));
    assert_eq!(bits(&s.user_factors.data()[6..]), bits(&start.user_factors.data()[6..]));
    assert_eq!(bits(&s.movie_factors.data()[10..]), bits(&start.movie_factors.data()[10..]));
    assert_eq!(c.scatter.len(), 11);
    assert_eq!((c.scatter[6].name.as_str(), c.scatter[6].x), ("movie 1", s.movie_factors.data()[2]));
    assert_eq!(c.forward.len(), 8);
    assert_eq!(c.forward.steps[1].reads[0].to_string(), "ratings[1]");
    assert_eq!(c.backward.steps[0].writes[1].to_string(), "movie_factors.weight.grad[4]");
}

#[test]
fn undo_and_reset() {
    let mut s = State::default();
    let start = s.clone();
    s.apply(&run(2)).unwrap();
    let two = s.clone();
    // Undo gives back the tables bit for bit, and the loss curve.
    let numbers = |s: &State| format!("{:?}", (&s.user_factors, &s.movie_factors, &s.learning.losses, &s.last_good));
    s.step().unwrap();
    s.undo().unwrap();
    assert_eq!(numbers(&s), numbers(&two));
    s.undo().unwrap();
    s.undo().unwrap();
    assert_eq!(numbers(&s), numbers(&start));
    assert_eq!(s.undo(), Err(crate::scene::learn::NOTHING_TO_UNDO.into()));
    s.apply(&run(5)).unwrap();
    s.reset().unwrap();
    assert_eq!(s, start);
    // A factor edit starts the history again; a ratings or lr edit keeps it.
    s.apply(&run(2)).unwrap();
    s.apply(&lr("0.5")).unwrap();
    s.edit("ratings", 2, "3").unwrap();
    assert_eq!((s.learning.history.len(), s.learning.losses.len()), (2, 2));
    s.edit(USERS, 0, "1").unwrap();
    assert!(s.learning.history.is_empty() && s.learning.losses.is_empty());
}

#[test]
fn history_is_capped() {
    let mut s = State::default();
    s.apply(&lr("0")).unwrap();
    for _ in 0..3 {
        s.apply(&run(MAX_RUN)).unwrap();
    }
    assert_eq!((s.learning.history.len(), s.learning.losses.len()), (history::MAX_UNDO_STEPS, 3 * MAX_RUN));
    s.apply(&run(MAX_RUN + 5)).unwrap();
    assert_eq!(s.learning.losses.len(), 4 * MAX_RUN, "one run takes at most MAX_RUN steps");
}

#[test]
fn a_bad_id_is_pinned_and_the_last_predictions_stay() {
    let mut s = State::default();
    let good = s.compute().output;
    s.edit("ratings", 3 * 2, "7").unwrap();
    s.edit("ratings", 3 * 5 + 1, "-1").unwrap();
    let c = s.compute();
    assert!(c.stale && c.loss.is_none() && c.forward.is_empty() && c.grads.is_empty());
    assert_eq!(c.output, good);
    let cells: Vec<_> = c.issues.iter().map(|i| (i.tensor.as_str(), i.cell)).collect();
    assert_eq!(cells, [("ratings", Some(6)), ("ratings", Some(16))]);
    assert_eq!(c.issues[0].error.to_string(), "IndexError: index out of range in self");
    assert_eq!(c.issues[0].hint, "user ids must be in 0..4; user_factors has 5 rows");
    assert!(c.formula("output", &[0]).is_none());
    let before = s.clone();
    assert_eq!(s.step(), Err("IndexError: index out of range in self".into()));
    assert_eq!(s.apply(&run(3)), Err("IndexError: index out of range in self".into()));
    assert!(s.edit("ratings", 0, "1.5").unwrap_err().starts_with("invalid literal for int() with base 10: '1.5'"));
    assert!(s.edit("ratings", 24, "1").is_err() && s.edit("output", 0, "1").is_err());
    assert_eq!(s.apply(&lr("-1")), Err("ValueError: Invalid learning rate: -1".into()));
    assert!(s.set_size("n_factors", "0").is_err() && s.reinit("x").is_err());
    assert!(s.paste("ratings", 23, "1 2").unwrap_err().contains("does not fit"));
    assert_eq!(s, before);
    s.paste("ratings", 6, "[1, 0]").unwrap();
    s.edit("ratings", 16, "4").unwrap();
    assert_eq!(s.ratings, State::default().ratings);
    assert!(s.compute().issues.is_empty());
}

#[test]
fn sizes_redraw_from_the_seed_and_formula_sums_products() {
    let mut s = State::default();
    s.set_size("n_factors", "3").unwrap();
    s.reinit("7").unwrap();
    let p = State::preset("factors3_lr05").unwrap();
    assert_eq!((s.user_factors.clone(), s.movie_factors.clone()), (p.user_factors, p.movie_factors));
    assert!(s.compute().scatter.is_empty());
    s.set_size("n_movies", "4").unwrap();
    let (u, m) = draw("7", 5, 4, 3).unwrap();
    assert_eq!((&s.user_factors, &s.movie_factors), (&u, &m));
    assert_eq!(s.compute().issues.iter().map(|i| i.cell).collect::<Vec<_>>(), [Some(16), Some(22)]);
    s.set_size("ratings", "7").unwrap();
    s.edit("ratings", 16, "3").unwrap();
    let c = s.compute();
    let f = c.formula("output", &[6]).unwrap();
    assert_eq!(f.target, "output[6]");
    assert_eq!(f.products[2].0, Factor::new("user_factors.weight[0, 2]", u.data()[2]));
    assert_eq!(f.products[2].1, Factor::new("movie_factors.weight[3, 2]", m.data()[11]));
    let sum: f32 = f.products.iter().map(|(a, b)| a.value * b.value).sum();
    assert!((sum - f.value).abs() < 1e-6);
    assert!(c.formula("output", &[7]).is_none() && c.formula("output", &[0, 0]).is_none());
}

#[test]
fn state_survives_json_and_hostile_states_do_not_panic() {
    let mut s = State::default();
    s.apply(&run(3)).unwrap();
    assert_eq!(from_json::<State>(&to_json(&s)).unwrap(), s);
    s.apply(&lr("1e30")).unwrap();
    s.apply(&run(3)).unwrap();
    assert!(s.learning.losses.iter().any(|l| !l.is_finite()));
    assert_eq!(to_json(&from_json::<State>(&to_json(&s)).unwrap()), to_json(&s));
    let tables = [
        (r#"{"shape":[2,2],"data":[1,2,3,4]}"#, r#"{"shape":[1,3],"data":[1,2,3]}"#),
        (r#"{"shape":[3],"data":[1,2,3]}"#, r#"{"shape":[0,3],"data":[]}"#),
        (r#"{"shape":[1,0],"data":[]}"#, r#"{"shape":[1,0],"data":[]}"#),
    ];
    for (u, m) in tables {
        let ratings = r#"[{"user":9223372036854775807,"movie":-1,"rating":"nan"},{"user":0,"movie":0,"rating":1}]"#;
        let text = format!(
            r#"{{"preset":"x","seed":"1","ratings":{ratings},"lr":"abc","user_factors":{u},"movie_factors":{m},
            "history":[{{"user_factors":{m},"movie_factors":{u}}}]}}"#
        );
        let mut s: State = from_json(&text).unwrap();
        let c = s.compute();
        assert!(c.stale && !c.issues.is_empty());
        let _ = (c.formula("output", &[0]), s.step(), s.apply(&run(2)), s.undo(), s.compute());
        let _ = (s.edit(USERS, 0, "1"), s.edit("ratings", 0, "0"), s.paste(MOVIES, 0, "1 2"));
        let _ = (
            s.set_size("n_users", "2"),
            s.set_size("n_factors", "2"),
            s.set_size("n_movies", "1"),
            s.reset(),
            s.set_size("ratings", "1"),
        );
        s.compute();
    }
    let mismatched = format!(
        r#"{{"preset":"x","seed":"1","ratings":[],"lr":"0.1","user_factors":{},"movie_factors":{}}}"#,
        tables[0].0, tables[0].1
    );
    let c = from_json::<State>(&mismatched).unwrap().compute();
    assert_eq!(c.issues[0].tensor, MOVIES);
    assert_eq!(
        c.issues[0].error.to_string(),
        "RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
    );
}

#[test]
fn saves_from_before_learning_was_shared_still_read() {
    let (u, m) = draw("42", 5, 6, 2).unwrap();
    let table = |t: &Tensor| format!(r#"{{"shape":{:?},"data":{:?}}}"#, t.shape(), t.data());
    let old = format!(
        r#"{{"preset":"tiny_factors2","seed":"42","ratings":[{{"user":0,"movie":1,"rating":3}}],"lr":"0.05",
        "user_factors":{},"movie_factors":{},"losses":[2.5,"nan"],"last_good":{{"shape":[1],"data":[0.5]}}}}"#,
        table(&u),
        table(&m)
    );
    let s: State = from_json(&old).unwrap();
    assert_eq!((s.learning.lr.as_str(), s.learning.losses.len()), ("0.05", 2));
    assert!(s.learning.losses[1].is_nan());
    assert_eq!((&s.user_factors, &s.movie_factors), (&u, &m));
    crate::scene::share::Shared::check(&s).unwrap();
    // One without any of them learns as a new scene does.
    let bare: State = from_json(&old.replace(r#""lr":"0.05","#, "").replace(r#""losses":[2.5,"nan"],"#, "")).unwrap();
    assert_eq!(bare.learning, crate::scene::learn::Learning::default());
    // Written back, `lr` and `losses` stay where old readers look for them.
    let json: Value = serde_json::from_str(&to_json(&s)).unwrap();
    assert_eq!((json["lr"].as_str(), json["losses"][0].as_f64()), (Some("0.05"), Some(2.5)));
}

#[test]
fn the_loss_is_always_mse_against_the_ratings() {
    let mut s = State::default();
    assert!(s.apply(&Edit::Loss { mse: false }).is_err());
    s.apply(&Edit::Loss { mse: true }).unwrap();
    assert_eq!(s, State::default());
    assert!(s.apply(&Edit::flag("bias", true)).is_err() && s.apply(&Edit::field("V", "3")).is_err());
}

#[test]
fn backward_formula_sums_over_the_ratings_that_use_a_row() {
    use crate::scene::contract::View;
    // tiny_factors2: user 0 rated movies 0, 2 and 3; users 3 and 4 rated nothing.
    let c = State::default().compute();
    let f = View::formula(&c, "user_factors.weight.grad", &[0, 1]).unwrap();
    let names: Vec<String> = f.products.iter().map(|(a, b)| format!("{}·{}", a.name, b.name)).collect();
    assert_eq!(
        names,
        [
            "output.grad[0]·movie_factors.weight[0, 1]",
            "output.grad[1]·movie_factors.weight[2, 1]",
            "output.grad[6]·movie_factors.weight[3, 1]"
        ]
    );
    let sum: f32 = f.products.iter().map(|(a, b)| a.value * b.value).sum();
    assert!((sum - f.value).abs() < 1e-5);
    let m = View::formula(&c, "movie_factors.weight.grad", &[4, 0]).unwrap();
    assert_eq!(
        m.products.iter().map(|(_, b)| b.name.as_str()).collect::<Vec<_>>(),
        ["user_factors.weight[2, 0]", "user_factors.weight[1, 0]"]
    );
    let idle = View::formula(&c, "user_factors.weight.grad", &[3, 0]).unwrap();
    assert!(idle.products.is_empty() && idle.value == 0.0);
    assert!(View::formula(&c, "output.grad", &[0]).is_none());
}
