# The Explain page, #/explain (src/explain/). The explanations themselves come from rowflow-core.

explain-title = 解释报错
explain-lede = 粘贴 PyTorch 打印的报错、引发它的那行代码，或两者都粘贴：按层所见的方式查看形状、它们在哪里不一致以及修复方法，然后在场景中打开。
explain-text-label = PyTorch 报错或代码行
explain-examples = 示例
explain-nothing-yet = 还没有粘贴内容：在上方粘贴，或选择一个示例。
# "PyTorch runs this without an error: <the line> gives <its output>." The code sits between the parts; mind the spaces.
explain-runs = PyTorch 运行这行代码不会报错：{" "}
explain-runs-gives = {" "}得到{" "}
explain-runs-end = 。
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
explain-open = 在 { $scene } 场景中打开
# "See nn.Linear in the Linear scene.": the layer (code) sits between the first two parts, then
# the link (explain-scene-link), then the end; mind the spaces.
explain-see = 要查看{" "}
explain-see-in = ，请打开{" "}
explain-scene-link = { $scene } 场景
explain-see-end = 。
# Before the call that raised the error (code).
explain-from = 来自{" "}
explain-fixes = 修复方法
explain-unknown = 这不是 rowflow 认识的报错信息，所以它不作猜测，不对其做任何说明。它能读懂以下报错：
# After a kind of error rowflow reads (English text from rowflow-core), before the link to its scene (explain-scene-link).
explain-kind-shown = ，见{" "}
