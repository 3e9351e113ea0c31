// The Sinew native library as an External module: headers, the import library / .so /
// .dylib per platform, and the runtime copy next to the module binaries.
//
// Expected layout (unreal-sample/stage-library.sh fills it from a `cargo build --release`):
//   include/               sinew.h and the bindings/cpp headers (sinew.hpp, sinew_*.hpp)
//   lib/Win64/             sinew.dll and its import library sinew.dll.lib
//   lib/Linux/             libsinew.so
//   lib/Mac/               libsinew.dylib (install name @rpath/libsinew.dylib)
//   lib/Android/arm64-v8a/ libsinew.a (static, aarch64-linux-android)
//   lib/Android/x86_64/    libsinew.a (static, x86_64-linux-android)
//   lib/IOS/               libsinew.a (static, aarch64-apple-ios)
// Android and iOS link the static library into the game binary: nothing is loaded or
// copied at run time (FSinewModule skips the loader there).
using System.IO;
using UnrealBuildTool;

public class SinewLibrary : ModuleRules
{
	public SinewLibrary(ReadOnlyTargetRules Target) : base(Target)
	{
		Type = ModuleType.External;

		string IncludeDir = Path.Combine(ModuleDirectory, "include");
		PublicSystemIncludePaths.Add(IncludeDir);

		string LibDir = Path.Combine(ModuleDirectory, "lib", Target.Platform.ToString());

		if (Target.Platform == UnrealTargetPlatform.Win64)
		{
			// Link against the import library; load the DLL ourselves in
			// FSinewModule::StartupModule (delay-load), so the editor starts even when
			// the DLL is missing and the module can report it.
			PublicAdditionalLibraries.Add(Path.Combine(LibDir, "sinew.dll.lib"));
			PublicDelayLoadDLLs.Add("sinew.dll");
			RuntimeDependencies.Add("$(BinaryOutputDir)/sinew.dll", Path.Combine(LibDir, "sinew.dll"));
		}
		else if (Target.Platform == UnrealTargetPlatform.Mac)
		{
			string Dylib = Path.Combine(LibDir, "libsinew.dylib");
			PublicAdditionalLibraries.Add(Dylib);
			PublicDelayLoadDLLs.Add(Dylib);
			RuntimeDependencies.Add("$(BinaryOutputDir)/libsinew.dylib", Dylib);
		}
		else if (Target.Platform == UnrealTargetPlatform.Linux)
		{
			// The dynamic linker resolves libsinew.so when the Sinew module is loaded
			// (UBT adds an rpath to the runtime copy next to the binaries).
			string So = Path.Combine(LibDir, "libsinew.so");
			PublicAdditionalLibraries.Add(So);
			RuntimeDependencies.Add("$(BinaryOutputDir)/libsinew.so", So);
		}

		else if (Target.Platform == UnrealTargetPlatform.Android)
		{
			// One static library per architecture; UBT's Android toolchain links the one
			// whose folder names the architecture it builds (arm64-v8a or x86_64).
			PublicAdditionalLibraries.Add(Path.Combine(LibDir, "arm64-v8a", "libsinew.a"));
			PublicAdditionalLibraries.Add(Path.Combine(LibDir, "x86_64", "libsinew.a"));
		}
		else if (Target.Platform == UnrealTargetPlatform.IOS)
		{
			PublicAdditionalLibraries.Add(Path.Combine(LibDir, "libsinew.a"));
		}

		PublicDefinitions.Add("WITH_SINEW_LIBRARY=1");
	}
}
