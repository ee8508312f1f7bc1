//! Parity with PyTorch: every `fixtures/torch/*.json` is one test, dispatched on its `op`.
//! Forward outputs and every gradient within the file's tolerance, errors by type and exact
//! message, seeded init bit for bit. A file this harness cannot run fails.

mod common;

use common::*;
use libtest_mimic::{Arguments, Failed, Trial};
use rowflow_core::ops::classifier::Classifier;
use rowflow_core::ops::dot_product::DotProduct;
use rowflow_core::ops::embedding::{check_indices, Embedding, IdsDtype};
use rowflow_core::ops::linear::Linear;
use rowflow_core::ops::loss::Loss;
use rowflow_core::ops::one_hot::{one_hot, OneHotLinear};
use rowflow_core::ops::rnn::{Nonlinearity, Packing, Rnn, RnnConfig};
use rowflow_core::ops::word2vec::{Batch, Word2Vec};
use rowflow_core::ops::Named;
use rowflow_core::optim::sgd_step;
use rowflow_core::torch_rng::Generator;
use rowflow_core::{Ids, Tensor, TorchError};
use serde_json::Value;

fn main() {
    let trials = fixture_paths()
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            Trial::test(name, move || {
                let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
                let case: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                run(&case).map_err(Failed::from)
            })
        })
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

fn run(case: &Value) -> Check {
    match key(case, "op")?.as_str() {
        Some("linear") => linear(case),
        Some("embedding") => embedding(case),
        Some("one_hot_linear") => one_hot_linear(case),
        Some("rnn") => rnn(case),
        Some("dot_product") => dot_product(case),
        Some("init") => init(case),
        Some("train") => train(case),
        Some("word2vec") => word2vec(case),
        Some("classifier") => classifier(case),
        Some("error") => error(case),
        other => Err(format!("no runner for op {other:?}")),
    }
}

fn core<T>(r: Result<T, TorchError>) -> Result<T, String> {
    r.map_err(|e| e.to_string())
}

fn param(case: &Value, name: &str) -> Result<Tensor, String> {
    tensor(key(key(case, "params")?, name)?)
}

fn linear(case: &Value) -> Check {
    let tol = tol(case);
    let bias = case["config"]["bias"].as_bool().unwrap_or(true);
    let m = core(Linear::new(param(case, "weight")?, if bias { Some(param(case, "bias")?) } else { None }))?;
    let x = tensor(key(case, "input")?)?;
    let out = core(m.forward(&x))?;
    close("output", &out, &tensor(key(case, "output")?)?, tol)?;
    check_loss(case, &out, tol)?;
    let g = core(m.backward(&x, &tensor(key(case, "upstream")?)?))?;
    let mut got: Named = vec![("weight".into(), g.weight), ("input".into(), g.input)];
    got.extend(g.bias.map(|b| ("bias".into(), b)));
    close_named("grads", &got, &named(key(case, "grads")?)?, tol)
}

fn embedding_from(config: &Value, weight: Tensor) -> Result<Embedding, String> {
    let mut m = core(Embedding::new(weight, config["padding_idx"].as_i64()))?;
    m.sparse = config["sparse"].as_bool().unwrap_or(false);
    m.freeze = config["from_pretrained"].as_bool().unwrap_or(false) && config["freeze"].as_bool().unwrap_or(true);
    Ok(m)
}

fn embedding(case: &Value) -> Check {
    let tol = tol(case);
    let m = embedding_from(key(case, "config")?, param(case, "weight")?)?;
    let x = ids(key(case, "input")?)?;
    let out = core(m.forward(&x))?;
    close("output", &out, &tensor(key(case, "output")?)?, tol)?;
    check_loss(case, &out, tol)?;
    let g = core(m.backward(&x, &tensor(key(case, "upstream")?)?))?;
    let got: Named = g.weight.into_iter().map(|w| ("weight".to_string(), w)).collect();
    close_named("grads", &got, &named(key(case, "grads")?)?, tol)?;
    match (g.sparse, case.get("sparse_grad")) {
        (None, None) => Ok(()),
        (Some(s), Some(want)) => {
            let indices = ids(key(want, "indices")?)?;
            if s.indices != indices.data() {
                return Err(format!("sparse indices {:?}, want {:?}", s.indices, indices.data()));
            }
            close("sparse values", &s.values, &tensor(key(want, "values")?)?, tol)?;
            let rows = ids(key(want, "coalesced_rows")?)?;
            (s.coalesced_rows() == rows.data()).then_some(()).ok_or_else(|| "coalesced rows differ".into())
        }
        (got, _) => Err(format!("sparse gradient present: {}, expected the opposite", got.is_some())),
    }
}

