// The idiomatic (PascalCase) structs of what the library reports or takes per element:
// skinning weights, fluid and grain emitter counters, surface mesh sizes, the profiler's
// stage times and counts, a dynamic collider's motion, contacts and contact events. The
// raw layer's structs carry the C header's snake_case names; these are what namespace
// Sinew's members take and return. SkinWeights, StageTime, Contact and ContactEvent have
// the layout of their raw struct (arrays of them go to and from the library in place, no
// copy); the others are copied field by field.

using System.Runtime.InteropServices;
using Sinew.Native;

namespace Sinew
{
    /// <summary>One particle's skinning weights for character cloth
    /// (<see cref="Body.SetSkinWeights"/>); the layout of SinewSkinWeights.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SkinWeights
    {
        /// <summary>Radius (m) the particle may move away from its target; negative = no
        /// limit, 0 = fully skinned.</summary>
        public float MaxDistance;
        /// <summary>Radius (m) of the backstop sphere behind the target (along -normal)
        /// that the particle may not enter; 0 = none.</summary>
        public float BackstopRadius;
        /// <summary>Distance (m) from the target to the backstop sphere's surface, along
        /// -normal.</summary>
        public float BackstopDistance;
        /// <summary>Compliance (m/N) of the spring pulling the particle to its target;
        /// negative = none, 0 = rigid. Static deflection under gravity: m g compliance.</summary>
        public float DriveCompliance;

        /// <summary>Weights that skin nothing: no max distance (-1), no backstop (0), no
        /// drive (-1). Start from it and set what you need.</summary>
        public static SkinWeights None
        {
            get { return new SkinWeights { MaxDistance = -1f, BackstopRadius = 0f, BackstopDistance = 0f, DriveCompliance = -1f }; }
        }
    }

    /// <summary>A fluid's counters (<see cref="Fluid.Stats"/>).</summary>
    public struct FluidStats
    {
        /// <summary>Live particles.</summary>
        public int Count;
        /// <summary>Reserved particles (live ones at most this many).</summary>
        public int Capacity;
        /// <summary>Particles emitted since the fluid was added (emitters and Emit).</summary>
        public long Emitted;
        /// <summary>Particles removed since the fluid was added (kill volumes, lifetime,
        /// recycling, clears).</summary>
        public long Removed;
        /// <summary>Emissions skipped because the fluid was full.</summary>
        public long Refused;
        /// <summary>Mean ρ/ρ₀ over the live particles after the last step (0 when empty).</summary>
        public float MeanDensityRatio;
        /// <summary>Largest ρ/ρ₀ over the live particles after the last step (0 when empty).</summary>
        public float MaxDensityRatio;

        internal static FluidStats From(SinewFluidStats s)
        {
            return new FluidStats
            {
                Count = unchecked((int)s.count),
                Capacity = unchecked((int)s.capacity),
                Emitted = unchecked((long)s.emitted),
                Removed = unchecked((long)s.removed),
                Refused = unchecked((long)s.refused),
                MeanDensityRatio = s.mean_density_ratio,
                MaxDensityRatio = s.max_density_ratio,
            };
        }

        public override string ToString()
        {
            return Count + "/" + Capacity + " live, " + Emitted + " emitted, " + Removed + " removed, " + Refused +
                   " refused, ρ/ρ₀ mean " + MeanDensityRatio + " max " + MaxDensityRatio;
        }
    }

    /// <summary>The size of a fluid's surface mesh (<see cref="Fluid.BuildSurface"/>,
    /// <see cref="Fluid.ReadSurface{T}"/>).</summary>
    public struct SurfaceCounts
    {
        /// <summary>Vertices (positions and normals).</summary>
        public int Vertices;
        /// <summary>Indices, three per triangle.</summary>
        public int Indices;

        internal static SurfaceCounts From(SinewSurfaceCounts c)
        {
            return new SurfaceCounts { Vertices = unchecked((int)c.vertices), Indices = unchecked((int)c.indices) };
        }
    }

    /// <summary>A grain emitter's reserved particles and progress
    /// (<see cref="GrainEmitter.Stats"/>).</summary>
    public struct GrainEmitterStats
    {
        /// <summary>First reserved world particle (the first grain).</summary>
        public int First;
        /// <summary>Particles reserved (grains it emits at most).</summary>
        public int Budget;
        /// <summary>Grains emitted so far.</summary>
        public int Emitted;
        /// <summary>Grains held so far because their spot was occupied (the emitter waits
        /// for room).</summary>
        public long Held;

        internal static GrainEmitterStats From(SinewGrainEmitterStats s)
        {
            return new GrainEmitterStats
            {
                First = unchecked((int)s.first),
                Budget = unchecked((int)s.budget),
                Emitted = unchecked((int)s.emitted),
                Held = s.held,
            };
        }
    }

    /// <summary>What a world holds and its last step worked on
    /// (<see cref="World.ProfileCounts"/>).</summary>
    public struct ProfileCounts
    {
        /// <summary>Bodies made by the builders.</summary>
        public long Bodies;
        /// <summary>Bodies awake (a sleeping body is not simulated).</summary>
        public long AwakeBodies;
        /// <summary>Particles (fluid and free particles included).</summary>
        public long Particles;
        /// <summary>Constraint projections of one solver iteration over every constraint family.</summary>
        public long Constraints;
        /// <summary>Colliders.</summary>
        public long Colliders;
        /// <summary>Particle-collider contacts of the last step.</summary>
        public long ColliderContacts;
        /// <summary>Listed particle-particle neighbour pairs of the contact search.</summary>
        public long ParticlePairs;
        /// <summary>Live fluid particles.</summary>
        public long FluidParticles;
        /// <summary>Listed fluid neighbour pairs of the last density build.</summary>
        public long FluidNeighbours;

