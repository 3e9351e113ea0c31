// Runtime module of the Sinew plugin: loads the native library, owns one simulation
// per UWorld (USinewWorldSubsystem) and provides the rope and cloth components.
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
		});

		PrivateDependencyModuleNames.AddRange(new string[]
		{
			"Projects",
			"RenderCore", // the ropes' and cloths' scene proxy (FSinewMeshSceneProxy)
			"RHI",
		});
	}
}