fn output_loss(loss: &Value) -> Result<Loss, String> {
    match loss["kind"].as_str() {
        Some("mse") => Ok(Loss::Mse { target: tensor(key(loss, "target")?)? }),
        Some("sum") => Ok(Loss::Sum),
        other => Err(format!("no runner for loss {other:?}")),
    }
}

/// A case with `loss` ({kind: "mse", target, value}) fed `upstream = dL/doutput` into backward:
/// our loss must give the same value and the same upstream.
fn check_loss(case: &Value, output: &Tensor, tol: Tol) -> Check {
    let Some(loss) = case.get("loss").filter(|v| !v.is_null()) else { return Ok(()) };
    let loss = output_loss(loss)?;
    let want = case["loss"]["value"].as_f64().ok_or("loss.value")? as f32;
    close("loss", &Tensor::vector(vec![core(loss.forward(output))?]), &Tensor::vector(vec![want]), tol)?;
    close("upstream from the loss", &core(loss.backward(output))?, &tensor(key(case, "upstream")?)?, tol)
}

/// An rnn case with `loss` ({kind, h_n: "sum" or absent, value}): the RNN scene's loss on
/// `output` plus `h_n.sum()` must give PyTorch's value and both upstreams.
fn check_rnn_loss(case: &Value, output: &Tensor, h_n: &Tensor, (up, up_h): (&Tensor, &Tensor), tol: Tol) -> Check {
    let Some(loss) = case.get("loss").filter(|v| !v.is_null()) else { return Ok(()) };
    let with_h_n = match loss["h_n"].as_str() {
        Some("sum") => true,
        None => false,
        Some(other) => return Err(format!("no runner for an h_n loss {other:?}")),
    };
    let (value, got_up, got_up_h) = core(rowflow_core::scene::rnn::loss(&output_loss(loss)?, output, h_n, with_h_n))?;
    let want = loss["value"].as_f64().ok_or("loss.value")? as f32;
    close("loss", &Tensor::vector(vec![value]), &Tensor::vector(vec![want]), tol)?;
    close("upstream.output from the loss", &got_up, up, tol)?;
    close("upstream.h_n from the loss", &got_up_h, up_h, tol)
}

fn one_hot_linear(case: &Value) -> Check {
    let tol = tol(case);
    let m = core(OneHotLinear::new(param(case, "weight")?))?;
    let x = ids(key(case, "input")?)?;
    let oh = core(one_hot(&x, key(case, "config")?["num_classes"].as_i64().ok_or("num_classes")?))?;
    let want_oh = ids(key(case, "one_hot")?)?;
    if oh != want_oh {
        return Err("one_hot differs".into());
    }
    let out = core(m.forward(&x))?;
    close("output", &out, &tensor(key(case, "output")?)?, tol)?;
    let up = tensor(key(case, "upstream")?)?;
    let g = core(m.backward(&x, &up))?;
    close_named("grads", &vec![("weight".into(), g.clone())], &named(key(case, "grads")?)?, tol)?;

    // The same numbers through nn.Embedding with the transposed table: output and gradient.
    let eq = key(case, "embedding_equivalent")?;
    let table = tensor(key(eq, "weight")?)?;
    close("embedding_equivalent.weight", &core(param(case, "weight")?.t())?, &table, tol)?;
    let emb = core(Embedding::new(table, None))?;
    close("lookup output", &core(emb.forward(&x))?, &out, tol)?;
    let grad_table = core(emb.backward(&x, &up))?.weight.ok_or("no embedding grad")?;
    close("embedding grad", &grad_table, &tensor(key(eq, "grad_weight")?)?, tol)?;
    close("linear grad transposed", &core(g.t())?, &grad_table, tol)?;

    let cost = key(case, "cost")?;
    let c = m.cost(&x);
    let nonzero = g.numel() - g.extent().zeros;
    let got = [c.lookup_copies, c.one_hot_multiply_adds, nonzero];
    let want = ["lookup_copies", "one_hot_multiply_adds", "nonzero_grad_entries_linear"]
        .map(|k| cost[k].as_u64().map(|v| v as usize));
    (want.iter().zip(got).all(|(w, g)| *w == Some(g)))
        .then_some(())
        .ok_or_else(|| format!("cost {got:?}, want {want:?}"))
}

