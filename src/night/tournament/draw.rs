//! The draw before the night: every round's tables and seats, so that
//! nobody meets the same opponent twice where the numbers allow it ("Die
//! Tische und Plätze der beiden Runden werden vorher ausgelost").
//!
//! Each round is seated by a local search over swaps of two players at
//! different tables, minimising the meetings that repeat an earlier
//! round's; the whole draw starts again from a fresh shuffle where a round
//! keeps a repeat. The same seed gives the same draw.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::DrawError;
use crate::night::tournament::seating::Seating;

/// Swaps tried for one round before it starts again from a new shuffle.
const SWAPS: usize = 20_000;

/// Fresh starts of the whole draw before the fewest repeats found stand.
const STARTS: usize = 40;

/// How many tables of each size seat `players`: tables of four, and of
/// five where the rules allow five-tables (as few as the count needs).
pub fn table_sizes(players: usize, allowed: &[usize]) -> Result<Vec<usize>, DrawError> {
    let smallest = allowed.iter().copied().min().unwrap_or(4);
    if players < smallest {
        return Err(DrawError::TooFew {
            players,
            least: smallest,
        });
    }
    let fives = (0..4).find(|b| 5 * b <= players && (players - 5 * b).is_multiple_of(4));
    match fives {
        Some(0) => Ok(vec![4; players / 4]),
        Some(b) if allowed.contains(&5) && (allowed.contains(&4) || players == 5 * b) => {
            let mut sizes = vec![4; (players - 5 * b) / 4];
            sizes.extend(std::iter::repeat_n(5, b));
            Ok(sizes)
        }
        _ => Err(DrawError::Uneven {
            players,
            add: 4 - players % 4,
            remove: players % 4,
        }),
    }
}

/// Draws `rounds` rounds for `players` (their numbers) at tables of
/// `allowed` sizes, from `seed`.
pub fn draw(
    players: &[String],
    allowed: &[usize],
    rounds: u32,
    seed: u64,
) -> Result<Seating, DrawError> {
    let sizes = table_sizes(players.len(), allowed)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut best: Option<(usize, Vec<Vec<Vec<usize>>>)> = None;
    for _ in 0..STARTS {
        let mut met = Meetings::new(players.len());
        let mut drawn = Vec::new();
        for _ in 0..rounds {
            let tables = seat_round(&sizes, &met, &mut rng);
            met.add(&tables);
            drawn.push(tables);
        }
        let repeats = met.repeats();
        if best.as_ref().is_none_or(|(r, _)| repeats < *r) {
            best = Some((repeats, drawn));
        }
        if repeats == 0 {
            break;
        }
    }
    let rounds = best.map(|(_, d)| d).unwrap_or_default();
    Ok(Seating {
        rounds: rounds
            .into_iter()
            .map(|tables| {
                tables
                    .into_iter()
                    .map(|t| t.into_iter().map(|i| players[i].clone()).collect())
                    .collect()
            })
            .collect(),
    })
}

/// How often each two players have sat at one table.
struct Meetings {
    n: usize,
    count: Vec<u16>,
}

impl Meetings {
    fn new(n: usize) -> Self {
        Meetings {
            n,
            count: vec![0; n * n],
        }
    }

    fn get(&self, a: usize, b: usize) -> u16 {
        self.count[a * self.n + b]
    }

    fn add(&mut self, tables: &[Vec<usize>]) {
        for t in tables {
            for &a in t {
                for &b in t.iter().filter(|&&b| b != a) {
                    self.count[a * self.n + b] += 1;
                }
            }
        }
    }

    /// Meetings beyond the first, over all pairs.
    fn repeats(&self) -> usize {
        let mut r = 0;
        for a in 0..self.n {
            for b in a + 1..self.n {
                r += usize::from(self.get(a, b).saturating_sub(1));
            }
        }
        r
    }

    /// What `player` at a table with `others` adds to the repeats.
    fn cost(&self, player: usize, others: impl Iterator<Item = usize>) -> u32 {
        others
            .filter(|&o| o != player)
            .map(|o| u32::from(self.get(player, o)))
            .sum()
    }
}

