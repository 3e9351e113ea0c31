//! The world: owns particles and constraint sets, validates every input before it
//! changes anything (a failed call changes nothing), and steps the simulation
//! (`step.rs`). Its API is split by area: particles, distance constraints and the step
//! here, constraint families in `families.rs`, bodies in `bodies.rs`, collision in
//! `collision.rs` (ARCHITECTURE.md, "Layers").

use crate::bodies::Bodies;
use crate::collision::Collision;
use crate::constraints::distance::{self, DistanceConstraints, MAX_COMPLIANCE};
use crate::constraints::ConstraintSets;
use crate::error::{check_nonzero, check_range, Error, Result};
use crate::fluid::FluidSet;
use crate::math::Vec3;
pub(crate) use crate::particles::check_vec3;
use crate::particles::{check_inverse_mass, check_room, Particles, Vec3Attribute};
use crate::pipeline::integrate::{Integrator, Plane};
use crate::solver::parallel::Executor;
use crate::solver::Solver;
use crate::topology::Topology;
use fluids::FLUID_MASSES;

pub(crate) mod activity;
mod bodies;
pub(crate) mod breaking;
mod collision;
pub(crate) mod edit;
pub(crate) mod families;
mod fluid_render;
mod fluids;
mod grab_edit;
mod granular;
pub(crate) mod interpolation;
pub(crate) mod profile;
pub(crate) mod render_normals;
mod skinning;
pub(crate) mod sleep;
mod snapshot;
pub use collision::ContactEvent;
pub use snapshot::seal_snapshot;
mod step;
mod tasks;
pub(crate) mod tearing;
pub(crate) mod winch;
mod wind;

pub use crate::limits::{
    MAX_ACCELERATION, MAX_DT, MAX_ITERATIONS, MAX_JACOBI_RELAXATION, MAX_SLEEP_THRESHOLD,
    MAX_SLEEP_TIME, MAX_SUBSTEPS, MAX_THREADS, MIN_DT,
};

crate::settings! {
    /// How a world simulates. Every field has a unit and a default.
    pub struct WorldDesc => SinewWorldDesc, WorldSettings, cookie 0x5E1E_D35C,
        path "crate::world::WorldDesc" {
        /// Gravity, the acceleration of every particle with mass.
        gravity: Vec3 = Vec3::new(0.0, -9.81, 0.0) => unit "m/s²",
            min >= -MAX_ACCELERATION, max <= MAX_ACCELERATION;
        /// Substeps per step. More substeps with one iteration is usually better than more
        /// iterations.
        substeps: u32 = 8 => unit "", min >= 1, max <= MAX_SUBSTEPS;
        /// Solver iterations per substep.
        iterations: u32 = 1 => unit "", min >= 1, max <= MAX_ITERATIONS;
        /// Gauss-Seidel (constraints one after another, by colour) or Jacobi (all from the
        /// same positions, corrections averaged per particle).
        solver: Solver = Solver::GaussSeidel => unit "";
        /// Jacobi only: scale of the averaged correction (1 = plain averaging; above 1
        /// over-relaxes).
        jacobi_relaxation: f32 = 1.0 => unit "", min > 0.0, max < MAX_JACOBI_RELAXATION;
        /// Linear velocity damping: velocities decay as exp(−damping·t).
        damping: f32 = 0.0 => unit "1/s", min >= 0.0, max <= MAX_ACCELERATION;
        /// Worker threads (1 = the calling thread only). Results are bit-identical
        /// whatever the count.
        threads: u32 = 0 => unit "", min >= 0, max <= MAX_THREADS, auto zero "all cores",
            not saved;
        /// Time every stage of each step (read back as the last step's stage times; no
        /// clock is read when off). The physics is the same bits on or off.
        profiling: bool = false => unit "", not saved;
        /// Sleeping: islands of particles at rest stop being simulated until something
        /// wakes them (src/world/sleep.rs). Off, the physics is the same bits and costs
        /// nothing.
        sleeping: bool = false => unit "";
        /// Kinetic energy per mass ½|v|² under which a particle counts as at rest
        /// (1e-3 J/kg: about 4.5 cm/s).
        sleep_threshold: f32 = 1.0e-3 => unit "J/kg", min >= 0.0, max <= MAX_SLEEP_THRESHOLD;
        /// How long every particle of an island must stay at rest before it sleeps.
        sleep_time: f32 = 0.5 => unit "s", min >= 0.0, max <= MAX_SLEEP_TIME;
    }
}