        internal static ProfileCounts From(SinewProfileCounts c)
        {
            return new ProfileCounts
            {
                Bodies = unchecked((long)c.bodies),
                AwakeBodies = unchecked((long)c.awake_bodies),
                Particles = unchecked((long)c.particles),
                Constraints = unchecked((long)c.constraints),
                Colliders = unchecked((long)c.colliders),
                ColliderContacts = unchecked((long)c.collider_contacts),
                ParticlePairs = unchecked((long)c.particle_pairs),
                FluidParticles = unchecked((long)c.fluid_particles),
                FluidNeighbours = unchecked((long)c.fluid_neighbours),
            };
        }
    }

    /// <summary>One stage of the last profiled step (<see cref="World.ReadStageTimes"/>);
    /// the layout of SinewStageTime.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct StageTime
    {
        /// <summary>Wall-clock time (ns), summed over every time the stage ran in the step.</summary>
        public ulong Nanoseconds;
        /// <summary>The stage.</summary>
        public SinewProfileStage Stage;
        /// <summary>The group it runs in: Step or Substep (Step for Step itself).</summary>
        public SinewProfileStage Parent;
        /// <summary>Nesting depth: 0 for Step, 1 for Substep and the leaves outside
        /// substeps, 2 for the leaves inside them.</summary>
        public uint Depth;
        /// <summary>How many times the stage began in the step (0 = it did not run).</summary>
        public uint Calls;
    }

    /// <summary>What the proxy of a dynamic collider did over the last step
    /// (<see cref="World.ReadColliderMotion"/>).</summary>
    public struct ColliderMotion
    {
        /// <summary>Velocity of the centre of mass (m/s) at the end of the step.</summary>
        public SinewVec3 Velocity;
        /// <summary>Angular velocity (rad/s) at the end of the step.</summary>
        public SinewVec3 AngularVelocity;
        /// <summary>The change of velocity (m/s) the particles, pins and fluids made over the
        /// step (gravity left out): what a host adds to its body's velocity.</summary>
        public SinewVec3 VelocityChange;
        /// <summary>The change of angular velocity (rad/s), likewise.</summary>
        public SinewVec3 AngularVelocityChange;

        internal static ColliderMotion From(SinewColliderMotion m)
        {
            return new ColliderMotion
            {
                Velocity = m.velocity,
                AngularVelocity = m.angular_velocity,
                VelocityChange = m.velocity_change,
                AngularVelocityChange = m.angular_velocity_change,
            };
        }
    }
    /// <summary>One particle–collider contact of the last step, its contacts of every
    /// substep merged (<see cref="World.ReadContacts"/>); the layout of SinewContact. The
    /// particle pushes the collider with -(Impulse·Normal + FrictionImpulse).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Contact
    {
        /// <summary>The collider touched (<see cref="WorldCollider.Is"/> tells
        /// which).</summary>
        public SinewColliderHandle Collider;
        /// <summary>The particle's index.</summary>
        public int Particle;
        /// <summary>The normal impulse (N·s, >= 0: a collider only pushes) the collider gave
        /// the particle over the step.</summary>
        public float Impulse;
        /// <summary>The unit normal pointing out of the collider (world), from the step's
        /// last contact.</summary>
        public SinewVec3 Normal;
        /// <summary>The contact point (world, m) of the step's last contact: the particle's
        /// centre projected onto the collider's surface.</summary>
        public SinewVec3 Point;
        /// <summary>The friction impulse (N·s, world, tangent to the surface) the collider
        /// gave the particle over the step. Sliding, its length is the dynamic friction
        /// times <see cref="Impulse"/>; sticking, at most the static friction times
        /// it.</summary>
        public SinewVec3 FrictionImpulse;
    }

    /// <summary>One contact event (<see cref="World.TakeContactEvents"/>,
    /// <see cref="World.ContactBegan"/>, <see cref="World.ContactPersisted"/>,
    /// <see cref="World.ContactEnded"/>): a collider and a body, or a particle in no body,
    /// that began, kept or ended touching in the last step; the layout of
    /// SinewContactEvent.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ContactEvent
    {
        /// <summary>Began, kept or ended touching.</summary>
        public SinewContactEventKind Kind;
        /// <summary>The pair's first particle (lowest index) touching the collider in the
        /// step (for an end event: in the last step it touched).</summary>
        public int Particle;
        /// <summary>The collider (for an end event it may have been removed since).</summary>
        public SinewColliderHandle Collider;
        /// <summary>The particles' body; id 0 for a particle in no body (the pair is that
        /// particle's).</summary>
        public SinewBodyHandle Body;
        /// <summary>The first particle's contact point (world, m).</summary>
        public SinewVec3 Point;
        /// <summary>The collider's outward unit normal at <see cref="Point"/>.</summary>
        public SinewVec3 Normal;
        /// <summary>The friction impulse (N·s, world) the collider gave all the pair's
        /// particles over the step; 0 for an end event.</summary>
        public SinewVec3 FrictionImpulse;
        /// <summary>The normal impulse (N·s, >= 0) the collider gave all the pair's
        /// particles over the step; 0 for an end event.</summary>
        public float Impulse;
    }
}
