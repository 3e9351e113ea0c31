// A minimal test runner (Mono ships no NUnit): every public static void method of the
// test classes whose name starts with "Test" runs once; the summary line is
// "N passed, M failed" and the exit code is 1 when anything failed.

using System;
using System.Collections.Generic;
using System.Reflection;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public class AssertionFailed : Exception
    {
        public AssertionFailed(string m) : base(m) { }
    }

    public static class Check
    {
        public static void True(bool condition, string what)
        {
            if (!condition)
                throw new AssertionFailed(what);
        }

        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new AssertionFailed(what + ": expected " + expected + ", got " + actual);
        }

        /// <summary>|actual - expected| <= tolerance.</summary>
        public static void Near(double expected, double actual, double tolerance, string what)
        {
            if (!(Math.Abs(actual - expected) <= tolerance))
                throw new AssertionFailed(what + ": expected " + expected + " ± " + tolerance + ", got " + actual);
        }

        /// <summary>|actual - expected| <= tolerance·|expected|.</summary>
        public static void Rel(double expected, double actual, double tolerance, string what)
        {
            if (!(Math.Abs(actual - expected) <= tolerance * Math.Abs(expected)))
                throw new AssertionFailed(what + ": expected " + expected + " (rel. tol. " + tolerance + "), got " + actual +
                                          " (rel. error " + Math.Abs(actual - expected) / Math.Abs(expected) + ")");
        }

        /// <summary>Runs <paramref name="action"/>, which must throw a SinewException with
        /// <paramref name="status"/> whose native message contains every fragment.</summary>
        public static SinewException Throws(SinewStatus status, Action action, params string[] fragments)
        {
            try
            {
                action();
            }
            catch (SinewException e)
            {
                Equal(status, e.Status, "status of \"" + e.NativeMessage + "\"");
                foreach (var f in fragments)
                    True(e.NativeMessage.Contains(f), "message \"" + e.NativeMessage + "\" lacks \"" + f + "\"");
                True(e.Message.Contains(e.NativeMessage), "Exception.Message carries the native message");
                return e;
            }
            throw new AssertionFailed("expected SinewException " + status + " (\"" + string.Join("\", \"", fragments) +
                                      "\"), nothing was thrown");
        }

        public static void ThrowsDisposed(Action action, string what)
        {
            try
            {
                action();
            }
            catch (ObjectDisposedException)
            {
                return;
            }
            throw new AssertionFailed(what + ": expected ObjectDisposedException");
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            Type[] classes = args.Length > 0 && args[0] == "--abi-mismatch"
                ? new[] { typeof(AbiMismatchTests) }
                : args.Length > 0 && args[0] == "--no-library"
                    ? new[] { typeof(NoLibraryTests) }
                    : new[] { typeof(RawTests), typeof(WorldTests), typeof(BodyTests), typeof(CollisionTests), typeof(BodyRawTests), typeof(NativeBodyTests), typeof(FamilyTests), typeof(AttachmentTests), typeof(ColliderShapesTests), typeof(CharacterClothTests), typeof(EditTests), typeof(SnapshotTests), typeof(TearingTests), typeof(LiveEditTests), typeof(InterpolationTests), typeof(TaskTests), typeof(ProfilingTests), typeof(AuthoringTests), typeof(FluidTests), typeof(FluidRenderTests), typeof(FluidAuthoringTests), typeof(SoftBodyTests), typeof(GranularTests), typeof(DynamicColliderTests), typeof(LodTests), typeof(RenderNormalsTests), typeof(TubeTests), typeof(TypedBodyTests), typeof(ApiNamingTests)};
            int passed = 0, failed = 0;
            foreach (var c in classes)
            {
                foreach (var m in c.GetMethods(BindingFlags.Public | BindingFlags.Static))
                {
                    if (!m.Name.StartsWith("Test") || m.GetParameters().Length != 0)
                        continue;
                    try
                    {
                        m.Invoke(null, null);
                        passed++;
                        Console.WriteLine("ok   " + c.Name + "." + m.Name);
                    }
                    catch (TargetInvocationException e)
                    {
                        failed++;
                        Exception inner = e.InnerException ?? e;
                        Console.WriteLine("FAIL " + c.Name + "." + m.Name + ": " +
                            (inner is AssertionFailed ? inner.Message : inner.ToString()));
                    }
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 && passed > 0 ? 0 : 1;
        }
    }
}
