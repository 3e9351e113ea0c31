//! include/sinew.h is generated from src/ffi by cbindgen (pinned in Cargo.toml and
//! cbindgen.toml) and committed. This test fails when the committed header is stale.
//!
//! To regenerate: `SINEW_UPDATE_HEADER=1 cargo test --test ffi header::`
//! (or `cbindgen --config cbindgen.toml --crate sinew --output include/sinew.h`).

use std::path::PathBuf;

#[test]
fn committed_header_matches_src_ffi() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_crate(&root)
        .generate()
        .expect("cbindgen generates the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = root.join("include/sinew.h");
    if std::env::var_os("SINEW_UPDATE_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("write include/sinew.h");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/sinew.h is stale against src/ffi: run `SINEW_UPDATE_HEADER=1 cargo test --test ffi header::` \
         and update the C#/C++ layers"
    );
}

#[test]
fn header_declares_the_contract() {
    let header =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/sinew.h")).unwrap();
    for name in [
        "sinew_abi_version(void)",
        "sinew_version(void)",
        "sinew_last_error_message(void)",
        "sinew_world_desc_default(void)",
        "sinew_world_create(const struct SinewWorldDesc *desc, struct SinewWorld *out_world)",
        "sinew_world_destroy(struct SinewWorld world)",
        "sinew_world_step(struct SinewWorld world, float dt)",
        "sinew_world_add_particles(",
        "sinew_world_particle_count(struct SinewWorld world, uint32_t *out_count)",
        "sinew_world_read_positions(",
        "sinew_world_write_positions(",
        "sinew_world_read_velocities(",
        "sinew_world_write_velocities(",
        "sinew_world_set_inverse_masses(",
        "sinew_world_add_distance_constraints(",
        "sinew_world_add_pbd_distance_constraints(",
        "sinew_world_read_constraint_forces(",
        "SINEW_OK = 0",
        "SINEW_ERROR_INTERNAL = 6",
        "SINEW_SOLVER_JACOBI = 1",
        "typedef int32_t SinewStatus;",
    ] {
        assert!(header.contains(name), "include/sinew.h lacks `{name}`");
    }
}
