//! Profiling of the step: per-stage wall-clock times of the last step, counts of what
//! it worked on, and an optional host hook told where each stage begins and ends (so
//! that an engine draws its own markers: Unity `ProfilerMarker`s, Unreal STAT and
//! Insights scopes).
//!
//! **Stages.** [`ProfileStage`] follows the table of `world::step`. Two are groups:
//! [`ProfileStage::Step`], the whole step, and [`ProfileStage::Substep`], each
//! substep (its time summed over the substeps). Every other stage is a leaf: the step
//! is timed at the boundaries between its leaves, each clock reading closing one leaf
//! and opening the next, so every nanosecond between the step's first and last
//! reading is counted in exactly one leaf and the leaves sum to the step time (what
//! is not a stage's own work, a branch or a loop counter between two stages, is
//! counted in the leaf that follows it). A leaf's time is summed over every time it
//! ran in the step (each substep, each iteration); `calls` says how often.
//!
//! **Cost.** Off (the default: [`crate::WorldDesc::profiling`] false and no hook),
//! each boundary is one test of a flag: no clock read, no call, no allocation; the
//! physics is the same bits on or off (only clocks are read).
//! On, each boundary reads the clock once (`Instant::now`, some 20–40 ns) and, with a
//! hook, makes two calls; about 30 boundaries per substep plus one per constraint
//! family and iteration.
//!
//! **The hook** ([`ProfileHook`]) is called on the thread that called the step, with
//! properly nested begin/end pairs: `Step` around everything, `Substep` around each
//! substep, leaves inside them, never two leaves open at once. A world with a hook
//! runs its substeps on the calling thread instead of one of its pool's workers
//! (`Executor::region`; the passes still fork to the workers, and the results are the
//! same bits); the hook's own time is counted in the stage it begins.

use std::time::Instant;

use crate::constraints::{FLUID_SLOT, SET_COUNT};

