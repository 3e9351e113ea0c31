// Sample: the library writes a rope's particle positions straight into a
// NativeArray<float3> (one call, through the array's own pointer, 12-byte stride: no
// managed array, no copy), and Burst-compiled jobs process them on Unity's worker
// threads: a parallel job computes every particle's speed from this frame's and the
// last frame's positions, a second job reduces them to the rope's centre and top speed.
// A sphere rides the centre, growing with the top speed. Add this component to an
// empty GameObject in an empty scene and press Play.

using Sinew.Unity;
using Unity.Burst;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using Unity.Jobs;
using Unity.Mathematics;
using UnityEngine;

namespace Sinew.Samples
{
    public sealed class JobsPositionsDemo : MonoBehaviour
    {
        /// Speed of every particle, m/s, from two frames' positions.
        [BurstCompile]
        struct SpeedJob : IJobParallelFor
        {
            [ReadOnly] public NativeArray<float3> current;
            [ReadOnly] public NativeArray<float3> previous;
            public float invDt;
            [WriteOnly] public NativeArray<float> speed;

            public void Execute(int i)
            {
                speed[i] = math.length(current[i] - previous[i]) * invDt;
            }
        }

        /// Centre (mean position, m) and top speed (m/s) of the rope, into result[0].
        [BurstCompile]
        struct SummaryJob : IJob
        {
            [ReadOnly] public NativeArray<float3> current;
            [ReadOnly] public NativeArray<float> speed;
            public NativeArray<float4> result;

            public void Execute()
            {
                float3 sum = new float3(0f, 0f, 0f);
                float top = 0f;
                for (int i = 0; i < current.Length; i++)
                {
                    sum += current[i];
                    top = math.max(top, speed[i]);
                }
                result[0] = new float4(sum / current.Length, top);
            }
        }

        SinewRope rope;
        Transform marker;
        NativeArray<float3> current, previous;
        NativeArray<float> speed;
        NativeArray<float4> result;
        JobHandle pending;
        bool scheduled, primed;

        void Start()
        {
            var world = new GameObject("Sinew World").AddComponent<SinewWorldBehaviour>();
            var a = new GameObject("Rope start").transform;
            a.position = new Vector3(-1.5f, 3f, 0f);
            var b = new GameObject("Rope end").transform;
            b.position = new Vector3(1.5f, 3f, 0f);
            var ropeObject = new GameObject("Rope");
            ropeObject.AddComponent<LineRenderer>().widthMultiplier = 0.03f;
            rope = ropeObject.AddComponent<SinewRope>();
            rope.world = world;
            rope.start = a;
            rope.end = b;
            rope.segments = 64;
            rope.pinEnd = false; // the free end swings: something to measure
            marker = GameObject.CreatePrimitive(PrimitiveType.Sphere).transform;
            Destroy(marker.GetComponent<Collider>());
        }

        unsafe void LateUpdate()
        {
            if (rope == null || rope.Rope == null || rope.Rope.World.IsDisposed)
                return; // the rope is built in its own Start
            int n = rope.Rope.ParticleCount;
            if (!current.IsCreated)
            {
                current = new NativeArray<float3>(n, Allocator.Persistent);
                previous = new NativeArray<float3>(n, Allocator.Persistent);
                speed = new NativeArray<float>(n, Allocator.Persistent);
                result = new NativeArray<float4>(1, Allocator.Persistent);
            }
            if (scheduled)
            {
                pending.Complete(); // last frame's jobs: done while Unity rendered
                scheduled = false;
                float4 r = result[0];
                marker.position = new Vector3(r.x, r.y, r.z);
                float s = 0.1f + 0.05f * r.w;
                marker.localScale = new Vector3(s, s, s);
            }
            // Swap, then let the library write this frame's positions into `current`:
            // the pointer of the NativeArray and the stride of float3, no managed copy.
            NativeArray<float3> t = previous;
            previous = current;
            current = t;
            rope.Rope.ReadPositions(NativeArrayUnsafeUtility.GetUnsafePtr(current), current.Length,
                                         UnsafeUtility.SizeOf<float3>());
            if (!primed || !(Time.deltaTime > 0f))
            {
                primed = true; // no previous frame yet (or a paused one): no speeds
                return;
            }
            var speedJob = new SpeedJob
            {
                current = current,
                previous = previous,
                invDt = 1f / Time.deltaTime,
                speed = speed,
            };
            var summary = new SummaryJob { current = current, speed = speed, result = result };
            pending = summary.Schedule(speedJob.Schedule(n, 16));
            scheduled = true;
            JobHandle.ScheduleBatchedJobs();
        }

        void OnDestroy()
        {
            pending.Complete(); // never free memory a job still reads
            if (current.IsCreated) current.Dispose();
            if (previous.IsCreated) previous.Dispose();
            if (speed.IsCreated) speed.Dispose();
            if (result.IsCreated) result.Dispose();
        }
    }
}
