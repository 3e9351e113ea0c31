// The idiomatic layer: every World method, errors as SinewException, disposal, reading
// into a Unity-Vector3-layout array in place, and physics against closed forms.

using System;
using System.Threading;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    /// <summary>Same layout as UnityEngine.Vector3 (three floats, lower-case names).</summary>
    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
    }

    /// <summary>An interleaved vertex whose position comes first (32 bytes).</summary>
    public struct Vertex
    {
        public Vector3 position;
        public Vector3 normal;
        public float u, v;
    }

    public static unsafe class WorldTests
    {
        const float G = 9.81f;
        const float Dt = 1f / 60f;

        static World SingleThreaded(int substeps)
        {
            var s = WorldSettings.Default;
            s.Substeps = substeps;
            s.Threads = 1;
            return new World(s);
        }

        public static void TestLibraryVersionAndAbi()
        {
            Library.EnsureLoaded();
            Check.Equal(Library.ExpectedAbiVersion, Library.AbiVersion, "AbiVersion");
            Check.True(Library.Version.Split('.').Length == 3, "Version " + Library.Version);
            Check.Equal(null, Library.AbiMismatch(1, 1), "no mismatch");
            string m = Library.AbiMismatch(7, 1);
            Check.True(m.Contains("ABI version 7") && m.Contains("ABI version 1"), m);
        }

        public static void TestDefaultSettingsComeFromTheLibrary()
        {
            var s = WorldSettings.Default;
            Check.Equal(-9.81f, s.Gravity.y, "gravity");
            Check.Equal(8, s.Substeps, "substeps");
            Check.Equal(1, s.Iterations, "iterations");
            Check.Equal(SinewSolver.GaussSeidel, s.Solver, "solver");
            Check.Equal(1f, s.JacobiRelaxation, "relaxation");
            Check.Equal(0f, s.Damping, "damping");
            Check.Equal(0, s.Threads, "threads");
            s.Substeps = 3;
            s.Solver = SinewSolver.Jacobi;
            SinewWorldDesc d = s.ToNative();
            Check.Equal(3u, d.substeps, "ToNative substeps");
            Check.Equal(1u, d.solver, "ToNative solver");
            SinewWorldDesc def;
            SinewNative.sinew_world_desc_init(&def);
            Check.Equal(def.internal_cookie, d.internal_cookie, "ToNative keeps the cookie");
        }

        public static void TestBadSettingsThrowWithTheNativeMessage()
        {
            int live = World.LiveCount;
            var s = WorldSettings.Default;
            s.Substeps = 0;
            Check.Throws(SinewStatus.ErrorInvalidArgument, () => new World(s), "sinew_world_create: ", "substeps");
            s = WorldSettings.Default;
            s.Iterations = -1;
            Check.Throws(SinewStatus.ErrorInvalidArgument, () => new World(s), "iterations");
            s = WorldSettings.Default;
            s.Solver = (SinewSolver)5;
            Check.Throws(SinewStatus.ErrorInvalidArgument, () => new World(s), "solver 5");
            s = WorldSettings.Default;
            s.Damping = float.NaN;
            Check.Throws(SinewStatus.ErrorInvalidArgument, () => new World(s), "damping");
            Check.Equal(live, World.LiveCount, "no world registered by a failed create");
        }

        public static void TestDisposeTwiceAndUseAfterDispose()
        {
            int live = World.LiveCount;
            var w = new World();
            Check.Equal(live + 1, World.LiveCount, "registered");
            Check.True(!w.IsDisposed, "live");
            SinewWorldHandle h = w.Handle;
            w.Dispose();
            w.Dispose();
            Check.True(w.IsDisposed, "disposed");
            Check.Equal(live, World.LiveCount, "unregistered");
            Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_step(h, Dt), "native world destroyed");
            Check.ThrowsDisposed(() => w.Step(Dt), "Step");
            Check.ThrowsDisposed(() => { var unused = w.ParticleCount; }, "ParticleCount");
            Check.ThrowsDisposed(() => { var unused = w.Handle; }, "Handle");
            Check.ThrowsDisposed(() => w.AddParticles(new Vector3[1]), "AddParticles");
            using (var u = new World()) { u.Step(Dt); }
            Check.Equal(live, World.LiveCount, "using disposes");
        }

        public static void TestDisposeAllDestroysEveryLiveWorld()
        {
            var a = new World();
            var b = new World();
            SinewWorldHandle hb = b.Handle;
            World.DisposeAll();
            Check.True(a.IsDisposed && b.IsDisposed, "both disposed");
            Check.Equal(0, World.LiveCount, "none left");
            Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_destroy(hb), "native world gone");
            a.Dispose(); // still fine
        }

        /// <summary>A world whose World object was collected undisposed (simulated by
        /// clearing its weak reference in the registry) is still destroyed natively by
        /// DisposeAll, which is what runs before a domain reload.</summary>
        public static void TestDisposeAllDestroysWorldsWhoseObjectsWereDropped()
        {
            var w = new World();
            SinewWorldHandle h = w.Handle;
            var field = typeof(World).GetField("registry", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static);
            var registry = (System.Collections.Generic.Dictionary<long, WeakReference<World>>)field.GetValue(null);
            registry[(long)h.id].SetTarget(null); // single-threaded here
            World.DisposeAll();
            Check.Equal(0, World.LiveCount, "registry emptied");
            uint n;
            Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_particle_count(h, &n), "native world destroyed");
            w.Dispose(); // the late finalizer/Dispose of such a world finds nothing to do
            Check.True(w.IsDisposed, "disposed");
        }

        public static void TestStepRejectsBadDt()
        {
            using (var w = new World())
            {
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Step(float.NaN), "sinew_world_step: ", "dt");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Step(0f), "dt");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Step(11f), "dt");
            }
        }

        /// <summary>Symplectic Euler over n substeps of h: drop g·h²·n(n+1)/2, speed g·n·h.</summary>
        public static void TestFreeFallMatchesTheDiscreteClosedForm()
        {
            using (var w = SingleThreaded(8))
            {
                int first = w.AddParticles(new[] { new Vector3(0, 100, 0) });
                Check.Equal(0, first, "first");
                for (int i = 0; i < 60; i++)
                    w.Step(Dt);
                var p = new Vector3[1];
                var v = new Vector3[1];
                w.ReadPositions(0, p);
                w.ReadVelocities(0, v);
                double n = 480, h = Dt / 8.0;
                Check.Rel(G * h * h * n * (n + 1) / 2, 100.0 - p[0].y, 1e-3, "drop (4.9152 m, not g/2 = 4.905)");
                Check.Rel(G * n * h, -v[0].y, 1e-3, "speed");
                Check.Equal(0f, p[0].x, "x");
            }
        }

        /// <summary>Mass m under a pin on a link of compliance α: mean extension α·m·g,
        /// mean link force m·g (time average over 10 s of the oscillation).</summary>
        public static void TestXpbdHangingMassExtensionIsAlphaMG()
        {
            const float alpha = 1e-3f, m = 2f;
            using (var w = SingleThreaded(10))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 0), new Vector3(0, -1, 0) }, new[] { 0f, 1f / m });
                int c = w.AddDistanceConstraints(new[] { 0, 1 }, new[] { 1f }, alpha);
                Check.Equal(0, c, "first constraint");
                var p = new Vector3[2];
                var f = new float[1];
                double ext = 0, force = 0;
                for (int i = 0; i < 600; i++)
                {
                    w.Step(Dt);
                    w.ReadPositions(0, p);
                    w.ReadConstraintForces(0, f);
                    ext += -p[1].y - 1.0;
                    force += f[0];
                }
                System.Console.WriteLine("     hanging mass: mean extension " + (ext / 600 * 1000).ToString("F4") +
                    " mm (α·m·g = 19.62 mm), mean force " + (force / 600).ToString("F4") + " N (m·g = 19.62 N)");
                Check.Rel(alpha * m * G, ext / 600, 0.01, "mean extension (19.62 mm)");
                Check.Rel(m * G, force / 600, 0.01, "mean force (19.62 N)");
            }
        }

        /// <summary>PBD stiffness k leaves (1-k) of the error per substep whatever the
        /// iteration count: two free unit masses 1.5 m apart, rest 1 m, k = 0.5, one
        /// substep without gravity → 1.25 m.</summary>
        public static void TestPbdStiffnessHalvesTheError()
        {
            foreach (int iterations in new[] { 1, 4 })
            {
                var s = WorldSettings.Default;
                s.Gravity = new SinewVec3(0, 0, 0);
                s.Substeps = 1;
                s.Iterations = iterations;
                s.Threads = 1;
                using (var w = new World(s))
                {
                    w.AddParticles(new[] { new SinewVec3(0, 0, 0), new SinewVec3(1.5f, 0, 0) });
                    int c = w.AddPbdDistanceConstraints(new[] { 0, 1 }, new[] { 1f }, 0.5f);
                    Check.Equal(0, c, "first");
                    Check.Equal(1, w.DistanceConstraintCount, "count");
                    w.Step(Dt);
                    var p = new SinewVec3[2];
                    w.ReadPositions(0, p);
                    Check.Near(1.25, p[1].x - p[0].x, 1e-5, "distance after one substep, " + iterations + " iterations");
                    Check.Near(0.0, p[1].x + p[0].x - 1.5, 1e-5, "centre of mass kept");
                }
            }
        }

        /// <summary>Positions land in a Vector3-layout array and in the first 12 bytes of a
        /// 32-byte vertex struct, in place (stride sizeof(T)): the other fields keep their
        /// values, which per-element marshalling of a copy would not guarantee.</summary>
        public static void TestReadPositionsIntoVector3AndVertexArraysInPlace()
        {
            using (var w = SingleThreaded(1))
            {
                var src = new Vector3[5];
                for (int i = 0; i < 5; i++)
                    src[i] = new Vector3(i, 2 * i, -i);
                w.AddParticles(src, new float[5]); // all pinned: they stay put
                var dst = new Vector3[5];
                w.ReadPositions(0, dst);
                for (int i = 0; i < 5; i++)
                    Check.True(dst[i].x == i && dst[i].y == 2 * i && dst[i].z == -i, "Vector3 " + i);
                var verts = new Vertex[7];
                for (int i = 0; i < verts.Length; i++)
                {
                    verts[i].normal = new Vector3(7, 8, 9);
                    verts[i].u = 0.25f;
                    verts[i].position = new Vector3(-1, -1, -1);
                }
                w.ReadPositions(1, verts, 2, 3); // particles 1..4 into vertices 2..5
                for (int i = 0; i < verts.Length; i++)
                {
                    Check.True(verts[i].normal.y == 8 && verts[i].u == 0.25f, "other fields of vertex " + i + " untouched");
                    float expect = i >= 2 && i < 5 ? i - 1 : -1;
                    Check.Equal(expect, verts[i].position.x, "vertex " + i + " x");
                }
                // Straight into unmanaged memory with a stride, e.g. a NativeArray.
                float* buf = stackalloc float[20];
                for (int i = 0; i < 20; i++) buf[i] = 42;
                w.ReadPositions(2, 3, buf, 24);
                Check.True(buf[0] == 2 && buf[1] == 4 && buf[2] == -2 && buf[3] == 42 && buf[6] == 3 && buf[12] == 4, "strided pointer read");
            }
        }

        /// <summary>Positions taken from a 32-byte vertex struct (x, y, z first) and a
        /// Vector3 array land where they were; the masses go with them.</summary>
        public static void TestAddParticlesFromWideVertexStructs()
        {
            var s = WorldSettings.Default;
            s.Gravity = new SinewVec3(0, -10, 0);
            s.Substeps = 1;
            s.Threads = 1;
            using (var w = new World(s))
            {
                var verts = new Vertex[3];
                for (int i = 0; i < 3; i++)
                {
                    verts[i].position = new Vector3(i, 10 + i, -i);
                    verts[i].normal = new Vector3(99, 99, 99);
                }
                Check.Equal(0, w.AddParticles(verts, new[] { 0f, 1f, 0f }), "first");
                Check.Equal(3, w.AddParticles(new[] { new Vector3(7, 7, 7) }), "appended after");
                var p = new Vector3[4];
                w.ReadPositions(0, p);
                for (int i = 0; i < 3; i++)
                    Check.True(p[i].x == i && p[i].y == 10 + i && p[i].z == -i, "vertex " + i + " position");
                Check.True(p[3].x == 7, "Vector3 particle");
                w.Step(0.1f);
                w.ReadPositions(0, p);
                Check.Equal(10f, p[0].y, "inverse mass 0 stays");
                Check.Near(11 - 10 * 0.1 * 0.1, p[1].y, 1e-5, "free one falls g·h²");
                Check.Equal(12f, p[2].y, "inverse mass 0 stays");
            }
        }

        public static void TestSinewVec3Arithmetic()
        {
            var a = new SinewVec3(1, 2, 3);
            var b = new SinewVec3(4, 6, 3);
            var d = b - a;
            Check.Equal(5f, d.Length, "|(3, 4, 0)|");
            var m = SinewVec3.Lerp(a, b, 0.5f);
            Check.True(m.x == 2.5f && m.y == 4f && m.z == 3f, "Lerp");
            var s = (a + b) * 2f;
            Check.True(s.x == 10 && s.y == 16 && s.z == 12, "+ and *");
            Check.Equal("(1, 2, 3)", a.ToString(), "ToString");
        }

        public static void TestWritePositionsVelocitiesAndMassesEveryOverload()
        {
            var s = WorldSettings.Default;
            s.Gravity = new SinewVec3(0, 0, 0);
            s.Substeps = 1;
            s.Threads = 1;
            using (var w = new World(s))
            {
                var start = new SinewVec3[4];
                fixed (SinewVec3* p = start)
                    Check.Equal(0, w.AddParticles(p, null, 4), "pointer AddParticles, masses NULL = 1 kg");
                Check.Equal(4, w.ParticleCount, "count");
                w.WritePositions(0, new[] { new Vector3(1, 0, 0), new Vector3(2, 0, 0) });
                w.WritePositions(1, new[] { new Vector3(9, 9, 9), new Vector3(5, 0, 0), new Vector3(9, 9, 9) }, 1, 1);
                float* raw = stackalloc float[8];
                raw[0] = 7; raw[1] = 0; raw[2] = 0; raw[4] = 8; raw[5] = 0; raw[6] = 0;
                w.WritePositions(2, 2, raw, 16);
                var pos = new Vector3[4];
                w.ReadPositions(0, pos);
                Check.True(pos[0].x == 1 && pos[1].x == 5 && pos[2].x == 7 && pos[3].x == 8, "positions written");

                w.WriteVelocities(0, new[] { new Vector3(1, 0, 0) });
                w.WriteVelocities(1, new[] { new Vector3(0, 0, 0), new Vector3(2, 0, 0) }, 1, 1);
                float* vel = stackalloc float[6];
                vel[0] = 3; vel[1] = 0; vel[2] = 0; vel[3] = 4; vel[4] = 0; vel[5] = 0;
                w.WriteVelocities(2, 2, vel, 12);
                var v = new Vector3[4];
                w.ReadVelocities(0, v);
                Check.True(v[0].x == 1 && v[1].x == 2 && v[2].x == 3 && v[3].x == 4, "velocities written");
                var v2 = new Vector3[3];
                w.ReadVelocities(2, v2, 1, 2);
                Check.True(v2[1].x == 3 && v2[2].x == 4 && v2[0].x == 0, "ranged velocity read");
                float* vr = stackalloc float[3];
                w.ReadVelocities(3, 1, vr, 12);
                Check.Equal(4f, vr[0], "pointer velocity read");

                // Pin particle 0 (array overload) and 3 (pointer overload): they stop.
                w.SetInverseMasses(0, new[] { 0f });
                float zero = 0;
                w.SetInverseMasses(3, &zero, 1);
                w.Step(0.5f);
                w.ReadPositions(0, pos);
                Check.Near(1, pos[0].x, 0, "pinned 0 stays");
                Check.Near(5 + 2 * 0.5, pos[1].x, 1e-5, "free 1 moves v·dt");
                Check.Near(7 + 3 * 0.5, pos[2].x, 1e-5, "free 2 moves v·dt");
                Check.Near(8, pos[3].x, 0, "pinned 3 stays");
            }
        }

        public static void TestConstraintOverloadsAndForces()
        {
            using (var w = SingleThreaded(4))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 0), new Vector3(0, -1, 0), new Vector3(0, -2, 0) }, new[] { 0f, 1f, 1f });
                uint* pairs = stackalloc uint[2];
                pairs[0] = 0; pairs[1] = 1;
                Check.Equal(0, w.AddDistanceConstraints(pairs, null, 1, 0f), "pointer XPBD");
                pairs[0] = 1; pairs[1] = 2;
                float rest = 1f;
                Check.Equal(1, w.AddPbdDistanceConstraints(pairs, &rest, 1, 1f), "pointer PBD");
                Check.Equal(2, w.AddDistanceConstraints(new[] { 0, 2 }, null, 1e-2f), "array XPBD, rest = current");
                Check.Equal(3, w.DistanceConstraintCount, "count");
                var f = new float[3];
                w.ReadConstraintForces(0, f);
                Check.True(f[0] == 0 && f[2] == 0, "forces 0 before the first step");
                w.Step(Dt);
                float* fp = stackalloc float[1];
                w.ReadConstraintForces(0, 1, fp);
                w.ReadConstraintForces(0, f);
                Check.True(fp[0] > 0 && fp[0] == f[0], "force of the top link after a step");
            }
        }

        public static void TestArgumentErrorsThrowAndChangeNothing()
        {
            using (var w = SingleThreaded(1))
            {
                w.AddParticles(new[] { new Vector3(0, 0, 0), new Vector3(1, 0, 0) });
                w.AddDistanceConstraints(new[] { 0, 1 }, null, 0f);
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.AddParticles<Vector3>(null), "World.AddParticles: positions is null");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddParticles(new Vector3[0]), "sinew_world_add_particles: ");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddParticles(new Vector3[2], new float[3]), "inverseMasses has 3");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddParticles(new[] { new Vector3(float.NaN, 0, 0) }), "sinew_world_add_particles: ");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddParticles(new Vector3[1], new[] { -1f }), "sinew_world_add_particles: ");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddParticles(new float[3]), "Single is 4 bytes");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.ReadPositions(0, new Holder[2]), "not blittable");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadPositions(1, new Vector3[2]), "sinew_world_read_positions: ");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadPositions(0, new Vector3[2], 1, 2), "World.ReadPositions", "outside destination");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadPositions(-1, new Vector3[1]), "sinew_world_read_positions: ");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.ReadPositions(0, 1, null, 12), "sinew_world_read_positions: ");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => { var b = stackalloc float[3]; w.ReadPositions(0, 1, b, 8); }, "stride");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.WritePositions(2, new Vector3[1]), "sinew_world_write_positions: ");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.WriteVelocities(0, new[] { new Vector3(float.PositiveInfinity, 0, 0) }), "sinew_world_write_velocities: ");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadVelocities(0, new Vector3[3]), "sinew_world_read_velocities: ");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.SetInverseMasses(0, new[] { float.NaN }), "sinew_world_set_inverse_masses: ");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.SetInverseMasses(0, null), "inverseMasses is null");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddDistanceConstraints(new[] { 0, 1, 1 }, null, 0f), "not an even number");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddDistanceConstraints(new[] { 0, 1 }, new[] { 1f, 1f }, 0f), "restLengths has 2");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.AddDistanceConstraints(new[] { 0, 5 }, null, 0f), "sinew_world_add_distance_constraints: ", "(0, 5)");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.AddDistanceConstraints(new[] { 0, -1 }, null, 0f), "sinew_world_add_distance_constraints: ");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddDistanceConstraints(new[] { 0, 1 }, null, -1f), "compliance");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.AddPbdDistanceConstraints(new[] { 0, 1 }, null, 1.5f), "sinew_world_add_pbd_distance_constraints: ");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.AddPbdDistanceConstraints(null, null, 1f), "particlePairs is null");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadConstraintForces(0, new float[2]), "sinew_world_read_constraint_forces: ");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.ReadConstraintForces(0, null), "newtons is null");
                Check.Equal(2, w.ParticleCount, "particles unchanged");
                Check.Equal(1, w.DistanceConstraintCount, "constraints unchanged");
                var p = new Vector3[2];
                w.ReadPositions(0, p);
                Check.True(p[0].x == 0 && p[1].x == 1, "positions unchanged");
                w.Step(Dt); // still usable
            }
        }

        /// <summary>A struct holding a reference: not blittable.</summary>
        public struct Holder
        {
            public string name;
            public float x, y, z;
        }

        public static void TestTwoWorldsOnTwoThreads()
        {
            var ends = new float[2];
            var threads = new Thread[2];
            Exception error = null;
            for (int t = 0; t < 2; t++)
            {
                int k = t;
                threads[t] = new Thread(() =>
                {
                    try
                    {
                        using (var w = SingleThreaded(4))
                        {
                            w.AddParticles(new[] { new Vector3(0, 0, 0) });
                            for (int i = 0; i < 60; i++)
                                w.Step(Dt);
                            var p = new Vector3[1];
                            w.ReadPositions(0, p);
                            ends[k] = p[0].y;
                        }
                    }
                    catch (Exception e)
                    {
                        error = e;
                    }
                });
                threads[t].Start();
            }
            foreach (var th in threads)
                th.Join();
            Check.True(error == null, "thread error: " + error);
            Check.True(ends[0] == ends[1] && ends[0] < -4.9f, "identical results " + ends[0] + " " + ends[1]);
        }
    }
}
