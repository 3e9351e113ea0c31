// Runtime module of the Sinew plugin: loads the native library, owns one simulation
// per UWorld (USinewWorldSubsystem) and provides the rope and cloth components and a
// Niagara data interface (USinewNiagaraDataInterface).
// Platforms (Sinew.uplugin's PlatformAllowList): Win64, Linux and Mac load the shared
// library; Android (arm64-v8a, x86_64) and IOS link the static one (SinewLibrary.Build.cs
// says where stage-library.sh puts each).
using UnrealBuildTool;

public class Sinew : ModuleRules
{
	public Sinew(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;

		PublicDependencyModuleNames.AddRange(new string[]
		{
			"Core",
			"CoreUObject",
			"Engine",
			"DeveloperSettings",
			"ProceduralMeshComponent",
			"SinewLibrary",
			// USinewNiagaraDataInterface (its public header derives from UNiagaraDataInterface)
			"Niagara",
			"NiagaraCore",
			"VectorVM",
		});

		PrivateDependencyModuleNames.AddRange(new string[]
		{
			"Projects",
			"RenderCore", // the ropes' and cloths' scene proxy (FSinewMeshSceneProxy), the Niagara data interface's GPU buffer (RDG)
			"RHI",
			"NiagaraShader", // the Niagara data interface's HLSL and shader parameters (GPU emitters)
			"Landscape", // USinewLandscapeColliderComponent samples ALandscapeProxy heights
		});
	}
}
