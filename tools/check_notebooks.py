"""Runs every notebook `codegen_presets` wrote under real torch, cell by cell as Jupyter does, and
compares what it computes with what the scene computed (run by hand, never by CI: CI has no torch).

    cargo run -p rowflow-core --example codegen_presets -- /tmp/codegen
    /tmp/torchenv/bin/python tools/check_notebooks.py /tmp/codegen

Each `<name>.ipynb` is judged against its `<name>.json` by `check_codegen.check`, the very checks
its script gets, with its code cells run in order in one namespace, each compiled on its own, up
to the first that raises. With `nbformat` installed, each notebook is validated against its schema too. Exits 1
if any case fails.
"""
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_codegen import check  # noqa: E402 - beside this file, not installed

try:
    import nbformat
    import nbformat.validator
except ImportError:
    nbformat = None


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
        cells = sum(c["cell_type"] == "code" for c in json.loads(path.read_text())["cells"])
        kind = "raises " + case["error"]["type"] if case["error"] else f"{len(case['exact'])} exact, {len(case['close'])} close"
        print(f"{'FAIL' if problems else 'ok  '} {path.stem} ({cells} code cells, {kind})")
        for p in problems:
            print("    " + p)
        failed += bool(problems)
    checked = "validated by nbformat " + nbformat.__version__ if nbformat else "nbformat not installed: not validated"
    print(f"\n{len(notebooks) - failed}/{len(notebooks)} notebooks match (torch {torch.__version__}; {checked})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
