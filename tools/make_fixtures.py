"""Makes rowflow's own PyTorch reference cases (run by hand, never by CI or the README commands).

    python3 -m venv .venv && .venv/bin/pip install torch==2.15.0
    .venv/bin/python tools/make_fixtures.py core/tests/fixtures/torch

Same format as the shared fixtures (see the README's Parity section): float values are written
as the exact decimal of each float32. Cases made here: MSE losses (value and the upstream
gradient they feed into backward), RNN losses on output and h_n, SGD training of the fastai
DotProduct recommender, word2vec's skip-gram and CBOW steps with negative sampling, a
sentence classifier's step (an embedding trained by its task), and the errors of calls the
shared cases leave out.
"""
import json
import sys
from pathlib import Path

import torch
from torch import nn
import torch.nn.functional as F

torch.use_deterministic_algorithms(True)


def t(x):
    x = x.detach()
    data = x.reshape(-1).tolist()
    return {"shape": list(x.shape), "dtype": str(x.dtype).removeprefix("torch."), "data": data}


def write(out, case):
    path = Path(out) / f"{case['name']}.json"
    path.write_text(json.dumps(case, separators=(",", ":")))
    print("wrote", path)


TOL = {"atol": 1e-5, "rtol": 1e-5}


def linear_mse(out):
    torch.manual_seed(11)
    lin = nn.Linear(3, 2)
    x = torch.randn(4, 3, requires_grad=True)
    target = torch.randn(4, 2)
    y = lin(x)
    y.retain_grad()
    loss = F.mse_loss(y, target)
    loss.backward()
    write(out, {
        "name": "linear_mse_loss", "op": "linear",
        "config": {"in_features": 3, "out_features": 2, "bias": True}, "init_seed": 11,
        "params": {"weight": t(lin.weight), "bias": t(lin.bias)}, "input": t(x), "output": t(y),
        "loss": {"kind": "mse", "target": t(target), "value": loss.item()},
        "upstream": t(y.grad),
        "grads": {"weight": t(lin.weight.grad), "bias": t(lin.bias.grad), "input": t(x.grad)},
        "tolerance": TOL,
    })


def embedding_mse(out):
    torch.manual_seed(5)
    emb = nn.Embedding(6, 3, padding_idx=0)
    ids = torch.tensor([[0, 2, 2], [5, 0, 1]])
    target = torch.randn(2, 3, 3)
    y = emb(ids)
    y.retain_grad()
    loss = F.mse_loss(y, target)
    loss.backward()
    write(out, {
        "name": "embedding_mse_loss_padding", "op": "embedding",
        "config": {"num_embeddings": 6, "embedding_dim": 3, "padding_idx": 0, "sparse": False}, "init_seed": 5,
        "params": {"weight": t(emb.weight)}, "input": t(ids), "output": t(y),
        "loss": {"kind": "mse", "target": t(target), "value": loss.item()},
        "upstream": t(y.grad), "grads": {"weight": t(emb.weight.grad)}, "tolerance": TOL,
    })


def rnn_h_n_loss(out, name, config, x, lengths=None, padding_value=0.0):
    """`output.sum() + h_n.sum()`: gradient flows back from both, h_n's entering at each
    sequence's own last step. The inputs are the RNN scene's presets."""
    torch.manual_seed(0)
    rnn = nn.RNN(**config)
    x = torch.tensor(x, requires_grad=True)
    packed = x
    if lengths is not None:
        packed = nn.utils.rnn.pack_padded_sequence(x, torch.tensor(lengths), config.get("batch_first", False))
    y, h_n = rnn(packed)
    if lengths is not None:
        y, _ = nn.utils.rnn.pad_packed_sequence(y, config.get("batch_first", False), padding_value)
    y.retain_grad()
    h_n.retain_grad()
    loss = y.sum() + h_n.sum()
    loss.backward()
    grads = {n: t(p.grad) for n, p in rnn.named_parameters()}
    grads["input"] = t(x.grad)
    full = {"input_size": 1, "hidden_size": 1, "num_layers": 1, "nonlinearity": "tanh", "bias": True,
            "batch_first": False, "bidirectional": False, **config}
    case = {
        "name": name, "op": "rnn", "config": full, "init_seed": 0,
        "params": {n: t(p) for n, p in rnn.named_parameters()}, "input": t(x), "output": t(y), "h_n": t(h_n),
        "loss": {"kind": "sum", "h_n": "sum", "value": loss.item()},
        "upstream": {"output": t(y.grad), "h_n": t(h_n.grad)}, "grads": grads, "tolerance": TOL,
    }
    if lengths is not None:
        case |= {"lengths": t(torch.tensor(lengths)), "enforce_sorted": True, "padding_value": padding_value}
    write(out, case)


