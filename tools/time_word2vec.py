"""Words per second of skip-gram with negative sampling at real scale, for the word2vec scene's
comparison (issue 48): gensim's `Word2Vec` (one worker thread) and PyTorch written as the scene
writes it (two `nn.Embedding` tables, `(u * v).sum(-1)`, `-F.logsigmoid(pos) -
F.logsigmoid(-neg).sum(-1)`, plain SGD), on the same corpus, window, dimension, negatives and
epochs. By hand, never in CI: gensim and torch come from PyPI.

    python tools/time_word2vec.py [--tokens 120000] [--dim 100] [--window 5] [--negatives 5]
                                  [--epochs 1] [--write assets/word2vec_corpus.txt]
                                  [--json core/src/scene/word2vec/timings.json]

The corpus is made here, seeded, from the scene's two topics (films and food) and its words of
praise and of complaint, so that the same text can be given to the browser (`--write`): no
corpus can be downloaded on the machines rowflow is built on. Both trainers see every pair of
every sentence within the full window (gensim's `shrink_windows=False`, `sample=0`), so they do
the same work; words per second = tokens × epochs / seconds of training. `--json` writes the
figures the page shows beside the browser's own (best of three runs each, the machine quiet).
"""

import argparse
import json
import os
import platform
import random
import time

TOPICS = {
    "film": (["film", "movie", "plot", "story", "ending", "actors", "actor", "actress", "cast", "scenes",
              "script", "dialogue", "director", "soundtrack", "camera", "sequel", "trailer", "villain",
              "hero", "cinema"],
             ["watch", "see", "rewatch", "recommend", "skip"]),
    "food": (["soup", "pasta", "sauce", "bread", "salad", "pizza", "steak", "dessert", "cake", "coffee",
              "tea", "rice", "noodles", "curry", "fish", "chicken", "cheese", "wine", "menu", "chef"],
             ["eat", "order", "taste", "recommend", "skip"]),
}
PRAISE = ["great", "good", "wonderful", "lovely", "excellent", "superb", "brilliant", "delightful",
          "fresh", "perfect", "amazing", "charming"]
COMPLAINT = ["awful", "bad", "terrible", "boring", "bland", "dull", "stale", "horrible", "poor",
             "mediocre", "disappointing", "cold"]
TEMPLATES = [
    "the {n} was {a}",
    "the {n} were {a}",
    "a {a} {n} with {a2} {n2}",
    "{a} {n} and {a2} {n2}",
    "we {feel} the {n}",
    "i would {v} this {n} again",
    "i would never {v} this {n} again",
    "the {n} was really {a}",
    "what a {a} {n}",
    "honestly the {n} felt {a}",
]


def corpus(tokens, seed=0):
    """Sentences (lists of words) of the two topics, about half praise, until `tokens` words."""
    r = random.Random(seed)
    out, n = [], 0
    while n < tokens:
        nouns, verbs = TOPICS[r.choice(sorted(TOPICS))]
        praise = r.random() < 0.5
        adjs = PRAISE if praise else COMPLAINT
        t = r.choice(TEMPLATES)
        if "never" in t:
            praise = not praise
        words = t.format(n=r.choice(nouns), n2=r.choice(nouns), a=r.choice(adjs), a2=r.choice(adjs),
                         v=r.choice(verbs), feel="loved" if praise else "hated").split()
        out.append(words)
        n += len(words)
    return out


def time_gensim(sentences, dim, window, negatives, epochs):
    from gensim.models import Word2Vec
    model = Word2Vec(vector_size=dim, window=window, negative=negatives, sg=1, min_count=1, workers=1,
                     sample=0, shrink_windows=False, seed=0)
    model.build_vocab(sentences)
    start = time.perf_counter()
    model.train(sentences, total_examples=len(sentences), epochs=epochs)
    return time.perf_counter() - start


def time_torch(sentences, dim, window, negatives, epochs, batch=1024, lr=0.025):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    vocab = {}
    for s in sentences:
        for w in s:
            vocab.setdefault(w, len(vocab))
    counts = torch.zeros(len(vocab))
    centres, contexts = [], []
    for s in sentences:
        ids = [vocab[w] for w in s]
        for i, c in enumerate(ids):
            counts[c] += 1
            for j in range(max(0, i - window), min(len(ids), i + window + 1)):
                if j != i:
                    centres.append(c)
                    contexts.append(ids[j])
    centres, contexts = torch.tensor(centres), torch.tensor(contexts)
    noise = counts ** 0.75
    torch.manual_seed(0)
    torch.set_num_threads(1)
    in_embed, out_embed = nn.Embedding(len(vocab), dim), nn.Embedding(len(vocab), dim)
    opt = torch.optim.SGD([in_embed.weight, out_embed.weight], lr=lr)
    start = time.perf_counter()
    for _ in range(epochs):
        for b in range(0, len(centres), batch):
            c, t = centres[b:b + batch], contexts[b:b + batch]
            n = torch.multinomial(noise, len(c) * negatives, replacement=True).view(len(c), negatives)
            v, u = in_embed(c), out_embed(t)
            pos = (u * v).sum(-1)
            neg = (out_embed(n) * v.unsqueeze(1)).sum(-1)
            loss = (-F.logsigmoid(pos) - F.logsigmoid(-neg).sum(-1)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return time.perf_counter() - start


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--tokens", type=int, default=120_000)
    p.add_argument("--dim", type=int, default=100)
    p.add_argument("--window", type=int, default=5)
    p.add_argument("--negatives", type=int, default=5)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--write")
    p.add_argument("--json")
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    sentences = corpus(a.tokens)
    tokens = sum(map(len, sentences))
    if a.write:
        with open(a.write, "w") as f:
            f.writelines(" ".join(s) + "\n" for s in sentences)
    words = tokens * a.epochs
    print(f"{tokens} tokens, {len(sentences)} sentences, {len({w for s in sentences for w in s})} words; "
          f"D={a.dim}, window={a.window}, negatives={a.negatives}, epochs={a.epochs}")
    timed = {}
    for key, name, run in [("gensim", "gensim (1 worker)", time_gensim), ("torch", "PyTorch (1 thread)", time_torch)]:
        seconds = min(run(sentences, a.dim, a.window, a.negatives, a.epochs) for _ in range(a.runs))
        version = __import__(key).__version__.split("+")[0]
        timed[key] = {"by": f"{name.split(' (')[0]} {version}", "words_per_second": round(words / seconds)}
        print(f"{name}: {seconds:.2f} s, {words / seconds:,.0f} words/s")
    if a.json:
        cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
                   platform.processor())
        machine = f"{cpu}, {os.cpu_count()} cores, {platform.system()}"
        with open(a.json, "w") as f:
            json.dump({"machine": machine, "tokens": tokens, "dim": a.dim, "window": a.window,
                       "negatives": a.negatives, "epochs": a.epochs, **timed}, f, indent=2)
            f.write("\n")
