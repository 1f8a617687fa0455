//! A vote of independent estimates (`--votes N`, three by default): where
//! the first estimate leaves a stone contested, the dead-stone estimator
//! is run with up to N seeds, and the estimate whose count most of them
//! give is kept. One estimate's playouts sometimes call a group alive that
//! most seeds kill (a coin flip at the first look after 8 playouts, with
//! no stone near the bar); playing on from there does not help as much as
//! asking independent estimates, because each vote is a whole settled
//! position: measured in `docs/estimator-log.md` ("the first look, and a vote of
//! estimates"; "bent four in the corner, a faster reading, the default vote").

/// The seed of vote `k`: the run's own seed for the first, so that a vote
/// of one is the plain estimate; for the others, the seed mixed with `k`
/// (SplitMix64's finaliser), so that the later votes of `--seed 0` are
/// not the estimates of `--seed 1`, `--seed 2`…
pub fn vote_seed(seed: u64, k: u32) -> u64 {
    if k == 0 {
        return seed;
    }
    let mut z = seed ^ u64::from(k).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 31)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 29)
}

/// How a vote went: every ballot's key in the order cast, and how many
/// gave the key kept.
#[derive(Debug, Clone, PartialEq)]
pub struct Tally<K> {
    pub keys: Vec<K>,
    pub for_it: u32,
}

impl<K> Tally<K> {
    pub fn cast(&self) -> u32 {
        self.keys.len() as u32
    }

    /// Whether some ballot gave another key.
    pub fn split(&self) -> bool {
        self.for_it < self.cast()
    }
}

/// What a vote chose, and how it went (none with one vote).
#[derive(Debug)]
pub struct Vote<T, K> {
    pub chosen: T,
    pub tally: Option<Tally<K>>,
}

/// Casts up to `votes` ballots, `ballot(k)` for k = 0, 1, …, and keeps the
/// one whose `key` most ballots share (the earliest on a tie). The vote is
/// held only when the first ballot calls for one (`held`); else, as with
/// one vote, the first is kept and `key` is never asked. It stops as soon
/// as a key has more than half of `votes`, since no later ballot can
/// change the outcome: a vote of three costs two estimates when the first
/// two agree.
pub fn majority<T, K: PartialEq + Clone>(
    votes: u32,
    mut ballot: impl FnMut(u32) -> T,
    key: impl Fn(&T) -> K,
    held: impl Fn(&T) -> bool,
) -> Vote<T, K> {
    let first = ballot(0);
    if votes <= 1 || !held(&first) {
        return Vote {
            chosen: first,
            tally: None,
        };
    }
    let mut keys = vec![key(&first)];
    // The distinct keys so far, in the order first given, with the
    // earliest ballot that gave each and how many did.
    let mut distinct: Vec<(K, T, u32)> = vec![(keys[0].clone(), first, 1)];
    while keys.len() < votes as usize && distinct.iter().all(|d| 2 * d.2 <= votes) {
        let b = ballot(keys.len() as u32);
        let k = key(&b);
        match distinct.iter_mut().find(|d| d.0 == k) {
            Some(d) => d.2 += 1,
            None => distinct.push((k.clone(), b, 1)),
        }
        keys.push(k);
    }
    // `max_by_key` keeps the last of equal maxima: reverse for the earliest.
    let (_, chosen, for_it) = distinct
        .into_iter()
        .rev()
        .max_by_key(|d| d.2)
        .expect("at least one ballot");
    Vote {
        chosen,
        tally: Some(Tally { keys, for_it }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A vote over fixed ballots: the ballot kept, how many gave its key,
    /// and the indices of the ballots cast.
    fn run(votes: u32, ballots: &[i32]) -> ((u32, i32), u32, Vec<u32>) {
        let mut asked = Vec::new();
        let vote = majority(
            votes,
            |k| {
                asked.push(k);
                (k, ballots[k as usize])
            },
            |&(_, v)| v,
            |_| true,
        );
        let tally = vote.tally.expect("a tally for more than one vote");
        let cast: Vec<i32> = asked.iter().map(|&k| ballots[k as usize]).collect();
        assert_eq!(tally.keys, cast);
        (vote.chosen, tally.for_it, asked)
    }

    #[test]
    fn the_majority_wins_and_later_ballots_are_not_cast() {
        // The first two agree: the third is not needed.
        assert_eq!(run(3, &[5, 5, 7]), ((0, 5), 2, vec![0, 1]));
        // The first is the odd one out: the earliest ballot of the
        // majority is kept.
        assert_eq!(run(3, &[7, 5, 5]), ((1, 5), 2, vec![0, 1, 2]));
        // Five votes: three for one key end it at the fourth ballot.
        assert_eq!(run(5, &[1, 2, 2, 2, 1]), ((1, 2), 3, vec![0, 1, 2, 3]));
    }

    #[test]
    fn a_tie_keeps_the_earliest_key() {
        assert_eq!(run(3, &[7, 5, 9]), ((0, 7), 1, vec![0, 1, 2]));
        assert_eq!(run(4, &[7, 5, 5, 7]), ((0, 7), 2, vec![0, 1, 2, 3]));
    }

    #[test]
    fn one_vote_is_the_plain_estimate() {
        let v = majority(
            1,
            |k| k,
            |_: &u32| -> u32 { panic!("no key for one vote") },
            |_| true,
        );
        assert_eq!((v.chosen, v.tally), (0, None));
        assert_eq!(vote_seed(42, 0), 42);
    }

    #[test]
    fn a_first_ballot_that_calls_for_no_vote_is_kept_alone() {
        let mut asked = Vec::new();
        let v = majority(
            3,
            |k| {
                asked.push(k);
                k
            },
            |_: &u32| -> u32 { panic!("no key without a vote") },
            |&first| first != 0,
        );
        assert_eq!((v.chosen, v.tally, asked), (0, None, vec![0]));
    }

    #[test]
    fn the_votes_seeds_differ_from_each_other_and_from_the_next_seeds() {
        let seeds: Vec<u64> = (0..5).map(|k| vote_seed(0, k)).collect();
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert!(seeds[1..].iter().all(|&s| s > 5));
        assert_ne!(vote_seed(0, 1), vote_seed(1, 1));
    }
}
