//! The word2vec scene's script: both tables (the seed's draw, or the numbers on show after SGD
//! steps or edits), the next step's pairs with the negatives rowflow's sampler drew written out,
//! the scores, the loss and both `.grad`s; then the task: one `fc` and a random table from
//! `torch.manual_seed(seed + 1)`, and each start trained for the scene's steps, its last loss
//! printed.

use super::train::lr;
use super::{by_hand, same, string, Numbers, Py, Script, Section};
use crate::scene::word2vec::{task::Start, Computed, State};
use crate::tensor::{Ids, Tensor};
use crate::torch_rng::Generator;

/// A Python list of strings.
fn words(words: &[String]) -> String {
    format!("[{}]", words.iter().map(|w| string(w)).collect::<Vec<_>>().join(", "))
}

/// A Python list of lists of ints.
fn lists(rows: &[Vec<i64>]) -> String {
    let row = |r: &Vec<i64>| format!("[{}]", r.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
    format!("[{}]", rows.iter().map(row).collect::<Vec<_>>().join(", "))
}

pub(super) fn sections(s: &State, c: &Computed, numbers: Numbers) -> Script {
    let mut py = Py::new(c.issues.first().map(|i| &i.error), numbers);
    let (v, d) = (c.words.len(), s.dim());
    let seed = Generator::parse_seed(&s.seed).ok();
    let drawn = seed.and_then(|seed| {
        let mut g = Generator::manual_seed(seed).ok()?;
        Some((g.embedding(v, d, None).ok()?, g.embedding(v, d, None).ok()?))
    });
    let seeded = drawn.as_ref().is_some_and(|(i, o)| same(i, &s.in_embed) && same(o, &s.out_embed));
    py.line(format!("vocab = {}  # id = position: most frequent first, min_count={}", words(&c.words), s.min_count));
    py.line(format!("V, D = {v}, {d}"));
    if let Some(seed) = seed {
        py.line(format!("torch.manual_seed({seed})"));
    }
    py.line("in_embed = nn.Embedding(V, D)");
    py.line("out_embed = nn.Embedding(V, D)");
    if !seeded {
        let tables = [("in_embed.weight".to_string(), &s.in_embed), ("out_embed.weight".to_string(), &s.out_embed)];
        py.set_by_hand(&tables, &by_hand(s.learning.steps, drawn.is_some()));
    }
    let line = c.sentence_words.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>().join(" ");
    py.comment(&format!(
        "the next step's sentence, {}, window={}: one pair per {}",
        string(&line),
        s.window,
        if s.cbow { "centre with any context" } else { "(centre, context word)" }
    ));
    let k = s.negatives;
    if s.cbow {
        let contexts: Vec<Vec<i64>> = c.pairs.iter().map(|p| p.input.clone()).collect();
        py.line(format!("contexts = {}", lists(&contexts)));
        py.assign("centres", &c.target, &[]);
    } else {
        let centres: Vec<i64> = c.pairs.iter().map(|p| p.input[0]).collect();
        py.assign("centres", &Ids::vector(centres), &[]);
        py.assign("context", &c.target, &[]);
    }
    py.comment(&format!("{k} negatives per pair, drawn from counts ** 0.75 by rowflow's seeded sampler"));
    py.assign("negatives", &c.negatives, &[]);
    py.section(Section::Forward);
    if s.cbow {
        py.line("v = torch.stack([in_embed(torch.tensor(c)).mean(0) for c in contexts])  # the context's mean");
        py.line("u = out_embed(centres)");
    } else {
        py.line("v = in_embed(centres)");
        py.line("u = out_embed(context)");
    }
    py.line("n = out_embed(negatives)");
    py.line("pos = (u * v).sum(-1)");
    py.line("neg = (n * v.unsqueeze(1)).sum(-1)");
    py.show("pos");
    py.show("neg");
    py.section(Section::Backward);
    py.line("loss = (-F.logsigmoid(pos) - F.logsigmoid(-neg).sum(-1)).mean()");
    py.line("loss.backward()  # only the rows the pairs looked up get gradient");
    py.show("loss");
    py.show("in_embed.weight.grad");
    py.show("out_embed.weight.grad");
    py.section(Section::Task);
    task(&mut py, s, c, seed);
    py.finish()
}

/// The classifier from each start, trained full-batch for `task_steps`.
fn task(py: &mut Py, s: &State, c: &Computed, seed: Option<i128>) {
    let sentences: Vec<Vec<i64>> = c.task_lines.iter().map(|&i| s.corpus().sentences[i].clone()).collect();
    py.comment("the task: each sentence (its words in the vocabulary) and its label");
    py.line(format!("sentences = [torch.tensor(s) for s in {}]", lists(&sentences)));
    let labels: Vec<f32> = c.task_lines.iter().map(|&i| s.labels.data().get(i).copied().unwrap_or(0.0)).collect();
    py.assign("labels", &Tensor::vector(labels), &[]);
    if let Some(seed) = seed {
        py.line(format!("torch.manual_seed({seed} + 1)"));
    }
    py.line("fc_start = nn.Linear(D, 1)  # one fc for every start");
    py.line("random_start = nn.Embedding(V, D).weight.detach().clone()");
    py.line("task_losses = {}");
    for start in Start::ALL {
        py.line(match start {
            Start::Random => "emb = nn.Embedding.from_pretrained(random_start.clone(), freeze=False)  # random",
            Start::Frozen => "emb = nn.Embedding.from_pretrained(in_embed.weight.detach().clone(), freeze=True)",
            Start::FineTuned => "emb = nn.Embedding.from_pretrained(in_embed.weight.detach().clone(), freeze=False)",
        });
        py.line("fc = nn.Linear(D, 1)");
        py.line("fc.load_state_dict(fc_start.state_dict())");
        py.line(format!(
            "opt = torch.optim.SGD([p for p in [*emb.parameters(), *fc.parameters()] if p.requires_grad], lr={})",
            lr(&s.task_lr)
        ));
        py.line(format!("for step in range({}):", s.task_steps));
        py.line("    opt.zero_grad()");
        py.line("    x = torch.stack([emb(s).mean(0) for s in sentences])");
        py.line("    F.binary_cross_entropy_with_logits(fc(x).squeeze(1), labels).backward()");
        py.line("    opt.step()");
        py.line("with torch.no_grad():");
        py.line(format!(
            "    task_losses[{}] = F.binary_cross_entropy_with_logits(fc(torch.stack([emb(s).mean(0) for s in sentences])).squeeze(1), labels)",
            string(start.id())
        ));
    }
    py.show("task_losses");
}
