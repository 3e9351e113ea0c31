// The default material of SinewFluid's diffuse particles (spray, foam, bubbles; built-in
// render pipeline): each instance is a quad (Unity's Quad primitive, vertices at +-0.5)
// turned to face the camera in the vertex shader, of the size the instance matrix's scale
// gives, drawn as a soft round dot in the per-instance colour (_Color, declared as an
// instanced property: SinewFluid sets it per instance, its alpha fading with the
// particle's kind and remaining life). Alpha-blended, no depth write, no lighting. In
// Resources/ so that Shader.Find("Sinew/Fluid Diffuse") finds it in player builds too.
Shader "Sinew/Fluid Diffuse"
{
    Properties
    {
        _Color ("Color", Color) = (0.95, 0.98, 1, 1)
    }
    SubShader
    {
        Tags { "Queue" = "Transparent" "RenderType" = "Transparent" "IgnoreProjector" = "True" }
        ZWrite Off
        Cull Off
        Blend SrcAlpha OneMinusSrcAlpha

        Pass
        {
            CGPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #pragma multi_compile_instancing
            #include "UnityCG.cginc"

            UNITY_INSTANCING_BUFFER_START(Props)
                UNITY_DEFINE_INSTANCED_PROP(fixed4, _Color)
            UNITY_INSTANCING_BUFFER_END(Props)

            struct appdata
            {
                float4 vertex : POSITION;
                UNITY_VERTEX_INPUT_INSTANCE_ID
            };

            struct v2f
            {
                float4 pos : SV_POSITION;
                float2 uv : TEXCOORD0;
                fixed4 color : COLOR;
            };

            v2f vert(appdata v)
            {
                v2f o;
                UNITY_SETUP_INSTANCE_ID(v);
                // The instance's centre in view space, the quad spread in the view plane.
                float3 centre = mul(unity_ObjectToWorld, float4(0, 0, 0, 1)).xyz;
                float size = length(unity_ObjectToWorld._m00_m10_m20);
                float3 view = mul(UNITY_MATRIX_V, float4(centre, 1)).xyz + float3(v.vertex.xy * size, 0);
                o.pos = mul(UNITY_MATRIX_P, float4(view, 1));
                o.uv = v.vertex.xy * 2.0;
                o.color = UNITY_ACCESS_INSTANCED_PROP(Props, _Color);
                return o;
            }

            fixed4 frag(v2f i) : SV_Target
            {
                float r2 = dot(i.uv, i.uv);
                clip(1.0 - r2);
                fixed4 c = i.color;
                c.a *= 1.0 - r2;
                return c;
            }
            ENDCG
        }
    }
}