impl crate::limits::schema::SettingEnum for Solver {
    const C_TYPE: &'static str = "SinewSolver";
    fn to_c(self) -> u32 {
        match self {
            Solver::GaussSeidel => 0,
            Solver::Jacobi => 1,
        }
    }
    fn from_c(v: u32, field: &str) -> Result<Solver> {
        match v {
            0 => Ok(Solver::GaussSeidel),
            1 => Ok(Solver::Jacobi),
            _ => Err(Error::invalid(format!(
                "{field} {v} is not a SinewSolver (0 = Gauss-Seidel, 1 = Jacobi)"
            ))),
        }
    }
}

/// A simulation world: particles, constraints, and the step.
pub struct World {
    pub(crate) desc: WorldDesc,
    pub(crate) particles: Particles,
    /// Every constraint family (distance included) and attachments.
    pub(crate) sets: ConstraintSets,
    /// The integrator's state: per-body damping, this step's fusion plan
    /// (src/pipeline/integrate.rs).
    pub(crate) integrator: Integrator,
    /// 2D worlds: the plane every particle moves in.
    pub(crate) plane: Plane,
    /// Fluids, their emitters, kill volumes and density solver (src/fluid).
    pub(crate) fluids: FluidSet,
    /// Break forces and events, winches (src/topology).
    pub(crate) topology: Topology,
    /// Bodies made by the builders (src/bodies).
    pub(crate) bodies: Bodies,
    pub(crate) collision: Collision,
    pub(crate) exec: Executor,
    /// Substep length (s) of the last step; 0 before the first.
    pub(crate) last_h: f32,
    /// Wind, wind zones, aerodynamic surfaces, simulated time (src/aero.rs).
    pub(crate) aero: crate::aero::Aero,
    /// Skinned targets, their weights and roots (src/skinning.rs).
    pub(crate) skinning: crate::skinning::Skinning,
    /// Real time (s) given to [`World::advance`] and not yet simulated, in
    /// [0, fixed_dt) between calls (src/world/interpolation.rs).
    pub(crate) accumulator: f64,
    /// Stage times of the last step, the host's markers (src/world/profile.rs; not
    /// simulation state: never saved).
    pub(crate) profile: profile::Profiler,
    /// Bodies' simulation modes (level of detail) and sleeping particles
    /// (src/world/activity.rs).
    pub(crate) activity: activity::Activity,
    /// Sleeping islands and the particles' rest counts (src/world/sleep.rs).
    pub(crate) sleep: sleep::Sleep,
}

/// A slice length as the u32 count the C ABI uses.
fn count_u32(n: usize) -> Result<u32> {
    u32::try_from(n)
        .map_err(|_| Error::out_of_range(format!("{n} elements exceed the u32 count limit")))
}

impl World {
    /// Creates an empty world.
    pub fn new(desc: WorldDesc) -> Result<World> {
        desc.validate()?;
        let exec = Executor::new(desc.threads)?;
        let ids = crate::slots::WorldIds::fresh();
        let mut bodies = Bodies::default();
        bodies.set_ids(ids);
        let mut fluids = FluidSet::default();
        fluids.set_ids(ids);
        let mut collision = Collision::default();
        collision.colliders.set_ids(ids);
        let profile = profile::Profiler::new(desc.profiling);
        Ok(World {
            desc,
            particles: Particles::default(),
            sets: ConstraintSets::default(),
            integrator: Integrator::default(),
            plane: Plane::default(),
            fluids,
            topology: Topology::default(),
            bodies,
            collision,
            exec,
            last_h: 0.0,
            aero: crate::aero::Aero::default(),
            skinning: crate::skinning::Skinning::default(),
            accumulator: 0.0,
            profile,
            activity: activity::Activity::default(),
            sleep: sleep::Sleep::default(),
        })
    }

