// Fixed step and interpolation through the idiomatic layer: World.Advance runs whole
// fixed steps and returns alpha, jittery frames give the same bits as fixed steps, the
// interpolated reads (world and body, arrays and a strided vertex buffer) are the lerp
// of the last two states, and bad arguments throw with nothing changed.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class InterpolationTests
    {
        /// <summary>A power of two: multiples and halves are exact.</summary>
        const float Fixed = 1f / 64f;

        struct Vertex
        {
            public SinewVec3 Position;
            public uint Colour;
        }

        static World RopeWorld(out Body rope)
        {
            var s = WorldSettings.Default;
            s.Threads = 1;
            var w = new World(s);
            var r = RopeSettings.Default;
            r.Start = new SinewVec3(0, 2, 0);
            r.End = new SinewVec3(1.5f, 2, 0.3f);
            r.Segments = 8;
            rope = w.AddRope(r);
            return w;
        }

        static SinewVec3 Lerp(SinewVec3 a, SinewVec3 b, float t)
        {
            // The library's expression, operation for operation.
            float u = 1f - t;
            return new SinewVec3(a.x * u + b.x * t, a.y * u + b.y * t, a.z * u + b.z * t);
        }

        static int Bits(float f)
        {
            return *(int*)&f;
        }

        static void SameBits(SinewVec3 expected, SinewVec3 actual, string what)
        {
            Check.True(Bits(expected.x) == Bits(actual.x) && Bits(expected.y) == Bits(actual.y)
                       && Bits(expected.z) == Bits(actual.z),
                what + ": expected " + expected.x + ", " + expected.y + ", " + expected.z + " got " +
                actual.x + ", " + actual.y + ", " + actual.z);
        }

        /// <summary>2.5 fixed steps per frame: 2 steps and alpha 0.5, then 3 steps and
        /// alpha 0; a 10.25-step frame capped at 4 runs 4 and keeps a quarter.</summary>
        public static void TestAdvanceStepCountsAndAlpha()
        {
            Body rope;
            using (var w = RopeWorld(out rope))
            {
                float alpha;
                Check.Equal(2, w.Advance(2.5f * Fixed, Fixed, 8, out alpha), "steps");
                Check.Equal(0.5f, alpha, "alpha");
                Check.Equal(3, w.Advance(2.5f * Fixed, Fixed, 8, out alpha), "steps");
                Check.Equal(0f, alpha, "alpha");
                Check.Equal(4, w.Advance(10.25f * Fixed, Fixed, 4, out alpha), "capped steps");
                Check.Equal(0.25f, alpha, "alpha after the cap");
                Check.Equal(0, w.Advance(0.5f * Fixed, Fixed, 4, out alpha), "the dropped time is gone");
                Check.Equal(0.75f, alpha, "alpha");
            }
        }

        /// <summary>Jittery frame times and the same number of Step(fixed) calls end in the
        /// same particle state: positions and velocities bit for bit.</summary>
        public static void TestJitteryFramesMatchFixedSteps()
        {
            Body a, b;
            using (var jittery = RopeWorld(out a))
            using (var stepped = RopeWorld(out b))
            {
                var rng = new Random(7);
                int total = 0;
                for (int frame = 0; frame < 90; frame++)
                {
                    float dt = 0.005f + 0.04f * (float)rng.NextDouble();
                    float alpha;
                    int steps = jittery.Advance(dt, Fixed, 8, out alpha);
                    Check.True(alpha >= 0f && alpha < 1f, "alpha in [0, 1): " + alpha);
                    for (int k = 0; k < steps; k++)
                        stepped.Step(Fixed);
                    total += steps;
                }
                Check.True(total > 100, total + " steps");
                int n = jittery.ParticleCount;
                var p = new SinewVec3[n];
                var q = new SinewVec3[n];
                jittery.ReadPositions(0, p);
                stepped.ReadPositions(0, q);
                for (int i = 0; i < n; i++)
                    SameBits(q[i], p[i], "position " + i);
                jittery.ReadVelocities(0, p);
                stepped.ReadVelocities(0, q);
                for (int i = 0; i < n; i++)
                    SameBits(q[i], p[i], "velocity " + i);
            }
        }

        /// <summary>The world and body reads write (1 - alpha) previous + alpha current:
        /// alpha 0 and 1 are the states before and after the last step; a vertex buffer
        /// keeps its other fields; before any step and after a write previous = current.</summary>
        public static void TestInterpolatedReadsAreTheLerp()
        {
            Body rope;
            using (var w = RopeWorld(out rope))
            {
                int n = rope.ParticleCount;
                var start = new SinewVec3[n];
                var got = new SinewVec3[n];
                rope.ReadPositions(start);
                rope.ReadInterpolatedPositions(0.5f, got);
                for (int i = 0; i < n; i++)
                    SameBits(start[i], got[i], "before the first step, particle " + i);

                float alpha;
                w.Advance(3.5f * Fixed, Fixed, 8, out alpha);
                var before = new SinewVec3[n];
                var after = new SinewVec3[n];
                w.ReadInterpolatedPositions(rope.FirstParticle, 0f, before);
                rope.ReadPositions(after);
                rope.ReadInterpolatedPositions(1f, got);
                for (int i = 0; i < n; i++)
                    SameBits(after[i], got[i], "alpha 1, particle " + i);
                Check.True(before[n - 1].y != after[n - 1].y, "the free end moves");

                var verts = new Vertex[n + 1];
                for (int i = 0; i <= n; i++)
                    verts[i].Colour = 0xDEADBEEF;
                fixed (Vertex* v = verts)
                    rope.ReadInterpolatedPositions(alpha, v, verts.Length, sizeof(Vertex));
                for (int i = 0; i < n; i++)
                {
                    SameBits(Lerp(before[i], after[i], alpha), verts[i].Position, "vertex " + i);
                    Check.Equal(0xDEADBEEFu, verts[i].Colour, "colour kept");
                }
                Check.Equal(0f, verts[n].Position.y, "past the body untouched");

                // Part of an array, world indices.
                var part = new SinewVec3[n + 2];
                w.ReadInterpolatedPositions(rope.FirstParticle + 1, 0.25f, part, 2, n - 1);
                for (int i = 1; i < n; i++)
                    SameBits(Lerp(before[i], after[i], 0.25f), part[i + 1], "part, particle " + i);

                // A write is a teleport: no streak.
                var moved = new SinewVec3[n];
                for (int i = 0; i < n; i++)
                    moved[i] = new SinewVec3(after[i].x + 5f, after[i].y, after[i].z);
                w.WritePositions(rope.FirstParticle, moved);
                rope.ReadInterpolatedPositions(0.5f, got);
                for (int i = 0; i < n; i++)
                    SameBits(moved[i], got[i], "after a write, particle " + i);
            }
        }

        /// <summary>Bad arguments throw with the native message and change nothing.</summary>
        public static void TestBadArgumentsThrow()
        {
            Body rope;
            using (var w = RopeWorld(out rope))
            {
                float alpha = 7f;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Advance(float.NaN, Fixed, 4, out alpha),
                    "sinew_world_advance", "frame_dt");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Advance(-0.01f, Fixed, 4, out alpha),
                    "frame_dt");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Advance(0.1f, 0f, 4, out alpha), "fixed_dt");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Advance(0.1f, Fixed, 0, out alpha), "max_steps");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Advance(0.1f, Fixed, -1, out alpha), "max_steps");
                Check.Equal(0, w.Advance(0f, Fixed, 4, out alpha), "nothing accumulated by the failures");
                Check.Equal(0f, alpha, "alpha");
                var buf = new SinewVec3[rope.ParticleCount];
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.ReadInterpolatedPositions(1.5f, buf),
                    "sinew_body_read_interpolated_positions", "alpha");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.ReadInterpolatedPositions(0, float.NaN, buf),
                    "sinew_world_read_interpolated_positions", "alpha");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.ReadInterpolatedPositions(0.5f, new SinewVec3[2]),
                    "capacity");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadInterpolatedPositions(1, 0.5f, buf), "particles");
            }
        }
    }
}
