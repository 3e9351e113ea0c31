// A rope between two points: a thin convenience over the library's rope body
// (World.AddRope). The particles, links, bend links, tethers and pins are the library's
// (sinew_world_add_rope); this class remembers which ends are pinned and moves them.
// The Unity SinewRope component is a thin shell over it.

using System;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A straight rope of <see cref="Segments"/> links between two points, built by
    /// the library (<see cref="World.AddRope"/>): particles FirstParticle..FirstParticle +
    /// Segments (inclusive ends), the total mass spread evenly over them, stretch links,
    /// bend links (i, i+2) and, when <see cref="RopeSettings.Tethers"/> is set, tethers from
    /// each pinned end. Pinned ends have inverse mass 0 and follow <see cref="MoveEnds"/>.
    /// <see cref="Dispose"/> removes the rope from its world.</summary>
    public sealed class Rope : BodyWrapper
    {
        /// <summary>Number of links.</summary>
        public int Segments { get { return ParticleCount - 1; } }
        /// <summary>Rest length of the whole rope (m): the distance from start to end at
        /// creation.</summary>
        public float RestLength { get; private set; }
        public bool StartPinned { get; private set; }
        public bool EndPinned { get; private set; }

        /// <summary>Largest compliance the library accepts for a body's constraints.</summary>
        public const float MaxCompliance = SinewNative.SINEW_MAX_BODY_COMPLIANCE;

        readonly SinewVec3[] ends = new SinewVec3[1];

        Rope(World world, Body body) : base(world, body) { }

        /// <summary>Builds a rope from <paramref name="start"/> to <paramref name="end"/> (m)
        /// with <paramref name="segments"/> links (>= 1), total mass <paramref name="massKg"/>
        /// (kg, > 0, spread evenly over the particles), link compliance
        /// <paramref name="compliance"/> (m/N, 0 = inextensible); bend links, tethers and
        /// radius at the library's defaults (<see cref="RopeSettings.Default"/>).</summary>
        public static Rope Create(World world, SinewVec3 start, SinewVec3 end, int segments, float massKg,
                                  float compliance, bool pinStart, bool pinEnd)
        {
            Args.NotNull(world, "Rope.Create", "world");
            RopeSettings s = RopeSettings.Default;
            s.Start = start;
            s.End = end;
            s.Segments = segments;
            s.TotalMass = massKg;
            s.StretchCompliance = compliance;
            s.PinStart = pinStart;
            s.PinEnd = pinEnd;
            return Create(world, s);
        }

        /// <summary>Builds a rope from every setting of the library's rope (bending,
        /// tethers, radius, damping included).</summary>
        public static Rope Create(World world, RopeSettings settings)
        {
            Args.NotNull(world, "Rope.Create", "world");
            Body body = world.AddRope(settings);
            return new Rope(world, body)
            {
                RestLength = (settings.End - settings.Start).Length,
                StartPinned = settings.PinStart,
                EndPinned = settings.PinEnd,
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

        /// <summary>Copies the links' tensions (N) in the last substep, start to end, into
        /// newtons[0..Segments].</summary>
        public void ReadTensions(float[] newtons)
        {
            Args.NotNull(newtons, "Rope.ReadTensions", "newtons");
            Body.ReadForces(SinewBodyConstraints.Stretch, newtons);
        }
    }
}
