//! Every function the API-sequence fuzzer calls, and the host task system it installs.

use super::*;

/// Every function the harness can call, by name (the coverage check compares this set
/// with the header's declarations).
pub const FUNCTIONS: &[&str] = &[
    "sinew_abi_version",
    "sinew_version",
    "sinew_last_error_message",
    "sinew_world_add_attachment_host",
    "sinew_world_set_attachment_host_transform",
    "sinew_world_add_attachments",
    "sinew_world_set_attachment_compliance",
    "sinew_world_read_attachment_forces",
    "sinew_rope_desc_default",
    "sinew_rope_desc_init",
    "sinew_cloth_desc_default",
    "sinew_cloth_desc_init",
    "sinew_cloth_grid_desc_default",
    "sinew_cloth_grid_desc_init",
    "sinew_tet_body_desc_default",
    "sinew_tet_body_desc_init",
    "sinew_pressure_body_desc_default",
    "sinew_pressure_body_desc_init",
    "sinew_world_add_rope",
    "sinew_world_add_rope_polyline",
    "sinew_world_add_cloth_mesh",
    "sinew_world_add_cloth_grid",
    "sinew_world_add_tet_body",
    "sinew_world_add_pressure_body",
    "sinew_world_remove_body",
    "sinew_world_body_count",
    "sinew_body_particle_range",
    "sinew_body_info",
    "sinew_body_read_positions",
    "sinew_body_set_compliance",
    "sinew_body_set_damping",
    "sinew_body_set_pressure",
    "sinew_body_volume",
    "sinew_body_read_forces",
    "sinew_constraints_remove",
    "sinew_constraints_is_removed",
    "sinew_constraints_set_rest",
    "sinew_constraints_read_rest",
    "sinew_constraints_set_compliance",
    "sinew_constraints_set_stiffness",
    "sinew_body_set_rest_scale",
    "sinew_body_set_mass",
    "sinew_constraints_set_break_force",
    "sinew_body_set_break_force",
    "sinew_world_break_event_count",
    "sinew_world_take_break_events",
    "sinew_body_cut_rope",
    "sinew_body_cut_rope_along",
    "sinew_body_add_winch",
    "sinew_body_set_winch_speed",
    "sinew_body_set_winch_target",
    "sinew_body_winch_state",
    "sinew_body_set_tear_threshold",
    "sinew_cloth_tear_status",
    "sinew_cloth_topology_version",
    "sinew_cloth_topology_counts",
    "sinew_cloth_read_topology",
    "sinew_collider_desc_default",
    "sinew_collider_desc_init",
    "sinew_world_add_collider",
    "sinew_world_add_mesh_collider",
    "sinew_collider_remove",
    "sinew_collider_set_transform",
    "sinew_collider_set_material",
    "sinew_world_collider_count",
    "sinew_world_set_particle_radii",
    "sinew_world_set_collision_filters",
    "sinew_world_set_unyielding",
    "sinew_world_set_max_speed",
    "sinew_world_contact_count",
    "sinew_world_read_contacts",
    "sinew_world_pick_particle",
    "sinew_world_grab_particle",
    "sinew_world_move_grab",
    "sinew_world_release_particle",
    "sinew_world_add_distance_constraints",
    "sinew_world_add_pbd_distance_constraints",
    "sinew_world_distance_constraint_count",
    "sinew_world_read_constraint_forces",
    "sinew_world_add_tethers",
    "sinew_world_add_dihedral_bending",
    "sinew_world_add_isometric_bending",
    "sinew_world_add_tet_volume_constraints",
    "sinew_world_add_pressure_volume",
    "sinew_world_family_constraint_count",
    "sinew_world_read_family_forces",
    "sinew_world_pressure_volume",
    "sinew_world_add_triangle_strain",
    "sinew_world_add_tet_strain",
    "sinew_world_add_unilateral_areas",
    "sinew_world_add_unilateral_volumes",
    "sinew_world_set_planar",
    "sinew_world_add_ring_area",
    "sinew_world_ring_area",
    "sinew_world_add_shape_cluster",
    "sinew_world_set_shape_cluster_stiffness",
    "sinew_world_add_particles",
    "sinew_world_particle_count",
    "sinew_world_read_positions",
    "sinew_world_write_positions",
    "sinew_world_read_velocities",
    "sinew_world_write_velocities",
    "sinew_world_set_inverse_masses",
    "sinew_world_desc_default",
    "sinew_world_desc_init",
    "sinew_world_create",
    "sinew_world_destroy",
    "sinew_world_step",
    "sinew_wind_desc_default",
    "sinew_wind_desc_init",
    "sinew_world_set_wind",
    "sinew_wind_zone_desc_default",
    "sinew_wind_zone_desc_init",
    "sinew_world_add_wind_zone",
    "sinew_world_set_wind_zone",
    "sinew_world_remove_wind_zone",
    "sinew_world_wind_at",
    "sinew_body_set_aerodynamics",
    "sinew_body_set_skin_weights",
    "sinew_body_set_skin_targets",
    "sinew_body_set_skin_root",
    "sinew_body_teleport_to_skin",
    "sinew_world_snapshot_size",
    "sinew_world_save_snapshot",
    "sinew_world_restore_snapshot",
    "sinew_world_create_from_snapshot",
    "sinew_world_state_hash",
    "sinew_world_advance",
    "sinew_world_read_interpolated_positions",
    "sinew_body_read_interpolated_positions",
    "sinew_world_set_task_system",
    "sinew_world_set_profiling",
    "sinew_world_read_stage_times",
    "sinew_world_profile_counts",
    "sinew_profile_stage_name",
    "sinew_world_set_profile_callback",
    "sinew_fluid_desc_default",
    "sinew_fluid_desc_init",
    "sinew_emitter_desc_default",
    "sinew_emitter_desc_init",
    "sinew_kill_volume_desc_default",
    "sinew_kill_volume_desc_init",
    "sinew_world_add_fluid",
    "sinew_fluid_remove",
    "sinew_world_fluid_count",
    "sinew_fluid_get_desc",
    "sinew_fluid_set_desc",
    "sinew_fluid_particle_range",
    "sinew_fluid_stats",
    "sinew_fluid_emit",
    "sinew_fluid_clear",
    "sinew_fluid_add_emitter",
    "sinew_emitter_set",
    "sinew_emitter_remove",
    "sinew_fluid_add_kill_volume",
    "sinew_kill_volume_remove",
    "sinew_fluid_read_particles",
    "sinew_body_set_fluid_coupling",
    "sinew_body_fluid_force",
];

/// A host task system for the fuzzer: runs every range inside `enqueue`, one item at a
/// time, forwards (user_context NULL) or backwards (non-NULL), and returns NULL.
pub(crate) unsafe extern "C" fn fuzz_enqueue(
    task: SinewTaskFn,
    item_count: u32,
    _min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    let task = task.expect("Sinew passes a task");
    for k in 0..item_count {
        let i = if user_context.is_null() {
            k
        } else {
            item_count - 1 - k
        };
        // SAFETY: Sinew's task over its own items, before enqueue returns.
        unsafe { task(i, i + 1, task_context) };
    }
    std::ptr::null_mut()
}

/// A host's profiler markers for the fuzzer: counts the calls (any thread may step).
pub(crate) unsafe extern "C" fn fuzz_marker(_stage: u32, begin: u32, _user_data: *mut c_void) {
    assert!(begin <= 1, "begin {begin}");
    PROFILE_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Calls of [`fuzz_marker`] so far.
pub(crate) static PROFILE_CALLS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

/// Never called: `fuzz_enqueue` returns NULL.
pub(crate) unsafe extern "C" fn fuzz_finish(_host_task: *mut c_void, _user_context: *mut c_void) {
    panic!("finish called for a NULL handle");
}
