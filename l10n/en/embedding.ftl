# The Embedding scene (src/scenes/embedding/).

embedding-title = nn.Embedding is a lookup
# The last item of a list cut short; $more is how many items are not listed.
embedding-more = … and { $more } more
# The list of rows selected, when PyTorch raises on the input.
embedding-no-picks = none: PyTorch raises before looking anything up
embedding-stale = PyTorch raises on the current inputs, so this is still the last output that ran.
# A heading, and the name of the list under it.
embedding-rows-selected = Rows selected
embedding-formula-heading = Where a number comes from
embedding-formula-hint = Click an output cell, or step the animation, to see which weight it copies.
# After the code "weight.grad (sparse)": $n is the number of entries of PyTorch's sparse (COO)
# gradient, $rows the list of rows they sum into, e.g. "0, 2, 5".
embedding-sparse-entries = { $n ->
        [one] { $n } entry
       *[other] { $n } entries
    }, one per id, uncoalesced; .coalesce() sums them into rows [{ $rows }]
# After the code "weight.grad" (a frozen table): $why is the reason, in English for now.
embedding-no-grad = is None: { $why }
# After a line "weight.grad[2] += output.grad[0, 1]" of the backward list, when that id was seen before.
embedding-adds-again = (adds onto an earlier id's row)
embedding-gradient-heading = Where the gradient goes
# The name of the list of backward steps ("weight.grad[r] += output.grad[k]").
embedding-gradient-adds = Gradient adds
# Settings: the table's group, the ids' group, and the checkbox for 2-D ids.
embedding-table-legend = Table
embedding-ids-legend = Ids
embedding-batched = batch × sequence

## Captions (core/src/scene/embedding/)

# The timeline before the first forward step: $ids is how many ids there are, $lookups how many
# lookup steps the timeline plays.
embedding-caption-forward = { $ids ->
        [one] { $ids } id
       *[other] { $ids } ids
    }, { $lookups ->
        [one] { $lookups } lookup
       *[other] { $lookups } lookups
    }: step forward to watch each id pick its row.
embedding-caption-stale = PyTorch would raise here, so there is nothing to play: fix what is marked.
# Many ids, played as one step: $ids is how many.
embedding-caption-all-at-once = All { $ids } ids look up their rows of weight at once.
# A forward step: $input is the id's cell ("input[1]"), $row the id it holds (also the row of
# weight it selects), $output the output's cell it is copied to ("output[1]").
embedding-step-pick = { $input } = { $row } selects weight[{ $row }], copied to { $output }
# The backward timeline of a table given with from_pretrained(freeze=True).
embedding-caption-frozen = from_pretrained(freeze=True) sets weight.requires_grad=False, so backward computes no weight.grad and SGD has nothing to step.
embedding-caption-stale-backward = PyTorch would raise here, so there is no backward pass: fix what is marked.
# $error is PyTorch's error message, in English.
embedding-caption-no-backward = Backward cannot start: { $error }
# Many ids, played as one backward step.
embedding-caption-backward-at-once = Every output row's gradient is added into the weight.grad row its id selected, at once.
# The timeline before the first backward step: $rows is how many gradient rows (ids) flow back.
embedding-caption-backward = { $rows ->
        [one] { $rows } gradient row flows back, added into the weight.grad row its id selected.
       *[other] { $rows } gradient rows flow back, each added into the weight.grad row its id selected.
    } Rows no id selected stay zero.
# The same with padding_idx set: $padding is the padding row's index (and id).
embedding-caption-backward-padding = { $rows ->
        [one] { $rows } gradient row flows back, added into the weight.grad row its id selected.
       *[other] { $rows } gradient rows flow back, each added into the weight.grad row its id selected.
    } weight.grad[{ $padding }] is the padding row: id { $padding } sends none.
# The same, shorter, when the above is too long for the timeline.
embedding-caption-backward-short = { $rows ->
        [one] { $rows } gradient row flows back, added into the weight.grad row its id selected.
       *[other] { $rows } gradient rows flow back, each added into the weight.grad row its id selected.
    }
# A backward step: $row is the row of weight.grad (the id), $grad the row of output.grad added
# into it ("output.grad[0, 1]"), $input the id's cell ("input[0, 1]").
embedding-step-grad = weight.grad[{ $row }] += { $grad }: { $input } = { $row } looked that row up.
# The same, when the id was looked up by an earlier step.
embedding-step-grad-again = weight.grad[{ $row }] += { $grad }: id { $row } was looked up before, so its gradient adds up.
# The notes under the scene (the first is its lede).
embedding-caption-lookup = Each id picks one row of weight and copies it to the output. Nothing is multiplied.
# $rows and $dim are the table's sizes (num_embeddings, embedding_dim).
embedding-caption-table = weight is ({ $rows }, { $dim }): row i belongs to id i and is used as stored, with no transpose (a Linear's weight is (out, in) and gets transposed).
# $ids_shape is the ids' shape ("(2, 4)"), $dim how many numbers each id adds, $shape the
# output's shape ("(2, 4, 3)").
embedding-caption-output = The output keeps the ids' shape { $ids_shape } and adds { $dim ->
        [one] { $dim } number
       *[other] { $dim } numbers
    } per id: { $shape }.
# $id is an id that occurs more than once in the input.
embedding-caption-repeated-one = Id { $id } appears more than once: its row is copied to each place.
# $ids lists the ids that occur more than once ("1, 7").
embedding-caption-repeated = Ids { $ids } appear more than once: each row is copied to each place.
# $padding is the padding row's index; $start is where its numbers come from: "pretrained" (a
# table given with from_pretrained) or "drawn" (drawn by nn.Embedding).
embedding-caption-padding = weight[{ $padding }] is the padding row: { $start ->
        [pretrained] from_pretrained keeps it as given
       *[drawn] nn.Embedding fills it with zeros
    }, and it never gets gradient, so training never moves it.
embedding-caption-freeze = freeze=True: the table is fixed (requires_grad=False); no gradient reaches it.
embedding-caption-no-freeze = freeze=False: the table keeps learning like a fresh nn.Embedding.
embedding-caption-sparse = sparse=True: weight.grad will hold only the looked-up rows.
# A large table: $rows × $dim = $numbers numbers in all; $ids ids × $dim = $copied of them copied.
embedding-caption-big-table = The table holds { $rows } × { $dim } = { $numbers } numbers; this lookup copies only { $ids } × { $dim } = { $copied } of them.
