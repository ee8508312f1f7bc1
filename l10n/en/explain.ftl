# The Explain page, #/explain (src/explain/). The explanations themselves come from rowflow-core.

explain-title = Explain an error
explain-lede = Paste the error PyTorch printed, the line that raised it, or both: see the shapes as the layer sees them, where they disagree, and fixes, then open it in the scene.
explain-text-label = PyTorch error or line
explain-examples = Examples
explain-nothing-yet = Nothing pasted yet: paste above, or pick an example.
# "PyTorch runs this without an error: <the line> gives <its output>." The code sits between the parts; mind the spaces.
explain-runs = PyTorch runs this without an error:{" "}
explain-runs-gives = {" "}gives{" "}
explain-runs-end = .
# A scene's name, as the navigation says it; $route is the scene's address.
explain-scene = { $route ->
        [linear] { nav-linear }
        [embedding] { nav-embedding }
        [one-hot] { nav-one-hot }
        [rnn] { nav-rnn }
        [train] { nav-train }
       *[word2vec] { nav-word2vec }
    }
# A link; $scene is a scene's name (explain-scene).
explain-open = Open in the { $scene } scene
# "See nn.Linear in the Linear scene.": the layer (code) sits between the first two parts, then
# the link (explain-scene-link), then the end; mind the spaces.
explain-see = See{" "}
explain-see-in = {" "}in the{" "}
explain-scene-link = { $scene } scene
explain-see-end = .
# Before the call that raised the error (code).
explain-from = From{" "}
explain-fixes = Fixes
explain-unknown = This is not one of the messages rowflow knows, so it says nothing about it rather than guess. It reads:
# After a kind of error rowflow reads (English text from rowflow-core), before the link to its scene (explain-scene-link).
explain-kind-shown = , shown in the{" "}
