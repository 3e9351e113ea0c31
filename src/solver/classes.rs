//! Run classes: which particles, and so which constraints, run on which substeps when
//! bodies are simulated at a reduced rate, paused, or asleep (`world::activity`).
//!
//! A particle's class is a substep period: [`FROZEN`] (0, never runs in this step: a
//! paused body or a sleeping particle), [`EVERY`] (1, every substep: the default) or
//! `k ≥ 2` (a body at a reduced rate: it runs on substep `s` when `(s + 1) % k == 0`
//! and on the last substep of the step, so every body ends each step at the same
//! time). A constraint's class follows from its particles: [`EVERY`] when one of them
//! runs every substep, [`FROZEN`] when all are frozen, `k` when every particle that is
//! not frozen has period `k`, and [`EVERY`] when they mix periods (a particle that does
//! not run then is kinematic: `world::activity` gives it inverse mass 0).
//!
//! A sweep's slots are stored by block, colour and constraint id, and a body's
//! constraints have consecutive ids, so the constraints of one class form runs of
//! consecutive slots inside each colour. [`SlotClasses`] lists the runs that do not
//! run every substep; [`SlotClasses::split`] cuts a run of slots of the sweep into the
//! pieces that run in a substep (pieces of a run share no particle, as the run's slots
//! do). Built when a mode or a sleep flag changed or the set was rebuilt, never per
//! step; a world whose particles all run every substep has none, and its sweeps run
//! exactly as before.

use std::ops::Range;

use crate::error::{try_with_capacity, Result};

/// Class of a particle or constraint that does not run in this step.
pub(crate) const FROZEN: u32 = 0;
/// Class of a particle or constraint that runs every substep.
pub(crate) const EVERY: u32 = 1;

/// The substep a projection runs in: which classes run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Phase {
    /// The substep, in `0..substeps`.
    pub substep: u32,
    /// Substeps per step.
    pub substeps: u32,
}

impl Phase {
    /// Whether class `k` runs in this substep.
    #[inline]
    pub(crate) fn runs(self, k: u32) -> bool {
        k == EVERY || (k != FROZEN && ((self.substep + 1) % k == 0 || self.is_last()))
    }

    /// Whether this is the last substep of the step.
    #[inline]
    pub(crate) fn is_last(self) -> bool {
        self.substep + 1 == self.substeps
    }

    /// Substeps since class `k` last ran, when it runs in this substep (its time step
    /// in substeps: `k`, or fewer on the last substep when `k` does not divide the
    /// substep count).
    pub(crate) fn span(self, k: u32) -> u32 {
        if k <= EVERY {
            1
        } else {
            (self.substep % k) + 1
        }
    }
}

/// The classes of the world's particles, as the activity table derived them: one
/// entry per particle it knew (particles beyond run every substep), and the
/// generation of that derivation (sets compare it with the one their
/// [`SlotClasses`] were built from).
#[derive(Clone, Copy)]
pub(crate) struct ParticleClasses<'a> {
    pub class: &'a [u32],
    pub generation: u64,
}

impl ParticleClasses<'_> {
    /// The class of particle `p`.
    #[inline]
    pub(crate) fn of(&self, p: u32) -> u32 {
        self.class.get(p as usize).copied().unwrap_or(EVERY)
    }

    /// The class of a constraint over `particles` (see the module doc).
    pub(crate) fn of_constraint(&self, particles: &[u32]) -> u32 {
        let mut k = FROZEN;
        for &p in particles {
            match self.of(p) {
                FROZEN => {}
                EVERY => return EVERY,
                c if k == FROZEN || k == c => k = c,
                _ => return EVERY,
            }
        }
        k
    }
}

/// The runs of a sweep's slots that do not run every substep (see the module doc),
/// with what they were built from.
#[derive(Default, Debug)]
pub(crate) struct SlotClasses {
    /// `(first slot, end slot, class)`, sorted and disjoint; only classes other than
    /// [`EVERY`].
    runs: Vec<(u32, u32, u32)>,
    /// The sweep id and particle-class generation the runs were built for.
    built: Option<(u64, u64)>,
}

impl SlotClasses {
    /// Whether the runs were built for sweep `sweep` and the classes of generation
    /// `generation`.
    pub(crate) fn is_current(&self, sweep: u64, generation: u64) -> bool {
        self.built == Some((sweep, generation))
    }

