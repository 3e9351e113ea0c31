// Level of detail through the idiomatic layer: Body.SimMode / SimEvery / SetSimMode
// round-trip, a paused rope does not move while a full one falls, a reduced rope runs,
// and bad modes and rates throw with nothing changed.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class LodTests
    {
        static Body Rope(World w, float x)
        {
            var r = RopeSettings.Default;
            r.Start = new SinewVec3(x, 2, 0);
            r.End = new SinewVec3(x + 1, 2, 0);
            r.Segments = 8;
            return w.AddRope(r);
        }

        static SinewVec3[] Positions(Body b)
        {
            var p = new SinewVec3[b.ParticleCount];
            b.ReadPositions(p);
            return p;
        }

        public static void TestModesRoundTripAndAct()
        {
            var s = WorldSettings.Default;
            s.Threads = 1;
            using (var w = new World(s))
            {
                var full = Rope(w, 0);
                var reduced = Rope(w, 3);
                var paused = Rope(w, 6);
                Check.True(full.SimMode == SinewSimMode.Full && full.SimEvery == 1, "default full");
                reduced.SetSimMode(SinewSimMode.Reduced, 4);
                Check.True(reduced.SimMode == SinewSimMode.Reduced && reduced.SimEvery == 4, "reduced 4");
                paused.SimMode = SinewSimMode.Paused;
                Check.True(paused.SimMode == SinewSimMode.Paused, "paused");
                var still = Positions(paused);
                var start = Positions(reduced);
                for (int i = 0; i < 30; i++)
                    w.Step(1f / 60f);
                var now = Positions(paused);
                for (int i = 0; i < now.Length; i++)
                    Check.True(now[i].x == still[i].x && now[i].y == still[i].y && now[i].z == still[i].z,
                        "a paused rope does not move");
                Check.True(Positions(reduced)[8].y < start[8].y - 0.1f, "a reduced rope falls");
                paused.SimMode = SinewSimMode.Full;
                Check.True(paused.SimMode == SinewSimMode.Full, "resumed");
                w.Step(1f / 60f);
            }
        }

        public static void TestBadModesThrowAndChangeNothing()
        {
            using (var w = new World(WorldSettings.Default))
            {
                var rope = Rope(w, 0);
                rope.SetSimMode(SinewSimMode.Reduced, 2);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetSimMode((SinewSimMode)7, 1), "SinewSimMode");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.SetSimMode(SinewSimMode.Reduced, 0), "every 0");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.SetSimMode(SinewSimMode.Reduced, 1000), "1000");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.SetSimMode(SinewSimMode.Reduced, -1), "negative");
                Check.True(rope.SimMode == SinewSimMode.Reduced && rope.SimEvery == 2, "unchanged");
                rope.Remove();
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => rope.SetSimMode(SinewSimMode.Paused));
                Check.Throws(SinewStatus.ErrorInvalidHandle, () => { var m = rope.SimMode; });
            }
        }
    }
}
