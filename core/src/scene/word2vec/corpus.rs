//! From text to training pairs, as word2vec's own preprocessing does it: words with A–Z
//! lower-cased (see [`words`]), a vocabulary of the words seen at least `min_count` times (most
//! frequent first, ties by first appearance, as gensim sorts it), each sentence as ids with the
//! rarer words dropped, and the (centre, context) pairs within `window` words. Negatives are drawn
//! from the unigram counts to the ¾ power.

use crate::torch_rng::Generator;

/// The corpus read: its vocabulary and its sentences as ids.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Corpus {
    /// `words[id]`
    pub words: Vec<String>,
    /// `counts[id]`: how often the word occurs.
    pub counts: Vec<usize>,
    /// Each line of the text as the ids of its words in the vocabulary.
    pub sentences: Vec<Vec<i64>>,
    /// Words seen fewer than `min_count` times, left out (with their counts).
    pub dropped: Vec<(String, usize)>,
    /// Every word read, dropped ones included.
    pub tokens: usize,
}

/// A word: a run of letters, digits or apostrophes, of any alphabet; every other character
/// (spaces, punctuation) ends one. Only A–Z are lower-cased, other capitals stay as written:
/// `ÉMILE` is read `Émile`, another word than `émile` (the page says so beside the corpus). Full
/// Unicode lower-casing would bring its tables, ~6 KB gzipped, into the scene's download.
pub fn words(line: &str) -> impl Iterator<Item = String> + '_ {
    line.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).map(str::to_ascii_lowercase)
}

impl Corpus {
    /// One sentence per line of `text`.
    pub fn read(text: &str, min_count: usize) -> Self {
        let lines: Vec<Vec<String>> = text.lines().map(|l| words(l).collect()).collect();
        // Each distinct word with its count and first appearance, kept sorted by the word and
        // found by binary search: no hash table (and its hasher) in the scene's download.
        let mut seen: Vec<(&str, usize, usize)> = Vec::new();
        for (at, w) in lines.iter().flatten().enumerate() {
            match seen.binary_search_by(|(s, ..)| (*s).cmp(w)) {
                Ok(k) => seen[k].1 += 1,
                Err(k) => seen.insert(k, (w, 1, at)),
            }
        }
        // Most frequent first, ties by first appearance (each word's own, so no two are equal),
        // each put in its place like the words above: no sort's code in the download either.
        let key = |k: usize| (std::cmp::Reverse(seen[k].1), seen[k].2);
        let mut order: Vec<usize> = Vec::with_capacity(seen.len());
        for k in 0..seen.len() {
            let at = order.binary_search_by(|&j| key(j).cmp(&key(k))).unwrap_or_else(|at| at);
            order.insert(at, k);
        }
        let kept = order.iter().take_while(|&&k| seen[k].1 >= min_count.max(1)).count();
        // `rank[k]`: the id of `seen[k]`, when it is kept.
        let mut rank = vec![usize::MAX; seen.len()];
        for (id, &k) in order[..kept].iter().enumerate() {
            rank[k] = id;
        }
        let id = |w: &String| seen.binary_search_by(|(s, ..)| (*s).cmp(w)).ok().filter(|&k| rank[k] < kept);
        let sentences =
            lines.iter().map(|l| l.iter().filter_map(|w| id(w).map(|k| rank[k] as i64)).collect()).collect();
        let entry = |&k: &usize| (seen[k].0.to_string(), seen[k].1);
        let (words, counts) = order[..kept].iter().map(entry).unzip();
        let dropped = order[kept..].iter().map(entry).collect();
        let tokens = lines.iter().map(Vec::len).sum();
        Self { words, counts, sentences, dropped, tokens }
    }

    pub fn vocab(&self) -> usize {
        self.words.len()
    }

    /// The id of `word` as typed (any case), if it is in the vocabulary.
    pub fn id(&self, word: &str) -> Option<usize> {
        let word = word.trim().to_ascii_lowercase();
        self.words.iter().position(|w| *w == word)
    }

    /// P(word) ∝ count^¾, as a running total to draw from.
    pub fn noise(&self) -> Vec<f64> {
        self.counts
            .iter()
            .scan(0.0, |total, &n| {
                *total += (n as f64).powf(0.75);
                Some(*total)
            })
            .collect()
    }
}

