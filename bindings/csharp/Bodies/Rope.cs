// A rope built from particles and XPBD distance constraints (engine-neutral; the Unity
// SinewRope component is a thin shell over it). When the library gains a native rope
// builder this class keeps its API and calls it instead.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A straight rope of <see cref="Segments"/> links between two points: particles
    /// first..first+Segments (inclusive ends), equal masses, one XPBD distance constraint
    /// per link at the initial spacing. Pinned ends have inverse mass 0 and follow
    /// <see cref="MoveEnds"/>.</summary>
    public sealed class Rope
    {
        public World World { get; private set; }
        /// <summary>Index of the particle at the start; the rope's particles are consecutive.</summary>
        public int FirstParticle { get; private set; }
        /// <summary>Segments + 1.</summary>
        public int ParticleCount { get; private set; }
        /// <summary>Number of links (distance constraints).</summary>
        public int Segments { get { return ParticleCount - 1; } }
        /// <summary>Id of the first link's constraint; links are consecutive, start to end.</summary>
        public int FirstConstraint { get; private set; }
        /// <summary>Rest length of the whole rope (m).</summary>
        public float RestLength { get; private set; }
        public bool StartPinned { get; private set; }
        public bool EndPinned { get; private set; }

        /// <summary>Largest XPBD compliance the library accepts (m/N).</summary>
        public const float MaxCompliance = 1e10f;

        readonly SinewVec3[] ends = new SinewVec3[1];

        Rope() { }

        /// <summary>Builds a rope from <paramref name="start"/> to <paramref name="end"/> (m)
        /// with <paramref name="segments"/> links (>= 1), total mass <paramref name="massKg"/>
        /// (kg, > 0, shared by the particles that are not pinned), link compliance
        /// <paramref name="compliance"/> (m/N, 0 = inextensible).</summary>
        public static Rope Create(World world, SinewVec3 start, SinewVec3 end, int segments, float massKg,
                                  float compliance, bool pinStart, bool pinEnd)
        {
            const string F = "Rope.Create";
            Args.NotNull(world, F, "world");
            if (segments < 1 || segments > (1 << 24))
                throw SinewException.Argument(F, "segments " + segments + " is not in 1..2^24");
            if (!(massKg > 0) || float.IsInfinity(massKg))
                throw SinewException.Argument(F, "massKg " + massKg + " is not a positive finite mass");
            int n = segments + 1;
            int free = n - (pinStart ? 1 : 0) - (pinEnd ? 1 : 0);
            float w = free > 0 ? free / massKg : 0f;
            var positions = new SinewVec3[n];
            var inverseMasses = new float[n];
            for (int i = 0; i < n; i++)
            {
                positions[i] = SinewVec3.Lerp(start, end, (float)i / segments);
                inverseMasses[i] = w;
            }
            if (pinStart)
                inverseMasses[0] = 0f;
            if (pinEnd)
                inverseMasses[n - 1] = 0f;
            var pairs = new int[2 * segments];
            var rest = new float[segments];
            float link = (end - start).Length / segments;
            int first = world.ParticleCount;
            for (int i = 0; i < segments; i++)
            {
                pairs[2 * i] = first + i;
                pairs[2 * i + 1] = first + i + 1;
                rest[i] = link;
            }
            // Check what the constraints need before adding the particles, so that a bad
            // value leaves the world as it was (the library checks the positions).
            if (!(compliance >= 0 && compliance <= MaxCompliance))
                throw SinewException.Argument(F, "compliance " + compliance + " is not in [0, 1e10] (m/N)");
            if (float.IsNaN(link) || float.IsInfinity(link))
                throw SinewException.Argument(F, "the distance from start to end is not finite");
            int p0 = world.AddParticles(positions, inverseMasses);
            int c0 = world.AddDistanceConstraints(pairs, rest, compliance);
            return new Rope
            {
                World = world,
                FirstParticle = p0,
                ParticleCount = n,
                FirstConstraint = c0,
                RestLength = link * segments,
                StartPinned = pinStart,
                EndPinned = pinEnd,
            };
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

        /// <summary>Copies the rope's positions (m), start to end, into
        /// destination[0..ParticleCount] (Vector3 or any 12-byte-position struct).</summary>
        public void ReadPositions<T>(T[] destination) where T : struct
        {
            Args.NotNull(destination, "Rope.ReadPositions", "destination");
            World.ReadPositions(FirstParticle, destination, 0, ParticleCount);
        }

        /// <summary>Copies the links' tensions (N), start to end, into newtons[0..Segments].</summary>
        public unsafe void ReadTensions(float[] newtons)
        {
            Args.NotNull(newtons, "Rope.ReadTensions", "newtons");
            Args.Range(newtons.Length, 0, Segments, "Rope.ReadTensions", "newtons");
            fixed (float* p = newtons)
                World.ReadConstraintForces(FirstConstraint, Segments, p);
        }
    }
}
