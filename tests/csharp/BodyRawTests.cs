// The raw layer of bodies, families and attachments against the freshly built library:
// struct layouts (sizes and offsets printed by gcc from include/sinew.h), the desc_init
// twins, and status codes straight from the C functions.

using System.Runtime.InteropServices;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class BodyRawTests
    {
        public static void TestNewStructLayoutsMatchTheHeader()
        {
            Check.Equal(20, sizeof(SinewBodyInfo), "sizeof(SinewBodyInfo)");
            Check.Equal(28, sizeof(SinewTransform), "sizeof(SinewTransform)");
            Check.Equal(16, sizeof(SinewQuat), "sizeof(SinewQuat)");
            Check.Equal(8, sizeof(SinewBodyHandle), "sizeof(SinewBodyHandle)");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewTransform), "rotation"), "transform rotation");
        }

        public static void TestDescInitTwinsFillTheDefaults()
        {
            SinewRopeDesc r;
            Check.Equal(0, SinewNative.sinew_rope_desc_init(&r), "rope_desc_init");
            Check.Equal(20u, r.segments, "rope segments");
            Check.Equal(1f, r.end.x, "rope end.x");
            Check.Equal(0.01f, r.radius, "rope radius");
            Check.Equal(1u, r.pin_start, "rope pin_start");
            Check.Equal(0u, r.pin_end, "rope pin_end");
            Check.True(r.internal_cookie != 0, "rope cookie set");
            SinewClothDesc c;
            Check.Equal(0, SinewNative.sinew_cloth_desc_init(&c), "cloth_desc_init");
            Check.Equal((uint)SinewBendingModel.Dihedral, c.bending, "cloth bending");
            Check.Equal(1e-4f, c.shear_compliance, "cloth shear");
            SinewClothGridDesc g;
            Check.Equal(0, SinewNative.sinew_cloth_grid_desc_init(&g), "cloth_grid_desc_init");
            Check.Equal(20u, g.segments_u, "grid segments_u");
            Check.Equal(1f, g.v.z, "grid v.z");
            SinewTetBodyDesc t;
            Check.Equal(0, SinewNative.sinew_tet_body_desc_init(&t), "tet_body_desc_init");
            Check.Equal((uint)SinewTetModel.EdgesAndVolume, t.model, "tet model");
            SinewPressureBodyDesc p;
            Check.Equal(0, SinewNative.sinew_pressure_body_desc_init(&p), "pressure_body_desc_init");
            Check.Equal(1f, p.pressure, "pressure");
            Check.Equal((int)SinewStatus.ErrorNullPointer, SinewNative.sinew_rope_desc_init(null), "desc_init(NULL)");
        }

        public static void TestRawRopeBodyLifecycle()
        {
            SinewWorldDesc wd;
            SinewNative.sinew_world_desc_init(&wd);
            SinewWorldHandle w;
            Check.Equal(0, SinewNative.sinew_world_create(&wd, &w), "create");
            try
            {
                SinewRopeDesc zero = default(SinewRopeDesc);
                SinewBodyHandle b = default(SinewBodyHandle);
                Check.Equal((int)SinewStatus.ErrorInvalidArgument, SinewNative.sinew_world_add_rope(w, &zero, &b),
                    "a desc not made by desc_init is refused");
                Check.Equal(0ul, b.id, "out_body untouched on failure");
                SinewRopeDesc d;
                SinewNative.sinew_rope_desc_init(&d);
                d.segments = 4;
                Check.Equal(0, SinewNative.sinew_world_add_rope(w, &d, &b), "add_rope");
                Check.True(b.id != 0, "body handle");
                uint first, count;
                Check.Equal(0, SinewNative.sinew_body_particle_range(w, b, &first, &count), "particle_range");
                Check.Equal(0u, first, "first");
                Check.Equal(5u, count, "count");
                SinewBodyInfo info;
                Check.Equal(0, SinewNative.sinew_body_info(w, b, &info), "info");
                Check.Equal((uint)SinewBodyKind.Rope, info.kind, "kind");
                var xyz = new SinewVec3[5];
                fixed (SinewVec3* p = xyz)
                {
                    Check.Equal((int)SinewStatus.ErrorOutOfRange, SinewNative.sinew_body_read_positions(w, b, p, 4, 12),
                        "capacity below the particle count");
                    Check.Equal(0, SinewNative.sinew_body_read_positions(w, b, p, 5, 12), "read_positions");
                }
                Check.Near(0.75, xyz[3].x, 1e-6, "particle 3 at 3/4 of the rope");
                Check.Equal(0, SinewNative.sinew_world_remove_body(w, b), "remove");
                Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_remove_body(w, b), "remove twice");
                uint n;
                Check.Equal(0, SinewNative.sinew_world_body_count(w, &n), "body_count");
                Check.Equal(0u, n, "no live body");
            }
            finally
            {
                SinewNative.sinew_world_destroy(w);
            }
        }

        public static void TestRawFamilyAndAttachmentStatuses()
        {
            SinewWorldDesc wd;
            SinewNative.sinew_world_desc_init(&wd);
            SinewWorldHandle w;
            SinewNative.sinew_world_create(&wd, &w);
            try
            {
                var pos = new[] { new SinewVec3(0, 0, 0), new SinewVec3(0, -1, 0) };
                uint first;
                fixed (SinewVec3* p = pos)
                    Check.Equal(0, SinewNative.sinew_world_add_particles(w, p, null, 2, &first), "particles");
                var pair = new uint[] { 0, 1 };
                fixed (uint* p = pair)
                {
                    Check.Equal(0, SinewNative.sinew_world_add_tethers(w, p, null, 1, 0f, &first), "tethers");
                    Check.Equal((int)SinewStatus.ErrorNullPointer, SinewNative.sinew_world_add_tethers(w, p, null, 1, 0f, null),
                        "out_first NULL");
                }
                uint count;
                Check.Equal(0, SinewNative.sinew_world_family_constraint_count(w, (uint)SinewFamily.Tether, &count), "count");
                Check.Equal(1u, count, "one tether");
                Check.Equal((int)SinewStatus.ErrorInvalidArgument, SinewNative.sinew_world_family_constraint_count(w, 99, &count),
                    "family 99");
                var t = new SinewTransform(new SinewVec3(0, 0, 0), SinewQuat.Identity);
                uint host;
                Check.Equal(0, SinewNative.sinew_world_add_attachment_host(w, &t, &host), "host");
                Check.Equal(0u, host, "host index");
                t.rotation = new SinewQuat(0, 0, 0, 0.1f);
                Check.Equal((int)SinewStatus.ErrorInvalidArgument, SinewNative.sinew_world_set_attachment_host_transform(w, host, &t),
                    "quaternion of length 0.1");
            }
            finally
            {
                SinewNative.sinew_world_destroy(w);
            }
        }
    }
}