fn rnn_config(c: &Value) -> Result<RnnConfig, String> {
    let size = |k: &str| c[k].as_u64().map(|v| v as usize).ok_or_else(|| format!("config.{k}"));
    let mut config = RnnConfig::new(size("input_size")?, size("hidden_size")?);
    config.num_layers = c["num_layers"].as_u64().unwrap_or(1) as usize;
    config.nonlinearity = match c["nonlinearity"].as_str().unwrap_or("tanh") {
        "tanh" => Nonlinearity::Tanh,
        "relu" => Nonlinearity::Relu,
        other => return Err(format!("nonlinearity {other}")),
    };
    config.bias = c["bias"].as_bool().unwrap_or(true);
    config.batch_first = c["batch_first"].as_bool().unwrap_or(false);
    config.bidirectional = c["bidirectional"].as_bool().unwrap_or(false);
    Ok(config)
}

fn packing(case: &Value) -> Result<Option<Packing>, String> {
    let Some(lengths) = case.get("lengths").filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    Ok(Some(Packing {
        lengths: ids(lengths)?.data().to_vec(),
        enforce_sorted: case["enforce_sorted"].as_bool().unwrap_or(true),
        padding_value: case["padding_value"].as_f64().unwrap_or(0.0) as f32,
    }))
}

/// The seeded parameters a fixture says it was built with must be what our generator gives.
fn check_seeded(case: &Value, params: &Named, build: impl FnOnce(&mut Generator) -> Result<Named, String>) -> Check {
    let Some(seed) = case.get("init_seed").and_then(|s| s.as_i64()) else {
        return Ok(());
    };
    let mut g = core(Generator::manual_seed(seed as i128))?;
    close_named("seeded params", &build(&mut g)?, params, Tol { atol: 0.0, rtol: 0.0 })
}

fn rnn(case: &Value) -> Check {
    let tol = tol(case);
    let config = rnn_config(key(case, "config")?)?;
    let params = named(key(case, "params")?)?;
    check_seeded(case, &params, |g| Ok(g.rnn(&config)))?;
    let m = core(Rnn::new(config, params))?;
    let x = tensor(key(case, "input")?)?;
    let h0 = case.get("h0").filter(|v| !v.is_null()).map(tensor).transpose()?;
    let pack = packing(case)?;
    let out = core(m.forward(&x, h0.as_ref(), pack.as_ref()))?;
    close("output", &out.output, &tensor(key(case, "output")?)?, tol)?;
    close("h_n", &out.h_n, &tensor(key(case, "h_n")?)?, tol)?;
    let up = key(case, "upstream")?;
    let (up_out, up_h) = (tensor(key(up, "output")?)?, tensor(key(up, "h_n")?)?);
    check_rnn_loss(case, &out.output, &out.h_n, (&up_out, &up_h), tol)?;
    let g = core(m.backward(&x, h0.as_ref(), pack.as_ref(), &up_out, &up_h))?;
    let mut got = g.params.clone();
    got.push(("input".into(), g.input.clone()));
    got.extend(g.h0.clone().map(|h| ("h0".to_string(), h)));
    close_named("grads", &got, &named(key(case, "grads")?)?, tol)?;
    if let Some(want) = case.get("hidden_grads").filter(|v| !v.is_null()) {
        let want = tensor(want)?;
        let layer0 = Tensor::new(
            want.shape().to_vec(),
            g.hidden_grads.data()[..want.numel().min(g.hidden_grads.numel())].to_vec(),
        )
        .map_err(|e| e.to_string())?;
        close("hidden_grads", &layer0, &want, tol)?;
        let norms: Vec<f32> = layer0.data().chunks(want.numel() / want.shape()[0]).map(l2).collect();
        let want_norms: Vec<f32> = key(case, "hidden_grad_norms")?
            .as_array()
            .ok_or("norms")?
            .iter()
            .map(|v| v.as_f64().unwrap_or(f64::NAN) as f32)
            .collect();
        close("hidden_grad_norms", &Tensor::vector(norms), &Tensor::vector(want_norms), tol)?;
    }
    Ok(())
}

