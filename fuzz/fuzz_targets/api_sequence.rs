//! libFuzzer drives the API-sequence harness of `tests/fuzz/harness.rs` (the one the
//! stable test `tests/ffi/fuzz_api.rs` runs with a deterministic generator): every eight
//! input bytes are one choice, and the run ends when the input is used up. A finding
//! of a kind the stable test does not allow (any kind but the harness's `KNOWN_OPEN`)
//! is a crash here, so libFuzzer keeps and minimises the input that caused it.
#![no_main]

#[path = "../../tests/fuzz/harness.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut src = harness::Bytes { data, at: 0 };
    let report = harness::run(&mut src, u64::MAX);
    for f in &report.findings {
        if !harness::known_open(&f.kind) {
            panic!(
                "{:?} in {}: {}\n  after: {}",
                f.kind,
                f.function,
                f.detail,
                f.history.join(", ")
            );
        }
    }
});