/// Declares [`ProfileStage`] and its table (name, parent) from one list.
macro_rules! profile_stages {
    ($( $(#[$doc:meta])* $variant:ident = $value:literal, $name:literal, $parent:ident; )+) => {
        /// A stage of the step as the profiler sees it (the value crosses the C ABI as
        /// `SinewProfileStage`). The constraint families are in projection order, the
        /// fluids' density constraints at the registry's fluid slot.
        #[repr(u32)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ProfileStage {
            $( $(#[$doc])* $variant = $value, )+
        }

        /// Number of profile stages (groups included).
        pub const PROFILE_STAGE_COUNT: usize = [$($value),+].len();

        impl ProfileStage {
            /// Every stage, by value.
            pub const ALL: [ProfileStage; PROFILE_STAGE_COUNT] = [$(ProfileStage::$variant),+];

            /// The stage's name (`snake_case`, stable: engines name their markers
            /// `"Sinew." + name`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(ProfileStage::$variant => $name,)+
                }
            }

            /// The group the stage runs in (`Step` for itself). A stage of the
            /// `Substep` group may also run once after the substeps (wind, skinning,
            /// contacts, topology and fluid velocities have end-of-step work): the
            /// hook then sees it directly inside `Step`.
            pub const fn parent(self) -> ProfileStage {
                match self {
                    $(ProfileStage::$variant => ProfileStage::$parent,)+
                }
            }
        }
    };
}

profile_stages! {
    /// The whole step (group).
    Step = 0, "step", Step;
    /// One substep (group; the time is summed over the substeps).
    Substep = 1, "substep", Step;
    /// The fluids' begin_step: emitters, the solver's constants, room.
    FluidEmit = 2, "fluid_emit", Step;
    /// Collision detection at the start of the step: collider velocities, the particle
    /// neighbour lists, the colliders' reach.
    CollisionDetection = 3, "collision_detection", Step;
    /// The constraint sets' start of step (rebuilt sweeps checked), the integrator's
    /// fusion plan and the choice of threads; their end of step.
    ConstraintStep = 4, "constraint_step", Step;
    /// Wind: drag and lift impulses (each substep) and the wind's clock.
    Wind = 5, "wind", Substep;
    /// Skinned targets (each substep), anim drive, backstop and max distance (each
    /// iteration), the end of step.
    Skinning = 6, "skinning", Substep;
    /// Predict and velocity update (with per-body damping), the 2D plane; the fused
    /// velocity update and predict when it runs as a pass of its own.
    Integrate = 7, "integrate", Substep;
    /// The constraint sets' λ reset and attachment hosts (start of substep), plastic
    /// flow (end of substep).
    ConstraintSubstep = 8, "constraint_substep", Substep;
    /// Collision at the start of a substep: the speed limit, the collider contacts
    /// along each particle's path.
    ColliderDetection = 9, "collider_detection", Substep;
    /// Distance constraints (with the fused velocity update and predict when the first
    /// sweep takes it).
    Distance = 10, "distance", Substep;
    /// Body links (with the fused pass when the distance set is empty).
    Link = 11, "link", Substep;
    /// Dihedral bending.
    Dihedral = 12, "dihedral", Substep;
    /// Isometric bending.
    Isometric = 13, "isometric", Substep;
    /// Tetrahedron volume.
    TetVolume = 14, "tet_volume", Substep;
    /// Triangle strain.
    TriangleStrain = 15, "triangle_strain", Substep;
    /// Tetrahedron strain.
    TetStrain = 16, "tet_strain", Substep;
    /// Pressure (closed-surface volume).
    Pressure = 17, "pressure", Substep;
    /// Ring areas.
    Rings = 18, "rings", Substep;
    /// Shape matching.
    Shapes = 19, "shapes", Substep;
    /// Unilateral areas.
    UnilateralArea = 20, "unilateral_area", Substep;
    /// Unilateral volumes.
    UnilateralVolume = 21, "unilateral_volume", Substep;
    /// The fluids' density constraints (the neighbour grid built in the first
    /// iteration of each substep).
    FluidDensity = 22, "fluid_density", Substep;
    /// Tethers.
    Tether = 23, "tether", Substep;
    /// Attachments.
    Attachments = 24, "attachments", Substep;
    /// Torn cloths.
    Torn = 25, "torn", Substep;
    /// Contacts: grabs, particle contacts, collider contacts and friction (each
    /// iteration), restitution (each substep), the contact readback.
    Contacts = 26, "contacts", Substep;
    /// Topology: breaking and winches (each substep), tearing (end of step).
    Topology = 27, "topology", Substep;
    /// Fluid velocities (viscosity, vorticity, cohesion, adhesion; each substep), the
    /// density readback and retirement (end of step).
    FluidVelocity = 28, "fluid_velocity", Substep;
    /// The recovery check (non-finite bodies restored).
    Recovery = 29, "recovery", Step;
}

/// The first family stage: entry `i` of one iteration (the constraint sets in
/// registry order with the fluids at [`FLUID_SLOT`]) is stage `FAMILY_FIRST + i`.
const FAMILY_FIRST: u32 = ProfileStage::Distance as u32;
const _: () = assert!(SET_COUNT == 15 && FLUID_SLOT == 12);
const _: () = assert!(ProfileStage::FluidDensity as u32 == FAMILY_FIRST + FLUID_SLOT as u32);
const _: () = assert!(ProfileStage::Torn as u32 == FAMILY_FIRST + SET_COUNT as u32);

impl ProfileStage {
    /// The stage of entry `i` of one iteration (`ConstraintSets::project`'s probe).
    pub(crate) fn family(i: usize) -> ProfileStage {
        ProfileStage::ALL[FAMILY_FIRST as usize + i]
    }

    /// The stage with C value `v`, if any.
    pub fn from_u32(v: u32) -> Option<ProfileStage> {
        ProfileStage::ALL.get(v as usize).copied()
    }

    /// Whether the stage is a group (`Step`, `Substep`) rather than a leaf.
    pub fn is_group(self) -> bool {
        matches!(self, ProfileStage::Step | ProfileStage::Substep)
    }

    /// Nesting depth: 0 for `Step`, 1 for `Substep` and the leaves outside substeps,
    /// 2 for the leaves inside them.
    pub fn depth(self) -> u32 {
        match self {
            ProfileStage::Step => 0,
            s if s.parent() == ProfileStage::Step => 1,
            _ => 2,
        }
    }
}

/// One stage of the last profiled step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageTime {
    pub stage: ProfileStage,
    /// How many times the stage began in the step (0: it did not run; the
    /// `Substep` group once per substep).
    pub calls: u32,
    /// Wall-clock time (ns), summed over its calls.
    pub nanoseconds: u64,
}