    /// The settings the world was created with.
    pub fn desc(&self) -> &WorldDesc {
        &self.desc
    }

    /// Number of worker threads the world's passes may use.
    pub fn threads(&self) -> usize {
        self.exec.threads()
    }

    /// Read access to particle storage.
    pub fn particles(&self) -> &Particles {
        &self.particles
    }

    /// Read access to the distance constraints.
    pub fn distance_constraints(&self) -> &DistanceConstraints {
        &self.sets.distance
    }

    /// Particles and collision state together, for the collision API
    /// (`crate::collision::api`).
    pub(crate) fn collision_parts(&mut self) -> (&mut Particles, &mut Collision) {
        (&mut self.particles, &mut self.collision)
    }

    /// Read access to the collision state.
    pub(crate) fn collision(&self) -> &Collision {
        &self.collision
    }

    /// Number of particles.
    pub fn particle_count(&self) -> u32 {
        self.particles.len() as u32
    }

    /// Number of distance constraints (both flavours).
    pub fn distance_constraint_count(&self) -> u32 {
        self.sets.distance.len() as u32
    }

    /// The particle range `first..first+count`, or an error.
    pub(crate) fn particle_range(
        &self,
        first: u32,
        count: usize,
    ) -> Result<std::ops::Range<usize>> {
        check_range(first, count, self.particles.len(), "particles")
    }

    /// Fails with OUT_OF_RANGE when `count` more particles would exceed
    /// [`crate::MAX_PARTICLES`]. Checked before any input is read.
    pub fn check_particle_room(&self, count: usize) -> Result<()> {
        check_room(self.particles.len(), count)
    }

    /// Adds particles at rest; `inverse_masses` None means 1/kg for all. Returns the
    /// index of the first new particle (indices are consecutive).
    pub fn add_particles(
        &mut self,
        positions: &[Vec3],
        inverse_masses: Option<&[f32]>,
    ) -> Result<u32> {
        let count = positions.len();
        check_nonzero(count, "particle")?;
        self.check_particle_room(count)?;
        let first = self.particles.len();
        if let Some(w) = inverse_masses {
            if w.len() != count {
                return Err(Error::invalid(format!(
                    "{} inverse masses for {count} particles",
                    w.len()
                )));
            }
        }
        for (i, &p) in positions.iter().enumerate() {
            check_vec3("position", i, p)?;
        }
        if let Some(w) = inverse_masses {
            for (i, &w) in w.iter().enumerate() {
                check_inverse_mass(i, w)?;
            }
        }
        self.particles.reserve(count)?;
        for (i, &p) in positions.iter().enumerate() {
            self.particles.push(p, inverse_masses.map_or(1.0, |w| w[i]));
        }
        self.reserve_fluid_room(false);
        Ok(first as u32)
    }

    /// Calls `sink(k, value)` for particles `first..first+count`: positions (m) or
    /// velocities (m/s).
    pub fn read_vec3(
        &self,
        attribute: Vec3Attribute,
        first: u32,
        count: u32,
        mut sink: impl FnMut(usize, Vec3),
    ) -> Result<()> {
        let range = self.particle_range(first, count as usize)?;
        for (k, i) in range.enumerate() {
            sink(k, self.particles.get_vec3(attribute, i));
        }
        Ok(())
    }