fn l2(v: &[f32]) -> f32 {
    v.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt() as f32
}

fn dot_product(case: &Value) -> Check {
    let tol = tol(case);
    let params = named(key(case, "params")?)?;
    let (u, m) = (param(case, "user_factors.weight")?, param(case, "movie_factors.weight")?);
    check_seeded(case, &params, |g| {
        let emb = |g: &mut Generator, t: &Tensor| core(g.embedding(t.shape()[0], t.shape()[1], None));
        Ok(vec![("user_factors.weight".into(), emb(g, &u)?), ("movie_factors.weight".into(), emb(g, &m)?)])
    })?;
    let model = core(DotProduct::new(u, m))?;
    let x = ids(key(case, "input")?)?;
    close("output", &core(model.forward(&x))?, &tensor(key(case, "output")?)?, tol)?;
    let g = core(model.backward(&x, &tensor(key(case, "upstream")?)?))?;
    close_named("grads", &g, &named(key(case, "grads")?)?, tol)
}

/// One SGD step of skip-gram or CBOW with negative sampling, the negatives as PyTorch drew them:
/// both tables seeded, `v`, `pos`, `neg`, the loss, both gradients and the tables after the step.
fn word2vec(case: &Value) -> Check {
    let tol = tol(case);
    let size = |k: &str| case["config"][k].as_u64().map(|v| v as usize).ok_or_else(|| format!("config.{k}"));
    let (vocab, dim) = (size("vocab")?, size("dim")?);
    let names = ["in_embed.weight", "out_embed.weight"];
    check_seeded(case, &named(key(case, "params")?)?, |g| {
        let mut table = || core(g.embedding(vocab, dim, None));
        Ok(vec![(names[0].into(), table()?), (names[1].into(), table()?)])
    })?;
    let mut tables = [param(case, names[0])?, param(case, names[1])?];
    let model = core(Word2Vec::new(tables[0].clone(), tables[1].clone()))?;
    let batch = Batch::full(ids(key(case, "input")?)?, ids(key(case, "target")?)?, ids(key(case, "negatives")?)?);
    let f = core(model.forward(&batch))?;
    close("v", &f.v, &tensor(key(case, "v")?)?, tol)?;
    close("pos", &f.pos, &tensor(key(case, "pos")?)?, tol)?;
    close("neg", &f.neg, &tensor(key(case, "neg")?)?, tol)?;
    let loss = case["loss"]["value"].as_f64().ok_or("loss.value")? as f32;
    close("loss", &Tensor::vector(vec![f.loss]), &Tensor::vector(vec![loss]), tol)?;
    let g = core(model.backward(&batch))?;
    let grads: Named = vec![(names[0].into(), g.in_embed.clone()), (names[1].into(), g.out_embed.clone())];
    close_named("grads", &grads, &named(key(case, "grads")?)?, tol)?;
    let lr = case["optimizer"]["lr"].as_f64().ok_or("optimizer.lr")?;
    for (w, g) in tables.iter_mut().zip([&g.in_embed, &g.out_embed]) {
        core(sgd_step(w, g, lr))?;
    }
    let after: Named = names.iter().map(|n| n.to_string()).zip(tables).collect();
    close_named("params_after", &after, &named(key(case, "params_after")?)?, tol)
}

