//! Compressed particle → constraint adjacency for the Jacobi solver. Corrections are
//! gathered per particle in a fixed order (never scattered with atomics), so the
//! Jacobi path is deterministic for any thread count.

use crate::error::{try_with_capacity, Result};

/// For particle i, `entries[offsets[i]..offsets[i+1]]` lists `(slot << 1) | end` of the
/// constraints that touch it, where `end` is 0 for the first particle of the pair
/// and 1 for the second.
#[derive(Default)]
pub(crate) struct Adjacency {
    pub(crate) offsets: Vec<u32>,
    pub(crate) entries: Vec<u32>,
}

impl Adjacency {
    /// Builds the adjacency of pairs stored at slots `0..pairs.len()`.
    pub(crate) fn build(pairs: &[[u32; 2]], particle_count: usize) -> Result<Self> {
        let mut offsets = try_with_capacity::<u32>(particle_count + 1, "Jacobi adjacency")?;
        offsets.resize(particle_count + 1, 0);
        for pair in pairs {
            offsets[pair[0] as usize + 1] += 1;
            offsets[pair[1] as usize + 1] += 1;
        }
        for i in 0..particle_count {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut entries = try_with_capacity::<u32>(pairs.len() * 2, "Jacobi adjacency")?;
        entries.resize(pairs.len() * 2, 0);
        for (slot, pair) in pairs.iter().enumerate() {
            for (end, &p) in pair.iter().enumerate() {
                entries[next[p as usize] as usize] = ((slot as u32) << 1) | end as u32;
                next[p as usize] += 1;
            }
        }
        Ok(Adjacency { offsets, entries })
    }

    /// Number of particles covered (those that existed when it was built).
    pub(crate) fn particle_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The entries of particle `i`.
    #[inline(always)]
    pub(crate) fn of(&self, i: usize) -> &[u32] {
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}