    /// Sets positions (m; velocities are kept, the particle is teleported: its state
    /// before the last step is set too, so an interpolated read shows no streak) or
    /// velocities (m/s; pinned particles keep 0) of particles `first..first+count` to
    /// `get(k)`. `get` is called twice per element: once to validate all, once to write.
    pub fn write_vec3_with(
        &mut self,
        attribute: Vec3Attribute,
        first: u32,
        count: u32,
        get: impl Fn(usize) -> Vec3,
    ) -> Result<()> {
        let range = self.particle_range(first, count as usize)?;
        for k in 0..count as usize {
            check_vec3(attribute.name(), k, get(k))?;
        }
        self.wake_range(range.clone());
        for (k, i) in range.enumerate() {
            let v = get(k);
            self.particles.set_vec3(attribute, i, v);
            if attribute == Vec3Attribute::Position {
                // A teleport: the interpolated position jumps too, no streak.
                self.particles.step_start[i] = v;
            }
        }
        Ok(())
    }

    /// Calls `sink(k, position)` for particles `first..first+count` (m).
    pub fn read_positions(
        &self,
        first: u32,
        count: u32,
        sink: impl FnMut(usize, Vec3),
    ) -> Result<()> {
        self.read_vec3(Vec3Attribute::Position, first, count, sink)
    }

    /// Calls `sink(k, velocity)` for particles `first..first+count` (m/s).
    pub fn read_velocities(
        &self,
        first: u32,
        count: u32,
        sink: impl FnMut(usize, Vec3),
    ) -> Result<()> {
        self.read_vec3(Vec3Attribute::Velocity, first, count, sink)
    }

    /// Teleports particles `first..` to `positions` (m); velocities are kept.
    pub fn write_positions(&mut self, first: u32, positions: &[Vec3]) -> Result<()> {
        let count = count_u32(positions.len())?;
        self.write_vec3_with(Vec3Attribute::Position, first, count, |k| positions[k])
    }

    /// Sets velocities (m/s) of particles `first..`. Pinned particles keep velocity 0.
    pub fn write_velocities(&mut self, first: u32, velocities: &[Vec3]) -> Result<()> {
        let count = count_u32(velocities.len())?;
        self.write_vec3_with(Vec3Attribute::Velocity, first, count, |k| velocities[k])
    }

    /// Sets inverse masses (1/kg, 0 = pinned) of particles `first..`. A fluid's
    /// particles are refused (InvalidArgument): their mass is the fluid's ρ₀·s³.
    pub fn set_inverse_masses(&mut self, first: u32, inverse_masses: &[f32]) -> Result<()> {
        let range = self.particle_range(first, inverse_masses.len())?;
        self.check_not_fluid(range.clone(), FLUID_MASSES)?;
        for (k, &w) in inverse_masses.iter().enumerate() {
            check_inverse_mass(k, w)?;
        }
        self.wake_range(range.clone());
        for (i, &w) in range.zip(inverse_masses) {
            self.particles.set_inverse_mass(i, w);
        }
        self.sets.update_jacobi_weights(&self.particles);
        Ok(())
    }

    fn add_distance(&mut self, batch: Vec<distance::NewDistance>) -> Result<u32> {
        let first = self.sets.distance.len() as u32;
        let jacobi = self.desc.solver == Solver::Jacobi;
        self.sets.distance =
            self.sets
                .distance
                .with_appended(&batch, &self.particles.hot, jacobi)?;
        self.wake_particles(batch.iter().flat_map(|d| d.pair));
        Ok(first)
    }

    /// Adds XPBD distance constraints between `pairs` with compliance α (m/N, 0 =
    /// rigid). `rest_lengths` None means the current distances. Returns the id of the
    /// first new constraint (ids are consecutive, shared with the PBD flavour).
    pub fn add_distance_constraints(
        &mut self,
        pairs: &[[u32; 2]],
        rest_lengths: Option<&[f32]>,
        compliance: f32,
    ) -> Result<u32> {
        crate::limits::check_compliance("distance", compliance, MAX_COMPLIANCE, "m/N")?;
        let batch = distance::validate(
            &self.particles,
            self.sets.distance.len(),
            pairs,
            rest_lengths,
            compliance,
            1.0,
        )?;
        self.check_no_fluid_indices(pairs.iter().flatten().copied(), "pair", 2)?;
        self.add_distance(batch)
    }