/// One SGD step of a sentence classifier (mean of each sentence's rows → `nn.Linear(dim, 1)` →
/// BCE with logits): fc then the table seeded (a pretrained table given), `x`, `logits`, the
/// loss, every gradient (none for a frozen table) and the parameters after the step.
fn classifier(case: &Value) -> Check {
    let tol = tol(case);
    let size = |k: &str| case["config"][k].as_u64().map(|v| v as usize).ok_or_else(|| format!("config.{k}"));
    let (vocab, dim) = (size("vocab")?, size("dim")?);
    let pretrained = case["config"]["from_pretrained"].as_bool().unwrap_or(false);
    let freeze = pretrained && case["config"]["freeze"].as_bool().unwrap_or(true);
    let names = ["embedding.weight", "fc.weight", "fc.bias"];
    let params = named(key(case, "params")?)?;
    let table = param(case, names[0])?;
    check_seeded(case, &params, |g| {
        let (w, b) = g.linear(dim, 1, true);
        // `from_pretrained` draws nothing: its table is the one given.
        let emb = if pretrained { table.clone() } else { core(g.embedding(vocab, dim, None))? };
        Ok(vec![(names[0].into(), emb), (names[1].into(), w), (names[2].into(), b.ok_or("fc.bias")?)])
    })?;
    let fc = core(Linear::new(param(case, names[1])?, Some(param(case, names[2])?)))?;
    let model = Classifier { embedding: core(Embedding::new(table.clone(), None))?, fc, freeze };
    let sentences: Vec<Vec<i64>> =
        serde_json::from_value(key(case, "sentences")?.clone()).map_err(|e| e.to_string())?;
    let labels = tensor(key(case, "labels")?)?;
    let f = core(model.forward(&sentences))?;
    close("x", &f.x, &tensor(key(case, "x")?)?, tol)?;
    close("logits", &f.logits, &tensor(key(case, "logits")?)?, tol)?;
    let (loss, grads) = core(model.backward(&sentences, &labels))?;
    let want = case["loss"]["value"].as_f64().ok_or("loss.value")? as f32;
    close("loss", &Tensor::vector(vec![loss]), &Tensor::vector(vec![want]), tol)?;
    close_named("grads", &grads, &named(key(case, "grads")?)?, tol)?;
    let lr = case["optimizer"]["lr"].as_f64().ok_or("optimizer.lr")?;
    let mut after: Named = vec![(names[0].into(), table), (names[1].into(), model.fc.weight.clone())];
    after.push((names[2].into(), model.fc.bias.clone().ok_or("fc.bias")?));
    for (name, w) in after.iter_mut() {
        if let Some(g) = rowflow_core::ops::find(&grads, name) {
            core(sgd_step(w, g, lr))?;
        }
    }
    close_named("params_after", &after, &named(key(case, "params_after")?)?, tol)
}

