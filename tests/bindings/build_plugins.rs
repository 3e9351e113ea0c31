//! unity-sample/Tools~/build-plugins.sh: a target whose toolchain is missing here is
//! skipped with a message naming what to install, nothing is built for it and the
//! script still succeeds; an unknown target is an error. (Linux hosts: the Apple and
//! MSVC targets are never buildable there, so the check needs no toolchain and builds
//! nothing.) The targets that do build are listed in docs/unity.md, "Platforms".

#[cfg(target_os = "linux")]
#[test]
fn missing_toolchains_are_skipped_with_a_message() {
    use std::process::Command;
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/unity-sample/Tools~/build-plugins.sh"
    );
    let out = Command::new("bash")
        .arg(script)
        .args([
            "--target",
            "aarch64-apple-ios",
            "--target",
            "x86_64-apple-ios",
        ])
        .args([
            "--target",
            "aarch64-apple-darwin",
            "--target",
            "x86_64-pc-windows-msvc",
        ])
        .output()
        .expect("run build-plugins.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for t in [
        "aarch64-apple-ios",
        "x86_64-apple-ios",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(
            stdout.contains(&format!("-- skipping {t}: ")),
            "{t} not reported as skipped:\n{stdout}"
        );
    }
    assert!(stdout.contains("built:   nothing"), "{stdout}");
    assert!(!stdout.contains("== cargo"), "nothing may build:\n{stdout}");

    let bad = Command::new("bash")
        .arg(script)
        .args(["--target", "riscv64gc-unknown-none-elf"])
        .output()
        .expect("run build-plugins.sh");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no Plugins/ folder for target"));
}

/// The importer settings of the mobile and WebGL plugins the script fills: each Android
/// library names its CPU, the iOS device and simulator libraries exclude each other by
/// the scripting define SINEW_IOS_SIMULATOR (set it in Player Settings for a Simulator
/// SDK build), the WebGL library is on for WebGL only.
#[test]
fn mobile_and_webgl_plugin_metas_name_their_variant() {
    let read = |p: &str| {
        let path = format!(
            "{}/unity-sample/Plugins/{p}.meta",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    assert!(read("Android/arm64-v8a/libsinew.so").contains("        CPU: ARM64\n"));
    assert!(read("Android/x86_64/libsinew.so").contains("        CPU: X86_64\n"));
    let device = read("iOS/libsinew.a");
    let simulator = read("iOS/Simulator/libsinew.a");
    assert!(device.contains("  defineConstraints:\n  - '!SINEW_IOS_SIMULATOR'\n"));
    assert!(simulator.contains("  defineConstraints:\n  - SINEW_IOS_SIMULATOR\n"));
    let webgl = read("WebGL/libsinew.a");
    assert!(webgl.contains("      WebGL: WebGL\n    second:\n      enabled: 1\n"));
    assert!(webgl.contains("        Exclude WebGL: 0\n"));
}
