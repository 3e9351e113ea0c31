#include "SinewModule.h"

#include "HAL/PlatformProcess.h"
#include "Interfaces/IPluginManager.h"
#include "Misc/Paths.h"
#include "Modules/ModuleManager.h"

THIRD_PARTY_INCLUDES_START
#include "sinew.hpp"
THIRD_PARTY_INCLUDES_END

DEFINE_LOG_CATEGORY(LogSinew);

bool FSinewModule::bAvailable = false;

namespace
{
#if PLATFORM_WINDOWS
const TCHAR* const SinewLibraryFile = TEXT("sinew.dll");
#elif PLATFORM_MAC
const TCHAR* const SinewLibraryFile = TEXT("libsinew.dylib");
#elif PLATFORM_ANDROID || PLATFORM_IOS
const TCHAR* const SinewLibraryFile = TEXT("libsinew.a (linked statically)");
#else
const TCHAR* const SinewLibraryFile = TEXT("libsinew.so");
#endif
}

void FSinewModule::StartupModule()
{
	bAvailable = false;

#if PLATFORM_WINDOWS || PLATFORM_MAC
	// The library is delay-loaded: load it from where SinewLibrary.Build.cs staged it
	// before any sinew_* function is called. RuntimeDependencies copies it next to the
	// module binaries ($(BinaryOutputDir)): the plugin's Binaries/<Platform> in the
	// editor, the game's Binaries/<Platform> in a packaged build.
	TArray<FString> Candidates;
	if (TSharedPtr<IPlugin> Plugin = IPluginManager::Get().FindPlugin(TEXT("Sinew")))
	{
		const FString BaseDir = Plugin->GetBaseDir();
		Candidates.Add(FPaths::Combine(BaseDir, TEXT("Binaries"), FPlatformProcess::GetBinariesSubdirectory(), SinewLibraryFile));
		Candidates.Add(FPaths::Combine(BaseDir, TEXT("Source/ThirdParty/SinewLibrary/lib"), FPlatformProcess::GetBinariesSubdirectory(), SinewLibraryFile));
	}
	Candidates.Add(FPaths::Combine(FPlatformProcess::GetModulesDirectory(), SinewLibraryFile));

	for (const FString& Path : Candidates)
	{
		if (FPaths::FileExists(Path))
		{
			LibraryHandle = FPlatformProcess::GetDllHandle(*Path);
			if (LibraryHandle)
			{
				UE_LOG(LogSinew, Log, TEXT("Loaded %s"), *Path);
				break;
			}
		}
	}
	if (!LibraryHandle)
	{
		UE_LOG(LogSinew, Error, TEXT("Could not load %s (looked in: %s). Run unreal-sample/stage-library.sh; Sinew components will not simulate."),
			SinewLibraryFile, *FString::Join(Candidates, TEXT(", ")));
		return;
	}
#endif

	const sinew::Result<void> Abi = sinew::check_abi();
	if (!Abi)
	{
		UE_LOG(LogSinew, Error, TEXT("%s: %s"), SinewLibraryFile, UTF8_TO_TCHAR(Abi.error().message.c_str()));
		return;
	}
	bAvailable = true;
	UE_LOG(LogSinew, Log, TEXT("Sinew %s (ABI %u) ready"), UTF8_TO_TCHAR(sinew::version()), (uint32)SINEW_ABI_VERSION);
}

void FSinewModule::ShutdownModule()
{
	// Every world subsystem (and with it every sinew world) is gone by now.
	bAvailable = false;
	if (LibraryHandle)
	{
		FPlatformProcess::FreeDllHandle(LibraryHandle);
		LibraryHandle = nullptr;
	}
}

bool FSinewModule::IsAvailable()
{
	return bAvailable;
}

IMPLEMENT_MODULE(FSinewModule, Sinew)