/// One round's tables (player indices in seat order): a random seating,
/// then swaps of two players at different tables that do not add to the
/// meetings already had (sideways moves too, to walk off a plateau).
fn seat_round(sizes: &[usize], met: &Meetings, rng: &mut ChaCha8Rng) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..met.n).collect();
    shuffle(&mut order, rng);
    let mut tables: Vec<Vec<usize>> = Vec::new();
    let mut rest = order.as_slice();
    for &s in sizes {
        let (t, r) = rest.split_at(s);
        tables.push(t.to_vec());
        rest = r;
    }
    let table_cost = |t: &[usize]| -> u32 {
        t.iter()
            .map(|&p| met.cost(p, t.iter().copied()))
            .sum::<u32>()
    };
    let mut total: u32 = tables.iter().map(|t| table_cost(t)).sum();
    for _ in 0..SWAPS {
        if total == 0 || tables.len() < 2 {
            break;
        }
        let (ta, tb) = (
            rng.random_range(0..tables.len()),
            rng.random_range(0..tables.len()),
        );
        if ta == tb {
            continue;
        }
        let (sa, sb) = (
            rng.random_range(0..tables[ta].len()),
            rng.random_range(0..tables[tb].len()),
        );
        let before = table_cost(&tables[ta]) + table_cost(&tables[tb]);
        let (a, b) = (tables[ta][sa], tables[tb][sb]);
        tables[ta][sa] = b;
        tables[tb][sb] = a;
        let after = table_cost(&tables[ta]) + table_cost(&tables[tb]);
        if after <= before {
            total = total + after - before;
        } else {
            tables[ta][sa] = a;
            tables[tb][sb] = b;
        }
    }
    tables
}

/// Fisher–Yates with the draw's own generator (the same seed, the same
/// order, whatever the `rand` version).
fn shuffle<T>(v: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("{:03}", 100 + i)).collect()
    }

    fn each_once(seating: &Seating, players: &[String]) {
        for round in &seating.rounds {
            let mut seated: Vec<&String> = round.iter().flatten().collect();
            seated.sort();
            let mut all: Vec<&String> = players.iter().collect();
            all.sort();
            assert_eq!(seated, all, "every player seated once a round");
        }
    }

    #[test]
    fn tables_should_be_of_four_and_of_five_only_where_the_count_needs_them() {
        assert_eq!(table_sizes(32, &[4]), Ok(vec![4; 8]));
        assert_eq!(table_sizes(40, &[4, 5]), Ok(vec![4; 10]));
        assert_eq!(
            table_sizes(42, &[4, 5]),
            Ok(vec![4, 4, 4, 4, 4, 4, 4, 4, 5, 5])
        );
        assert_eq!(
            table_sizes(11, &[4, 5]),
            Err(DrawError::Uneven {
                players: 11,
                add: 1,
                remove: 3
            })
        );
        assert_eq!(
            table_sizes(30, &[4]),
            Err(DrawError::Uneven {
                players: 30,
                add: 2,
                remove: 2
            })
        );
        assert_eq!(
            table_sizes(3, &[4]),
            Err(DrawError::TooFew {
                players: 3,
                least: 4
            })
        );
    }

    #[test]
    fn thirty_two_players_should_meet_nobody_twice_in_two_rounds() {
        let players = numbers(32);
        let s = draw(&players, &[4], 2, 7).expect("draw");
        assert_eq!(s.rounds.len(), 2);
        each_once(&s, &players);
        assert_eq!(s.repeats(), 0);
    }

    #[test]
    fn forty_players_should_meet_nobody_twice_in_three_doppelkopf_rounds() {
        let players = numbers(40);
        let s = draw(&players, &[4, 5], 3, 1).expect("draw");
        each_once(&s, &players);
        assert_eq!(s.repeats(), 0);
        let fives = numbers(42);
        let s = draw(&fives, &[4, 5], 3, 1).expect("draw");
        each_once(&s, &fives);
        assert_eq!(s.rounds[0].iter().filter(|t| t.len() == 5).count(), 2);
        assert_eq!(s.repeats(), 0);
    }

    #[test]
    fn the_same_seed_should_give_the_same_draw_and_another_another() {
        let players = numbers(24);
        let a = draw(&players, &[4], 2, 5).expect("draw");
        assert_eq!(a, draw(&players, &[4], 2, 5).expect("draw"));
        assert_ne!(a, draw(&players, &[4], 2, 6).expect("draw"));
    }

    #[test]
    fn repeats_the_numbers_force_should_be_counted() {
        // Eight players at two tables: any second round seats two of one
        // first-round table together at each table.
        // Two of each first-round table at each second-round table is the
        // least: two pairs meet again at each of the two tables. Counted
        // here pair by pair, apart from `repeats`.
        let s = draw(&numbers(8), &[4], 2, 3).expect("draw");
        let together = |round: &Vec<Vec<String>>, a: &String, b: &String| {
            round.iter().any(|t| t.contains(a) && t.contains(b))
        };
        let players = numbers(8);
        let mut again = 0;
        for (i, a) in players.iter().enumerate() {
            for b in &players[i + 1..] {
                again += usize::from(s.rounds.iter().all(|r| together(r, a, b)));
            }
        }
        assert_eq!(again, 4, "the least two rounds of eight can do");
        assert_eq!(s.repeats(), again);
    }
}
