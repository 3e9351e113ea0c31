// Cloth tearing on a body (sinew_body_set_tear_threshold, sinew_cloth_*): the threshold
// and reserve, the tearing state, and the topology (render vertices, triangles and the
// vertex each new one was split from) a host rebuilds its mesh from when the version
// changes.

using Sinew.Native;

namespace Sinew
{
    /// <summary>A cloth's tearing state.</summary>
    public struct TearStatus
    {
        /// <summary>Stretch ratio (length / rest length) past which an edge tears;
        /// +infinity while tearing is off.</summary>
        public float Threshold;
        /// <summary>Spare particles left: each split takes one.</summary>
        public int ReserveLeft;
        /// <summary>Splits refused because the reserve ran out.</summary>
        public long Refused;
        /// <summary>Topology version: 0 until the first split, then the number of splits.</summary>
        public long Version;
    }

    /// <summary>A cloth's render topology: triangles over render vertices, the world
    /// particle of each render vertex, and the vertex of the built cloth each descends
    /// from (itself for those; the split vertex for one a split added: copy its UV).</summary>
    public sealed class ClothTopology
    {
        public int[] Triangles = new int[0];
        public int[] VertexParticles = new int[0];
        public int[] VertexSources = new int[0];
        public int VertexCount { get { return VertexParticles.Length; } }
        public int TriangleCount { get { return Triangles.Length / 3; } }
    }

    public partial class Body
    {
        /// <summary>Turns tearing of this cloth on, or changes its threshold: an edge longer
        /// than <paramref name="threshold"/> × its rest length (a stretch ratio above 1;
        /// 0 or +infinity: off) splits the cloth there. The first call adds
        /// <paramref name="reserve"/> spare particles (0: a quarter of the cloth's
        /// particles, at least 16); later calls pass 0 or the same count.</summary>
        public void SetTearThreshold(float threshold, int reserve = 0)
        {
            if (reserve < 0)
                throw SinewException.Argument("Body.SetTearThreshold", "reserve " + reserve + " is negative");
            SinewException.Check(SinewNative.sinew_body_set_tear_threshold(World.Handle, Handle, threshold,
                (uint)reserve));
        }

        /// <summary>The cloth's tearing state.</summary>
        public unsafe TearStatus TearStatus
        {
            get
            {
                SinewTearStatus s;
                SinewException.Check(SinewNative.sinew_cloth_tear_status(World.Handle, Handle, &s));
                return new TearStatus
                {
                    Threshold = s.threshold,
                    ReserveLeft = (int)s.reserve_left,
                    Refused = (long)s.refused,
                    Version = (long)s.version,
                };
            }
        }

        /// <summary>The cloth's topology version: re-read <see cref="ReadTopology"/> when it
        /// changes.</summary>
        public unsafe long TopologyVersion
        {
            get
            {
                ulong v;
                return (long)SinewException.Checked(
                    SinewNative.sinew_cloth_topology_version(World.Handle, Handle, &v), v);
            }
        }

        /// <summary>Reads the cloth's topology into <paramref name="into"/> (arrays resized
        /// as needed) and returns it.</summary>
        public unsafe ClothTopology ReadTopology(ClothTopology into = null)
        {
            ClothTopology t = into ?? new ClothTopology();
            uint nv, nt;
            SinewException.Check(SinewNative.sinew_cloth_topology_counts(World.Handle, Handle, &nv, &nt));
            if (t.Triangles.Length != 3 * (int)nt)
                t.Triangles = new int[3 * (int)nt];
            if (t.VertexParticles.Length != (int)nv)
            {
                t.VertexParticles = new int[nv];
                t.VertexSources = new int[nv];
            }
            fixed (int* tri = t.Triangles)
            fixed (int* vp = t.VertexParticles)
            fixed (int* vs = t.VertexSources)
                SinewException.Check(SinewNative.sinew_cloth_read_topology(World.Handle, Handle,
                    (uint*)tri, nt, (uint*)vp, (uint*)vs, nv));
            return t;
        }
    }
}
