// A change to one rope never resets another: what the Unity and Unreal components do
// when one of them is edited while the game runs (winch, break force, cut, compliance,
// damping, mass), through the idiomatic C# layer.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class LiveEditTests
    {
        const float Dt = 1f / 60f;

        static World NewWorld()
        {
            var s = WorldSettings.Default;
            s.Substeps = 16;
            s.Threads = 1;
            return new World(s);
        }

        static SinewVec3 V(float x, float y, float z) { return new SinewVec3 { x = x, y = y, z = z }; }

        static RopeSettings Rope(SinewVec3 start, SinewVec3 end, int segments)
        {
            var s = RopeSettings.Default;
            s.Start = start;
            s.End = end;
            s.Segments = segments;
            s.Radius = 0f;
            return s;
        }

        /// One world holds a swinging rope alone; another holds the same rope beside two
        /// ropes that are winched, snapped, cut, softened, damped and made heavier while it
        /// swings. The swinging rope continues bit for bit as it does alone, and the only
        /// break event names the rope that snapped, at its top link.
        public static void TestEditingOneRopeNeverResetsAnother()
        {
            using (var a = NewWorld())
            using (var b = NewWorld())
            {
                var swing = Rope(V(0, 0, 0), V(1, 0, 0), 16);
                swing.StretchCompliance = 1e-4f;
                // Link k of the snapping rope holds its 10 - k lowest particles (0.1 kg
                // each): 9.81 N on the top link, 8.83 N on the next.
                var snapping = Rope(V(10, 0, 0), V(10, -1, 0), 10);
                snapping.TotalMass = 1.1f;
                snapping.PinEnd = false;
                snapping.Tethers = false;
                var winched = Rope(V(14, 0, 0), V(14, -2, 0), 20);
                winched.PinEnd = false;
                Body alone = a.AddRope(swing);
                Body snap = b.AddRope(snapping);
                Body crane = b.AddRope(winched);
                Body beside = b.AddRope(swing);
                for (int i = 0; i < 10; i++)
                {
                    a.Step(Dt);
                    b.Step(Dt);
                }
                snap.SetBreakForce(9.3f);
                crane.AddWinch(SinewRopeEnd.Start, 1.5f);
                crane.SetWinchTarget(1f, 2f);
                crane.SetCompliance(SinewBodyConstraints.Stretch, 1e-6f);
                crane.Damping = 0.5f;
                crane.SetMass(3f);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => snap.SetBreakForce(float.NaN), "sinew_body_set_break_force");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => crane.Cut(20), "sinew_body_cut_rope");
                var events = new BreakEvent[8];
                int broke = 0;
                BreakEvent first = default(BreakEvent);
                for (int i = 0; i < 60; i++)
                {
                    if (i == 30)
                    {
                        float length, speed;
                        int paying;
                        crane.ReadWinch(out length, out speed, out paying);
                        Check.Near(1.0, length, 1e-4, "the winch reached 1 m");
                        Check.Equal(15, crane.CutAlong(V(13, -0.55f, 0), V(15, -0.55f, 0)), "the swipe cuts the link 0.55 m down");
                    }
                    a.Step(Dt);
                    b.Step(Dt);
                    long lost;
                    int n = b.TakeBreakEvents(events, out lost);
                    Check.Equal(0L, lost, "no event lost");
                    if (n > 0 && broke == 0)
                        first = events[0];
                    broke += n;
                }
                Check.Equal(1, broke, "one link broke");
                Check.Equal(snap.Handle.id, first.Body.id, "the event names the snapping rope");
                Check.True(first.Force > 9.3f && first.Force < 10.8f, "force just past the break force: " + first.Force);
                Check.Near(-0.05, first.Position.y, 0.01, "the top link broke");
                var pa = new SinewVec3[17];
                var pb = new SinewVec3[17];
                var va = new SinewVec3[17];
                var vb = new SinewVec3[17];
                a.ReadPositions(alone.FirstParticle, pa);
                b.ReadPositions(beside.FirstParticle, pb);
                a.ReadVelocities(alone.FirstParticle, va);
                b.ReadVelocities(beside.FirstParticle, vb);
                for (int k = 0; k < 17; k++)
                {
                    Check.True(pa[k].x == pb[k].x && pa[k].y == pb[k].y && pa[k].z == pb[k].z, "position " + k + " bit-identical");
                    Check.True(va[k].x == vb[k].x && va[k].y == vb[k].y && va[k].z == vb[k].z, "velocity " + k + " bit-identical");
                }
                var tip = new SinewVec3[1];
                b.ReadPositions(snap.FirstParticle + 10, tip);
                Check.True(tip[0].y < -3f, "the snapped piece fell: " + tip[0].y);
            }
        }
    }
}