/// What the last step worked on (counts read from the world, whether or not the
/// step was profiled).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProfileCounts {
    /// Bodies made by the builders.
    pub bodies: u64,
    /// Bodies that are awake (simulated; src/world/sleep.rs).
    pub awake_bodies: u64,
    /// Particles (fluid particles and free particles included).
    pub particles: u64,
    /// Constraint projections of one iteration over every constraint set.
    pub constraints: u64,
    /// Colliders.
    pub colliders: u64,
    /// Particle–collider contacts of the last step (the contact readback's count).
    pub collider_contacts: u64,
    /// Listed particle–particle neighbour pairs of the particle contact search.
    pub particle_pairs: u64,
    /// Live fluid particles.
    pub fluid_particles: u64,
    /// Listed fluid neighbour pairs of the last density build.
    pub fluid_neighbours: u64,
}

/// A host's markers: called at each boundary of a profiled step, on the thread that
/// called the step (see the module doc for the nesting). It runs while the world is
/// being stepped: it must not call into the world.
pub trait ProfileHook: Send {
    /// `stage` begins (`begin`) or ends.
    fn stage(&mut self, stage: ProfileStage, begin: bool);
}

/// The world's profiler: the setting, the hook, the running step's clocks and the
/// last profiled step's times.
pub(crate) struct Profiler {
    /// Whether the step is timed ([`crate::WorldDesc::profiling`],
    /// `World::set_profiling`).
    pub(crate) on: bool,
    pub(crate) hook: Option<Box<dyn ProfileHook>>,
    /// Whether the running step records (`on` or a hook).
    active: bool,
    /// The open leaf and when the last boundary was read.
    current: Option<ProfileStage>,
    last: Option<Instant>,
    /// When the step and the open substep began.
    step_start: Option<Instant>,
    substep_start: Option<Instant>,
    nanos: [u64; PROFILE_STAGE_COUNT],
    calls: [u32; PROFILE_STAGE_COUNT],
    /// The last profiled step (all zero before the first).
    pub(crate) times: [StageTime; PROFILE_STAGE_COUNT],
}

impl Profiler {
    pub(crate) fn new(on: bool) -> Profiler {
        Profiler {
            on,
            hook: None,
            active: false,
            current: None,
            last: None,
            step_start: None,
            substep_start: None,
            nanos: [0; PROFILE_STAGE_COUNT],
            calls: [0; PROFILE_STAGE_COUNT],
            times: ProfileStage::ALL.map(|stage| StageTime {
                stage,
                calls: 0,
                nanoseconds: 0,
            }),
        }
    }

    /// Whether a hook wants its calls on the stepping thread.
    pub(crate) fn has_hook(&self) -> bool {
        self.hook.is_some()
    }

    fn call(&mut self, stage: ProfileStage, begin: bool) {
        if let Some(h) = self.hook.as_mut() {
            h.stage(stage, begin);
        }
    }

    /// Reads the clock and closes the open leaf (its time up to now, its end call).
    /// With no leaf open the last boundary stays where it was: the time since then
    /// (a group's own calls, a loop) counts in the next leaf.
    fn boundary(&mut self) -> Instant {
        let now = Instant::now();
        if let Some(c) = self.current.take() {
            if let Some(last) = self.last {
                self.nanos[c as usize] += (now - last).as_nanos() as u64;
            }
            self.last = Some(now);
            self.call(c, false);
        }
        now
    }

    /// Start of a step.
    pub(crate) fn begin_step(&mut self) {
        self.active = self.on || self.hook.is_some();
        if !self.active {
            return;
        }
        self.nanos = [0; PROFILE_STAGE_COUNT];
        self.calls = [0; PROFILE_STAGE_COUNT];
        self.calls[ProfileStage::Step as usize] = 1;
        self.current = None;
        let now = Instant::now();
        self.step_start = Some(now);
        self.last = Some(now);
        self.call(ProfileStage::Step, true);
    }

    /// The leaf `stage` begins (the open one ends).
    #[inline]
    pub(crate) fn enter(&mut self, stage: ProfileStage) {
        if self.active {
            self.switch(stage);
        }
    }

