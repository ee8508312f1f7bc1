# The Embedding scene (src/scenes/embedding/).

embedding-title = nn.Embedding 就是查表
# The last item of a list cut short; $more is how many items are not listed.
embedding-more = ……还有 { $more } 项
# The list of rows selected, when PyTorch raises on the input.
embedding-no-picks = 无：PyTorch 在查表之前就报错了
embedding-stale = 当前输入会让 PyTorch 报错，因此这里仍显示最后一次成功运行的输出。
# A heading, and the name of the list under it.
embedding-rows-selected = 选中的行
embedding-formula-heading = 一个数从哪里来
embedding-formula-hint = 点击输出的单元格，或逐步播放动画，查看它复制的是 weight 的哪个数。
# After the code "weight.grad (sparse)": $n is the number of entries of PyTorch's sparse (COO)
# gradient, $rows the list of rows they sum into, e.g. "0, 2, 5".
embedding-sparse-entries = 共 { $n } 项，每个 id 一项，未合并（uncoalesced）；.coalesce() 会把它们按行相加，合并为行 [{ $rows }]
# After the code "weight.grad" (a frozen table): $why is the reason, in English for now.
embedding-no-grad = 为 None：{ $why }
# After a line "weight.grad[2] += output.grad[0, 1]" of the backward list, when that id was seen before.
embedding-adds-again = （累加到前面某个 id 的同一行上）
embedding-gradient-heading = 梯度流向哪里
# The name of the list of backward steps ("weight.grad[r] += output.grad[k]").
embedding-gradient-adds = 梯度累加
# Settings: the table's group, the ids' group, and the checkbox for 2-D ids.
embedding-table-legend = 表
embedding-ids-legend = 输入 id
embedding-batched = 批次 × 序列

## Captions (core/src/scene/embedding/)

# The timeline before the first forward step: $ids is how many ids there are, $lookups how many
# lookup steps the timeline plays.
embedding-caption-forward = { $ids } 个 id，{ $lookups } 次查表：逐步前进，看每个 id 选出自己的行。
embedding-caption-stale = PyTorch 在这里会报错，所以没有可播放的内容：请先修正标出的地方。
# Many ids, played as one step: $ids is how many.
embedding-caption-all-at-once = 全部 { $ids } 个 id 同时查出各自在 weight 中的行。
# A forward step: $input is the id's cell ("input[1]"), $row the id it holds (also the row of
# weight it selects), $output the output's cell it is copied to ("output[1]").
embedding-step-pick = { $input } = { $row } 选中 weight[{ $row }]，复制到 { $output }
# The backward timeline of a table given with from_pretrained(freeze=True).
embedding-caption-frozen = from_pretrained(freeze=True) 会设置 weight.requires_grad=False，所以反向传播不计算 weight.grad，SGD 也无从更新。
embedding-caption-stale-backward = PyTorch 在这里会报错，所以没有反向传播：请先修正标出的地方。
# $error is PyTorch's error message, in English.
embedding-caption-no-backward = 反向传播无法开始：{ $error }
# Many ids, played as one backward step.
embedding-caption-backward-at-once = 每个输出行的梯度同时累加到其 id 所选的 weight.grad 行中。
# The timeline before the first backward step: $rows is how many gradient rows (ids) flow back.
embedding-caption-backward = { $rows ->
        [1] 1 行梯度反向流回，累加到其 id 所选的 weight.grad 行中。
       *[other] { $rows } 行梯度反向流回，各自累加到其 id 所选的 weight.grad 行中。
    }没有被任何 id 选中的行保持为零。
# The same with padding_idx set: $padding is the padding row's index (and id).
embedding-caption-backward-padding = { $rows ->
        [1] 1 行梯度反向流回，累加到其 id 所选的 weight.grad 行中。
       *[other] { $rows } 行梯度反向流回，各自累加到其 id 所选的 weight.grad 行中。
    }weight.grad[{ $padding }] 是填充行（padding）：id { $padding } 不回传梯度。
# The same, shorter, when the above is too long for the timeline.
embedding-caption-backward-short = { $rows ->
        [1] 1 行梯度反向流回，累加到其 id 所选的 weight.grad 行中。
       *[other] { $rows } 行梯度反向流回，各自累加到其 id 所选的 weight.grad 行中。
    }
# A backward step: $row is the row of weight.grad (the id), $grad the row of output.grad added
# into it ("output.grad[0, 1]"), $input the id's cell ("input[0, 1]").
embedding-step-grad = weight.grad[{ $row }] += { $grad }：{ $input } = { $row } 查过这一行。
# The same, when the id was looked up by an earlier step.
embedding-step-grad-again = weight.grad[{ $row }] += { $grad }：id { $row } 之前已被查过，所以梯度累加。
# The notes under the scene (the first is its lede).
embedding-caption-lookup = 每个 id 选出 weight 的一行，复制到输出。这里没有任何乘法。
# $rows and $dim are the table's sizes (num_embeddings, embedding_dim).
embedding-caption-table = weight 的形状是 ({ $rows }, { $dim })：第 i 行属于 id i，按存储的原样使用，不转置（Linear 的 weight 是 (out, in)，要转置）。
# $ids_shape is the ids' shape ("(2, 4)"), $dim how many numbers each id adds, $shape the
# output's shape ("(2, 4, 3)").
embedding-caption-output = 输出保留 id 的形状 { $ids_shape }，并为每个 id 添加 { $dim } 个数：{ $shape }。
# $id is an id that occurs more than once in the input.
embedding-caption-repeated-one = id { $id } 出现了不止一次：它的行会复制到它出现的每个位置。
# $ids lists the ids that occur more than once ("1, 7").
embedding-caption-repeated = id { $ids } 出现了不止一次：每个 id 的行都会复制到它出现的每个位置。
# $padding is the padding row's index; $start is where its numbers come from: "pretrained" (a
# table given with from_pretrained) or "drawn" (drawn by nn.Embedding).
embedding-caption-padding = weight[{ $padding }] 是填充行（padding）：{ $start ->
        [pretrained] from_pretrained 保留它给定的值
       *[drawn] nn.Embedding 把它填为零
    }，而且它永远得不到梯度，所以训练不会改变它。
embedding-caption-freeze = freeze=True：表是固定的（requires_grad=False），没有梯度会传到它。
embedding-caption-no-freeze = freeze=False：表会像新建的 nn.Embedding 一样继续学习。
embedding-caption-sparse = sparse=True：weight.grad 只会包含被查到的行。
# A large table: $rows × $dim = $numbers numbers in all; $ids ids × $dim = $copied of them copied.
embedding-caption-big-table = 这张表有 { $rows } × { $dim } = { $numbers } 个数；这次查表只复制了其中 { $ids } × { $dim } = { $copied } 个。
