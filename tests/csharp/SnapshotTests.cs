// Snapshots through the idiomatic layer: Save / Restore / FromSnapshot / StateHash make
// a rope and cloth world roll back bit for bit, on another thread count too; damaged
// snapshots are refused with the world unchanged.

using System;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class SnapshotTests
    {
        const float Dt = 1f / 60f;

        static World RopeAndCloth(int threads)
        {
            var s = WorldSettings.Default;
            s.Threads = threads;
            var w = new World(s);
            var rope = RopeSettings.Default;
            rope.Start = new SinewVec3(-1, 2, 0);
            rope.End = new SinewVec3(0, 2, 0);
            w.AddRope(rope);
            var grid = ClothGridSettings.Default;
            grid.Origin = new SinewVec3(0.5f, 1.5f, 0);
            w.AddClothGrid(ClothSettings.Default, grid);
            return w;
        }

        /// <summary>Step 120 frames recording StateHash, roll back to frame 60, re-step:
        /// every hash from 61 to 120 matches; a world made from the frame-60 snapshot on
        /// 4 threads matches too.</summary>
        public static void TestRollbackReplaysBitForBit()
        {
            using (var w = RopeAndCloth(1))
            {
                var hashes = new ulong[121];
                byte[] at60 = null;
                hashes[0] = w.StateHash;
                for (int k = 1; k <= 120; k++)
                {
                    w.Step(Dt);
                    hashes[k] = w.StateHash;
                    if (k == 60)
                        at60 = w.Save();
                }
                Check.True(hashes[60] != hashes[120], "the world moves");
                Check.Equal(at60.Length, w.SnapshotSize, "the size does not change while stepping");
                w.Restore(at60);
                Check.Equal(hashes[60], w.StateHash, "restored");
                using (var four = World.FromSnapshot(at60, 4))
                {
                    for (int k = 61; k <= 120; k++)
                    {
                        w.Step(Dt);
                        four.Step(Dt);
                        Check.Equal(hashes[k], w.StateHash, "frame " + k);
                        Check.Equal(hashes[k], four.StateHash, "4 threads, frame " + k);
                    }
                }
                // Save into a reused buffer: the same bytes.
                var buffer = new byte[w.SnapshotSize + 10];
                int n = w.Save(buffer);
                var fresh = w.Save();
                Check.Equal(fresh.Length, n, "bytes written");
                for (int i = 0; i < n; i++)
                    if (buffer[i] != fresh[i])
                        throw new AssertionFailed("byte " + i + " differs");
            }
        }

        public static void TestDamagedSnapshotsAreRefusedAndChangeNothing()
        {
            using (var w = RopeAndCloth(1))
            {
                w.Step(Dt);
                var snap = w.Save();
                ulong h = w.StateHash;
                var cut = new byte[snap.Length - 1];
                Array.Copy(snap, cut, cut.Length);
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Restore(cut), "truncated");
                var flipped = (byte[])snap.Clone();
                flipped[snap.Length / 2] ^= 1;
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Restore(flipped), "checksum");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => w.Restore(new byte[0]), "header");
                Check.Throws(SinewStatus.ErrorInvalidArgument, () => World.FromSnapshot(new byte[64]), "not a Sinew snapshot");
                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.Save(new byte[16]), "buffer");
                Check.Throws(SinewStatus.ErrorNullPointer, () => w.Restore(null), "snapshot");
                Check.Equal(h, w.StateHash, "refusals change nothing");
                w.Restore(snap, snap.Length);
                Check.Equal(h, w.StateHash, "a valid snapshot still restores");
            }
        }
    }
}
