//! Greedy graph colouring of constraints so that no two constraints of one colour share
//! a particle. Depends only on the constraints (in id order), never on thread count.

use crate::error::{try_with_capacity, Result};

/// Result of colouring `m` constraints.
pub(crate) struct Colouring {
    /// `colour[j]` for constraint id j.
    pub(crate) colour: Vec<u32>,
    /// Number of colours used.
    pub(crate) colours: u32,
}

/// Colours constraints given by the particle indices each one touches (`particles(j)`),
/// greedily in id order: each constraint takes the smallest colour none of its
/// particles already has. `particle_count` bounds the indices.
pub(crate) fn colour_greedy<const K: usize>(
    items: &[[u32; K]],
    particle_count: usize,
) -> Result<Colouring> {
    // One 64-bit mask per particle per tier of 64 colours; tiers beyond the first are
    // only allocated when some particle is in more than 64 constraints.
    let mut tiers: Vec<Vec<u64>> = Vec::new();
    let mut colour = try_with_capacity::<u32>(items.len(), "constraint colours")?;
    let mut colours = 0u32;
    for item in items {
        let mut t = 0usize;
        let c = loop {
            if tiers.len() <= t {
                let mut tier = try_with_capacity::<u64>(particle_count, "colouring masks")?;
                tier.resize(particle_count, 0);
                tiers.push(tier);
            }
            let tier = &mut tiers[t];
            let used = item.iter().fold(0u64, |m, &p| m | tier[p as usize]);
            let free = !used;
            if free != 0 {
                let bit = free.trailing_zeros();
                for &p in item {
                    tier[p as usize] |= 1u64 << bit;
                }
                break (t as u32) * 64 + bit;
            }
            t += 1;
        };
        colours = colours.max(c + 1);
        colour.push(c);
    }
    Ok(Colouring { colour, colours })
}

/// A stable permutation that sorts ids by colour: returns (`slot_of[id]`, colour
/// offsets of length `colours + 1`).
pub(crate) fn sort_by_colour(colouring: &Colouring) -> Result<(Vec<u32>, Vec<u32>)> {
    let n = colouring.colours as usize;
    let mut offsets = try_with_capacity::<u32>(n + 1, "colour offsets")?;
    offsets.resize(n + 1, 0);
    for &c in &colouring.colour {
        offsets[c as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut next = offsets.clone();
    let mut slot_of = try_with_capacity::<u32>(colouring.colour.len(), "constraint order")?;
    for &c in &colouring.colour {
        slot_of.push(next[c as usize]);
        next[c as usize] += 1;
    }
    Ok((slot_of, offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_takes_two_colours_and_no_colour_shares_a_particle() {
        let pairs: Vec<[u32; 2]> = (0..10).map(|i| [i, i + 1]).collect();
        let c = colour_greedy(&pairs, 11).unwrap();
        assert_eq!(c.colours, 2);
        assert_eq!(c.colour[..4], [0, 1, 0, 1]);
        let (slot_of, offsets) = sort_by_colour(&c).unwrap();
        assert_eq!(offsets, vec![0, 5, 10]);
        assert_eq!(slot_of[..3], [0, 5, 1]);
    }

    #[test]
    fn a_star_of_100_constraints_needs_100_colours() {
        // particle 0 is in every constraint: tiers beyond 64 colours are used
        let pairs: Vec<[u32; 2]> = (1..=100).map(|i| [0, i]).collect();
        let c = colour_greedy(&pairs, 101).unwrap();
        assert_eq!(c.colours, 100);
        let mut seen = c.colour.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 100);
    }
}
