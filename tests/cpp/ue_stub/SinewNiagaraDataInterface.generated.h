// Stub: Unreal's header tool writes this file.
