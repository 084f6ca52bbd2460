//! The `gemm` binary's contract: a bad request (flags, shape limits, dtype,
//! kernel name, sweep shapes) is refused before any GPU work with one
//! `error: ...` line and exit code 2; without a GPU a good request prints one
//! line and exits with 2; a corrupt tuning cache is one warning, not an error.

use rgemm::kernels::MAX_DIM;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output};

fn gemm_with(args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Output {
    // RGEMM_GEMM_BIN: the binary's path where tests run away from the build tree.
    let bin = std::env::var("RGEMM_GEMM_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_gemm").into());
    Command::new(bin).args(args).envs(env.iter().copied()).output().expect("gemm runs")
}

fn gemm(args: &[&str]) -> Output {
    gemm_with(args, &[])
}

fn gpu_present() -> bool {
    rgemm::Gpu::new().is_ok()
}

fn skipped(test: &str, why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// A file of its own under the temp folder, removed when dropped.
struct TempPath(PathBuf);

impl TempPath {
    fn new(name: &str) -> TempPath {
        TempPath(std::env::temp_dir().join(format!("rgemm-cli-{}-{name}", std::process::id())))
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Exit code 2, nothing on stdout (no device line: the GPU was not
/// opened), one stderr line in clap's `error: ...` form.
fn assert_refused(args: &[&str], expect: &str) {
    let out = gemm(args);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{args:?}: stderr {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: expected one line: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: not clap's `error: ` form: {stderr}");
    assert!(stderr.contains(expect), "{args:?}: message does not mention {expect:?}: {stderr}");
    assert!(stdout.is_empty(), "{args:?}: ran something: {stdout}");
}

#[test]
fn bad_flags_are_refused_with_a_message() {
    for (args, expect) in [
        (&["--m", "0"][..], "--m"),
        (&["--n=-5"][..], "--n"),
        (&["--n", "-5"][..], "-5"),
        (&["--k", "abc"][..], "--k"),
        (&["--kernel", "fastest"][..], "kernel 'fastest'"),
        (&["--dtype", "f8"][..], "unsupported dtype"),
        (&["--iters", "0"][..], "--iters"),
        (&["--no-such-flag"][..], "--no-such-flag"),
    ] {
        assert_refused(args, expect);
    }
}

#[test]
fn requests_beyond_the_kernels_limits_are_refused_before_any_gpu_work() {
    let limit = MAX_DIM.to_string();
    let over = (MAX_DIM + 1).to_string();
    for (args, expect) in [
        (&["--m", over.as_str()][..], limit.as_str()),
        (&["--m", "3000000000"][..], limit.as_str()),
        (&["--n", over.as_str(), "--kernel", "auto"][..], limit.as_str()),
        (&["--k", "0"][..], "--k"),
        (&["tune", "--k", "0"][..], "--k"),
        (&["--kernel", "fastest", "tune"][..], "kernel 'fastest'"),
        (&["--kernel", "fastest", "--dtype", "all"][..], "kernel 'fastest'"),
        (&["--kernel", "fastest", "--dtype", "f16"][..], "kernel 'fastest' for f16"),
        (&["--kernel", "naive", "--dtype", "f8"][..], "unsupported dtype 'f8'"),
        (&["sweep", "--shapes", "64x64"][..], "64x64"),
        (&["sweep", "--shapes", "64x64x64,0x1x1"][..], "0x1x1"),
        (&["sweep", "--shapes", "3000000000x1x1"][..], limit.as_str()),
        (&["sweep", "--shapes", "axbxc"][..], "axbxc"),
        (&["sweep", "--shapes", ""][..], "MxNxK"),
    ] {
        assert_refused(args, expect);
    }
}

#[test]
fn help_states_the_real_limits_and_every_dtype() {
    let out = gemm(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{help}");
    assert!(help.contains(&MAX_DIM.to_string()), "help does not give the limit {MAX_DIM}: {help}");
    assert!(!help.contains(&u32::MAX.to_string()), "help gives u32::MAX as a limit: {help}");
    for dtype in rgemm::Dtype::ALL.into_iter().filter(|d| !rgemm::DtypeExt::kernels(*d).is_empty()) {
        assert!(help.contains(dtype.name()), "help does not list {}: {help}", dtype.name());
    }
    assert!(help.contains("tf32"), "{help}");
    // And tf32 is accepted: refused only for the shape, not the dtype.
    assert_refused(&["--dtype", "tf32", "--m", "0"], "--m");
}

#[test]
fn without_a_gpu_one_line_and_exit_code_2() {
    if gpu_present() {
        skipped("without_a_gpu_one_line_and_exit_code_2", "a GPU is present");
        return;
    }
    let out = gemm(&["--m", "64", "--n", "64", "--k", "64"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "expected one line: {stderr}");
    assert!(stderr.contains("no usable NVIDIA GPU"), "{stderr}");
}

/// Valid shapes whose A, B and C fit no GPU: refused once the GPU is open,
/// before any run (without a GPU: the request passes validation and the
/// no-GPU line comes instead).
#[test]
fn a_request_larger_than_device_memory_is_refused_before_it_runs() {
    let max = MAX_DIM.to_string();
    for args in [
        &["--m", max.as_str(), "--n", max.as_str(), "--k", "1", "--dtype", "f32"][..],
        &["sweep", "--shapes", &format!("64x64x64,{max}x{max}x1"), "--dtype", "f16"][..],
    ] {
        let out = gemm(args);
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: stderr {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: expected one line: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: ran something: {stdout}");
        if gpu_present() {
            assert!(stderr.starts_with("error: ") && stderr.contains("device memory"), "{args:?}: {stderr}");
        } else {
            assert!(stderr.contains("no usable NVIDIA GPU"), "{args:?}: {stderr}");
        }
    }
}

/// A tuning cache that is not JSON: `--kernel auto` (and a sweep over two
/// shapes, which asks the cache twice) warns once on stderr and runs.
#[test]
fn a_corrupt_tune_cache_is_one_warning_and_ignored() {
    let cache = TempPath::new("tune.json");
    std::fs::write(&cache.0, "{ not json").expect("temp file");
    let out_dir = TempPath::new("sweep-out");
    let env = [("RGEMM_TUNE_CACHE", cache.0.as_os_str())];
    let out_arg = out_dir.0.display().to_string();
    let runs = [
        vec!["--no-cublas", "--kernel", "auto", "--m", "64", "--n", "64", "--k", "64", "--dtype", "f32"],
        vec!["--no-cublas", "sweep", "--shapes", "64x64x64,96x80x72", "--dtype", "f16", "--out", &out_arg],
    ];
    for args in &runs {
        let out = gemm_with(args, &env);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        if !gpu_present() {
            // The cache is read only once a GPU is open to choose for.
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains("no usable NVIDIA GPU") && !stderr.contains("warning"), "{args:?}: {stderr}");
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), 1, "{args:?}: expected one warning line: {stderr}");
        assert!(lines[0].starts_with("warning: ") && lines[0].contains("tune.json"), "{args:?}: {stderr}");
    }
    assert_eq!(std::fs::read_to_string(&cache.0).expect("cache kept"), "{ not json", "auto must not rewrite the cache");
    if !gpu_present() {
        skipped("a_corrupt_tune_cache_is_one_warning_and_ignored", "no GPU to reach --kernel auto");
    }
}

/// `gemm rules` needs no GPU: on a committed H100 run of step 10's tiles it
/// prints each measured pair, agreeing with the code; an unreadable file is
/// one error line and exit code 2.
#[test]
fn rules_derive_the_choice_thresholds_from_saved_runs() {
    let run = TempPath::new("ws-tiles.txt");
    std::fs::write(&run.0, include_str!("../docs/runs/2026-11-23-ws-tiles/console.txt")).unwrap();
    let out = gemm(&["rules", run.0.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("f16   ws_128x256x64        before ws_128x128x64") && stdout.contains("agrees"),
        "{stdout}"
    );
    assert!(!stdout.contains("CHANGE"), "{stdout}");
    let out = gemm(&["rules", "/nonexistent/run.txt"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.starts_with("error: cannot read /nonexistent/run.txt") && stderr.lines().count() == 1, "{stderr}");
}

/// `--kernel all` runs every kernel or says on one line why it skips it:
/// step 86's `skinny_mma` reads the large operand along K, so with M the
/// small side of row-major operands it is skipped with its reason (the
/// run went on; before, its refusal ended the run), and with N small it
/// runs and passes its check.
#[test]
fn kernel_all_skips_what_cannot_take_the_operands_and_goes_on() {
    if !gpu_present() {
        skipped("kernel_all_skips_what_cannot_take_the_operands_and_goes_on", "no usable NVIDIA GPU");
        return;
    }
    for (m, n, runs) in [("5", "300", false), ("300", "5", true)] {
        let args =
            ["--kernel", "all", "--dtype", "f16", "--m", m, "--n", n, "--k", "72", "--iters", "1", "--no-cublas"];
        let out = gemm(&args);
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        let line = stdout.lines().find(|l| l.starts_with("skinny_mma ")).unwrap_or_else(|| panic!("{stdout}"));
        if runs {
            assert!(line.contains(" pass"), "{line}");
        } else {
            assert!(line.contains("skipped") && line.contains("along K"), "{line}");
        }
        assert!(stdout.lines().any(|l| l.starts_with("skinny_r4 ") && l.contains(" pass")), "{stdout}");
    }
}