/// `steps` of SGD on the recommender with MSE against `target`: every loss, the parameters after
/// the first and the last step, and the final predictions.
fn train(case: &Value) -> Check {
    let tol = tol(case);
    if case["model"] != "dot_product" || case["optimizer"]["kind"] != "sgd" {
        return Err(format!("no runner for training {} with {}", case["model"], case["optimizer"]));
    }
    let size = |k: &str| case["config"][k].as_u64().map(|v| v as usize).ok_or_else(|| format!("config.{k}"));
    let (users, movies, factors) = (size("n_users")?, size("n_movies")?, size("n_factors")?);
    let params = named(key(case, "params")?)?;
    check_seeded(case, &params, |g| {
        let u = core(g.embedding(users, factors, None))?;
        Ok(vec![
            ("user_factors.weight".into(), u),
            ("movie_factors.weight".into(), core(g.embedding(movies, factors, None))?),
        ])
    })?;
    let (x, loss) = (ids(key(case, "input")?)?, Loss::Mse { target: tensor(key(case, "target")?)? });
    let lr = case["optimizer"]["lr"].as_f64().ok_or("optimizer.lr")?;
    let mut weights = [param(case, "user_factors.weight")?, param(case, "movie_factors.weight")?];
    let want_losses = key(case, "losses")?.as_array().ok_or("losses")?;
    let mut losses = Vec::new();
    for step in 0..want_losses.len() {
        let model = core(DotProduct::new(weights[0].clone(), weights[1].clone()))?;
        let out = core(model.forward(&x))?;
        losses.push(core(loss.forward(&out))?);
        let grads = core(model.backward(&x, &core(loss.backward(&out))?))?;
        for (w, (_, g)) in weights.iter_mut().zip(&grads) {
            core(sgd_step(w, g, lr))?;
        }
        if step == 0 {
            let after: Named = vec![
                ("user_factors.weight".into(), weights[0].clone()),
                ("movie_factors.weight".into(), weights[1].clone()),
            ];
            close_named("params after step 1", &after, &named(key(case, "params_after_first_step")?)?, tol)?;
        }
    }
    let want: Vec<f32> = want_losses.iter().map(|v| v.as_f64().unwrap_or(f64::NAN) as f32).collect();
    close("losses", &Tensor::vector(losses), &Tensor::vector(want), tol)?;
    let after: Named =
        vec![("user_factors.weight".into(), weights[0].clone()), ("movie_factors.weight".into(), weights[1].clone())];
    close_named("params_after", &after, &named(key(case, "params_after")?)?, tol)?;
    let model = core(DotProduct::new(weights[0].clone(), weights[1].clone()))?;
    close("output_after", &core(model.forward(&x))?, &tensor(key(case, "output_after")?)?, tol)
}

fn usize_arg(args: &[Value], i: usize, kwargs: &Value, name: &str) -> Result<usize, String> {
    args.get(i)
        .or_else(|| kwargs.get(name))
        .and_then(|v| v.as_u64())
        .map(|v| v as usize)
        .ok_or_else(|| format!("argument {name}"))
}

fn init(case: &Value) -> Check {
    let seed = key(case, "seed")?;
    let seed = seed.as_i64().map(i128::from).or_else(|| seed.as_u64().map(i128::from)).ok_or("seed")?;
    let mut g = core(Generator::manual_seed(seed))?;
    for (k, module) in key(case, "modules")?.as_array().ok_or("modules")?.iter().enumerate() {
        let args = module["args"].as_array().cloned().unwrap_or_default();
        let kw = module.get("kwargs").cloned().unwrap_or(Value::Null);
        let flag = |i: usize, name: &str, default: bool| {
            args.get(i).or_else(|| kw.get(name)).and_then(|v| v.as_bool()).unwrap_or(default)
        };
        let what = format!("modules[{k}]");
        let got: Named = match module["module"].as_str() {
            Some("Embedding") => {
                let pad = args.get(2).or_else(|| kw.get("padding_idx")).and_then(|v| v.as_i64());
                vec![(
                    "weight".into(),
                    core(g.embedding(
                        usize_arg(&args, 0, &kw, "num_embeddings")?,
                        usize_arg(&args, 1, &kw, "embedding_dim")?,
                        pad,
                    ))?,
                )]
            }
            Some("Linear") => {
                let (w, b) = g.linear(
                    usize_arg(&args, 0, &kw, "in_features")?,
                    usize_arg(&args, 1, &kw, "out_features")?,
                    flag(2, "bias", true),
                );
                std::iter::once(("weight".to_string(), w)).chain(b.map(|b| ("bias".to_string(), b))).collect()
            }
            Some("RNN") => {
                let mut c = serde_json::Map::new();
                let names = [
                    "input_size",
                    "hidden_size",
                    "num_layers",
                    "nonlinearity",
                    "bias",
                    "batch_first",
                    "dropout",
                    "bidirectional",
                ];
                for (i, n) in names.iter().enumerate() {
                    if let Some(v) = args.get(i).or_else(|| kw.get(*n)) {
                        c.insert(n.to_string(), v.clone());
                    }
                }
                g.rnn(&rnn_config(&Value::Object(c))?)
            }
            Some(f @ ("randn" | "rand")) => {
                let dims: Vec<usize> =
                    args.iter().map(|d| d.as_u64().map(|d| d as usize).ok_or("dim")).collect::<Result<_, _>>()?;
                let t = if f == "randn" { g.randn(&dims) } else { g.rand(&dims) };
                close(&what, &t, &tensor(key(module, "output")?)?, Tol { atol: 0.0, rtol: 0.0 })?;
                continue;
            }
            other => return Err(format!("{what}: no init for {other:?}")),
        };
        close_named(&what, &got, &named(key(module, "params")?)?, Tol { atol: 0.0, rtol: 0.0 })?;
    }
    Ok(())
}

