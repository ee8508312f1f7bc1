# The lessons of the word2vec scene (core/src/scene/word2vec/lessons.json):
# each lesson's question, then what each step says (1-based). Variables are the numbers and facts
# rowflow fills in, named after the English placeholder: $output_1_0 is the number at output[1, 0],
# $input_shape is input.shape, $module the module's call. Tensor names (weight, output[0],
# weight.grad…) stay as they are: rowflow checks that each step's words still name the tensors it
# outlines.

## lesson-word2vec-cbow-or-skip-gram
lesson-word2vec-cbow-or-skip-gram-question = 如果我用一个 1000 个词、每个词 30 个数的 nn.Embedding，它是 word2vec 吗？如果是，是 CBOW 还是 skip-gram？
lesson-word2vec-cbow-or-skip-gram-step-1 = word2vec 就是两张表 in_embed.weight 和 out_embed.weight，外加一个损失。这里是 { $model }：句子“{ $sentence }”给出 { $pairs } 个词对，词对 0 的分数由中心词在 in_embed.weight 中的行与一个上下文词在 out_embed.weight 中的行算出：pos[0] = { $pos_0 }。
lesson-word2vec-cbow-or-skip-gram-step-2 = 词对 0 的中心词是“the”，即 in_embed.weight 的第 0 行：{ $in_embed_weight_0_0 }, … 每一行都和 nn.Embedding 生成的一样，是由 torch.manual_seed({ $seed }) 随机抽取的：此时还什么都没学到。
lesson-word2vec-cbow-or-skip-gram-step-3 = { $model } 把它反过来：上下文各词在 in_embed.weight 中的行取均值，再与中心词在 out_embed.weight 中的行算出分数，pos[0] = { $pos_0 }。同一个句子现在给出 { $pairs } 个词对，每个中心词一个。
lesson-word2vec-cbow-or-skip-gram-step-4 = 反向传播只给词对查到的行梯度。“soup”不在任何词对中，所以它在 in_embed.weight.grad 中的行是 { $in_embed_weight_grad_3_0 }，SGD 让它原地不动。
lesson-word2vec-cbow-or-skip-gram-step-5 = 所以你模型里的 nn.Embedding 两者都不是：word2vec 是训练一张表的一种方法，用的损失是 { $loss_fn }；CBOW 与 skip-gram 的区别只在于 in_embed.weight 的哪些行被送进去。你模型的嵌入（embedding）由你模型的损失来训练。

## lesson-word2vec-learned
lesson-word2vec-learned-question = 这些值是学到的，还是只是基于词表的随机向量？又是为了什么而学？
lesson-word2vec-learned-step-1 = 一开始，“great”是 in_embed.weight 的第 6 行，是由 torch.manual_seed({ $seed }) 随机抽取的：{ $in_embed_weight_6_0 }, … 行的方向与它最接近的那些词 { $near_word2vec } 只是碰巧在那里。
lesson-word2vec-learned-step-2 = 经过 { $model } 的 { $steps } 步 SGD（每一步只移动它的句子查到的行），great 在 in_embed.weight 中的行以 { $in_embed_weight_6_0 } 开头，与它最接近的词是 { $near_word2vec }。
lesson-word2vec-learned-step-3 = word2vec 通过预测相邻的词来学习，而“great”和“awful”（in_embed.weight 的第 6 行和第 8 行）总是与同样的词为伴：“the film was great”“the film was awful”。由于要预测同样的邻居，它们的行变得越来越像。
lesson-word2vec-learned-step-4 = 任务则改为从标签（labels）学习同样这些词，1 表示称赞，0 表示抱怨：从随机的表出发训练 { $task_steps } 步后，在它的表中与“great”最接近的词是 { $near_task }。
lesson-word2vec-learned-step-5 = 两张表都是学到的，都是用 SGD 优化一个损失，各自存下它的损失所需要的东西：word2vec 的表把 { $word } 放在与它出现在相同位置的词旁边；任务的表从标签（labels）学习，则把它放在标签要求与它放在一起的词旁边。

## lesson-word2vec-pretrained
lesson-word2vec-pretrained-question = 要不要使用预训练向量（例如 word2vec）？有什么建议？
lesson-word2vec-pretrained-step-1 = word2vec 已在这些句子上训练了 { $model } 的 { $steps } 步。下方，任务的分类器从一张随机的表出发学习标签（labels），训练 { $task_steps } 步后损失达到 { $task_loss_random }。
lesson-word2vec-pretrained-step-2 = 如果从 word2vec 的表出发并冻结它，表的行永远不动，只有 fc 学习标签（labels）：{ $task_steps } 步后，任务的损失是 { $task_loss_frozen }。
lesson-word2vec-pretrained-step-3 = 如果微调，word2vec 的行只是起点，之后随标签（labels）移动：任务的损失达到 { $task_loss_fine_tune }。
lesson-word2vec-pretrained-step-4 = 冻结时，word2vec 的行拖了任务的后腿：在这些行中与“great”最接近的词是 { $near_word2vec }，而“the film was great”（labels[0]）和“the film was awful”（labels[1]）的标签并不相同。
lesson-word2vec-pretrained-step-5 = 用不用预训练向量？从它们出发，再针对任务微调。当它们学自比你的标签（labels）多得多的文本时，帮助最大；这里两张表都从同样的几句话学习，所以微调最终停在与随机起点差不多的位置。
