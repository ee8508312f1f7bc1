"""PyTorch's own times for the One-hot scene's question: lookup vs one-hot × Linear, forward and
backward, at the sizes the scene can be set to. Run by hand on the machine whose figures the
README quotes (torch from PyPI; never in CI):

    python3 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch
    /tmp/torchenv/bin/python tools/torch_one_hot_times.py > core/src/scene/one_hot/torch_times.json

One thread, as the page has one; the modules are built beforehand, as a model holds them, and the
one-hot way's time includes F.one_hot, as the scene's does. Each figure is the median of five
timings, each of as many calls as fill 0.2 s.
"""

import json
import platform
import statistics
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(1)

SIZES = [(v, d, n) for n in (3, 1024) for d in (64, 300) for v in (10, 100, 1_000, 10_000, 50_000)]


def ms_per_call(work):
    work()
    runs = []
    for _ in range(5):
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < 0.2:
            work()
            calls += 1
        runs.append((time.perf_counter() - start) * 1e3 / calls)
    return statistics.median(runs)


def case(v, d, n):
    torch.manual_seed(0)
    emb = torch.nn.Embedding(v, d)
    linear = torch.nn.Linear(v, d, bias=False)
    with torch.no_grad():
        linear.weight.copy_(emb.weight.T)
    ids = torch.randint(0, v, (n,))
    upstream = torch.randn(n, d)

    def lookup_backward():
        emb.weight.grad = None
        emb(ids).backward(upstream)

    def one_hot_backward():
        linear.weight.grad = None
        linear(F.one_hot(ids, v).float()).backward(upstream)

    with torch.no_grad():
        lookup = ms_per_call(lambda: emb(ids))
        one_hot = ms_per_call(lambda: linear(F.one_hot(ids, v).float()))
    return {
        "V": v,
        "D": d,
        "ids": n,
        "lookup_ms": round(lookup, 6),
        "one_hot_ms": round(one_hot, 6),
        "lookup_backward_ms": round(ms_per_call(lookup_backward), 6),
        "one_hot_backward_ms": round(ms_per_call(one_hot_backward), 6),
        "one_hot_gflops": round(2 * n * v * d / (one_hot * 1e6), 2),
    }


if __name__ == "__main__":
    print(
        json.dumps(
            {
                "torch": torch.__version__,
                "threads": torch.get_num_threads(),
                "machine": f"{platform.processor() or platform.machine()}, {platform.system()}",
                "cases": [case(*size) for size in SIZES],
            },
            indent=1,
        )
    )
