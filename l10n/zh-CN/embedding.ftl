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
