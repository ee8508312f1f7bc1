# index.html's static shell (boot.js writes it before the WebAssembly arrives) and what boot.js says.

meta-description =
    .content = rowflow: see exactly what PyTorch's nn.Linear, nn.Embedding, one-hot × Linear and nn.RNN compute, with PyTorch's own numbers.

nav =
    .aria-label = Scenes

nav-linear = Linear
nav-embedding = Embedding
nav-one-hot = One-hot × Linear
nav-rnn = RNN
nav-train = Train
nav-word2vec = word2vec
nav-explain = Explain an error

projector = Projector
controls = Controls
fullscreen = Fullscreen
fullscreen-exit = Exit fullscreen
fullscreen-refused = Fullscreen was refused: { $error }
present-not-kept = Not remembered for the next visit: this browser refused to save it ({ $error }).
language = Language
lang-unsaved = Your latest work is not saved in this browser (the notice below says why), so the page was not reloaded in another language: export it to a file first.

update-ready = A new version of rowflow is ready.
update-reload = Reload
update-unsaved = A new version of rowflow is ready, but your latest work is not saved in this browser (the notice below says why): export it to a file, then Reload.

start-title = What PyTorch's layers compute, row by row
start-lede = Every number here is the number PyTorch prints: computed in your browser, float32 like PyTorch, with <code>torch.manual_seed</code> giving the very same initial weights. Edit any cell and watch the result follow.
start-lede-more = Each scene plays the forward and the backward pass, takes SGD steps, ends with the PyTorch code that prints its very numbers, and travels as a link or a file.
card-linear =
    .data-lede = A 1-D input is one sample, a single row: output[i] = input · weight[i] + bias[i]. That is weight @ input + bias, and input @ weight.T + bias gives the same 10 numbers.
card-linear-says = Is the input a row or a column? See y = x Wᵀ + b cell by cell, for one vector, a batch or a 3-D input.
card-embedding =
    .data-lede = An embedding is a lookup: watch each id pick its row of the table, with PyTorch's seeded numbers. Each id picks one row of weight and copies it to the output. Nothing is multiplied.
card-embedding-says = An embedding is a lookup: watch each id pick its row of the table, with PyTorch's seeded numbers.
card-one-hot =
    .data-lede = An embedding looks each id's row up. A one-hot row times linear.weight = emb.weight.T gives the very same numbers, but every number costs V multiply-adds, all but one of them times zero.
card-one-hot-says = The same numbers as a lookup, the long way round: count the multiplications by zero and time both.
card-rnn =
    .data-lede = Unroll nn.RNN step by step: output vs h_n, layers, directions, batch_first and packed sequences. Every cell computes h_t = tanh(x_t W_ihᵀ + b_ih + h_(t−1) W_hhᵀ + b_hh) with PyTorch's own numbers.
card-rnn-says = Unroll nn.RNN step by step: output vs h_n, layers, directions, batch_first and packed sequences.
card-train =
    .data-lede = Each user and each movie is a row of random numbers: torch.manual_seed(S), then every entry drawn from normal(0, 1). A rating is predicted as the dot product of the user's row and the movie's row. Each SGD step nudges the rows against the gradient of the MSE loss, param -= lr * param.grad, and only the rows the ratings use get a gradient, so only they move.
card-train-says = Train the fastai DotProduct recommender with SGD, and watch only the rows that were rated move.
card-word2vec =
    .data-lede = Is nn.Embedding word2vec? No: it is a table of rows, learned by whatever loss you train it with. Here the same vocabulary is learned twice. word2vec (skip-gram or CBOW, with negative sampling) learns it by predicting the words around each word, so words that keep the same company end up close. A classifier learns it from the label of each sentence, so words end up close when the label needs them to.
card-word2vec-says = Skip-gram and CBOW beside an embedding trained by its task, from random or pretrained rows: which words end up close?
card-explain =
    .data-lede = Paste the error PyTorch printed, the line that raised it, or both: see the shapes as the layer sees them, where they disagree, and fixes, then open it in the scene.
card-explain-says = Got a shape error from nn.Linear, nn.Embedding or nn.RNN? Paste it and see where the shapes disagree.

lessons-title = Lessons
lessons-lede = A few steps each, answering one question. Step through with PageDown or a presentation clicker; Escape leaves the lesson with the scene as it is.
lesson-linear-row-or-column = Is the input a row or a column?
lesson-embedding-lookup = An embedding is a lookup
lesson-embedding-gradient-rows = Which rows get gradient: repeats and padding
lesson-one-hot-same-numbers = A lookup is one-hot × Linear, and what the zeros cost
lesson-rnn-unroll = How nn.RNN unrolls: output vs h_n
lesson-rnn-vanishing-exploding = Vanishing and exploding gradients
lesson-train-learned = How embeddings are learned
lesson-word2vec-cbow-or-skip-gram = Is nn.Embedding word2vec? CBOW or skip-gram?
lesson-word2vec-learned = Learned by word2vec or by the task?
lesson-word2vec-pretrained = Pretrained vectors or not?
lesson-meta = { $scene ->
        [linear] { nav-linear }
        [embedding] { nav-embedding }
        [one-hot] { nav-one-hot }
        [rnn] { nav-rnn }
        [train] { nav-train }
       *[word2vec] { nav-word2vec }
    }, { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }
loading = Loading the lab…

crash-not-set-aside = Your saved work could not be set aside ({ $error }), so nothing was changed: download it first.
boot-error = rowflow could not start in this browser ({ $error }). It needs a browser with WebAssembly and its SIMD instructions: Chrome or Edge 91, Firefox 89, Safari 16.4 or newer.
