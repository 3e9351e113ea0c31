//! The C boundary, one binary (`cargo test --test ffi`; one area:
//! `cargo test --test ffi bad_input::`): the C ABI from gcc-compiled C programs, bad
//! input for every C function, the accepted ranges, the header's and the docs'
//! freshness (`SINEW_UPDATE_HEADER=1 cargo test --test ffi header::`,
//! `SINEW_UPDATE_DOCS=1 cargo test --test ffi docs::`), the API-sequence fuzzer, the
//! same-world thread stress test and host task systems.
//!
//! Adding a file: put `tests/ffi/<name>.rs` here and declare it below (`mod <name>;`).

mod accepted_ranges;
mod bad_input;
mod c_abi;
mod docs;
mod doubled_triangles;
mod fuzz_api;
mod handle_serials;
mod header;
mod render_normals;
mod snapshot_sweeps;
mod task_system;
mod threads;
