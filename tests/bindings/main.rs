//! The bindings and engine packages, one binary (`cargo test --test bindings`; one area:
//! `cargo test --test bindings cpp_wrapper::`): the C++ wrapper and the Unreal plugin
//! (g++, plain and under ASan/UBSan), the generated C# layer
//! (`SINEW_UPDATE_BINDINGS=1 cargo test --test bindings csharp_bindings::`), the Unity
//! package (`SINEW_UPDATE_UNITY=1 cargo test --test bindings unity_package::`) and the
//! plugin build scripts.
//!
//! Adding a file: put `tests/bindings/<name>.rs` here and declare it below (`mod <name>;`).

mod build_plugins;
mod cpp_wrapper;
mod csharp_bindings;
mod engine_limits;
mod settings_schema;
mod unity_package;
mod unsafe_places;