class DotProduct(nn.Module):
    """The fastai book's recommender."""

    def __init__(self, n_users, n_movies, n_factors):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, n_factors)
        self.movie_factors = nn.Embedding(n_movies, n_factors)

    def forward(self, x):
        users = self.user_factors(x[:, 0])
        movies = self.movie_factors(x[:, 1])
        return (users * movies).sum(dim=1)


def train(out, name, seed, n_users, n_movies, n_factors, ratings, lr, steps):
    torch.manual_seed(seed)
    model = DotProduct(n_users, n_movies, n_factors)
    x = torch.tensor([[u, m] for u, m, _ in ratings])
    target = torch.tensor([float(r) for _, _, r in ratings])
    init = {n: t(p) for n, p in model.named_parameters()}
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses, history = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        history.append({n: t(p) for n, p in model.named_parameters()})
    write(out, {
        "name": name, "op": "train", "model": "dot_product",
        "config": {"n_users": n_users, "n_movies": n_movies, "n_factors": n_factors},
        "init_seed": seed, "params": init, "input": t(x), "target": t(target),
        "optimizer": {"kind": "sgd", "lr": lr}, "steps": steps, "losses": losses,
        "params_after": history[-1], "params_after_first_step": history[0],
        "output_after": t(model(x)), "tolerance": {"atol": 1e-5, "rtol": 1e-4},
    })


def word2vec(out, name, model, seed, vocab, dim, inputs, target, k, lr):
    """One SGD step of skip-gram (`inputs` = the centres, (B, 1)) or CBOW (`inputs` = the context,
    (B, C)): both tables from `torch.manual_seed(seed)`, then k negatives per pair drawn from the
    unigram distribution to the 3/4 power (the counts of `inputs` and `target`), written into the
    case as the ids drawn."""
    torch.manual_seed(seed)
    in_embed, out_embed = nn.Embedding(vocab, dim), nn.Embedding(vocab, dim)
    init = {"in_embed.weight": t(in_embed.weight), "out_embed.weight": t(out_embed.weight)}
    inputs, target = torch.tensor(inputs), torch.tensor(target)
    counts = torch.bincount(torch.cat([inputs.reshape(-1), target]), minlength=vocab).float()
    negatives = torch.multinomial(counts ** 0.75, len(target) * k, replacement=True).reshape(len(target), k)
    v = in_embed(inputs).mean(1)
    u = out_embed(target)
    n = out_embed(negatives)
    pos = (u * v).sum(-1)
    neg = (n * v.unsqueeze(1)).sum(-1)
    loss = (-F.logsigmoid(pos) - F.logsigmoid(-neg).sum(-1)).mean()
    loss.backward()
    grads = {"in_embed.weight": t(in_embed.weight.grad), "out_embed.weight": t(out_embed.weight.grad)}
    opt = torch.optim.SGD([in_embed.weight, out_embed.weight], lr=lr)
    opt.step()
    write(out, {
        "name": name, "op": "word2vec", "model": model, "config": {"vocab": vocab, "dim": dim}, "init_seed": seed,
        "params": init, "input": t(inputs), "target": t(target), "negatives": t(negatives),
        "v": t(v), "pos": t(pos), "neg": t(neg), "loss": {"kind": "negative_sampling", "value": loss.item()},
        "grads": grads, "optimizer": {"kind": "sgd", "lr": lr},
        "params_after": {"in_embed.weight": t(in_embed.weight), "out_embed.weight": t(out_embed.weight)},
        "tolerance": TOL,
    })


def classifier(out, name, seed, vocab, dim, sentences, labels, lr, freeze, pretrained=None):
    """One SGD step of a sentence classifier: each sentence's rows averaged, `nn.Linear(dim, 1)`,
    `F.binary_cross_entropy_with_logits` against a label per sentence. `torch.manual_seed(seed)`
    draws fc first, then the table (unless `pretrained` gives it, frozen or fine-tuned)."""
    torch.manual_seed(seed)
    fc = nn.Linear(dim, 1)
    if pretrained is None:
        emb = nn.Embedding(vocab, dim)
    else:
        emb = nn.Embedding.from_pretrained(torch.tensor(pretrained), freeze=freeze)
    params = {"embedding.weight": emb.weight, "fc.weight": fc.weight, "fc.bias": fc.bias}
    init = {n: t(p) for n, p in params.items()}
    labels = torch.tensor([float(y) for y in labels])
    x = torch.stack([emb(torch.tensor(s)).mean(0) for s in sentences])
    logits = fc(x).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    loss.backward()
    trained = {n: p for n, p in params.items() if p.requires_grad}
    grads = {n: t(p.grad) for n, p in trained.items()}
    torch.optim.SGD(trained.values(), lr=lr).step()
    write(out, {
        "name": name, "op": "classifier",
        "config": {"vocab": vocab, "dim": dim, "from_pretrained": pretrained is not None, "freeze": freeze},
        "init_seed": seed, "params": init, "sentences": sentences, "labels": t(labels),
        "x": t(x), "logits": t(logits), "loss": {"kind": "bce_with_logits", "value": loss.item()},
        "grads": grads, "optimizer": {"kind": "sgd", "lr": lr},
        "params_after": {n: t(p) for n, p in params.items()}, "tolerance": TOL,
    })


