// Sinew.World: bodies built by the library (ropes, cloth, tet and pressure soft bodies).
// Each returns the Body it built: a Rope for ropes, a Cloth for cloths. Vertex arrays are
// any blittable struct whose first 12 bytes are x, y, z (Unity's Vector3, SinewVec3, a
// vertex struct), index arrays are int (0-based within the mesh), inverse masses in 1/kg
// (0 = pinned).

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Number of live bodies (removed ones not counted).</summary>
        public unsafe int BodyCount
        {
            get { uint n; return (int)SinewException.Checked(SinewNative.sinew_world_body_count(Handle, &n), n); }
        }

        /// <summary>Adds a straight rope from settings.Start to settings.End in
        /// settings.Segments links (Segments + 1 particles, start to end), with every
        /// setting of the library's rope (bending, tethers, radius, damping).</summary>
        public unsafe Rope AddRope(RopeSettings settings)
        {
            SinewRopeDesc desc = settings.ToNative();
            SinewBodyHandle body;
            SinewException.Check(SinewNative.sinew_world_add_rope(Handle, &desc, &body));
            return new Rope(this, body, (settings.End - settings.Start).Length, settings.PinStart, settings.PinEnd);
        }

        /// <summary>Adds a straight rope from <paramref name="start"/> to <paramref name="end"/>
        /// (m) with <paramref name="segments"/> links (>= 1), total mass
        /// <paramref name="massKg"/> (kg, > 0, spread evenly over the particles), link
        /// compliance <paramref name="compliance"/> (m/N, 0 = inextensible); bend links,
        /// tethers and radius at the library's defaults (<see cref="RopeSettings.Default"/>).</summary>
        public Rope AddRope(SinewVec3 start, SinewVec3 end, int segments, float massKg, float compliance,
                            bool pinStart, bool pinEnd)
        {
            RopeSettings s = RopeSettings.Default;
            s.Start = start;
            s.End = end;
            s.Segments = segments;
            s.TotalMass = massKg;
            s.StretchCompliance = compliance;
            s.PinStart = pinStart;
            s.PinEnd = pinEnd;
            return AddRope(s);
        }

        /// <summary>Adds a rope through <paramref name="points"/> (m, at least 2), one particle
        /// each; settings.Start, End and Segments are ignored.</summary>
        public unsafe Rope AddRopePolyline<T>(RopeSettings settings, T[] points) where T : struct
        {
            const string F = "World.AddRopePolyline";
            Args.NotNull(points, F, "points");
            SinewRopeDesc desc = settings.ToNative();
            SinewBodyHandle body;
            float length = 0f;
            using (var p = PackVec3(points, F, "points"))
            {
                SinewException.Check(SinewNative.sinew_world_add_rope_polyline(Handle, &desc, (SinewVec3*)p.Ptr,
                    (uint)points.Length, &body));
                var q = (SinewVec3*)p.Ptr;
                for (int i = 1; i < points.Length; i++)
                    length += (q[i] - q[i - 1]).Length;
            }
            return new Rope(this, body, length, settings.PinStart, settings.PinEnd);
        }

        /// <summary>Adds a rectangular grid cloth of (SegmentsU+1)·(SegmentsV+1) particles,
        /// index j·(SegmentsU+1) + i: mesh vertex i of the returned cloth is its particle i.</summary>
        public unsafe Cloth AddClothGrid(ClothSettings cloth, ClothGridSettings grid)
        {
            SinewClothDesc desc = cloth.ToNative();
            SinewClothGridDesc g = grid.ToNative();
            SinewBodyHandle body;
            SinewException.Check(SinewNative.sinew_world_add_cloth_grid(Handle, &desc, &g, &body));
            return new Cloth(this, body, null, null);
        }

        /// <summary>Adds a cloth from a triangle mesh as given: <paramref name="vertices"/> (m),
        /// three vertex indices per triangle, one inverse mass (1/kg, 0 = pinned) per vertex.
        /// The body's particles are the vertices in order, none welded (a render mesh split
        /// at UV seams: use the overload with a mass). Malformed meshes (index out of range,
        /// repeated vertex, zero area, an edge of more than two triangles) are refused naming
        /// the element.</summary>
        public Cloth AddClothMesh<T>(ClothSettings cloth, T[] vertices, int[] triangles, float[] inverseMasses)
            where T : struct
        {
            return new Cloth(this, AddClothMeshHandle(cloth, vertices, triangles, inverseMasses), null, null);
        }

        /// <summary>Adds a cloth over a render mesh: <paramref name="vertices"/> (m, world
        /// space; any struct whose first 12 bytes are x, y, z) at exactly the same position
        /// (UV seams, hard edges) are welded into one particle, and triangles that welding
        /// made degenerate are dropped; <paramref name="triangles"/> are 3 vertex indices
        /// each. The total mass <paramref name="massKg"/> (kg) is shared equally by the
        /// particles; <paramref name="pinnedVertices"/> (mesh vertex indices, may be null)
        /// start pinned (inverse mass 0), so that the library's tethers run from them.</summary>
        public Cloth AddClothMesh<T>(ClothSettings cloth, T[] vertices, int[] triangles, float massKg,
                                     int[] pinnedVertices = null) where T : struct
        {
            const string F = "World.AddClothMesh";
            Cloth.Welded welded = Cloth.Weld(vertices, triangles, F);
            if (!(massKg > 0) || float.IsInfinity(massKg))
                throw SinewException.Argument(F, "massKg " + massKg + " is not a positive finite mass");
            var inverseMasses = new float[welded.Particles.Length];
            float w = welded.Particles.Length / massKg;
            for (int i = 0; i < inverseMasses.Length; i++)
                inverseMasses[i] = w;
            if (pinnedVertices != null)
            {
                foreach (int v in pinnedVertices)
                {
                    Args.Range(welded.VertexToParticle.Length, v, 1, F, "pinnedVertices");
                    inverseMasses[welded.VertexToParticle[v]] = 0f;
                }
            }
            SinewBodyHandle body = AddClothMeshHandle(cloth, welded.Particles, welded.Triangles, inverseMasses);
            return new Cloth(this, body, welded.VertexToParticle, welded.Corners);
        }

        /// <summary>The library's cloth over the mesh as given (no welding).</summary>
        unsafe SinewBodyHandle AddClothMeshHandle<T>(ClothSettings cloth, T[] vertices, int[] triangles,
                                                     float[] inverseMasses) where T : struct
        {
            return AddMeshBody(vertices, triangles, 3, "triangles", inverseMasses, true, "World.AddClothMesh",
                (v, nv, t, nt, m, b) =>
                {
                    SinewClothDesc desc = cloth.ToNative();
                    return SinewNative.sinew_world_add_cloth_mesh(Handle, &desc, v, nv, t, nt, m, b);
                });
        }

        /// <summary>Adds a soft body from a tetrahedral mesh (four vertex indices per tet,
        /// positive volume: vertices 1, 2, 3 counter-clockwise seen from vertex 0).
        /// <paramref name="inverseMasses"/> (1/kg, one per vertex) null = settings.TotalMass
        /// lumped by volume.</summary>
        public unsafe Body AddTetBody<T>(TetBodySettings settings, T[] vertices, int[] tets, float[] inverseMasses = null)
            where T : struct
        {
            return new Body(this, AddMeshBody(vertices, tets, 4, "tets", inverseMasses, false, "World.AddTetBody",
                (v, nv, t, nt, m, body) =>
                {
                    SinewTetBodyDesc desc = settings.ToNative();
                    return SinewNative.sinew_world_add_tet_body(Handle, &desc, v, nv, t, nt, m, body);
                }));
        }

        /// <summary>Adds a soft body from a closed surface (three vertex indices per triangle,
        /// counter-clockwise seen from outside): every edge a link plus one volume constraint
        /// keeping settings.Pressure × the rest volume. <paramref name="inverseMasses"/> null =
        /// settings.TotalMass lumped by area.</summary>
        public unsafe Body AddPressureBody<T>(PressureBodySettings settings, T[] vertices, int[] triangles,
                                              float[] inverseMasses = null) where T : struct
        {
            return new Body(this, AddMeshBody(vertices, triangles, 3, "triangles", inverseMasses, false, "World.AddPressureBody",
                (v, nv, t, nt, m, body) =>
                {
                    SinewPressureBodyDesc desc = settings.ToNative();
                    return SinewNative.sinew_world_add_pressure_body(Handle, &desc, v, nv, t, nt, m, body);
                }));
        }

        /// <summary>A library body builder over a mesh, its desc bound: vertices,
        /// element indices, inverse masses (null = the builder's default), the new body.</summary>
        unsafe delegate int MeshBodyCall(SinewVec3* vertices, uint vertexCount, uint* elements, uint elementCount,
                                         float* inverseMasses, SinewBodyHandle* body);

        /// <summary>Checks and pins a mesh (<paramref name="per"/> indices per element, one
        /// inverse mass per vertex, or null unless <paramref name="massesRequired"/>) and
        /// builds its body.</summary>
        unsafe SinewBodyHandle AddMeshBody<T>(T[] vertices, int[] elements, int per, string elementsName, float[] inverseMasses,
                                   bool massesRequired, string function, MeshBodyCall call) where T : struct
        {
            Args.NotNull(vertices, function, "vertices");
            CheckElements(elements, per, function, elementsName);
            if (massesRequired)
                Args.NotNull(inverseMasses, function, "inverseMasses");
            if (inverseMasses != null && inverseMasses.Length != vertices.Length)
                throw SinewException.Argument(function, "inverseMasses has " + inverseMasses.Length + " elements for " +
                    vertices.Length + " vertices");
            SinewBodyHandle body;
            using (var v = PackVec3(vertices, function, "vertices"))
            using (var e = new Pin(elements))
            using (var m = new Pin(inverseMasses))
                SinewException.Check(call((SinewVec3*)v.Ptr, (uint)vertices.Length, (uint*)e.Ptr,
                    (uint)(elements.Length / per), (float*)m.Ptr, &body));
            return body;
        }

        /// <summary>Pins <paramref name="array"/> as packed SinewVec3: in place when T is 12
        /// bytes, otherwise as a packed copy of each element's first three floats.</summary>
        internal static unsafe Pin PackVec3<T>(T[] array, string function, string name) where T : struct
        {
            Args.NotNull(array, function, name);
            Args.Vec3Element<T>(function);
            if (Element<T>.Size == 12)
                return new Pin(array);
            var packed = new SinewVec3[array.Length];
            using (var p = new Pin(array))
            {
                for (int i = 0; i < packed.Length; i++)
                    packed[i] = *(SinewVec3*)(p.Ptr + (long)i * Element<T>.Size);
            }
            return new Pin(packed);
        }

        /// <summary>Checks a flat index array of <paramref name="per"/> indices per element.</summary>
        static void CheckElements(int[] indices, int per, string function, string name)
        {
            Args.NotNull(indices, function, name);
            if (indices.Length % per != 0)
                throw SinewException.Argument(function, name + " has " + indices.Length + " indices, not a multiple of " + per);
        }
    }
}
