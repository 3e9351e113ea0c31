// Sinew.World: bodies built by the library (ropes, cloth, tet and pressure soft bodies).
// Each returns a Body handle; vertex arrays are any blittable struct whose first 12
// bytes are x, y, z (Unity's Vector3, SinewVec3, a vertex struct), index arrays are
// int (0-based within the mesh), inverse masses in 1/kg (0 = pinned).

using Sinew.Native;

namespace Sinew
{
    public sealed partial class World
    {
        /// <summary>Number of live bodies (removed ones not counted).</summary>
        public unsafe int BodyCount
        {
            get
            {
                uint n;
                SinewException.Check(SinewNative.sinew_world_body_count(Handle, &n));
                return (int)n;
            }
        }

        /// <summary>Adds a straight rope from settings.Start to settings.End in
        /// settings.Segments links (Segments + 1 particles, start to end).</summary>
        public unsafe Body AddRope(RopeSettings settings)
        {
            SinewRopeDesc desc = settings.ToNative();
            SinewBody body;
            SinewException.Check(SinewNative.sinew_world_add_rope(Handle, &desc, &body));
            return new Body(this, body);
        }

        /// <summary>Adds a rope through <paramref name="points"/> (m, at least 2), one particle
        /// each; settings.Start, End and Segments are ignored.</summary>
        public unsafe Body AddRopePolyline<T>(RopeSettings settings, T[] points) where T : struct
        {
            const string F = "World.AddRopePolyline";
            Args.NotNull(points, F, "points");
            SinewRopeDesc desc = settings.ToNative();
            SinewBody body;
            using (var p = PackVec3(points, F, "points"))
                SinewException.Check(SinewNative.sinew_world_add_rope_polyline(Handle, &desc, (SinewVec3*)p.Ptr,
                    (uint)points.Length, &body));
            return new Body(this, body);
        }

        /// <summary>Adds a rectangular grid cloth of (SegmentsU+1)·(SegmentsV+1) particles,
        /// index j·(SegmentsU+1) + i.</summary>
        public unsafe Body AddClothGrid(ClothSettings cloth, ClothGridSettings grid)
        {
            SinewClothDesc desc = cloth.ToNative();
            SinewClothGridDesc g = grid.ToNative();
            SinewBody body;
            SinewException.Check(SinewNative.sinew_world_add_cloth_grid(Handle, &desc, &g, &body));
            return new Body(this, body);
        }

        /// <summary>Adds a cloth from a triangle mesh: <paramref name="vertices"/> (m), three
        /// vertex indices per triangle, one inverse mass (1/kg, 0 = pinned) per vertex. The
        /// body's particles are the vertices in order. Malformed meshes (index out of range,
        /// repeated vertex, zero area, an edge of more than two triangles) are refused naming
        /// the element.</summary>
        public unsafe Body AddClothMesh<T>(ClothSettings cloth, T[] vertices, int[] triangles, float[] inverseMasses)
            where T : struct
        {
            const string F = "World.AddClothMesh";
            Args.NotNull(vertices, F, "vertices");
            CheckElements(triangles, 3, F, "triangles");
            Args.NotNull(inverseMasses, F, "inverseMasses");
            if (inverseMasses.Length != vertices.Length)
                throw SinewException.Argument(F, "inverseMasses has " + inverseMasses.Length + " elements for " +
                    vertices.Length + " vertices");
            SinewClothDesc desc = cloth.ToNative();
            SinewBody body;
            using (var v = PackVec3(vertices, F, "vertices"))
            using (var t = new Pin(triangles))
            using (var m = new Pin(inverseMasses))
                SinewException.Check(SinewNative.sinew_world_add_cloth_mesh(Handle, &desc, (SinewVec3*)v.Ptr,
                    (uint)vertices.Length, (uint*)t.Ptr, (uint)(triangles.Length / 3), (float*)m.Ptr, &body));
            return new Body(this, body);
        }

        /// <summary>Adds a soft body from a tetrahedral mesh (four vertex indices per tet,
        /// positive volume: vertices 1, 2, 3 counter-clockwise seen from vertex 0).
        /// <paramref name="inverseMasses"/> (1/kg, one per vertex) null = settings.TotalMass
        /// lumped by volume.</summary>
        public unsafe Body AddTetBody<T>(TetBodySettings settings, T[] vertices, int[] tets, float[] inverseMasses = null)
            where T : struct
        {
            const string F = "World.AddTetBody";
            Args.NotNull(vertices, F, "vertices");
            CheckElements(tets, 4, F, "tets");
            CheckMasses(inverseMasses, vertices.Length, F);
            SinewTetBodyDesc desc = settings.ToNative();
            SinewBody body;
            using (var v = PackVec3(vertices, F, "vertices"))
            using (var t = new Pin(tets))
            using (var m = new Pin(inverseMasses))
                SinewException.Check(SinewNative.sinew_world_add_tet_body(Handle, &desc, (SinewVec3*)v.Ptr,
                    (uint)vertices.Length, (uint*)t.Ptr, (uint)(tets.Length / 4), (float*)m.Ptr, &body));
            return new Body(this, body);
        }

        /// <summary>Adds a soft body from a closed surface (three vertex indices per triangle,
        /// counter-clockwise seen from outside): every edge a link plus one volume constraint
        /// keeping settings.Pressure × the rest volume. <paramref name="inverseMasses"/> null =
        /// settings.TotalMass lumped by area.</summary>
        public unsafe Body AddPressureBody<T>(PressureBodySettings settings, T[] vertices, int[] triangles,
                                              float[] inverseMasses = null) where T : struct
        {
            const string F = "World.AddPressureBody";
            Args.NotNull(vertices, F, "vertices");
            CheckElements(triangles, 3, F, "triangles");
            CheckMasses(inverseMasses, vertices.Length, F);
            SinewPressureBodyDesc desc = settings.ToNative();
            SinewBody body;
            using (var v = PackVec3(vertices, F, "vertices"))
            using (var t = new Pin(triangles))
            using (var m = new Pin(inverseMasses))
                SinewException.Check(SinewNative.sinew_world_add_pressure_body(Handle, &desc, (SinewVec3*)v.Ptr,
                    (uint)vertices.Length, (uint*)t.Ptr, (uint)(triangles.Length / 3), (float*)m.Ptr, &body));
            return new Body(this, body);
        }

        /// <summary>Pins <paramref name="array"/> as packed SinewVec3: in place when T is 12
        /// bytes, otherwise as a packed copy of each element's first three floats.</summary>
        static unsafe Pin PackVec3<T>(T[] array, string function, string name) where T : struct
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

        static void CheckMasses(float[] inverseMasses, int vertices, string function)
        {
            if (inverseMasses != null && inverseMasses.Length != vertices)
                throw SinewException.Argument(function, "inverseMasses has " + inverseMasses.Length + " elements for " +
                    vertices + " vertices");
        }
    }
}
