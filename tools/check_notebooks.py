"""Runs every notebook `codegen_presets` wrote under real torch, cell by cell as Jupyter does, and
compares what it computes with what the scene computed (run by hand, never by CI: CI has no torch).

    cargo run -p rowflow-core --example codegen_presets -- /tmp/codegen
    /tmp/torchenv/bin/python tools/check_notebooks.py /tmp/codegen

Each `<name>.ipynb` is judged against its `<name>.json` by `check_codegen.check`, the very checks
its script gets, with its code cells run in order in one namespace, each compiled on its own, up
to the first that raises. With `nbformat` installed, each notebook is validated against its schema
too; with `nbclient` (and `ipykernel`) installed, each is also run top to bottom by Jupyter's own
client in a python3 kernel, as a learner's Jupyter runs it, and the kernel is asked for the same
values, which must be the same numbers. Exits 1 if any case fails.
"""
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_codegen import (  # noqa: E402 - beside this file, not installed
    bits_equal, check, close, expected, first_difference, near_number, same_number, tensor_of,
)

try:
    import nbformat
    import nbformat.validator
except ImportError:
    nbformat = None
try:
    import nbclient
except ImportError:
    nbclient = None

# Asks the kernel, after the notebook's last cell, for every value the case compares, as JSON:
# a tensor as its dtype, shape and numbers (float32 and int64 are exact as doubles).
PROBE = """
import json as _j, torch as _t
def _of(v):
    if isinstance(v, _t.Tensor):
        v = v.detach()
        return {"dtype": str(v.dtype), "shape": list(v.shape), "data": v.double().reshape(-1).tolist()}
    return v
print(_j.dumps({_e: _of(eval(_e)) for _e in %r}))
"""


class Cells:
    """A notebook as `check` reads a script: the source it execs runs the code cells one by one,
    in the namespace `check` gives it, and the case is the `.json` beside the notebook."""

    def __init__(self, path):
        self.path = path

    def read_text(self):
        notebook = json.loads(self.path.read_text())
        cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
        return (
            f"for __k, __cell in enumerate({cells!r}):\n"
            f"    exec(compile(__cell, f'{self.path.name}, cell {{__k}}', 'exec'), globals())\n"
        )

    def with_suffix(self, suffix):
        return self.path.with_suffix(suffix)

    def __str__(self):
        return str(self.path)


def schema_problems(path):
    """The notebook as written against nbformat's schema (reading it with nbformat would first
    repair it, adding missing cell ids)."""
    if nbformat is None:
        return []
    raw = json.loads(path.read_text())
    validator = nbformat.validator.get_validator(version=4, version_minor=raw.get("nbformat_minor"))
    return [f"not a valid notebook: {e.message}" for e in validator.iter_errors(raw)]


def kernel_problems(path, case):
    """The notebook run by nbclient in a python3 kernel: PyTorch's error where the case expects
    one, else every exact value bit for bit and every close one within the tolerance."""
    nb = nbformat.read(path, as_version=4)
    exprs = list(case["exact"]) + list(case["close"])
    nb.cells.append(nbformat.v4.new_code_cell(PROBE % exprs))
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=120)
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        got = f"{e.ename}: {e.evalue}"
        if case["error"] is None:
            return [f"the kernel raised {got}"]
        want = f"{case['error']['type']}: {case['error']['message']}"
        return [] if got == want else [f"the kernel raised {got!r}\n      want {want!r}"]
    if case["error"] is not None:
        return [f"expected {case['error']['type']} in the kernel, but the notebook ran"]
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("name") == "stdout")
    values = json.loads(text)
    problems = []
    for expr, spec in case["exact"].items():
        got, want = from_kernel(values[expr]), expected(spec)
        if not bits_equal(got, want):
            problems.append(f"kernel: {expr} not bit-exact: {first_difference(got, want, same_number)}")
    for expr, spec in case["close"].items():
        got, want = from_kernel(values[expr]), expected(spec)
        if not close(got, want):
            problems.append(f"kernel: {expr} not close: {first_difference(got.double(), want.double(), near_number)}")
    return problems


def from_kernel(value):
    """A value the probe printed, as the tensor `check` would have compared."""
    if isinstance(value, dict):
        dtype = getattr(torch, value["dtype"].removeprefix("torch."))
        return torch.tensor(value["data"], dtype=torch.float64).reshape(value["shape"]).to(dtype)
    return tensor_of(value)


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/codegen")
    notebooks = sorted(folder.glob("*.ipynb"))
    if not notebooks:
        sys.exit(f"no notebooks in {folder}: run the codegen_presets example first")
    failed = 0
    for path in notebooks:
        case = json.loads(path.with_suffix(".json").read_text())
        problems, _ = check(Cells(path))
        problems = schema_problems(path) + problems
        if nbclient is not None and nbformat is not None:
            problems += kernel_problems(path, case)
        cells = sum(c["cell_type"] == "code" for c in json.loads(path.read_text())["cells"])
        kind = "raises " + case["error"]["type"] if case["error"] else f"{len(case['exact'])} exact, {len(case['close'])} close"
        print(f"{'FAIL' if problems else 'ok  '} {path.stem} ({cells} code cells, {kind})")
        for p in problems:
            print("    " + p)
        failed += bool(problems)
    checked = "validated by nbformat " + nbformat.__version__ if nbformat else "nbformat not installed: not validated"
    if nbclient is not None and nbformat is not None:
        checked += f"; each run by nbclient {nbclient.__version__} in a python3 kernel"
    print(f"\n{len(notebooks) - failed}/{len(notebooks)} notebooks match (torch {torch.__version__}; {checked})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
