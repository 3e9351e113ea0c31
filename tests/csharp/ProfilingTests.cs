// Profiling through the idiomatic layer: stage times read into a reused array (the
// leaves sum to the step, one substep group per substep), stage names, counts, a
// listener whose Begin/End pairs nest as a host's markers need them, the same state
// hashes with profiling on, and bad input refused.

using System;
using System.Collections.Generic;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static class ProfilingTests
    {
        const float Dt = 1f / 60f;

        static World Ropes(bool profiling)
        {
            var s = WorldSettings.Default;
            s.Threads = 2;
            s.Substeps = 4;
            s.Profiling = profiling;
            var w = new World(s);
            for (int i = 0; i < 6; i++)
            {
                var r = RopeSettings.Default;
                r.Start = new SinewVec3(i * 0.3f, 2, 0);
                r.End = new SinewVec3(i * 0.3f + 1, 2, 0);
                r.Segments = 12;
                w.AddRope(r);
            }
            return w;
        }

        sealed class Markers : ISinewProfileListener
        {
            public readonly Stack<SinewProfileStage> Open = new Stack<SinewProfileStage>();
            public readonly int[] Begins = new int[World.StageCount];
            public int Events;
            public string Broken;

            public void Begin(SinewProfileStage stage)
            {
                Events++;
                if (Open.Count > 0 && Open.Peek() != SinewProfileStage.Step &&
                    Open.Peek() != SinewProfileStage.Substep)
                    Broken = Broken ?? stage + " begins inside " + Open.Peek();
                Open.Push(stage);
                Begins[(int)stage]++;
            }

            public void End(SinewProfileStage stage)
            {
                Events++;
                if (Open.Count == 0 || Open.Pop() != stage)
                    Broken = Broken ?? stage + " ends out of order";
            }
        }

        public static void TestStageTimesSumToTheStepAndChangeNoBit()
        {
            using (var plain = Ropes(false))
            using (var w = Ropes(true))
            {
                Check.True(w.Profiling && !plain.Profiling, "the settings' Profiling");
                var times = new StageTime[World.StageCount];
                for (int f = 0; f < 20; f++)
                {
                    plain.Step(Dt);
                    w.Step(Dt);
                }
                Check.Equal(plain.StateHash, w.StateHash, "state hash with profiling on");
                Check.Equal(World.StageCount, w.ReadStageTimes(times), "records");
                ulong leaves = 0;
                foreach (var t in times)
                    if (t.Stage != SinewProfileStage.Step &&
                        t.Stage != SinewProfileStage.Substep)
                        leaves += t.Nanoseconds;
                ulong step = times[(int)SinewProfileStage.Step].Nanoseconds;
                Check.True(step > 0, "the step was timed");
                Check.True(Math.Abs((double)leaves - step) <= 0.05 * step, "leaves " + leaves + " ns, step " + step + " ns");
                Check.Equal(4u, times[(int)SinewProfileStage.Substep].Calls, "one substep group per substep");
                Check.Equal("collision_detection", World.StageName(SinewProfileStage.CollisionDetection), "a name");
                Check.True(ReferenceEquals(World.StageName(SinewProfileStage.Link),
                    World.StageName(SinewProfileStage.Link)), "names are read once");
                var zero = new StageTime[World.StageCount];
                plain.ReadStageTimes(zero);
                Check.True(Array.TrueForAll(zero, t => t.Nanoseconds == 0 && t.Calls == 0), "off: nothing timed");

                var c = w.ProfileCounts();
                Check.Equal(6L, c.Bodies, "bodies");
                Check.Equal(6L, c.AwakeBodies, "awake bodies");
                Check.Equal((long)w.ParticleCount, c.Particles, "particles");

                Check.Throws(SinewStatus.ErrorOutOfRange, () => w.ReadStageTimes(new StageTime[World.StageCount - 1]),
                    "capacity");
                w.Profiling = false;
                w.Step(Dt);
                var kept = new StageTime[World.StageCount];
                w.ReadStageTimes(kept);
                Check.Equal(step, kept[0].Nanoseconds, "off again: the last profiled step stays");
            }
        }

        public static void TestListenerPairsNest()
        {
            using (var plain = Ropes(false))
            using (var w = Ropes(false))
            {
                var m = new Markers();
                w.SetProfileListener(m);
                var times = new StageTime[World.StageCount];
                for (int f = 0; f < 3; f++)
                {
                    Array.Clear(m.Begins, 0, m.Begins.Length);
                    plain.Step(Dt);
                    w.Step(Dt);
                    Check.True(m.Broken == null, m.Broken ?? "");
                    Check.Equal(0, m.Open.Count, "every stage ended");
                    w.ReadStageTimes(times);
                    for (int k = 0; k < World.StageCount; k++)
                        Check.Equal((int)times[k].Calls, m.Begins[k], "begins of stage " + World.StageName((SinewProfileStage)k));
                }
                Check.Equal(plain.StateHash, w.StateHash, "state hash with a listener");
                w.SetProfileListener(null);
                int before = m.Events;
                w.Step(Dt);
                Check.Equal(before, m.Events, "removed: no more calls");
            }
        }

        sealed class Throwing : ISinewProfileListener
        {
            public void Begin(SinewProfileStage stage) { throw new InvalidOperationException("marker failed"); }
            public void End(SinewProfileStage stage) { }
        }

        public static void TestThrowingListenerIsRethrownByStep()
        {
            using (var w = Ropes(false))
            {
                w.SetProfileListener(new Throwing());
                try
                {
                    w.Step(Dt);
                    throw new AssertionFailed("expected the listener's exception");
                }
                catch (InvalidOperationException e)
                {
                    Check.True(e.Message.Contains("marker failed"), e.Message);
                }
                w.SetProfileListener(null);
                w.Step(Dt);
            }
        }
    }
}
