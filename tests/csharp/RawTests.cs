// The raw P/Invoke layer against the freshly built library: struct sizes, defaults,
// and status codes straight from the C functions.

using System;
using System.Runtime.InteropServices;
using Sinew;
using Sinew.Native;

namespace SinewTests
{
    public static unsafe class RawTests
    {
        public static void TestStructSizesMatchTheHeader()
        {
            Check.Equal(12, Marshal.SizeOf(typeof(SinewVec3)), "sizeof(SinewVec3)");
            Check.Equal(8, Marshal.SizeOf(typeof(SinewWorldHandle)), "sizeof(SinewWorldHandle)");
            Check.Equal(12, sizeof(SinewVec3), "unmanaged sizeof(SinewVec3)");
        }

        // Every desc's twin as its declaration lays it out (4-byte fields in declaration
        // order, then the cookie), rendered from the settings declarations.
        public static void TestDescLayoutsMatchTheDeclarations()
        {
            // BEGIN GENERATED desc layouts
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "gravity"), "SinewWorldDesc.gravity");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "substeps"), "SinewWorldDesc.substeps");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "iterations"), "SinewWorldDesc.iterations");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "solver"), "SinewWorldDesc.solver");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "jacobi_relaxation"), "SinewWorldDesc.jacobi_relaxation");
            Check.Equal(28, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "damping"), "SinewWorldDesc.damping");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "threads"), "SinewWorldDesc.threads");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "profiling"), "SinewWorldDesc.profiling");
            Check.Equal(40, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "sleeping"), "SinewWorldDesc.sleeping");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "sleep_threshold"), "SinewWorldDesc.sleep_threshold");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "sleep_time"), "SinewWorldDesc.sleep_time");
            Check.Equal(52, (int)Marshal.OffsetOf(typeof(SinewWorldDesc), "internal_cookie"), "SinewWorldDesc.internal_cookie");
            Check.Equal(56, Marshal.SizeOf(typeof(SinewWorldDesc)), "marshalled sizeof(SinewWorldDesc)");
            Check.Equal(56, sizeof(SinewWorldDesc), "sizeof(SinewWorldDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "rest_density"), "SinewFluidDesc.rest_density");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "spacing"), "SinewFluidDesc.spacing");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "smoothing_radius"), "SinewFluidDesc.smoothing_radius");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "capacity"), "SinewFluidDesc.capacity");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "relaxation"), "SinewFluidDesc.relaxation");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "scorr_k"), "SinewFluidDesc.scorr_k");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "scorr_n"), "SinewFluidDesc.scorr_n");
            Check.Equal(28, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "scorr_dq"), "SinewFluidDesc.scorr_dq");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "viscosity"), "SinewFluidDesc.viscosity");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "vorticity"), "SinewFluidDesc.vorticity");
            Check.Equal(40, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "cohesion"), "SinewFluidDesc.cohesion");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "adhesion"), "SinewFluidDesc.adhesion");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "collision_radius"), "SinewFluidDesc.collision_radius");
            Check.Equal(52, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "lifetime"), "SinewFluidDesc.lifetime");
            Check.Equal(56, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "recycle_oldest"), "SinewFluidDesc.recycle_oldest");
            Check.Equal(60, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "coupling_mask"), "SinewFluidDesc.coupling_mask");
            Check.Equal(64, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "solve_rate"), "SinewFluidDesc.solve_rate");
            Check.Equal(68, (int)Marshal.OffsetOf(typeof(SinewFluidDesc), "internal_cookie"), "SinewFluidDesc.internal_cookie");
            Check.Equal(72, Marshal.SizeOf(typeof(SinewFluidDesc)), "marshalled sizeof(SinewFluidDesc)");
            Check.Equal(72, sizeof(SinewFluidDesc), "sizeof(SinewFluidDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "start"), "SinewRopeDesc.start");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "end"), "SinewRopeDesc.end");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "segments"), "SinewRopeDesc.segments");
            Check.Equal(28, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "total_mass"), "SinewRopeDesc.total_mass");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "radius"), "SinewRopeDesc.radius");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "stretch_compliance"), "SinewRopeDesc.stretch_compliance");
            Check.Equal(40, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "bend_compliance"), "SinewRopeDesc.bend_compliance");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "tethers"), "SinewRopeDesc.tethers");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "pin_start"), "SinewRopeDesc.pin_start");
            Check.Equal(52, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "pin_end"), "SinewRopeDesc.pin_end");
            Check.Equal(56, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "damping"), "SinewRopeDesc.damping");
            Check.Equal(60, (int)Marshal.OffsetOf(typeof(SinewRopeDesc), "internal_cookie"), "SinewRopeDesc.internal_cookie");
            Check.Equal(64, Marshal.SizeOf(typeof(SinewRopeDesc)), "marshalled sizeof(SinewRopeDesc)");
            Check.Equal(64, sizeof(SinewRopeDesc), "sizeof(SinewRopeDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "model"), "SinewClothDesc.model");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "stretch_compliance"), "SinewClothDesc.stretch_compliance");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "weft_compliance"), "SinewClothDesc.weft_compliance");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "shear_compliance"), "SinewClothDesc.shear_compliance");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "warp"), "SinewClothDesc.warp");
            Check.Equal(28, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "bend_compliance"), "SinewClothDesc.bend_compliance");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "bending"), "SinewClothDesc.bending");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "tethers"), "SinewClothDesc.tethers");
            Check.Equal(40, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "damping"), "SinewClothDesc.damping");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewClothDesc), "internal_cookie"), "SinewClothDesc.internal_cookie");
            Check.Equal(48, Marshal.SizeOf(typeof(SinewClothDesc)), "marshalled sizeof(SinewClothDesc)");
            Check.Equal(48, sizeof(SinewClothDesc), "sizeof(SinewClothDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "origin"), "SinewClothGridDesc.origin");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "u"), "SinewClothGridDesc.u");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "v"), "SinewClothGridDesc.v");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "segments_u"), "SinewClothGridDesc.segments_u");
            Check.Equal(40, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "segments_v"), "SinewClothGridDesc.segments_v");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "total_mass"), "SinewClothGridDesc.total_mass");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "pin_corners"), "SinewClothGridDesc.pin_corners");
            Check.Equal(52, (int)Marshal.OffsetOf(typeof(SinewClothGridDesc), "internal_cookie"), "SinewClothGridDesc.internal_cookie");
            Check.Equal(56, Marshal.SizeOf(typeof(SinewClothGridDesc)), "marshalled sizeof(SinewClothGridDesc)");
            Check.Equal(56, sizeof(SinewClothGridDesc), "sizeof(SinewClothGridDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewTetBodyDesc), "total_mass"), "SinewTetBodyDesc.total_mass");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewTetBodyDesc), "model"), "SinewTetBodyDesc.model");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewTetBodyDesc), "stretch_compliance"), "SinewTetBodyDesc.stretch_compliance");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewTetBodyDesc), "shear_compliance"), "SinewTetBodyDesc.shear_compliance");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewTetBodyDesc), "volume_compliance"), "SinewTetBodyDesc.volume_compliance");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewTetBodyDesc), "damping"), "SinewTetBodyDesc.damping");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewTetBodyDesc), "internal_cookie"), "SinewTetBodyDesc.internal_cookie");
            Check.Equal(28, Marshal.SizeOf(typeof(SinewTetBodyDesc)), "marshalled sizeof(SinewTetBodyDesc)");
            Check.Equal(28, sizeof(SinewTetBodyDesc), "sizeof(SinewTetBodyDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewPressureBodyDesc), "total_mass"), "SinewPressureBodyDesc.total_mass");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewPressureBodyDesc), "stretch_compliance"), "SinewPressureBodyDesc.stretch_compliance");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewPressureBodyDesc), "pressure"), "SinewPressureBodyDesc.pressure");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewPressureBodyDesc), "volume_compliance"), "SinewPressureBodyDesc.volume_compliance");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewPressureBodyDesc), "damping"), "SinewPressureBodyDesc.damping");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewPressureBodyDesc), "internal_cookie"), "SinewPressureBodyDesc.internal_cookie");
            Check.Equal(24, Marshal.SizeOf(typeof(SinewPressureBodyDesc)), "marshalled sizeof(SinewPressureBodyDesc)");
            Check.Equal(24, sizeof(SinewPressureBodyDesc), "sizeof(SinewPressureBodyDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "shape"), "SinewColliderDesc.shape");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "position"), "SinewColliderDesc.position");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "rotation"), "SinewColliderDesc.rotation");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "radius"), "SinewColliderDesc.radius");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "half_height"), "SinewColliderDesc.half_height");
            Check.Equal(40, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "half_extents"), "SinewColliderDesc.half_extents");
            Check.Equal(52, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "static_friction"), "SinewColliderDesc.static_friction");
            Check.Equal(56, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "dynamic_friction"), "SinewColliderDesc.dynamic_friction");
            Check.Equal(60, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "restitution"), "SinewColliderDesc.restitution");
            Check.Equal(64, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "report_contacts"), "SinewColliderDesc.report_contacts");
            Check.Equal(68, (int)Marshal.OffsetOf(typeof(SinewColliderDesc), "internal_cookie"), "SinewColliderDesc.internal_cookie");
            Check.Equal(72, Marshal.SizeOf(typeof(SinewColliderDesc)), "marshalled sizeof(SinewColliderDesc)");
            Check.Equal(72, sizeof(SinewColliderDesc), "sizeof(SinewColliderDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "shape"), "SinewEmitterDesc.shape");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "radius"), "SinewEmitterDesc.radius");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "half_extents"), "SinewEmitterDesc.half_extents");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "position"), "SinewEmitterDesc.position");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "rotation"), "SinewEmitterDesc.rotation");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "speed"), "SinewEmitterDesc.speed");
            Check.Equal(52, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "rate"), "SinewEmitterDesc.rate");
            Check.Equal(56, (int)Marshal.OffsetOf(typeof(SinewEmitterDesc), "internal_cookie"), "SinewEmitterDesc.internal_cookie");
            Check.Equal(60, Marshal.SizeOf(typeof(SinewEmitterDesc)), "marshalled sizeof(SinewEmitterDesc)");
            Check.Equal(60, sizeof(SinewEmitterDesc), "sizeof(SinewEmitterDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewKillVolumeDesc), "shape"), "SinewKillVolumeDesc.shape");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewKillVolumeDesc), "center"), "SinewKillVolumeDesc.center");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewKillVolumeDesc), "rotation"), "SinewKillVolumeDesc.rotation");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewKillVolumeDesc), "half_extents"), "SinewKillVolumeDesc.half_extents");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewKillVolumeDesc), "radius"), "SinewKillVolumeDesc.radius");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewKillVolumeDesc), "normal"), "SinewKillVolumeDesc.normal");
            Check.Equal(60, (int)Marshal.OffsetOf(typeof(SinewKillVolumeDesc), "internal_cookie"), "SinewKillVolumeDesc.internal_cookie");
            Check.Equal(64, Marshal.SizeOf(typeof(SinewKillVolumeDesc)), "marshalled sizeof(SinewKillVolumeDesc)");
            Check.Equal(64, sizeof(SinewKillVolumeDesc), "sizeof(SinewKillVolumeDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewAnisotropyDesc), "radius"), "SinewAnisotropyDesc.radius");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewAnisotropyDesc), "smoothing"), "SinewAnisotropyDesc.smoothing");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewAnisotropyDesc), "max_ratio"), "SinewAnisotropyDesc.max_ratio");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewAnisotropyDesc), "scale"), "SinewAnisotropyDesc.scale");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewAnisotropyDesc), "isolated_scale"), "SinewAnisotropyDesc.isolated_scale");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewAnisotropyDesc), "min_neighbours"), "SinewAnisotropyDesc.min_neighbours");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewAnisotropyDesc), "internal_cookie"), "SinewAnisotropyDesc.internal_cookie");
            Check.Equal(28, Marshal.SizeOf(typeof(SinewAnisotropyDesc)), "marshalled sizeof(SinewAnisotropyDesc)");
            Check.Equal(28, sizeof(SinewAnisotropyDesc), "sizeof(SinewAnisotropyDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "capacity"), "SinewDiffuseDesc.capacity");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "lifetime"), "SinewDiffuseDesc.lifetime");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "trapped_air_rate"), "SinewDiffuseDesc.trapped_air_rate");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "wave_crest_rate"), "SinewDiffuseDesc.wave_crest_rate");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "trapped_air_min"), "SinewDiffuseDesc.trapped_air_min");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "trapped_air_max"), "SinewDiffuseDesc.trapped_air_max");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "wave_crest_min"), "SinewDiffuseDesc.wave_crest_min");
            Check.Equal(28, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "wave_crest_max"), "SinewDiffuseDesc.wave_crest_max");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "energy_min"), "SinewDiffuseDesc.energy_min");
            Check.Equal(36, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "energy_max"), "SinewDiffuseDesc.energy_max");
            Check.Equal(40, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "spray_neighbours"), "SinewDiffuseDesc.spray_neighbours");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "bubble_neighbours"), "SinewDiffuseDesc.bubble_neighbours");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "buoyancy"), "SinewDiffuseDesc.buoyancy");
            Check.Equal(52, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "drag"), "SinewDiffuseDesc.drag");
            Check.Equal(56, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "seed"), "SinewDiffuseDesc.seed");
            Check.Equal(60, (int)Marshal.OffsetOf(typeof(SinewDiffuseDesc), "internal_cookie"), "SinewDiffuseDesc.internal_cookie");
            Check.Equal(64, Marshal.SizeOf(typeof(SinewDiffuseDesc)), "marshalled sizeof(SinewDiffuseDesc)");
            Check.Equal(64, sizeof(SinewDiffuseDesc), "sizeof(SinewDiffuseDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewSurfaceDesc), "cell_size"), "SinewSurfaceDesc.cell_size");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewSurfaceDesc), "radius"), "SinewSurfaceDesc.radius");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewSurfaceDesc), "threshold"), "SinewSurfaceDesc.threshold");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewSurfaceDesc), "internal_cookie"), "SinewSurfaceDesc.internal_cookie");
            Check.Equal(16, Marshal.SizeOf(typeof(SinewSurfaceDesc)), "marshalled sizeof(SinewSurfaceDesc)");
            Check.Equal(16, sizeof(SinewSurfaceDesc), "sizeof(SinewSurfaceDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewWindDesc), "velocity"), "SinewWindDesc.velocity");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewWindDesc), "air_density"), "SinewWindDesc.air_density");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewWindDesc), "turbulence"), "SinewWindDesc.turbulence");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewWindDesc), "turbulence_scale"), "SinewWindDesc.turbulence_scale");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewWindDesc), "turbulence_frequency"), "SinewWindDesc.turbulence_frequency");
            Check.Equal(28, (int)Marshal.OffsetOf(typeof(SinewWindDesc), "internal_cookie"), "SinewWindDesc.internal_cookie");
            Check.Equal(32, Marshal.SizeOf(typeof(SinewWindDesc)), "marshalled sizeof(SinewWindDesc)");
            Check.Equal(32, sizeof(SinewWindDesc), "sizeof(SinewWindDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "shape"), "SinewWindZoneDesc.shape");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "position"), "SinewWindZoneDesc.position");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "rotation"), "SinewWindZoneDesc.rotation");
            Check.Equal(32, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "half_extents"), "SinewWindZoneDesc.half_extents");
            Check.Equal(44, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "radius"), "SinewWindZoneDesc.radius");
            Check.Equal(48, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "direction"), "SinewWindZoneDesc.direction");
            Check.Equal(60, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "strength"), "SinewWindZoneDesc.strength");
            Check.Equal(64, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "turbulence"), "SinewWindZoneDesc.turbulence");
            Check.Equal(68, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "falloff"), "SinewWindZoneDesc.falloff");
            Check.Equal(72, (int)Marshal.OffsetOf(typeof(SinewWindZoneDesc), "internal_cookie"), "SinewWindZoneDesc.internal_cookie");
            Check.Equal(76, Marshal.SizeOf(typeof(SinewWindZoneDesc)), "marshalled sizeof(SinewWindZoneDesc)");
            Check.Equal(76, sizeof(SinewWindZoneDesc), "sizeof(SinewWindZoneDesc)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewParticleMaterial), "static_friction"), "SinewParticleMaterial.static_friction");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewParticleMaterial), "dynamic_friction"), "SinewParticleMaterial.dynamic_friction");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewParticleMaterial), "rolling_friction"), "SinewParticleMaterial.rolling_friction");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewParticleMaterial), "cohesion"), "SinewParticleMaterial.cohesion");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewParticleMaterial), "internal_cookie"), "SinewParticleMaterial.internal_cookie");
            Check.Equal(20, Marshal.SizeOf(typeof(SinewParticleMaterial)), "marshalled sizeof(SinewParticleMaterial)");
            Check.Equal(20, sizeof(SinewParticleMaterial), "sizeof(SinewParticleMaterial)");
            Check.Equal(0, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "budget"), "SinewGrainEmitterDesc.budget");
            Check.Equal(4, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "grain_radius"), "SinewGrainEmitterDesc.grain_radius");
            Check.Equal(8, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "grain_density"), "SinewGrainEmitterDesc.grain_density");
            Check.Equal(12, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "group"), "SinewGrainEmitterDesc.group");
            Check.Equal(16, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "layers"), "SinewGrainEmitterDesc.layers");
            Check.Equal(20, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "mask"), "SinewGrainEmitterDesc.mask");
            Check.Equal(24, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "self_collision"), "SinewGrainEmitterDesc.self_collision");
            Check.Equal(28, (int)Marshal.OffsetOf(typeof(SinewGrainEmitterDesc), "internal_cookie"), "SinewGrainEmitterDesc.internal_cookie");
            Check.Equal(32, Marshal.SizeOf(typeof(SinewGrainEmitterDesc)), "marshalled sizeof(SinewGrainEmitterDesc)");
            Check.Equal(32, sizeof(SinewGrainEmitterDesc), "sizeof(SinewGrainEmitterDesc)");
            // END GENERATED desc layouts
        }

        static void Near3(SinewVec3 expected, SinewVec3 actual, double tol, string what)
        {
            Check.Near(expected.x, actual.x, tol, what + " x");
            Check.Near(expected.y, actual.y, tol, what + " y");
            Check.Near(expected.z, actual.z, tol, what + " z");
        }

        // The rotation and transform helpers against closed forms: a quarter turn about +y
        // takes +x to -z (right-handed), products compose right to left, FromTo aims +z
        // along any direction (the opposite one included), and Inverse undoes a transform.
        public static void TestRotationAndTransformHelpers()
        {
            float half = (float)(Math.PI / 2);
            SinewQuat qy = SinewQuat.AxisAngle(0, 1, 0, half), qx = SinewQuat.AxisAngle(1, 0, 0, half);
            Near3(new SinewVec3(0, 0, -1), qy * new SinewVec3(1, 0, 0), 1e-6, "quarter turn about +y");
            Near3(new SinewVec3(0, 1, 0), (qx * qy) * new SinewVec3(1, 0, 0), 1e-6, "qx * qy turns by qy first");
            var p = new SinewVec3(0.3f, -2f, 5f);
            Near3(p, qy.Conjugate * (qy * p), 1e-5, "Conjugate undoes");
            foreach (var d in new[] { new SinewVec3(1, 2, 3), new SinewVec3(0, 0, -4), new SinewVec3(0, 0, 2), new SinewVec3(-1, 0, 0) })
            {
                SinewQuat q = SinewQuat.FromTo(new SinewVec3(0, 0, 1), d);
                Check.Near(1.0, Math.Sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w), 1e-6, "FromTo is unit");
                Near3(d * (1f / d.Length), q * new SinewVec3(0, 0, 1), 1e-6, "FromTo aims +z along " + d);
            }
            var t = new SinewTransform(new SinewVec3(1, 2, 3), qy);
            Near3(new SinewVec3(1, 2, 2), t.TransformPoint(new SinewVec3(1, 0, 0)), 1e-6, "TransformPoint");
            Near3(new SinewVec3(1, 0, 0), t.InverseTransformPoint(new SinewVec3(1, 2, 2)), 1e-6, "InverseTransformPoint");
            var u = new SinewTransform(new SinewVec3(0, 1, 0), qx);
            Near3(t.TransformPoint(u.TransformPoint(p)), (t * u).TransformPoint(p), 1e-5, "t * u = t after u");
            Near3(p, t.Inverse.TransformPoint(t.TransformPoint(p)), 1e-5, "Inverse undoes");
            // The library accepts FromTo's result as a collider rotation (its unit check).
            using (var w = new World())
            {
                var desc = ColliderSettings.Default;
                desc.Rotation = SinewQuat.FromTo(new SinewVec3(0, 0, 1), new SinewVec3(1, 1, 1));
                w.AddCollider(desc);
            }
        }

        public static void TestAbiAndVersionFunctions()
        {
            Check.Equal(SinewNative.SINEW_ABI_VERSION, SinewNative.sinew_abi_version(), "sinew_abi_version");
            string v = SinewNative.Utf8ToString(SinewNative.sinew_version());
            Check.True(System.Text.RegularExpressions.Regex.IsMatch(v, @"^\d+\.\d+\.\d+$"), "version \"" + v + "\" is major.minor.patch");
        }

        public static void TestDescInitFillsDefaultsAndCookie()
        {
            SinewWorldDesc d = default(SinewWorldDesc);
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_desc_init(&d), "desc_init");
            Check.Equal(-9.81f, d.gravity.y, "gravity.y");
            Check.Equal(0f, d.gravity.x, "gravity.x");
            Check.Equal(8u, d.substeps, "substeps");
            Check.Equal(1u, d.iterations, "iterations");
            Check.Equal((uint)SinewSolver.GaussSeidel, d.solver, "solver");
            Check.Equal(1f, d.jacobi_relaxation, "jacobi_relaxation");
            Check.Equal(0f, d.damping, "damping");
            Check.Equal(0u, d.threads, "threads");
            Check.True(d.internal_cookie != 0, "cookie set");
            Check.Equal((int)SinewStatus.ErrorNullPointer, SinewNative.sinew_world_desc_init(null), "desc_init(NULL)");
            Check.True(SinewNative.Utf8ToString(SinewNative.sinew_last_error_message()).StartsWith("sinew_world_desc_init: "),
                "last error names the function");
        }

        public static void TestCreateStepDestroyAndStaleHandle()
        {
            SinewWorldDesc d;
            SinewNative.sinew_world_desc_init(&d);
            SinewWorldHandle w = default(SinewWorldHandle);
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_create(&d, &w), "create");
            Check.True(w.id != 0, "handle is not null");
            var p = new SinewVec3(0, 1, 0);
            uint first = 99;
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_add_particles(w, &p, null, 1, &first), "add_particles");
            Check.Equal(0u, first, "first");
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_step(w, 1f / 60f), "step");
            Check.Equal((int)SinewStatus.Ok, SinewNative.sinew_world_destroy(w), "destroy");
            Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_destroy(w), "destroy twice");
            uint n = 1234;
            Check.Equal((int)SinewStatus.ErrorInvalidHandle, SinewNative.sinew_world_particle_count(w, &n), "count on stale handle");
            Check.Equal(1234u, n, "output untouched on failure");
        }

        public static void TestZeroedDescIsRejected()
        {
            SinewWorldDesc d = default(SinewWorldDesc);
            SinewWorldHandle w = default(SinewWorldHandle);
            Check.Equal((int)SinewStatus.ErrorInvalidArgument, SinewNative.sinew_world_create(&d, &w), "create from zeroed desc");
            Check.Equal(0ul, w.id, "out_world untouched");
            string m = SinewNative.Utf8ToString(SinewNative.sinew_last_error_message());
            Check.True(m.StartsWith("sinew_world_create: ") && m.Contains("sinew_world_desc_default"), m);
        }

        public static void TestUtf8ToStringOfNullIsEmpty()
        {
            Check.Equal("", SinewNative.Utf8ToString(null), "NULL");
            byte* s = stackalloc byte[4];
            s[0] = 0xC3; s[1] = 0xA9; s[2] = (byte)'!'; s[3] = 0;
            Check.Equal("\u00e9!", SinewNative.Utf8ToString(s), "UTF-8 decoding");
        }
    }
}
