# 每个场景共有的部分（src/shell.rs）、PyTorch 面板（src/code_panel.rs）、分享（src/share_panel.rs、
# src/class_link.rs）、在浏览器中保存（src/storage.rs）、出错后显示的页面（src/crash.rs）以及应用的页面
# （src/app.rs、src/more.rs）。

## 场景的框架（src/shell.rs）

shell-skip = 跳到动画
shell-run-stopped = 运行因其他更改而停止
shell-run-cancelled = 已取消
shell-cancelled = 已取消
shell-no-such-step = 没有这一步
shell-link-no-lesson = 此链接要求的课程在本场景中不存在（{ $characters } 个字符）；未做任何更改。
shell-link-no-step = 此链接要求的步骤在课程中不存在（课程共 { $steps } 步）：从第 1 步开始。
shell-lesson-not-played = 无法播放此课程：{ $error }。
shell-script-unloaded = # 未生成：{ $error }。关闭面板后重新打开即可重试。
shell-script-writing = # 正在生成脚本…

## 课堂链接可以隐藏的面板

class-hide-code = PyTorch 面板
class-hide-settings = 尺寸和设置
class-hide-learn = 学习控件
class-hide-share = 分享栏

## PyTorch 面板（src/code_panel.rs）

code-title = PyTorch：在 Python 中得到相同的数字
code-hint = 用 PyTorch 运行它：它会构建这些张量（种子能生成的就用种子生成，逐位一致），并打印这里显示的输出、损失和每个 .grad。笔记本按步骤包含相同的代码，每一步都附有场景对它的说明。
code-copy = 复制代码
code-download = 下载笔记本
code-cancel = 取消
code-writing-file = 正在生成文件
code-pytorch-code = PyTorch 代码
code-writing-script = 正在后台生成包含全部数字的脚本…
code-writing-notebook = 正在后台生成包含全部数字的笔记本…
code-copied = 已复制。
code-not-copied = 未复制：{ $error }。
code-select = 请选中代码并复制。
code-not-downloaded = 未下载：{ $error }。
code-downloaded = 已下载 { $name }。
code-download-refused = 浏览器拒绝了下载。
code-no-background-copy = 此浏览器无法复制在后台生成的文件
code-refused = 浏览器拒绝了该操作

## 分享（src/share_panel.rs）

share-label = 分享
share-copy-link = 复制链接
share-export = 导出文件
share-import = 导入文件
share-link = 此场景的链接{" "}
share-copied = 已复制。
share-select = 请选中链接并复制。
share-too-large = 此场景太大，无法放进链接（{ $size }；链接最多容纳 2 MiB）：“导出文件”可以完整保存它。
share-long = 此链接长达 { $size }；邮件和聊天应用可能会截断它，因此“导出文件”更稳妥。
share-download-refused = 浏览器拒绝了下载
share-not-text = 它不是文本文件
share-opened = 此场景来自{ $from ->
        [link] 链接
        [file] 文件
       *[lesson] 课程
    }。
share-kept = 你自己的工作已保留：
share-back = 回到我的工作
share-refused = { $from ->
        [link] 无法打开此链接
        [file] 无法打开此文件
        [export] 无法导出
        [lesson] 无法打开此课程
        [saved-work] 无法打开已保存的工作
       *[other] 无法打开
    }：{ $error }。未做任何更改。
share-elsewhere = 此场景在另一个标签页中被更改，本标签页现在显示的是那边的工作。你在本标签页中的工作已保留：
share-restored = 你自己的工作已恢复。
share-unreadable = 无法读取此场景已保存的工作（{ $error }）。它以 { $key }.unreadable 为名保留在此浏览器中；场景从第一个预设开始。
share-download-it = 下载它
share-unsaved = 未保存：{ $error }——导出为文件可以保留你的工作。

## 课堂链接（src/class_link.rs）

class-title = 课堂链接
class-hide = 隐藏
class-present = 以投影模式打开
class-copy = 复制课堂链接
class-link = 课堂链接{" "}
class-too-large = 此场景太大，无法放进链接：“导出文件”可以完整保存它。

## 为什么工作没有保存或没有打开（src/storage.rs）

save-no-window = 没有窗口
save-not-allowed = 此浏览器不允许 rowflow 在这里保存任何内容
save-full-needs = 此浏览器的存储空间已满（此场景需要 { $size }）
save-full = 此浏览器的存储空间已满
save-refused = 浏览器拒绝保存
save-crashed = 它在打开时触发了程序缺陷，使 rowflow 停止运行
save-other-tab = 此场景已在另一个标签页中被更改，而且{ $error }
save-other-tab-unreadable = 此场景已在另一个标签页中以本标签页无法读取的格式保存（{ $error }），因此这里不会覆盖保存；请重新加载本标签页来打开它
save-not-kept-aside = { $error }；也无法将其另行保存（{ $reason }），因此不会覆盖保存
save-gone = 它已不存在
save-no-longer-reads = 它已无法作为此场景读取（{ $error }）；它仍以 { $key } 为名保留在此浏览器中
save-not-set-aside = 无法先将你自己的工作另行保存（{ $error }）；请先导出为文件，然后重试

## 出错后显示的页面（src/crash.rs）

crash-title = rowflow 因程序缺陷而停止
crash-lede = 这是 rowflow 的问题，不是你的操作造成的。直到最后一次更改，你做的每一处更改都已保存在此浏览器中，因此重新加载即可恢复你的工作。
crash-fresh-lede = 它在打开此场景已保存的工作时停止，因此重新加载可能会再次停止。从头开始此场景会把那份工作另行保存在此浏览器中，你仍然可以下载它。
crash-reload = 重新加载我保存的工作
crash-download = 下载我保存的工作
crash-fresh = 从头开始此场景
crash-report = 出了什么问题（用于错误报告）

## 应用的页面（src/app.rs、src/more.rs）

app-not-found-title = 没有这个页面
app-not-found = 此链接没有指向任何场景。请在上方选择一个，或前往
app-not-found-start = 首页
app-not-found-end = 。
app-unloaded-title = 此场景未能加载
app-unloaded = 无法下载 rowflow 中它的那一部分（网络问题，或网站有了新版本）。你做的内容都没有丢失。
app-try-again = 重试
more-unloaded = 无法下载 rowflow 中它的那一部分（网络问题，或网站有了新版本）