    /// Forgets every run: every slot runs every substep.
    pub(crate) fn clear(&mut self) {
        self.runs = Vec::new();
        self.built = None;
    }

    /// Rebuilds the runs for the slots `items` of sweep `sweep` (their particles, in
    /// storage order) under `classes`. Fails only when out of memory (then nothing
    /// changed).
    pub(crate) fn rebuild<const K: usize>(
        &mut self,
        items: &[[u32; K]],
        sweep: u64,
        classes: &ParticleClasses<'_>,
    ) -> Result<()> {
        let mut count = 0usize;
        let mut last = EVERY;
        for item in items {
            let k = classes.of_constraint(item);
            if k != EVERY && k != last {
                count += 1;
            }
            last = k;
        }
        let mut runs = try_with_capacity(count, "sweep classes")?;
        let mut open: Option<(u32, u32)> = None;
        for (s, item) in items.iter().enumerate() {
            let k = classes.of_constraint(item);
            let s = s as u32;
            match open {
                Some((_, c)) if c == k => continue,
                Some((start, c)) => runs.push((start, s, c)),
                None => {}
            }
            open = (k != EVERY).then_some((s, k));
        }
        if let Some((start, c)) = open {
            runs.push((start, items.len() as u32, c));
        }
        self.runs = runs;
        self.built = Some((sweep, classes.generation));
        Ok(())
    }

    /// Whether every slot runs every substep.
    pub(crate) fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Calls `go` on the pieces of the slots `range` that run in `phase`, in order,
    /// adjacent running pieces joined (the whole range when none of its slots is in a
    /// run of this table).
    #[inline]
    pub(crate) fn split(
        &self,
        range: Range<usize>,
        phase: Phase,
        mut go: impl FnMut(Range<usize>),
    ) {
        let first = self
            .runs
            .partition_point(|&(_, end, _)| end as usize <= range.start);
        let mut open = range.start;
        for &(start, end, k) in &self.runs[first..] {
            let (start, end) = (start as usize, end as usize);
            if start >= range.end {
                break;
            }
            if phase.runs(k) {
                continue;
            }
            let skip = start.max(range.start)..end.min(range.end);
            if open < skip.start {
                go(open..skip.start);
            }
            open = skip.end;
        }
        if open < range.end {
            go(open..range.end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constraint_takes_the_class_of_its_running_particles() {
        let class = [FROZEN, EVERY, 4, 4, 2, FROZEN];
        let c = ParticleClasses {
            class: &class,
            generation: 1,
        };
        assert_eq!(c.of_constraint(&[0, 5]), FROZEN);
        assert_eq!(c.of_constraint(&[0, 1]), EVERY);
        assert_eq!(c.of_constraint(&[0, 2]), 4);
        assert_eq!(c.of_constraint(&[2, 3]), 4);
        assert_eq!(c.of_constraint(&[3, 4]), EVERY);
        assert_eq!(
            c.of_constraint(&[9, 0]),
            EVERY,
            "beyond the table: every substep"
        );
    }

    #[test]
    fn a_range_is_cut_around_the_runs_that_do_not_run() {
        let class = [EVERY, EVERY, FROZEN, FROZEN, 4, 4, EVERY, 4];
        let c = ParticleClasses {
            class: &class,
            generation: 3,
        };
        let items: Vec<[u32; 1]> = (0..8).map(|i| [i]).collect();
        let mut t = SlotClasses::default();
        t.rebuild(&items, 7, &c).unwrap();
        assert!(t.is_current(7, 3) && !t.is_current(7, 4));
        assert_eq!(t.runs, vec![(2, 4, FROZEN), (4, 6, 4), (7, 8, 4)]);
        let pieces = |range: Range<usize>, substep| {
            let mut out = Vec::new();
            let phase = Phase {
                substep,
                substeps: 8,
            };
            t.split(range, phase, |r| out.push(r));
            out
        };
        assert_eq!(pieces(0..8, 0), vec![0..2, 6..7]);
        assert_eq!(pieces(0..8, 3), vec![0..2, 4..8]);
        assert_eq!(pieces(3..5, 7), vec![4..5]);
        assert_eq!(pieces(5..7, 1), vec![6..7]);
        assert_eq!(pieces(0..2, 1), vec![0..2]);
        let phase = Phase {
            substep: 6,
            substeps: 7,
        };
        assert!(phase.runs(4) && phase.span(4) == 3 && phase.span(1) == 1);
    }
}
