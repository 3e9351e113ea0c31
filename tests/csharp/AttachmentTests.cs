// Attachments to host transforms through the idiomatic layer: a hard attachment holds
// and reports the weight, a pinned particle follows the host's interpolated motion, a
// soft attachment sags by α·m·g; bad input.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class AttachmentTests
    {
        const float G = 9.81f;
        const float Dt = 1f / 60f;

        static Vector3 Pos(World w, int i)
        {
            var p = new Vector3[1];
            w.ReadPositions(i, p);
            return p[0];
        }

        /// <summary>q · v · q⁻¹ for a unit quaternion.</summary>
        static Vector3 Rotate(SinewQuat q, Vector3 v)
        {
            // t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
            float tx = 2 * (q.y * v.z - q.z * v.y), ty = 2 * (q.z * v.x - q.x * v.z), tz = 2 * (q.x * v.y - q.y * v.x);
            return new Vector3(v.x + q.w * tx + (q.y * tz - q.z * ty),
                               v.y + q.w * ty + (q.z * tx - q.x * tz),
                               v.z + q.w * tz + (q.x * ty - q.y * tx));
        }

        /// <summary>A 0.5 kg particle hard-pinned to a host at (0, 1, 0) stays on its target
        /// and the host feels its weight (0, −m g, 0), read into a Vector3 array.</summary>
        public static void TestHardAttachmentHoldsAndReportsTheWeight()
        {
            foreach (var solver in new[] { SinewSolver.GaussSeidel, SinewSolver.Jacobi })
            {
                using (var w = NativeBodyTests.MakeWorld(G, 10, 0f, solver))
                {
                    w.AddParticles(new[] { new Vector3(0, 1, 0) }, new[] { 2f });
                    int host = w.AddAttachmentHost(new SinewVec3(0, 1, 0), SinewQuat.Identity);
                    Check.Equal(0, host, "first host");
                    Check.Equal(0, w.AddAttachments(host, new[] { 0 }, null, 0f), "first attachment");
                    var f = new Vector3[1];
                    w.ReadAttachmentForces(0, f);
                    Check.Equal(0f, f[0].y, "zero before the first step");
                    for (int i = 0; i < 60; i++)
                        w.Step(Dt);
                    w.ReadAttachmentForces(0, f);
                    Vector3 p = Pos(w, 0);
                    Console.WriteLine("     " + solver + ": force on host (" + f[0].x + ", " + f[0].y + ", " + f[0].z + ") N");
                    Check.Near(1.0, p.y, 1e-5, "on its target");
                    Check.Rel(-0.5 * G, f[0].y, 0.005, "host feels −m g (N)");
                    Check.Near(0, f[0].x, 1e-4, "no sideways force");
                }
            }
        }

        /// <summary>A host moving 0.1 m per frame while turning about x: the particle
        /// attached at local offset (0, 0, 0.5) ends each step exactly on position +
        /// rotation·offset, and moves with the host's 6 m/s.</summary>
        public static void TestPinnedParticleFollowsTheInterpolatedHost()
        {
            using (var w = NativeBodyTests.MakeWorld(0f, 8))
            {
                w.AddParticles(new[] { new Vector3(1, 0, 0) });
                int host = w.AddAttachmentHost(new SinewVec3(0, 0, 0), SinewQuat.Identity);
                var offset = new Vector3(0, 0, 0.5f);
                w.AddAttachments(host, new[] { 0 }, new[] { new SinewVec3(offset.x, offset.y, offset.z) }, 0f);
                for (int k = 1; k <= 30; k++)
                {
                    var pos = new SinewVec3(0.1f * k, 0, 0);
                    var rot = SinewQuat.AxisAngle(1, 0, 0, 0.01f * k);
                    w.SetAttachmentHostTransform(host, pos, rot);
                    w.Step(Dt);
                    Vector3 r = Rotate(rot, offset);
                    var target = new Vector3(pos.x + r.x, pos.y + r.y, pos.z + r.z);
                    Vector3 p = Pos(w, 0);
                    float d = (float)Math.Sqrt((p.x - target.x) * (p.x - target.x) + (p.y - target.y) * (p.y - target.y) +
                                               (p.z - target.z) * (p.z - target.z));
                    Check.True(d < 1e-5f, "step " + k + ": " + d + " m from the target");
                }
                var v = new Vector3[1];
                w.ReadVelocities(0, v);
                Console.WriteLine("     attached particle velocity " + v[0].x + " m/s (host 6 m/s)");
                Check.Rel(6.0, v[0].x, 0.01, "moves with the host (m/s)");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.SetAttachmentHostTransform(host + 1, pos0, SinewQuat.Identity));
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => w.SetAttachmentHostTransform(host, pos0, new SinewQuat(0, 0, 0, 0)));
                Check.Throws(SinewStatus.ErrorInvalidArgument,
                    () => w.SetAttachmentHostTransform(host, new SinewVec3(float.NaN, 0, 0), SinewQuat.Identity));
            }
        }

        static readonly SinewVec3 pos0 = new SinewVec3(0, 0, 0);

        /// <summary>A soft attachment (zero-length spring of stiffness 1/α) holding 0.5 kg
        /// hangs α·m·g below its target; made hard with SetAttachmentCompliance it returns.</summary>
        public static void TestSoftAttachmentSagsByComplianceTimesWeight()
        {
            const float alpha = 0.01f;
            using (var w = NativeBodyTests.MakeWorld(G, 10, 4f))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 0) }, new[] { 2f });
                int host = w.AddAttachmentHost(pos0, SinewQuat.Identity);
                w.AddAttachments(host, new[] { 0 }, null, alpha);
                for (int i = 0; i < 300; i++)
                    w.Step(Dt);
                float sag = -Pos(w, 0).y;
                var f = new SinewVec3[1];
                w.ReadAttachmentForces(0, f);
                Console.WriteLine("     soft attachment sag " + sag + " m (α m g = " + alpha * 0.5f * G + "), host force " + f[0]);
                Check.Rel(alpha * 0.5 * G, sag, 0.01, "sag = α m g (m)");
                Check.Rel(-0.5 * G, f[0].y, 0.01, "host force (N)");
                w.SetAttachmentCompliance(0, 1, 0f);
                for (int i = 0; i < 60; i++)
                    w.Step(Dt);
                Check.Near(0, Pos(w, 0).y, 1e-5, "hard after the setter");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.SetAttachmentCompliance(0, 2, 0f));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetAttachmentCompliance(0, 1, -1f));
            }
        }

        public static void TestBadAttachmentInputChangesNothing()
        {
            using (var w = NativeBodyTests.MakeWorld(G, 8))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0) }, new[] { 1f, 0f });
                int host = w.AddAttachmentHost(pos0, SinewQuat.Identity);
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.AddAttachments(host + 1, new[] { 0 }, null, 0f));
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.AddAttachments(host, new[] { 5 }, null, 0f));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddAttachments(host, new[] { 0 }, new SinewVec3[2], 0f), "localOffsets");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.AddAttachments(host, null, null, 0f));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddAttachments(host, new[] { 0 }, null, float.NaN));
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddAttachmentHost(pos0, new SinewQuat(0, 0, 0, 3f)));
                Check.Equal(0, w.AddAttachments(host, new[] { 0 }, null, 0f), "nothing was added by the refused calls");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.ReadAttachmentForces(0, new Vertex[1]), "12 bytes");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadAttachmentForces(0, new Vector3[2]));
            }
        }
    }
}
