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
