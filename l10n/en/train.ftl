# The Train scene (src/scenes/train/).

train-title = Training the DotProduct recommender
# The lede is cut around two pieces of code: "torch.manual_seed(S)" follows train-lede-rows, and
# "param -= lr * param.grad" follows train-lede-sgd; train-lede-moved ends the paragraph.
train-lede-rows = Each user and each movie is a row of random numbers:
train-lede-sgd = , then every entry drawn from normal(0, 1). A rating is predicted as the dot product of the user's row and the movie's row. Each SGD step nudges the rows against the gradient of the MSE loss,
train-lede-moved = , and only the rows the ratings use get a gradient, so only they move.
# The group of the model's sizes (n_users, n_movies, n_factors, ratings) and seed.
train-model-legend = Model
# The current loss under the predictions; $loss is the number as PyTorch prints it.
train-loss = loss = { $loss }
train-no-loss = loss: PyTorch raises on the current ratings
# The name of the status line that shows the loss.
train-loss-label = Loss
train-stale = PyTorch raises on the current ratings, so these are the last predictions that ran.
train-moved-hint = Outlined cells moved in the last step. Faded rows belong to users or movies no rating uses: their gradient is zero, so SGD never moves them.
# R is the number of ratings; b a rating's row.
train-grads-hint = Going backward, each number's .grad is under it: output.grad = 2·(output − rating)/R; each rating adds output.grad[b]·movie row into its user's gradient row, and output.grad[b]·user row into its movie's.
train-formula-heading = Where a prediction comes from
train-formula-hint = Click a prediction in output, or step the forward animation, to see its sum of products.

## The charts.

# The loss curve's caption and name.
train-loss-curve = Loss curve
# Beside the caption: $loss is the current loss as PyTorch prints it, $step the number of steps taken.
train-loss-now = now { $loss } at step { $step }
train-no-loss-now = no current loss: PyTorch raises
# A point's tooltip: the loss measured at step $step.
train-point = step { $step }: { $loss }
# Under the x axis's right end: the last step.
train-last-step = step { $step }
# The scatter plot's name and its two caption lines (● and ■ are the points' shapes).
train-factors = Factors
train-factors-axes = Factors: x = factor 0, y = factor 1
train-factors-key = ● user, ■ movie; faded: never rated

## Captions (core/src/scene/train/)

# Beside the scene's diagram: $factors is n_factors, the products summed for each rating's score.
train-caption-score =
    Each score is (user_factors[u] * movie_factors[m]).sum(): { $factors ->
        [one] { $factors } product
       *[other] { $factors } products
    } added per rating.
# Beside the diagram: $users and $movies list the rows no rating uses ("3, 4"; may be empty).
train-caption-still = Only rated rows get gradient, so only they move: users [{ $users }] and movies [{ $movies }] keep their random start.
# The timeline's caption when there is nothing to play.
train-caption-nothing = Nothing to play: PyTorch raises on the current ratings.
# Before the first step of the forward pass; $steps is its number of steps. "Step forward" is the
# timeline's button.
train-caption-forward =
    Forward: { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }, one per rating. Press Step forward to start.
# Before the first step of the backward pass.
train-caption-backward =
    Backward: { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    }, from the last rating back to the first. Press Step forward to start.
# A forward step: $b is the rating's index, $user and $movie the rows used, $value the prediction
# as PyTorch prints it.
train-step-forward = output[{ $b }]: user { $user }'s row times movie { $movie }'s row, number by number, summed = { $value }.
# The same, when the prediction is unknown.
train-step-forward-bare = user { $user }'s row times movie { $movie }'s row, summed.
# A backward step: $b is the rating's index and $grad its output.grad as PyTorch prints it; $user
# and $movie the rows whose gradients it adds into.
train-step-backward = output.grad[{ $b }] = { $grad }: times movie { $movie }'s row, it adds into user { $user }'s gradient row; times user { $user }'s row, into movie { $movie }'s.
# The same, when output.grad is unknown.
train-step-backward-bare = times movie { $movie }'s row, it adds into user { $user }'s gradient row; times user { $user }'s row, into movie { $movie }'s.
