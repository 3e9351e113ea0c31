// Material presets: compliance α (m²/N, the inverse of Young's modulus) of common
// materials from the XPBD slides of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017. The same values as the C
// header's SINEW_MATERIAL_* constants. A starting point for a body's compliance: a
// distance link of rest length L and cross-section A has compliance α·L/A (m/N).

using Sinew.Native;

namespace Sinew
{
    /// <summary>Compliance presets (m²/N) of common materials, stiffest first.</summary>
    public static class Materials
    {
        /// <summary>Concrete, 0.04e-9 m²/N (C: SINEW_MATERIAL_CONCRETE).</summary>
        public const float Concrete = SinewNative.SINEW_MATERIAL_CONCRETE;
        /// <summary>Wood, 0.16e-9 m²/N (C: SINEW_MATERIAL_WOOD).</summary>
        public const float Wood = SinewNative.SINEW_MATERIAL_WOOD;
        /// <summary>Leather, 1.0e-8 m²/N (C: SINEW_MATERIAL_LEATHER).</summary>
        public const float Leather = SinewNative.SINEW_MATERIAL_LEATHER;
        /// <summary>Tendon, 0.2e-7 m²/N (C: SINEW_MATERIAL_TENDON).</summary>
        public const float Tendon = SinewNative.SINEW_MATERIAL_TENDON;
        /// <summary>Rubber, 1.0e-6 m²/N (C: SINEW_MATERIAL_RUBBER).</summary>
        public const float Rubber = SinewNative.SINEW_MATERIAL_RUBBER;
        /// <summary>Muscle, 0.2e-3 m²/N (C: SINEW_MATERIAL_MUSCLE).</summary>
        public const float Muscle = SinewNative.SINEW_MATERIAL_MUSCLE;
        /// <summary>Fat, 1.0e-3 m²/N (C: SINEW_MATERIAL_FAT).</summary>
        public const float Fat = SinewNative.SINEW_MATERIAL_FAT;
    }
}