    /// Adds PBD distance constraints with stiffness k in [0, 1] (the fraction of the
    /// error removed per substep, whatever the iteration count). `rest_lengths` None
    /// means the current distances. Returns the id of the first new constraint.
    pub fn add_pbd_distance_constraints(
        &mut self,
        pairs: &[[u32; 2]],
        rest_lengths: Option<&[f32]>,
        stiffness: f32,
    ) -> Result<u32> {
        if !(stiffness.is_finite() && (0.0..=1.0).contains(&stiffness)) {
            return Err(Error::invalid(format!(
                "stiffness {stiffness} must be in [0, 1]"
            )));
        }
        let per_iteration =
            crate::constraints::set::pbd_per_iteration(stiffness, self.desc.iterations);
        let batch = distance::validate(
            &self.particles,
            self.sets.distance.len(),
            pairs,
            rest_lengths,
            0.0,
            per_iteration,
        )?;
        self.check_no_fluid_indices(pairs.iter().flatten().copied(), "pair", 2)?;
        self.add_distance(batch)
    }

    /// Writes |λ|/h² (N) of distance constraints `first..first+out.len()` from the last
    /// substep of the last step (0 before the first step).
    pub fn read_constraint_forces(&self, first: u32, out: &mut [f32]) -> Result<()> {
        let range = check_range(
            first,
            out.len(),
            self.sets.distance.len(),
            "distance constraints",
        )?;
        for (o, id) in out.iter_mut().zip(range) {
            *o = self.sets.distance.force(id, self.last_h);
        }
        Ok(())
    }

