# The word2vec scene (src/scenes/word2vec/): its settings, corpus and vocabulary, the task's
# table compared with word2vec's, and word2vec at real scale in a worker.

word2vec-title = word2vec or the task?
# The lede reads: [word2vec-lede-is] nn.Embedding [word2vec-lede]. The code between is left as it is.
word2vec-lede-is = Is{" "}
word2vec-lede = {" "}word2vec? No: it is a table of rows, learned by whatever loss you train it with. Here the same vocabulary is learned twice. word2vec (skip-gram or CBOW, with negative sampling) learns it by predicting the words around each word, so words that keep the same company end up close. A classifier learns it from the label of each sentence, so words end up close when the label needs them to.
# A checkbox's label, after the box.
word2vec-cbow = CBOW (predict the centre from its context; off: skip-gram)
word2vec-moved-note = Faded rows are words this step does not look up: their gradient is 0, so SGD never moves them. Outlined cells moved in the last step.
word2vec-score-title = Where a score comes from
# pos and neg are the names of two tensors.
word2vec-score-hint = Click a score in pos or neg, or step the forward animation, to see its sum of products.

## The sentence classifier ("the task") trained on the same vocabulary.

word2vec-task-title = The same words, trained by a task
# The hint reads: [mean] nn.Embedding [then] nn.Linear(D, 1) [and] F.binary_cross_entropy_with_logits
# [label] from_pretrained(w, freeze=True) [fine-tuned] freeze=False [end]
word2vec-task-hint-mean = A classifier: the mean of a sentence's rows of an{" "}
word2vec-task-hint-then = , then{" "}
word2vec-task-hint-and = {" "}and{" "}
word2vec-task-hint-label = {" "}against the sentence's label (1 praise, 0 complaint; edit them). Its table starts random, or from word2vec's in_embed frozen (
word2vec-task-hint-fine-tuned = ), or fine-tuned (
word2vec-task-hint-end = ).
word2vec-task-legend = The task
# Radio buttons follow: the three starts of the task's table (word2vec-start-*).
word2vec-starts-legend = Compare word2vec's table with
# How the task's table starts: random, word2vec's table frozen, or word2vec's table fine-tuned.
word2vec-start-random = random
word2vec-start-frozen = word2vec, frozen
word2vec-start-fine-tuned = word2vec, fine-tuned
# The chart of the task's loss curves.
word2vec-curves-label = The task's loss for each start, step by step
# A legend line: $start is one of word2vec-start-*; $first and $last are losses as PyTorch prints them.
word2vec-curve-legend = { $start }: loss { $first } → { $last }

## Which words are close: nearest neighbours and PCA maps of both tables.

word2vec-compare-title = Which words are close?
word2vec-near-word2vec = word2vec's in_embed
word2vec-pca-word2vec = word2vec's in_embed, PCA
# $start is one of word2vec-start-*.
word2vec-near-task = The task's table ({ $start })
# $start is one of word2vec-start-*.
word2vec-pca-task = The task's table ({ $start }), PCA
# Followed by the list of words left off the PCA map.
word2vec-unplaced = {" "}— not on the map, their rows hold inf or nan:{" "}

## The corpus, its vocabulary and the sentence the next step trains on.

word2vec-corpus-label = Corpus: one sentence per line (edit, then leave the box)
word2vec-tokenizer-hint = A word is a run of letters, digits and apostrophes; only A–Z are lower-cased, so ÉMILE is read Émile, another word than émile.
# $min is the setting min_count; $words lists the words left out, each as "word ×count".
word2vec-left-out = Left out (seen fewer than min_count = { $min } times): { $words }
word2vec-vocabulary-title = Vocabulary: { $words ->
        [one] { $words } word
       *[other] { $words } words
    } from { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }
