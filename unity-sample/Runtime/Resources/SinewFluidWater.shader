// The default material of SinewFluid's ellipsoids (built-in render pipeline): transparent
// water. A depth-only pass first, so that only the nearest ellipsoid surface at each pixel
// is shaded and blended (overlapping ellipsoids merge into one surface instead of stacking
// their transparency); then the StandardSpecular lighting model with water's reflectance
// (F0 = 0.02, very smooth), the per-instance colour (_Color, declared as an instanced
// property, set by SinewFluid per instance through a MaterialPropertyBlock, so every batch
// of 1023 ellipsoids stays one draw call), an opacity that rises towards the silhouette
// and a sky-coloured rim (Schlick's Fresnel term, (1 - n.v)^_RimPower). No refraction: the
// scene behind shows through, tinted. In Resources/ so that
// Shader.Find("Sinew/Fluid Water") finds it in player builds too. URP and HDRP: give
// SinewFluid a transparent material of your pipeline whose colour property is instanced.
Shader "Sinew/Fluid Water"
{
    Properties
    {
        _Color ("Color", Color) = (0.1, 0.35, 0.85, 1)
        _Opacity ("Opacity facing the camera", Range(0, 1)) = 0.7
        _Glossiness ("Smoothness", Range(0, 1)) = 0.95
        _RimColor ("Rim (sky) colour", Color) = (0.8, 0.9, 1, 1)
        _RimPower ("Rim power (Fresnel exponent)", Range(0.5, 8)) = 5
    }
    SubShader
    {
        Tags { "Queue" = "Transparent" "RenderType" = "Transparent" "IgnoreProjector" = "True" }
        LOD 200

        // Depth only: the nearest ellipsoid wins the depth test of the colour pass.
        Pass
        {
            ZWrite On
            ColorMask 0

            CGPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #pragma multi_compile_instancing
            #include "UnityCG.cginc"

            struct appdata
            {
                float4 vertex : POSITION;
                UNITY_VERTEX_INPUT_INSTANCE_ID
            };

            struct v2f
            {
                float4 pos : SV_POSITION;
            };

            v2f vert(appdata v)
            {
                v2f o;
                UNITY_SETUP_INSTANCE_ID(v);
                o.pos = UnityObjectToClipPos(v.vertex);
                return o;
            }

            fixed4 frag(v2f i) : SV_Target
            {
                return 0;
            }
            ENDCG
        }

        ZWrite Off
        ZTest LEqual

        CGPROGRAM
        #pragma surface surf StandardSpecular alpha:fade
        #pragma multi_compile_instancing
        #pragma target 3.0

        struct Input
        {
            float3 viewDir;
            float3 worldNormal;
        };

        half _Opacity;
        half _Glossiness;
        fixed4 _RimColor;
        half _RimPower;

        UNITY_INSTANCING_BUFFER_START(Props)
            UNITY_DEFINE_INSTANCED_PROP(fixed4, _Color)
        UNITY_INSTANCING_BUFFER_END(Props)

        void surf(Input IN, inout SurfaceOutputStandardSpecular o)
        {
            fixed4 c = UNITY_ACCESS_INSTANCED_PROP(Props, _Color);
            half facing = saturate(dot(normalize(IN.viewDir), normalize(IN.worldNormal)));
            half fresnel = 0.02 + 0.98 * pow(1.0 - facing, _RimPower);
            o.Albedo = c.rgb * (1.0 - fresnel);
            o.Specular = 0.02;
            o.Smoothness = _Glossiness;
            o.Emission = _RimColor.rgb * fresnel;
            o.Alpha = saturate(_Opacity * c.a + fresnel);
        }
        ENDCG
    }
    FallBack "Transparent/Diffuse"
}