fn zeros(shape: Vec<usize>) -> Result<Tensor, String> {
    core(Tensor::zeros(shape))
}

fn error(case: &Value) -> Check {
    let config = case.get("config").cloned().unwrap_or(Value::Null);
    let size = |k: &str| config[k].as_u64().map(|v| v as usize).ok_or_else(|| format!("config.{k}"));
    let input_shape = || shape(key(case, "input_shape")?);
    let result: Result<(), TorchError> = match key(case, "call")?.as_str() {
        Some("embedding") => {
            let m = core(Embedding::new(zeros(vec![size("num_embeddings")?, size("embedding_dim")?])?, None))?;
            let input = key(case, "input")?;
            // Float ids are whole numbers written as floats; PyTorch refuses them by their dtype.
            let dtype = match input["dtype"].as_str() {
                Some("float32") => IdsDtype::Float,
                Some("float64") => IdsDtype::Double,
                Some("int32") => IdsDtype::Int,
                _ => IdsDtype::Long,
            };
            let whole = input["data"]
                .as_array()
                .ok_or("input.data")?
                .iter()
                .map(|x| x.as_i64().or(x.as_f64().map(|x| x as i64)));
            let ids = core(Ids::new(shape(&input["shape"])?, whole.collect::<Option<_>>().ok_or("input.data")?))?;
            check_indices(dtype).and_then(|_| m.forward(&ids)).map(drop)
        }
        Some("embedding_new") => {
            let w = zeros(vec![size("num_embeddings")?, size("embedding_dim")?])?;
            Embedding::new(w, config["padding_idx"].as_i64()).map(drop)
        }
        Some("linear") => {
            let (i, o) = (size("in_features")?, size("out_features")?);
            let bias = config["bias"].as_bool().unwrap_or(true).then(|| Tensor::vector(vec![0.0; o]));
            core(Linear::new(zeros(vec![o, i])?, bias))?.forward(&zeros(input_shape()?)?).map(drop)
        }
        Some("one_hot") => one_hot(&ids(key(case, "input")?)?, config["num_classes"].as_i64().unwrap_or(-1)).map(drop),
        Some("rnn") => {
            let c = rnn_config(&config)?;
            let params =
                c.param_shapes().into_iter().map(|(n, s)| Ok((n, zeros(s)?))).collect::<Result<Named, String>>()?;
            core(Rnn::new(c, params))?.forward(&zeros(input_shape()?)?, None, None).map(drop)
        }
        Some("pack_padded_sequence") => {
            let s = input_shape()?;
            let mut c = RnnConfig::new(*s.last().ok_or("input_shape")?, 1);
            c.batch_first = case["batch_first"].as_bool().unwrap_or(false);
            let params =
                c.param_shapes().into_iter().map(|(n, s)| Ok((n, zeros(s)?))).collect::<Result<Named, String>>()?;
            core(Rnn::new(c, params))?.forward(&zeros(s)?, None, packing(case)?.as_ref()).map(drop)
        }
        other => return Err(format!("no runner for error call {other:?}")),
    };
    let want = key(case, "error")?;
    let want = format!("{}: {}", want["type"].as_str().unwrap_or("?"), want["message"].as_str().unwrap_or("?"));
    match result {
        Err(e) if e.to_string() == want => Ok(()),
        Err(e) => Err(format!("raised `{e}`, want `{want}`")),
        Ok(()) => Err(format!("succeeded, want `{want}`")),
    }
}