    /// Advances the world by `dt` seconds (in [1e-6, 10]) in `substeps` substeps.
    ///
    /// The one failure that is not "nothing changed": [`crate::ErrorKind::NonFinite`]
    /// means the step ran but met a NaN or infinity in some bodies (an extreme state);
    /// their particles are back at their positions before the step, at rest, every
    /// other particle advanced, and every particle is finite (src/recovery.rs).
    pub fn step(&mut self, dt: f32) -> Result<()> {
        if !(dt.is_finite() && (MIN_DT..=MAX_DT).contains(&dt)) {
            return Err(Error::invalid(format!(
                "dt {dt} must be finite and in [{MIN_DT}, {MAX_DT}] seconds"
            )));
        }
        let stepped = step::step(self, dt);
        // The contact events of the step's readback (nothing while events are off).
        let events = self.update_contact_events();
        // Islands at rest fall asleep, and what touched a sleeping one wakes it
        // (nothing while sleeping is off).
        let sleep = self.update_sleep(dt);
        stepped.and(events).and(sleep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search for a fluid's ω (`fluid::jacobi::top_mode_gain`, milliseconds at
    /// h = 2s, tens at h = 4s) runs in the calls that change a fluid's kernel (adding
    /// it, changing its desc, turning the world planar, loading a snapshot), not in
    /// the step after them.
    #[test]
    fn a_fluid_relaxation_is_searched_outside_the_step() {
        use crate::fluid::jacobi::tests::SEARCHES;
        let searches = || SEARCHES.with(|n| n.get());
        let mut w = World::new(WorldDesc {
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        let desc = crate::fluid::FluidDesc {
            spacing: 0.05,
            capacity: 8,
            ..Default::default()
        };
        let f = w.add_fluid(&desc).unwrap();
        let lattice: Vec<Vec3> = (0..8)
            .map(|i| Vec3::new((i % 2) as f32, (i / 2 % 2) as f32, (i / 4) as f32) * 0.05)
            .collect();
        w.emit_fluid(f, &lattice, None).unwrap();
        let check = |w: &mut World, what: &str| {
            let before = searches();
            w.step(1.0 / 60.0).unwrap();
            assert_eq!(searches(), before, "the step after {what} searched for ω");
        };
        check(&mut w, "adding the fluid");
        let n0 = searches();
        w.set_fluid_desc(
            f,
            &crate::fluid::FluidDesc {
                smoothing_radius: 0.15,
                ..desc
            },
        )
        .unwrap();
        assert!(searches() > n0, "a new h searched for ω at once");
        check(&mut w, "a new h");
        w.set_planar(Some(0.0)).unwrap();
        check(&mut w, "turning planar");
        let bytes = w.snapshot();
        let mut loaded = World::from_snapshot(&bytes, 1).unwrap();
        check(&mut loaded, "loading a snapshot");
        let mut other = World::new(WorldDesc {
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        other.restore_snapshot(&bytes).unwrap();
        check(&mut other, "restoring a snapshot");
    }

    /// Adding constraints recolours and re-sorts the whole set: ids, pairs, rest
    /// lengths and the last step's forces of the existing constraints must not move.
    #[test]
    fn adding_constraints_keeps_ids_and_forces_of_existing_ones() {
        for solver in [Solver::GaussSeidel, Solver::Jacobi] {
            let mut w = World::new(WorldDesc {
                solver,
                threads: 1,
                ..WorldDesc::default()
            })
            .unwrap();
            let p: Vec<Vec3> = (0..12)
                .map(|i| Vec3::new(0.1 * i as f32, 0.0, 0.0))
                .collect();
            let mut inv = vec![1.0; 12];
            inv[0] = 0.0;
            w.add_particles(&p, Some(&inv)).unwrap();
            let chain: Vec<[u32; 2]> = (0..11).map(|i| [i, i + 1]).collect();
            assert_eq!(w.add_distance_constraints(&chain, None, 1e-6).unwrap(), 0);
            for _ in 0..10 {
                w.step(1.0 / 60.0).unwrap();
            }
            let mut before = [0.0f32; 11];
            w.read_constraint_forces(0, &mut before).unwrap();
            assert!(before.iter().all(|&f| f > 0.0), "{before:?}");
            let extra = [[0u32, 11], [2, 9], [3, 5]];
            assert_eq!(
                w.add_pbd_distance_constraints(&extra, None, 0.5).unwrap(),
                11
            );
            let mut after = [0.0f32; 11];
            w.read_constraint_forces(0, &mut after).unwrap();
            assert_eq!(before, after);
            let d = w.distance_constraints();
            for (id, pair) in chain.iter().chain(&extra).enumerate() {
                assert_eq!(d.pair(id), *pair);
            }
            assert!((d.rest_length(3) - 0.1).abs() < 1e-6);
        }
    }

    /// Particles added after a Jacobi set was built are outside its adjacency (they
    /// have none of its constraints): they fall freely, and constraints added to them
    /// later rebuild the adjacency. Free fall over n substeps: g·h²·n(n+1)/2.
    #[test]
    fn jacobi_particles_added_after_constraints_fall_then_join() {
        let mut w = World::new(WorldDesc {
            solver: Solver::Jacobi,
            substeps: 4,
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        w.add_particles(&[Vec3::ZERO, Vec3::X], Some(&[0.0, 1.0]))
            .unwrap();
        w.add_distance_constraints(&[[0, 1]], None, 0.0).unwrap();
        let late = w.add_particles(&[Vec3::new(5.0, 0.0, 0.0)], None).unwrap();
        for _ in 0..10 {
            w.step(0.01).unwrap();
        }
        let (h, n) = (0.01f64 / 4.0, 40.0f64);
        let drop = -w.particles().position(late as usize).y as f64;
        let expected = 9.81 * h * h * n * (n + 1.0) / 2.0;
        assert!((drop - expected).abs() < 1e-6, "{drop} vs {expected}");
        assert!((w.particles().position(1).length() - 1.0).abs() < 1e-3);
        w.add_distance_constraints(&[[1, late]], None, 0.0).unwrap();
        let rest = w.distance_constraints().rest_length(1);
        for _ in 0..60 {
            w.step(0.01).unwrap();
        }
        let d = w
            .particles()
            .position(1)
            .distance(w.particles().position(late as usize));
        assert!((d - rest).abs() < 0.05 * rest, "{d} vs rest {rest}");
    }
}