/// The pairs of one sentence: `(context ids, target id)`. Skip-gram predicts each neighbour within
/// `window` from the centre (one pair per neighbour, the centre as context); CBOW predicts the
/// centre from all its neighbours at once (one pair per word that has any).
pub fn pairs(sentence: &[i64], window: usize, cbow: bool) -> Vec<Pair> {
    let mut out = Vec::new();
    for (i, &centre) in sentence.iter().enumerate() {
        let near: Vec<usize> =
            (i.saturating_sub(window)..(i + window + 1).min(sentence.len())).filter(|&j| j != i).collect();
        if cbow {
            if !near.is_empty() {
                out.push(Pair {
                    centre: i,
                    context: near.clone(),
                    input: near.iter().map(|&j| sentence[j]).collect(),
                    target: centre,
                });
            }
        } else {
            for j in near {
                out.push(Pair { centre: i, context: vec![j], input: vec![centre], target: sentence[j] });
            }
        }
    }
    out
}

/// One training pair, with where its words sit in the sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// Position of the centre word in the sentence.
    pub centre: usize,
    /// Positions of its context words.
    pub context: Vec<usize>,
    /// The ids `in_embed` looks up: the centre (skip-gram) or the context (CBOW).
    pub input: Vec<i64>,
    /// The id `out_embed` scores against: the context word (skip-gram) or the centre (CBOW).
    pub target: i64,
}

/// `k` negatives for each of `b` pairs, drawn with replacement from `noise` (running totals) by a
/// generator seeded with `seed`: each draw is `random64()` made a uniform in [0, 1) and looked up
/// in the running total. Not `torch.multinomial`'s own stream, so scripts write the ids out.
pub fn negatives(noise: &[f64], b: usize, k: usize, seed: i128) -> Vec<i64> {
    let (Some(&total), Ok(mut g)) = (noise.last(), Generator::manual_seed(seed)) else {
        return vec![0; b * k];
    };
    (0..b * k)
        .map(|_| {
            let u = (g.random64() >> 11) as f64 / (1u64 << 53) as f64 * total;
            noise.partition_point(|&c| c <= u).min(noise.len() - 1) as i64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_is_most_frequent_first_and_min_count_drops_the_rare() {
        let c = Corpus::read("The film was great\nthe food was AWFUL\nthe film, again", 2);
        assert_eq!(c.words, ["the", "film", "was"]);
        assert_eq!(c.counts, [3, 2, 2]);
        assert_eq!(c.sentences, [vec![0, 1, 2], vec![0, 2], vec![0, 1]]);
        assert_eq!(c.dropped.len(), 4);
        assert_eq!(c.tokens, 11);
        assert_eq!(c.id(" Film"), Some(1));
    }

    #[test]
    fn a_word_is_letters_digits_and_apostrophes_with_only_a_to_z_lowered() {
        let read: Vec<String> = words("Don't STOP: ÉMILE, émile & 42 naïve—café").collect();
        assert_eq!(read, ["don't", "stop", "Émile", "émile", "42", "naïve", "café"]);
        let c = Corpus::read("b a b\nc a b", 1);
        assert_eq!((c.words, c.counts), (vec!["b".to_string(), "a".into(), "c".into()], vec![3, 2, 1]));
    }

    #[test]
    fn skip_gram_pairs_each_neighbour_and_cbow_the_whole_window() {
        let s = [0, 1, 2, 3];
        let sg = pairs(&s, 1, false);
        let as_ids: Vec<_> = sg.iter().map(|p| (p.input[0], p.target)).collect();
        assert_eq!(as_ids, [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2)]);
        let cb = pairs(&s, 2, true);
        assert_eq!(cb[0].input, [1, 2]);
        assert_eq!(cb[1].input, [0, 2, 3]);
        assert_eq!(cb[1].target, 1);
        assert!(pairs(&[5], 2, true).is_empty());
    }

    #[test]
    fn negatives_follow_the_counts_to_the_three_quarters_and_repeat_with_the_seed() {
        let c = Corpus { counts: vec![81, 1, 0], ..Corpus::default() };
        let noise = c.noise();
        let draws = negatives(&noise, 1000, 1, 7);
        assert_eq!(draws, negatives(&noise, 1000, 1, 7));
        assert!(draws.iter().all(|&d| d < 2), "a word never seen is never drawn");
        // 81^¾ = 27 against 1: about 1 in 28 draws is word 1.
        let ones = draws.iter().filter(|&&d| d == 1).count();
        assert!((15..60).contains(&ones), "{ones}");
    }
}
