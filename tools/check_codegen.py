"""Runs every script `codegen_presets` wrote under real torch and compares what it computes with
what the scene computed (run by hand, never by CI: CI has no torch).

    cargo run -p rowflow-core --example codegen_presets -- /tmp/codegen
    /tmp/torchenv/bin/python tools/check_codegen.py /tmp/codegen

For each `<name>.py` with its `<name>.json`: the script is exec'd in a fresh namespace (its prints
captured), then each expression of the JSON is evaluated there. `exact` tensors must match bit
for bit (nan matches nan), `close` ones within 1e-5 absolute + 1e-5 relative, `none` ones must be
None, `truth` ones must be that bool. A case with an `error` must raise that exception type with
that message. Exits 1 if any case fails.
"""
import contextlib
import io
import json
import math
import sys
import traceback
from pathlib import Path

import torch

ATOL = RTOL = 1e-5


def expected(spec):
    data = [float(x) if isinstance(x, str) else x for x in spec["data"]]
    dtype = torch.int64 if spec["dtype"] == "int64" else torch.float32
    return torch.tensor(data, dtype=dtype).reshape(spec["shape"])


def bits_equal(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype == torch.int64:
        return torch.equal(got, want)
    both_nan = got.isnan() & want.isnan()
    return bool(((got.view(torch.int32) == want.view(torch.int32)) | both_nan).all())


def close(got, want):
    if got.shape != want.shape:
        return False
    g, w = got.double(), want.double()
    both_nan = g.isnan() & w.isnan()
    same_inf = g.isinf() & (g == w)
    near = (g - w).abs() <= ATOL + RTOL * w.abs()
    return bool((both_nan | same_inf | near).all())


def same_number(a, b):
    return a == b and math.copysign(1, a) == math.copysign(1, b) or a != a and b != b


def near_number(a, b):
    return same_number(a, b) or abs(a - b) <= ATOL + RTOL * abs(b)


def first_difference(got, want, equal):
    """The first element where `equal` fails, with every digit of both numbers."""
    if got.shape != want.shape:
        return f"shape {tuple(got.shape)}, want {tuple(want.shape)}"
    for i, (a, b) in enumerate(zip(got.reshape(-1).tolist(), want.reshape(-1).tolist())):
        if not equal(a, b):
            return f"flat index {i}: got {a!r}, want {b!r}"
    return f"dtype {got.dtype}, want {want.dtype}"


def tensor_of(value):
    if isinstance(value, torch.Tensor):
        return value.detach()
    return torch.tensor(value)


def check(py_path):
    case = json.loads(py_path.with_suffix(".json").read_text())
    source = py_path.read_text()
    ns = {"__name__": "__main__"}
    problems, exact_outputs = [], 0
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, str(py_path), "exec"), ns)
        raised = None
    except Exception as e:  # noqa: BLE001 - any exception is the result under test
        raised = e
    error = case["error"]
    if error is not None:
        if raised is None:
            return [f"expected {error['type']}: {error['message']}, but the script ran"], 0
        got = f"{type(raised).__name__}: {raised}"
        want = f"{error['type']}: {error['message']}"
        if got != want:
            problems.append(f"raised {got!r}\n      want {want!r}")
        return problems, 0
    if raised is not None:
        tb = "".join(traceback.format_exception(raised)).strip().splitlines()[-3:]
        return ["raised " + " | ".join(tb)], 0
    for expr, spec in case["exact"].items():
        got, want = tensor_of(eval(expr, ns)), expected(spec)
        if not bits_equal(got, want):
            problems.append(f"{expr} not bit-exact: {first_difference(got, want, same_number)}")
    for expr, spec in case["close"].items():
        got, want = tensor_of(eval(expr, ns)), expected(spec)
        if not close(got, want):
            problems.append(f"{expr} not close: {first_difference(got.double(), want.double(), near_number)}")
        elif bits_equal(got.to(want.dtype), want):
            exact_outputs += 1
    for expr in case["none"]:
        if eval(expr, ns) is not None:
            problems.append(f"{expr} should be None")
    for expr, want in case["truth"].items():
        if bool(eval(expr, ns)) != want:
            problems.append(f"{expr} should be {want}")
    return problems, exact_outputs


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/codegen")
    scripts = sorted(folder.glob("*.py"))
    if not scripts:
        sys.exit(f"no scripts in {folder}: run the codegen_presets example first")
    failed = 0
    close_total = close_exact = 0
    for path in scripts:
        case = json.loads(path.with_suffix(".json").read_text())
        problems, exact = check(path)
        n_close = 0 if case["error"] else len(case["close"])
        close_total += n_close
        close_exact += exact
        kind = "raises " + case["error"]["type"] if case["error"] else f"{len(case['exact'])} exact, {n_close} close"
        print(f"{'FAIL' if problems else 'ok  '} {path.stem} ({kind})")
        for p in problems:
            print("    " + p)
        failed += bool(problems)
    print(f"\n{len(scripts) - failed}/{len(scripts)} cases match; "
          f"{close_exact}/{close_total} tolerance-checked values were bit-exact too (torch {torch.__version__})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
