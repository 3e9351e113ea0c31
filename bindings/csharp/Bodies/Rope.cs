// A rope: the library's rope body (World.AddRope, World.AddRopePolyline) plus what a
// host needs on top of the Body it is. The particles, links, bend links, tethers and pins
// are the library's (sinew_world_add_rope); this class remembers which ends are pinned
// and moves them. The Unity SinewRope component is a thin shell over it.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A rope of <see cref="Segments"/> links built by the library
    /// (<see cref="World.AddRope(RopeSettings)"/>, <see cref="World.AddRopePolyline{T}"/>):
    /// particles FirstParticle..FirstParticle + Segments (inclusive ends), the total mass
    /// spread evenly over them, stretch links, bend links (i, i+2) and, when
    /// <see cref="RopeSettings.Tethers"/> is set, tethers from each pinned end. Pinned ends
    /// have inverse mass 0 and follow <see cref="MoveEnds"/>. Every <see cref="Body"/>
    /// member applies (cut, winch, damping, positions); <see cref="Body.Dispose"/> removes
    /// the rope from its world.</summary>
    public sealed class Rope : Body
    {
        /// <summary>Number of links.</summary>
        public int Segments { get { return ParticleCount - 1; } }
        /// <summary>Rest length of the whole rope (m) at creation: the start-end distance
        /// of a straight rope, the polyline's length of one built through points.</summary>
        public float RestLength { get; private set; }
        /// <summary>Whether the first particle was built pinned (inverse mass 0).</summary>
        public bool StartPinned { get; private set; }
        /// <summary>Whether the last particle was built pinned (inverse mass 0).</summary>
        public bool EndPinned { get; private set; }

        /// <summary>Largest compliance the library accepts for a body's constraints.</summary>
        public const float MaxCompliance = SinewNative.SINEW_MAX_BODY_COMPLIANCE;

        readonly SinewVec3[] ends = new SinewVec3[1];

        internal Rope(World world, SinewBodyHandle handle, float restLength, bool startPinned, bool endPinned)
            : base(world, handle)
        {
            RestLength = restLength;
            StartPinned = startPinned;
            EndPinned = endPinned;
        }

        /// <summary>Moves the pinned ends to <paramref name="start"/> / <paramref name="end"/>
        /// (m); an end that is not pinned is left alone.</summary>
        public void MoveEnds(SinewVec3 start, SinewVec3 end)
        {
            if (StartPinned)
            {
                ends[0] = start;
                World.WritePositions(FirstParticle, ends);
            }
            if (EndPinned)
            {
                ends[0] = end;
                World.WritePositions(FirstParticle + Segments, ends);
            }
        }

        /// <summary>Copies the links' tensions (N) in the last substep, start to end, into
        /// newtons[0..Segments]: <see cref="Body.ReadForces"/> of the Stretch group.</summary>
        public void ReadTensions(float[] newtons)
        {
            Args.NotNull(newtons, "Rope.ReadTensions", "newtons");
            ReadForces(SinewBodyConstraints.Stretch, newtons);
        }
    }
}
