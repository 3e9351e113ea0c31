//! Compressed particle → constraint adjacency for the Jacobi solver. Corrections are
//! gathered per particle in a fixed order (never scattered with atomics), so the
//! Jacobi path is deterministic for any thread count.

use crate::error::{try_with_capacity, Result};
use crate::math::Vec3;

/// For particle i, `entries[offsets[i]..offsets[i+1]]` lists `slot · K + k` of the
/// constraints that touch it, where `k` is the particle's position in the constraint
/// (for pairs, K = 2: `(slot << 1) | end`).
#[derive(Default)]
pub(crate) struct Adjacency {
    pub(crate) offsets: Vec<u32>,
    pub(crate) entries: Vec<u32>,
}

impl Adjacency {
    /// Builds the adjacency of the K-particle constraints stored at slots
    /// `0..items.len()`; entries of one particle are in slot order.
    pub(crate) fn build<const K: usize>(items: &[[u32; K]], particle_count: usize) -> Result<Self> {
        let mut offsets = try_with_capacity::<u32>(particle_count + 1, "Jacobi adjacency")?;
        offsets.resize(particle_count + 1, 0);
        for item in items {
            for &p in item {
                offsets[p as usize + 1] += 1;
            }
        }
        for i in 0..particle_count {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut entries = try_with_capacity::<u32>(items.len() * K, "Jacobi adjacency")?;
        entries.resize(items.len() * K, 0);
        for (slot, item) in items.iter().enumerate() {
            for (k, &p) in item.iter().enumerate() {
                entries[next[p as usize] as usize] = (slot * K + k) as u32;
                next[p as usize] += 1;
            }
        }
        Ok(Adjacency { offsets, entries })
    }

    pub(crate) fn particle_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The entries of particle `i`.
    #[inline(always)]
    pub(crate) fn of(&self, i: usize) -> &[u32] {
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// The Jacobi buffers of a set, allocated once so that the step never allocates:
/// `entries` zero corrections (one per constraint end gathered through the adjacency)
/// and `constraints` averaging weights of 1.
pub(crate) fn buffers(entries: usize, constraints: usize) -> Result<(Vec<Vec3>, Vec<f32>)> {
    let mut corrections = try_with_capacity::<Vec3>(entries, "Jacobi corrections")?;
    corrections.resize(entries, Vec3::ZERO);
    let mut weight = try_with_capacity::<f32>(constraints, "Jacobi weights")?;
    weight.resize(constraints, 1.0);
    Ok((corrections, weight))
}