def error(out, name, call, config, input_shape, run):
    try:
        run()
    except Exception as e:
        write(out, {
            "name": name, "op": "error", "call": call, "config": config, "input_shape": input_shape,
            "error": {"type": type(e).__name__, "message": str(e)}, "tolerance": TOL,
        })
        return
    raise SystemExit(f"{name}: no error raised")


def linear_error(out, name, config, input_shape):
    layer = nn.Linear(config["in_features"], config["out_features"], bias=config["bias"])
    error(out, name, "linear", config, input_shape, lambda: layer(torch.zeros(*input_shape)))


def embedding_error(out, name, config, ids):
    """The error a call raises, with the ids as given: their dtype is checked before their range."""
    layer = nn.Embedding(config["num_embeddings"], config["embedding_dim"])
    try:
        layer(ids)
    except Exception as e:
        write(out, {
            "name": name, "op": "error", "call": "embedding", "config": config, "input": t(ids),
            "error": {"type": type(e).__name__, "message": str(e)}, "tolerance": TOL,
        })
        return
    raise SystemExit(f"{name}: no error raised")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "core/tests/fixtures/torch"
    linear_mse(out)
    embedding_mse(out)
    steps = lambda pairs: [[[float(v)] * 2 for v in row] for row in pairs]
    rnn_h_n_loss(out, "rnn_loss_output_and_h_n_sum", {"input_size": 2, "hidden_size": 5, "batch_first": True},
                 steps([[11, 12], [21, 22], [31, 32]]))
    rnn_h_n_loss(out, "rnn_packed_bi_loss_output_and_h_n_sum",
                 {"input_size": 2, "hidden_size": 3, "num_layers": 2, "bidirectional": True},
                 steps([[11, 21, 31, 41], [12, 22, 1, 1]]), lengths=[2, 2, 1, 1], padding_value=1.0)
    # A tiny ratings table: 5 users, 6 movies; users 3 and 4 and movie 5 are never rated.
    ratings = [(0, 0, 5), (0, 2, 1), (1, 0, 4), (1, 1, 2), (2, 3, 5), (2, 4, 1), (0, 3, 4), (1, 4, 2)]
    train(out, "train_dot_product_sgd_factors2", 42, 5, 6, 2, ratings, 0.1, 20)
    train(out, "train_dot_product_sgd_factors3_lr05", 7, 5, 6, 3, ratings, 0.05, 8)
    # Pairs from "the film was great" / "the food was awful" (ids 0..6), window 1.
    word2vec(out, "word2vec_skip_gram_negative_sampling", "skip_gram", 3, 7, 4,
             [[1], [1], [2], [2], [4], [4]], [0, 2, 1, 3, 0, 5], 3, 0.05)
    word2vec(out, "word2vec_cbow_negative_sampling", "cbow", 4, 7, 4,
             [[0, 2], [1, 3], [0, 5], [4, 6]], [1, 2, 4, 5], 2, 0.05)
    # Sentences of the same vocabulary, labelled 1 (good) or 0 (bad): a classifier's step.
    sentences, labels = [[0, 1, 2, 3], [0, 4, 5, 6], [1, 3], [4, 6, 6], [0, 1, 2, 6, 6]], [1, 0, 1, 0, 0]
    table = [[0.5, -0.25, 0.125, 1.0], [0.75, 0.5, -0.5, 0.25], [-0.125, 0.25, 0.5, -0.75], [1.0, 0.75, -0.25, 0.5],
             [-0.5, -1.0, 0.25, 0.125], [0.25, -0.5, 0.75, -0.25], [-1.0, -0.75, 0.5, -0.5]]
    classifier(out, "classifier_bce_random_init", 5, 7, 4, sentences, labels, 0.5, False)
    classifier(out, "classifier_bce_pretrained_frozen", 6, 7, 4, sentences, labels, 0.5, True, table)
    classifier(out, "classifier_bce_pretrained_fine_tuned", 6, 7, 4, sentences[:4], labels[:4], 0.5, False, table)
    # Without a bias, Linear multiplies with mm, not addmm, and says so.
    for shape in ([2, 5], [5], [3, 2, 5]):
        dims = "x".join(map(str, shape))
        linear_error(out, f"linear_shape_mismatch_no_bias_{dims}", {"in_features": 6, "out_features": 10, "bias": False},
                     shape)
    # Ids must be integers: floats are refused before any id is read, even one out of range.
    table = {"num_embeddings": 4, "embedding_dim": 5}
    embedding_error(out, "embedding_ids_float32", table, torch.tensor([1., 2.]))
    embedding_error(out, "embedding_ids_float64_out_of_range", table, torch.tensor([[40, 1]], dtype=torch.float64))
