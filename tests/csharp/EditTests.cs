// In-place edits, break events, cuts and winches through the idiomatic C# layer.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class EditTests
    {
        const float G = 9.81f;
        const float Dt = 1f / 60f;

        static World NewWorld(int substeps, float damping)
        {
            var s = WorldSettings.Default;
            s.Substeps = substeps;
            s.Damping = damping;
            s.Threads = 1;
            return new World(s);
        }

        static SinewVec3 V(float x, float y, float z) { return new SinewVec3 { x = x, y = y, z = z }; }

        static float Dist(SinewVec3 a, SinewVec3 b)
        {
            float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            return (float)Math.Sqrt(dx * dx + dy * dy + dz * dz);
        }

        /// A pendulum pulled to a new rest length, softened to sag by α m g, then freed.
        public static void TestConstraintRestComplianceAndRemoval()
        {
            using (var w = NewWorld(16, 2f))
            {
                w.AddParticles(new[] { V(0, 0, 0), V(0, -1, 0) }, new[] { 0f, 1f });
                w.AddDistanceConstraints(new[] { 0, 1 }, null, 0f);
                w.SetConstraintRest(SinewFamily.Distance, 0, new[] { 0.5f });
                var rest = new float[1];
                w.ReadConstraintRest(SinewFamily.Distance, 0, rest);
                Check.Equal(0.5f, rest[0], "rest read back");
                for (int i = 0; i < 240; i++) w.Step(Dt);
                var p = new SinewVec3[2];
                w.ReadPositions(0, p);
                Check.Near(0.5, Dist(p[0], p[1]), 1e-4, "pendulum at the new rest length");
                w.SetConstraintCompliance(SinewFamily.Distance, 0, 1, 1e-3f);
                for (int i = 0; i < 600; i++) w.Step(Dt);
                w.ReadPositions(0, p);
                Check.Rel(1e-3 * G, Dist(p[0], p[1]) - 0.5, 0.02, "sag α m g");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetConstraintRest(SinewFamily.Distance, 0, new[] { float.NaN }), "sinew_constraints_set_rest");
                w.RemoveConstraints(SinewFamily.Distance, 0, 1);
                Check.True(w.IsConstraintRemoved(SinewFamily.Distance, 0), "removed");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.RemoveConstraints(SinewFamily.Distance, 0, 1), "removed");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.RemoveConstraints(SinewFamily.Distance, 1, 1), "out of range");
            }
        }

        /// A 1 kg particle grabbed at the origin, softened through the generic compliance
        /// call (id = particle index), sags by α m g and the grab reads m g; removing the
        /// grab releases it exactly as ReleaseParticle does.
        public static void TestGrabThroughTheGenericEdits()
        {
            using (var w = NewWorld(16, 2f))
            using (var twin = NewWorld(16, 2f))
            {
                foreach (var x in new[] { w, twin })
                {
                    x.AddParticles(new[] { V(0, 0, 0), V(1, 0, 0) }, new[] { 1f, 1f });
                    x.GrabParticle(0, V(0, 0, 0), 0f);
                    x.SetConstraintCompliance(SinewFamily.Grab, 0, 1, 1e-3f);
                    for (int i = 0; i < 600; i++) x.Step(Dt);
                }
                Check.True(!w.IsConstraintRemoved(SinewFamily.Grab, 0), "particle 0 grabbed");
                Check.True(w.IsConstraintRemoved(SinewFamily.Grab, 1), "particle 1 not grabbed");
                var p = new SinewVec3[2];
                w.ReadPositions(0, p);
                Check.Rel(1e-3 * G, -p[0].y, 0.02, "grab sag α m g");
                var f = new float[1];
                w.ReadFamilyForces(SinewFamily.Grab, 0, f);
                Check.Rel(G, f[0], 0.02, "grab force m g");
                var rest = new float[1];
                w.ReadConstraintRest(SinewFamily.Grab, 0, rest);
                Check.Equal(0f, rest[0], "grab rest length 0");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetConstraintRest(SinewFamily.Grab, 0, new[] { 0.1f }), "sinew_world_move_grab");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetConstraintStiffness(SinewFamily.Grab, 0, 1, 0.5f), "sinew_constraints_set_stiffness");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.RemoveConstraints(SinewFamily.Grab, 0, 2), "particle 1 is not grabbed");
                w.RemoveConstraints(SinewFamily.Grab, 0, 1);
                twin.ReleaseParticle(0);
                Check.True(w.IsConstraintRemoved(SinewFamily.Grab, 0), "released");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.RemoveConstraints(SinewFamily.Grab, 0, 1), "particle 0 is not grabbed");
                for (int i = 0; i < 30; i++) { w.Step(Dt); twin.Step(Dt); }
                var q = new SinewVec3[2];
                w.ReadPositions(0, p);
                twin.ReadPositions(0, q);
                Check.True(p[0].x == q[0].x && p[0].y == q[0].y && p[0].z == q[0].z, "remove = release, bit for bit");
                Check.True(p[0].y < -0.1f, "falls once released");
            }
        }

        /// A 50 N rope under a 10 kg load snaps at its top link; the event names it.
        public static void TestRopeSnapsAndReportsTheBreak()
        {
            using (var w = NewWorld(16, 0f))
            {
                var s = RopeSettings.Default;
                s.Start = V(0, 0, 0);
                s.End = V(0, -1, 0);
                s.Segments = 10;
                s.Tethers = false;
                Body rope = w.AddRope(s);
                w.SetInverseMasses(rope.FirstParticle + 10, new[] { 0.1f });
                rope.SetBreakForce(50f);
                var events = new BreakEvent[8];
                int n = 0;
                long lost = -1;
                for (int i = 0; i < 30 && n == 0; i++)
                {
                    w.Step(Dt);
                    n = w.TakeBreakEvents(events, out lost);
                }
                Check.True(n >= 1, "the rope snapped");
                Check.Equal(0L, lost, "nothing lost");
                Check.Equal(rope.Handle.id, events[0].Body.id, "event names the rope");
                Check.Equal(SinewFamily.BodyLink, events[0].Family, "body link");
                Check.True(events[0].Force > 50f, "force above the limit: " + events[0].Force);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetBreakForce(float.NaN), "sinew_body_set_break_force");
            }
        }

        /// A winch reels a rope to its target; a swipe cuts it; bad values are refused.
        public static void TestWinchAndCut()
        {
            using (var w = NewWorld(32, 2f))
            {
                var s = RopeSettings.Default;
                s.Start = V(0, 0, 0);
                s.End = V(0, -2, 0);
                s.Segments = 20;
                Body rope = w.AddRope(s);
                rope.AddWinch(SinewRopeEnd.Start, 1f);
                rope.SetWinchTarget(0.5f, 1f);
                for (int i = 0; i < 60; i++) w.Step(Dt);
                float length, speed;
                int paying;
                rope.ReadWinch(out length, out speed, out paying);
                Check.Near(0.5, length, 1e-4, "winch length");
                Check.Equal(0f, speed, "stopped at the target");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetWinchSpeed(float.PositiveInfinity), "sinew_body_set_winch_speed");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => rope.Cut(20), "sinew_body_cut_rope");
                int link = rope.CutAlong(V(-1, -0.45f, 0), V(1, -0.45f, 0));
                Check.True(link >= 18, "swipe cuts a low link: " + link);
                rope.SetRestScale(0.9f);
                rope.SetMass(2f);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => rope.SetMass(0f), "sinew_body_set_mass");
            }
        }
    }
}
