// Sinew.World: snapshots and the state hash, for rollback netcode, replays, save games
// and desync checks. A snapshot is a byte array holding the whole simulation state
// (everything but the thread count), versioned and checksummed; restoring it makes the
// world step bit for bit as it did from the moment it was saved.

using System;
using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Wraps a native world just created (registered like any world).</summary>
        World(SinewWorldHandle created)
        {
            id = (long)created.id;
            lock (registryGate)
                registry[id] = new WeakReference<World>(this);
        }

        /// <summary>Bytes a snapshot of this world takes now.</summary>
        public unsafe int SnapshotSize
        {
            get
            {
                ulong size;
                SinewException.Check(SinewNative.sinew_world_snapshot_size(Handle, &size));
                if (size > int.MaxValue)
                    throw SinewException.Argument("World.SnapshotSize", "the snapshot takes " + size +
                        " bytes, more than a C# array holds");
                return (int)size;
            }
        }

        /// <summary>A snapshot of the whole simulation state, in a new array.</summary>
        public byte[] Save()
        {
            // Another thread may add to the world between the size query and the save:
            // then the save is refused and the size asked again.
            for (int attempt = 0; ; attempt++)
            {
                var buffer = new byte[SnapshotSize];
                try
                {
                    Save(buffer);
                    return buffer;
                }
                catch (SinewException e)
                {
                    if (e.Status != SinewStatus.ErrorOutOfRange || attempt >= 8)
                        throw;
                }
            }
        }

        /// <summary>Saves a snapshot into <paramref name="buffer"/> (at least
        /// <see cref="SnapshotSize"/> bytes; reuse one buffer per frame to allocate nothing)
        /// and returns the bytes written. A buffer too small is refused and left
        /// untouched.</summary>
        public unsafe int Save(byte[] buffer)
        {
            Args.NotNull(buffer, "World.Save", "buffer");
            ulong written;
            byte none = 0;
            fixed (byte* p = buffer)
                SinewException.Check(SinewNative.sinew_world_save_snapshot(Handle, buffer.Length > 0 ? p : &none,
                    (ulong)buffer.Length, &written));
            return (int)written;
        }

        /// <summary>Replaces the simulation state by <paramref name="snapshot"/>'s first
        /// <paramref name="length"/> bytes (all of it when negative). The world keeps its
        /// thread count; its body and collider handles from when the snapshot was saved are
        /// valid again. A truncated, corrupt, foreign or newer snapshot throws
        /// (ErrorInvalidArgument, the message says which) and changes nothing.</summary>
        public unsafe void Restore(byte[] snapshot, int length = -1)
        {
            const string F = "World.Restore";
            Args.NotNull(snapshot, F, "snapshot");
            if (length > snapshot.Length)
                throw SinewException.Argument(F, "length " + length + " exceeds the array's " + snapshot.Length + " bytes");
            int n = length < 0 ? snapshot.Length : length;
            byte none = 0;
            fixed (byte* p = snapshot)
                SinewException.Check(SinewNative.sinew_world_restore_snapshot(Handle, n > 0 ? p : &none, (ulong)n));
        }

        /// <summary>A new world from <paramref name="snapshot"/>, with
        /// <paramref name="threads"/> worker threads (0 = all cores; results do not depend
        /// on it). Its body and collider handles are the saved ones.</summary>
        public static unsafe World FromSnapshot(byte[] snapshot, int threads = 0)
        {
            Library.EnsureLoaded();
            Args.NotNull(snapshot, "World.FromSnapshot", "snapshot");
            SinewWorldHandle w;
            byte none = 0;
            fixed (byte* p = snapshot)
                SinewException.Check(SinewNative.sinew_world_create_from_snapshot(snapshot.Length > 0 ? p : &none,
                    (ulong)snapshot.Length, unchecked((uint)threads), &w));
            return new World(w);
        }

        /// <summary>A 64-bit hash of the simulation state: equal states hash equal on any
        /// machine, thread count or CPU, so lockstep peers compare it to detect a desync.
        /// Cheap (one pass over the state) and allocation-free.</summary>
        public unsafe ulong StateHash
        {
            get
            {
                ulong h;
                SinewException.Check(SinewNative.sinew_world_state_hash(Handle, &h));
                return h;
            }
        }
    }
}