word2vec-vocabulary-list = Vocabulary: id, word, count
# $line is the line of the corpus (from 1); $pairs how many (centre, context) pairs it gives.
word2vec-sentence-title = The next step trains on line { $line } ({ $pairs ->
        [one] { $pairs } pair
       *[other] { $pairs } pairs
    })
word2vec-no-sentence = No sentence to train on
word2vec-sentence-hint = Centre word in blue, its context in orange, for the pair the timeline is on; struck-out words are not in the vocabulary.

## "At real scale": word2vec trained on a large corpus in a Web Worker.

word2vec-scale-summary = At real scale: 120,002 tokens trained in a worker
# Followed by a "Try again" button.
word2vec-scale-unloaded = This part of rowflow could not be downloaded (the network, or a new version of the site).{" "}
word2vec-try-again = Try again
# The intro reads: [intro] in_embed [intro-from] (torch.rand(V, D) - 0.5) / D [intro-and] out_embed [intro-zeros]
word2vec-scale-intro = The same loss on a corpus a thousand times larger, trained the way word2vec.c and gensim train it: one SGD step per pair as soon as its gradient is known, the learning rate falling from 0.025 to 0.0001,{" "}
word2vec-scale-intro-from = {" "}from{" "}
word2vec-scale-intro-and = {" "}and{" "}
word2vec-scale-intro-zeros = {" "}zeros. It runs in a Web Worker, so the page stays free while it trains.
word2vec-scale-loading = Loading the corpus…
# $sentences and $kb are numbers already written with thousands separators.
word2vec-scale-corpus = Corpus: { $sentences } sentences, { $kb } KB, made by tools/time_word2vec.py from the scene's two topics and its words of praise and of complaint.
# $why is one of word2vec-scale-no-window, -unreachable, -server, -unreadable.
word2vec-scale-corpus-failed = The corpus did not load: { $why }.
word2vec-scale-no-window = no window
word2vec-scale-unreachable = the network is unreachable
# $status is the HTTP status code, e.g. 404.
word2vec-scale-server = the server answered { $status }
word2vec-scale-unreadable = its text could not be read
# $method is CBOW or skip-gram.
word2vec-scale-settings = { $method }, D = 100, window 5, 5 negatives
# Followed by a drop-down of 1, 5 or 20.
word2vec-scale-epochs = Epochs{" "}
word2vec-scale-train = Train
word2vec-scale-cancel = Cancel
word2vec-scale-reading = Reading the corpus in the worker…
# Numbers are already written with thousands separators; $loss as PyTorch prints it.
word2vec-scale-training = { $words } of { $of } words, { $speed } words/s, loss { $loss }
word2vec-scale-cancelled-after = Cancelled after { $words } of { $of } words.
word2vec-scale-cancelled = Cancelled.
# $seconds is the time taken, e.g. 3.52; $loss as PyTorch prints it.
word2vec-scale-trained = Trained: { $words } words in { $seconds } s, { $speed } words/s; the last pairs' loss { $loss }.
# $why is why the run stopped (word2vec-scale-wrong-size, -unexpected, -trainer-stopped, or the worker's own message).
word2vec-scale-stopped = Stopped: { $why }
word2vec-scale-wrong-size = the trainer sent back a table of the wrong size
# $error is the JSON parser's message (English).
word2vec-scale-unexpected = the trainer said something unexpected: { $error }
# $why is the browser's message (English).
word2vec-scale-trainer-stopped = the trainer stopped: { $why }
# The table comparing words per second: its caption, column headings, and the first row's name.
word2vec-scale-speeds = Words per second, skip-gram, D = { $dim }, window { $window }, { $negatives } negatives, { $epochs ->
        [one] { $epochs } epoch
       *[other] { $epochs } epochs
    }
