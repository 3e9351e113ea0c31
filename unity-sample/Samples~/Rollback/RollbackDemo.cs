// Sample: rollback. Add this component to an empty GameObject in an empty scene and
// press Play. A rope and a cloth are driven by anchors that move as functions of the
// simulation clock. Every FixedUpdate the world is saved into a ring of reused buffers
// (World.Save(byte[]) allocates nothing) with its StateHash; pressing Backspace rewinds
// the last 2 s: the oldest snapshot is restored, the clock goes back with it, and the
// scene plays those 2 s again. Because Sinew is deterministic, the replay matches the
// first run bit for bit: every replayed frame's StateHash is compared with the one
// recorded the first time, and the console reports the result.

using Sinew.Unity;
using UnityEngine;

namespace Sinew.Samples
{
    public sealed class RollbackDemo : MonoBehaviour
    {
        [Tooltip("Seconds of history kept (and rewound by the key).")]
        public float historySeconds = 2f;

        [Tooltip("The key that rewinds.")]
        public KeyCode rewindKey = KeyCode.Backspace;

        SinewWorldBehaviour world;
        Transform swingingAnchor;
        Transform movingPin;
        Vector3 movingPinHome;

        // The simulation clock (s): the anchors are functions of it, so a replay from a
        // snapshot sees the same inputs.
        float simTime;
        int frame;

        // Ring of the last `capacity` frames: snapshot bytes, their lengths, the clock and
        // frame number each was taken at, and the state hash after each step.
        byte[][] ring;
        int[] lengths;
        float[] times;
        int[] frames;
        ulong[] hashes;
        int capacity;
        int count;
        int newest = -1;

        // While replaying: the first run's hashes from the restored frame on (expected[k]
        // is frame replayBase + k), and how many replayed frames matched.
        ulong[] expected;
        int replayBase;
        int replayUntil = -1;
        int replayed;
        int matched;

        void Start()
        {
            var worldObject = new GameObject("Sinew World");
            world = worldObject.AddComponent<SinewWorldBehaviour>();
            world.substeps = 16;

            var fixedAnchor = new GameObject("Rope start").transform;
            fixedAnchor.position = new Vector3(-2f, 3f, 0f);
            swingingAnchor = new GameObject("Rope end").transform;
            var ropeObject = new GameObject("Rope");
            var line = ropeObject.AddComponent<LineRenderer>();
            line.widthMultiplier = 0.03f;
            line.material = new Material(Shader.Find("Sprites/Default"));
            var rope = ropeObject.AddComponent<SinewRope>();
            rope.world = world;
            rope.start = fixedAnchor;
            rope.end = swingingAnchor;
            rope.segments = 30;
            rope.massKg = 1f;
            rope.compliance = 1e-7f;

            var cloth = GameObject.CreatePrimitive(PrimitiveType.Plane);
            cloth.name = "Cloth";
            Destroy(cloth.GetComponent<Collider>());
            cloth.transform.position = new Vector3(3f, 3f, 0f);
            cloth.transform.localScale = new Vector3(0.2f, 1f, 0.2f);
            var pinA = new GameObject("Cloth pin A").transform;
            pinA.position = new Vector3(2f, 3f, 1f);
            movingPin = new GameObject("Cloth pin B").transform;
            movingPinHome = new Vector3(4f, 3f, 1f);
            var sinewCloth = cloth.AddComponent<SinewCloth>();
            sinewCloth.world = world;
            sinewCloth.massKg = 0.3f;
            sinewCloth.compliance = 1e-6f;
            sinewCloth.pins = new[] { pinA, movingPin };

            PlaceAnchors(0f);
            capacity = Mathf.Max(1, Mathf.RoundToInt(historySeconds / Time.fixedDeltaTime));
            ring = new byte[capacity][];
            lengths = new int[capacity];
            times = new float[capacity];
            frames = new int[capacity];
            hashes = new ulong[capacity];
            // The anchors for the next step are placed after each step (AfterStep), so
            // that they never depend on the order in which components run.
            world.AfterStep += Record;
        }

        /// <summary>The driven anchors at simulation time t.</summary>
        void PlaceAnchors(float t)
        {
            swingingAnchor.position = new Vector3(1f + 0.5f * Mathf.Sin(2f * t), 3f, 0.5f * Mathf.Cos(2f * t));
            movingPin.position = movingPinHome + new Vector3(0f, 0f, -0.8f * (0.5f - 0.5f * Mathf.Cos(t)));
        }

        /// <summary>After each step: advance the clock, place the anchors for the next
        /// step, save the world into the ring (or, while replaying, compare its hash with
        /// the first run's).</summary>
        void Record()
        {
            simTime += Time.fixedDeltaTime;
            frame++;
            PlaceAnchors(simTime);
            World w = world.World;
            ulong hash = w.StateHash;
            if (replayUntil >= 0)
            {
                int k = frame - replayBase;
                if (k < expected.Length)
                {
                    replayed++;
                    if (expected[k] == hash)
                        matched++;
                }
                if (frame >= replayUntil)
                {
                    Debug.Log("Sinew rollback: replayed " + replayed + " frames, " + matched +
                              " identical to the first run (StateHash)", this);
                    replayUntil = -1;
                }
            }
            newest = (newest + 1) % capacity;
            int size = w.SnapshotSize;
            if (ring[newest] == null || ring[newest].Length < size)
                ring[newest] = new byte[size + size / 4];
            lengths[newest] = w.Save(ring[newest]);
            times[newest] = simTime;
            frames[newest] = frame;
            hashes[newest] = hash;
            if (count < capacity)
                count++;
        }

        void Update()
        {
            if (!Input.GetKeyDown(rewindKey) || count == 0 || !world.HasWorld)
                return;
            // The oldest snapshot in the ring: historySeconds ago.
            int oldest = count < capacity ? 0 : (newest + 1) % capacity;
            int rewoundFrom = frame;
            expected = new ulong[count];
            for (int k = 0; k < count; k++)
                expected[k] = hashes[(oldest + k) % capacity];
            replayBase = frames[oldest];
            world.World.Restore(ring[oldest], lengths[oldest]);
            simTime = times[oldest];
            frame = frames[oldest];
            PlaceAnchors(simTime);
            // Keep only the history up to the restored frame; the replay records anew.
            newest = oldest;
            count = 1;
            if (oldest != 0)
            {
                // Move the restored entry to slot 0 so the ring starts over from it.
                Swap(0, oldest);
                newest = 0;
            }
            replayUntil = rewoundFrom;
            replayed = 0;
            matched = 0;
            Debug.Log("Sinew rollback: rewound to t = " + simTime + " s (frame " + frame + ")", this);
        }

        void Swap(int a, int b)
        {
            var r = ring[a]; ring[a] = ring[b]; ring[b] = r;
            int l = lengths[a]; lengths[a] = lengths[b]; lengths[b] = l;
            float t = times[a]; times[a] = times[b]; times[b] = t;
            int f = frames[a]; frames[a] = frames[b]; frames[b] = f;
            ulong h = hashes[a]; hashes[a] = hashes[b]; hashes[b] = h;
        }
    }
}