    fn switch(&mut self, stage: ProfileStage) {
        // Time since the last boundary with no leaf open (a group just began or
        // ended) counts in this leaf.
        let now = Instant::now();
        if let Some(last) = self.last {
            let open = self.current.unwrap_or(stage);
            self.nanos[open as usize] += (now - last).as_nanos() as u64;
        }
        if let Some(c) = self.current {
            self.call(c, false);
        }
        self.calls[stage as usize] += 1;
        self.current = Some(stage);
        self.last = Some(now);
        self.call(stage, true);
    }

    /// Start of a substep.
    #[inline]
    pub(crate) fn begin_substep(&mut self) {
        if self.active {
            let now = self.boundary();
            self.calls[ProfileStage::Substep as usize] += 1;
            self.substep_start = Some(now);
            self.call(ProfileStage::Substep, true);
        }
    }

    /// End of a substep.
    #[inline]
    pub(crate) fn end_substep(&mut self) {
        if self.active {
            let now = self.boundary();
            if let Some(start) = self.substep_start.take() {
                self.nanos[ProfileStage::Substep as usize] += (now - start).as_nanos() as u64;
            }
            self.call(ProfileStage::Substep, false);
        }
    }

    /// End of the step (every path out of it, errors included): the times become the
    /// last step's.
    pub(crate) fn end_step(&mut self) {
        if !self.active {
            return;
        }
        let now = self.boundary();
        if let Some(start) = self.step_start.take() {
            self.nanos[ProfileStage::Step as usize] = (now - start).as_nanos() as u64;
        }
        self.last = None;
        self.call(ProfileStage::Step, false);
        for (k, t) in self.times.iter_mut().enumerate() {
            t.calls = self.calls[k];
            t.nanoseconds = self.nanos[k];
        }
        self.active = false;
    }
}

impl super::World {
    /// Turns the timing of each step on or off (the desc's `profiling`; takes effect
    /// at the next step). Off, the last profiled step's times stay readable.
    pub fn set_profiling(&mut self, on: bool) {
        self.profile.on = on;
        self.desc.profiling = on;
    }

    /// Whether each step is timed.
    pub fn profiling(&self) -> bool {
        self.profile.on
    }

    /// Installs (or, with None, removes) the host's markers, called at every boundary
    /// of each step from the next one on ([`ProfileHook`]); a step with a hook is
    /// timed too, whatever [`Self::profiling`] says.
    pub fn set_profile_hook(&mut self, hook: Option<Box<dyn ProfileHook>>) {
        self.profile.hook = hook;
    }

    /// The stages of the last profiled step, by stage value (all zero before the
    /// first): the leaves sum to the `Step` time.
    pub fn stage_times(&self) -> &[StageTime; PROFILE_STAGE_COUNT] {
        &self.profile.times
    }

    /// What the world holds and the last step worked on. Nothing is allocated.
    pub fn profile_counts(&self) -> ProfileCounts {
        let stats = self.collision.particles.stats();
        let bodies = self.bodies.len() as u64;
        ProfileCounts {
            bodies,
            awake_bodies: self.awake_body_count(),
            particles: self.particles.len() as u64,
            constraints: self.sets.projections() as u64,
            colliders: self.collision.colliders.len() as u64,
            collider_contacts: self.collision.colliders.reports().len() as u64,
            particle_pairs: stats.pairs,
            fluid_particles: self.fluids.live().map(|f| f.count as u64).sum(),
            fluid_neighbours: self.fluids.solver.listed_pairs(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The family stages name the registry's sets, in its order, with the fluids at
    /// its fluid slot.
    #[test]
    fn family_stages_follow_the_registry() {
        let names = crate::constraints::SET_NAMES;
        for (k, name) in names.iter().enumerate() {
            let i = if k < FLUID_SLOT { k } else { k + 1 };
            assert_eq!(ProfileStage::family(i).name(), *name);
        }
        assert_eq!(ProfileStage::family(FLUID_SLOT), ProfileStage::FluidDensity);
        for (k, s) in ProfileStage::ALL.iter().enumerate() {
            assert_eq!(*s as usize, k);
            assert_eq!(ProfileStage::from_u32(k as u32), Some(*s));
        }
        assert_eq!(ProfileStage::from_u32(PROFILE_STAGE_COUNT as u32), None);
    }
}
