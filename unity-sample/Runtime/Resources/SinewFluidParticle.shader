// The default material of SinewFluid's instanced spheres (built-in render pipeline): the
// Standard lighting model with a per-instance colour (_Color, declared as an instanced
// property, so the colours SinewFluid sets per instance through a MaterialPropertyBlock
// keep every batch of 1023 spheres in one draw call). In Resources/ so that
// Shader.Find("Sinew/Fluid Particle") finds it in player builds too. URP and HDRP: give
// SinewFluid a material of your pipeline whose colour property is instanced.
Shader "Sinew/Fluid Particle"
{
    Properties
    {
        _Color ("Color", Color) = (0.1, 0.35, 0.85, 1)
        _Glossiness ("Smoothness", Range(0, 1)) = 0.85
    }
    SubShader
    {
        Tags { "RenderType" = "Opaque" }
        LOD 200

        CGPROGRAM
        #pragma surface surf Standard fullforwardshadows
        #pragma multi_compile_instancing
        #pragma target 3.0

        struct Input
        {
            float3 worldPos;
        };

        half _Glossiness;

        UNITY_INSTANCING_BUFFER_START(Props)
            UNITY_DEFINE_INSTANCED_PROP(fixed4, _Color)
        UNITY_INSTANCING_BUFFER_END(Props)

        void surf(Input IN, inout SurfaceOutputStandard o)
        {
            fixed4 c = UNITY_ACCESS_INSTANCED_PROP(Props, _Color);
            o.Albedo = c.rgb;
            o.Smoothness = _Glossiness;
            o.Alpha = c.a;
        }
        ENDCG
    }
    FallBack "Diffuse"
}
