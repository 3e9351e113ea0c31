// The Sinew runtime module: loads the native library at startup, checks its ABI
// version, and frees it at shutdown.
#pragma once

#include "CoreMinimal.h"
#include "Modules/ModuleInterface.h"

DECLARE_LOG_CATEGORY_EXTERN(LogSinew, Log, All);

class SINEW_API FSinewModule : public IModuleInterface
{
public:
	virtual void StartupModule() override;
	virtual void ShutdownModule() override;

	/** True when the native library is loaded and speaks the ABI of the headers. */
	static bool IsAvailable();

private:
	/** Windows and Mac: the handle of the library loaded by StartupModule. */
	void* LibraryHandle = nullptr;
	static bool bAvailable;
};
