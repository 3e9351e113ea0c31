// Runs unity-sample's SinewJobsTaskSystem on Mono against the Unity.Jobs compile stub
// (tests/csharp/UnityStubs/UnityJobsStub.cs, whose Schedule runs Execute serially): the
// static [MonoPInvokeCallback] callbacks, the JobHandle table and the native task
// function calls are exercised for real, and a cloth world steps to the same state
// hashes as on one built-in thread. Built and run by tests/csharp/run.sh.

using System;
using Sinew;
using Sinew.Native;
using Sinew.Unity;

static class JobsTaskSystemCheck
{
    static World Cloth(int threads)
    {
        var s = WorldSettings.Default;
        s.Threads = threads;
        s.Substeps = 10;
        var w = new World(s);
        var grid = ClothGridSettings.Default;
        // 128 x 128 particles, ~97,000 links: every kind of pass runs in parallel.
        grid.SegmentsU = 127;
        grid.SegmentsV = 127;
        grid.PinCorners = 3;
        w.AddClothGrid(ClothSettings.Default, grid);
        return w;
    }

    static int Main()
    {
        using (var one = Cloth(1))
        using (var jobs = Cloth(1))
        {
            SinewJobsTaskSystem.Install(jobs);
            if (!jobs.HasTaskSystem || SinewJobsTaskSystem.WorkerCount != 4)
            {
                Console.WriteLine("FAIL: the jobs task system was not installed (worker count " +
                                  SinewJobsTaskSystem.WorkerCount + ")");
                return 1;
            }
            for (int f = 1; f <= 4; f++)
            {
                one.Step(1f / 60f);
                jobs.Step(1f / 60f);
                if (one.StateHash != jobs.StateHash)
                {
                    Console.WriteLine("FAIL: frame " + f + ": Unity jobs " + jobs.StateHash + " != one thread " + one.StateHash);
                    return 1;
                }
            }
        }
        Console.WriteLine("SinewJobsTaskSystem: 4 frames bit-identical to one thread");
        return 0;
    }
}
