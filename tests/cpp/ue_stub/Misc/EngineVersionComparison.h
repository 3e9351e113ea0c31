#pragma once
// Stub: the engine version the stand-in follows (UE 5.4's Niagara data interface API).
#define ENGINE_MAJOR_VERSION 5
#define ENGINE_MINOR_VERSION 4
#define ENGINE_PATCH_VERSION 0
#define UE_VERSION_OLDER_THAN(Major, Minor, Patch)                                                                     \
    (ENGINE_MAJOR_VERSION < (Major) ||                                                                                 \
     (ENGINE_MAJOR_VERSION == (Major) &&                                                                               \
      (ENGINE_MINOR_VERSION < (Minor) || (ENGINE_MINOR_VERSION == (Minor) && ENGINE_PATCH_VERSION < (Patch)))))
