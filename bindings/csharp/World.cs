// Sinew.World: lifetime and stepping. The other areas of World live in one file each
// (World.Particles.cs, World.Constraints.cs); a new family adds a partial file.

using System;
using System.Collections.Generic;
using System.Threading;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A simulation world: particles and constraints stepped together. Owns a
    /// native world; <see cref="Dispose"/> destroys it (twice is fine), and a world
    /// that is garbage-collected undisposed is destroyed by its finalizer. Every method
    /// throws <see cref="SinewException"/> on failure and changes nothing then, and
    /// <see cref="ObjectDisposedException"/> after Dispose. Thread-safe: the library
    /// locks each world.</summary>
    public sealed partial class World : IDisposable
    {
        // Handle id of the native world; 0 once disposed. long for Interlocked.
        long id;

        // Every live world, by handle id, so that DisposeAll can destroy them before an
        // editor domain reload even if their World objects were dropped undisposed.
        static readonly object registryGate = new object();
        static readonly Dictionary<long, WeakReference<World>> registry = new Dictionary<long, WeakReference<World>>();

        /// <summary>A world with the library's default settings.</summary>
        public World() : this(WorldSettings.Default) { }

        /// <summary>A world with <paramref name="settings"/> (start from
        /// <see cref="WorldSettings.Default"/>).</summary>
        public unsafe World(WorldSettings settings)
        {
            Library.EnsureLoaded();
            SinewWorldDesc desc = settings.ToNative();
            SinewWorldHandle w;
            SinewException.Check(SinewNative.sinew_world_create(&desc, &w));
            id = (long)w.id;
            profiling = settings.Profiling;
            sleeping = settings.Sleeping;
            lock (registryGate)
                registry[id] = new WeakReference<World>(this);
        }

        ~World()
        {
            Release();
        }

        /// <summary>The native handle (for the raw layer, e.g. from Burst jobs); throws
        /// after Dispose.</summary>
        public SinewWorldHandle Handle
        {
            get
            {
                long v = Interlocked.Read(ref id);
                if (v == 0)
                    throw new ObjectDisposedException("Sinew.World");
                return new SinewWorldHandle { id = (ulong)v };
            }
        }

        /// <summary>True after <see cref="Dispose"/> (or <see cref="DisposeAll"/>).</summary>
        public bool IsDisposed { get { return Interlocked.Read(ref id) == 0; } }

        /// <summary>Destroys the native world. Calling it again does nothing.</summary>
        public void Dispose()
        {
            Release();
            GC.SuppressFinalize(this);
        }

        void Release()
        {
            long v = Interlocked.Exchange(ref id, 0);
            if (v == 0)
                return;
            lock (registryGate)
                registry.Remove(v);
            // Cannot fail but for a handle already destroyed by DisposeAll: nothing to do.
            SinewNative.sinew_world_destroy(new SinewWorldHandle { id = (ulong)v });
            // A step still running on another thread may call the task system: the last
            // step to return frees it then.
            if (Volatile.Read(ref stepsInFlight) == 0)
            {
                ReleaseTaskSystem();
                ReleaseProfileListener();
            }
        }

        /// <summary>Number of worlds created and not yet disposed.</summary>
        public static int LiveCount
        {
            get { lock (registryGate) return registry.Count; }
        }

        /// <summary>Destroys every live world (the Unity package calls it before a
        /// domain reload and when play mode ends, so no native world outlives its
        /// scripts). Worlds still referenced become disposed.</summary>
        public static void DisposeAll()
        {
            List<KeyValuePair<long, WeakReference<World>>> all;
            lock (registryGate)
                all = new List<KeyValuePair<long, WeakReference<World>>>(registry);
            foreach (var entry in all)
            {
                World w;
                if (entry.Value.TryGetTarget(out w))
                {
                    w.Dispose();
                }
                else
                {
                    lock (registryGate)
                        registry.Remove(entry.Key);
                    SinewNative.sinew_world_destroy(new SinewWorldHandle { id = (ulong)entry.Key });
                }
            }
        }

        /// <summary>Advances the world by <paramref name="dt"/> seconds (finite, in
        /// [1e-6, 10]), in the world's substeps.</summary>
        public void Step(float dt)
        {
            Interlocked.Increment(ref stepsInFlight);
            try
            {
                SinewException.Check(SinewNative.sinew_world_step(Handle, dt));
            }
            finally
            {
                if (Interlocked.Decrement(ref stepsInFlight) == 0 && IsDisposed)
                {
                    ReleaseTaskSystem();
                    ReleaseProfileListener();
                }
            }
            ThrowTaskFailure();
            ThrowProfileFailure();
        }
    }
}