word2vec-scale-trained-by = trained by
word2vec-scale-words-per-second = words/s
word2vec-scale-of-gensim = of gensim's
word2vec-scale-this-browser = this browser, the trainer worker
# $machine describes the computer (English, as the timing script wrote it).
word2vec-scale-timed = gensim (one worker thread) and PyTorch (one thread) were timed on { $machine } by tools/time_word2vec.py on the same corpus and work.
word2vec-scale-not-like = {" "}This run is not that work (CBOW, or more epochs): its words per second are not like for like.
# $word is the word chosen in the scene.
word2vec-scale-nearest = Nearest to “{ $word }” after training at scale
# great, awful, film, soup are words of the corpus: keep them in English.
word2vec-scale-not-in-corpus = That word is not in this corpus: choose one of its words above (great, awful, film, soup…).

## Captions (core/src/scene/word2vec/)

# What the next step does, under the scene's sentence. $model is cbow or skip-gram; $pairs the
# step's (centre, context) pairs; $rows the vocabulary's rows.
word2vec-caption-step = { $model ->
        [cbow] CBOW predicts each centre word from the mean of its context's rows
       *[skip-gram] Skip-gram predicts each context word from its centre's row
    }: { $pairs ->
        [one] { $pairs } pair
       *[other] { $pairs } pairs
    } of the vocabulary's { $rows ->
        [one] { $rows } row
       *[other] { $rows } rows
    } are read and moved by this step; every other row's gradient is 0.
# The task's loss after its $steps SGD steps from each start; $random, $frozen, $fine_tuned are
# losses as PyTorch prints them.
word2vec-caption-task = The task after { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }: from a random table loss { $random }, from word2vec's frozen { $frozen }, fine-tuned { $fine_tuned }.
word2vec-step-nothing = Nothing to play: the corpus gives no pair to train on.
# Before the first step. "Step forward" is the timeline's button (timeline-forward).
word2vec-step-forward-overview = Forward: { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }, one per pair of the sentence. Press Step forward to start.
word2vec-step-backward-overview = Backward: { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }, from the last pair back to the first. Press Step forward to start.
# A forward step: pair $pair (an index) scores its target word. $input is the centre word
# ($kind word) or the context's words, comma-separated ($kind mean: their rows' mean); $target
# the word predicted; $pos the score as PyTorch prints it; $negatives the words sampled against
# it. Words are the corpus's: keep them as they are. pos and neg are tensors.
word2vec-step-forward = Pair { $pair }: { $kind ->
        [mean] the mean of { $input }
       *[word] { $input }
    } → { $target }: pos[{ $pair }] = { $pos }; the negatives { $negatives } make neg[{ $pair }].
# A backward step: $grad is pos.grad[$pair] as PyTorch prints it; the other arguments as in
# word2vec-step-forward. in_embed and out_embed are the two tables.
word2vec-step-backward = pos.grad[{ $pair }] = { $grad }: only the rows of { $kind ->
        [mean] the mean of { $input }
       *[word] { $input }
    } (in_embed) and of { $target }, { $negatives } (out_embed) get gradient.
# word2vec-step-forward with the negatives counted ($count), not listed: said when that does not fit.
word2vec-step-forward-counted = Pair { $pair }: { $kind ->
        [mean] the mean of { $input }
       *[word] { $input }
    } → { $target }: pos[{ $pair }] = { $pos }; its { $count ->
        [one] negative makes
       *[other] { $count } negatives make
    } neg[{ $pair }].
# The shortest way of word2vec-step-forward.
word2vec-step-forward-short = Pair { $pair }: pos[{ $pair }] = { $pos }, the score of { $target }.
# word2vec-step-backward with the negatives counted ($count), not listed: said when that does not fit.
word2vec-step-backward-counted = pos.grad[{ $pair }] = { $grad }: only the rows of { $kind ->
        [mean] the mean of { $input }
       *[word] { $input }
    } (in_embed) and of { $target } and its { $count ->
        [one] negative
       *[other] { $count } negatives
    } (out_embed) get gradient.
# The shortest way of word2vec-step-backward.
word2vec-step-backward-short = pos.grad[{ $pair }] = { $grad }: only the rows pair { $pair } reads get gradient.
