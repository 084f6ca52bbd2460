//! The `gemm` binary's contract: bad flags are refused with a message and a
//! non-zero exit; without a GPU it prints one line and exits with 2.

use std::process::Command;

fn gemm(args: &[&str]) -> std::process::Output {
    // RGEMM_GEMM_BIN: the binary's path where tests run away from the build tree.
    let bin = std::env::var("RGEMM_GEMM_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_gemm").into());
    Command::new(bin).args(args).output().expect("gemm runs")
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
    ] {
        let out = gemm(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(stderr.contains(expect), "{args:?}: message does not mention {expect:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    }
}

#[test]
fn without_a_gpu_one_line_and_exit_code_2() {
    if rgemm::Gpu::new().is_ok() {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "SKIPPED without_a_gpu_one_line_and_exit_code_2: a GPU is present");
        return;
    }
    let out = gemm(&["--m", "64", "--n", "64", "--k", "64"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "expected one line: {stderr}");
    assert!(stderr.contains("no usable NVIDIA GPU"), "{stderr}");
}
