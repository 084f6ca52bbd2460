//! Assembles the embedded PTX for sm_90 with ptxas (CPU only) and holds every
//! kernel to no spills and no stack frame. ptxas comes from
//! `scripts/bootstrap.sh` (path in `RGEMM_PTXAS`, set by .cargo/config.toml);
//! without it the test says why it skipped, unless `RGEMM_REQUIRE_PTXAS=1`
//! (CI sets it) makes that a failure.

use std::io::Write;
use std::process::Command;

#[test]
fn every_kernel_assembles_for_sm90_without_spills() {
    let ptxas = std::env::var("RGEMM_PTXAS").unwrap_or_else(|_| "ptxas".into());
    let dir = std::env::temp_dir().join(format!("rgemm-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The sm_80 module is assembled for sm_90 (what an H100/H200 runs), the
    // Hopper module for sm_90a.
    let mut log = String::new();
    for (arch, module) in [("sm_90", rgemm::ptx::PTX_SM80), ("sm_90a", rgemm::ptx::PTX_SM90A)] {
        let ptx = dir.join(format!("kernels-{arch}.ptx"));
        std::fs::write(&ptx, module).unwrap();
        let output = Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .args(["-v", "-o"])
            .arg(dir.join("k.cubin"))
            .arg(&ptx)
            .output();
        let output = match output {
            Ok(o) => o,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&dir);
                assert!(
                    std::env::var("RGEMM_REQUIRE_PTXAS").is_err(),
                    "ptxas required but not runnable ({ptxas}): {e}"
                );
                let _ =
                    writeln!(std::io::stderr(), "SKIPPED: ptxas not found ({ptxas}: {e}); run scripts/bootstrap.sh");
                return;
            }
        };
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "ptxas -arch={arch} failed:\n{stderr}");
        // ptxas warns when it has to serialize wgmma (e.g. accumulators
        // touched while in flight): a silent slow path.
        assert!(!stderr.contains("warning"), "ptxas -arch={arch} warned:\n{stderr}");
        log.push_str(&stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
    // ptxas -v prints, per entry: "Compiling entry function 'NAME'", then
    // "N bytes stack frame, N bytes spill stores, N bytes spill loads".
    let mut checked = 0;
    for block in log.split("Compiling entry function").skip(1) {
        let name = block.split('\'').nth(1).unwrap_or("?");
        let frame = block
            .lines()
            .find(|l| l.contains("bytes stack frame"))
            .unwrap_or_else(|| panic!("{name}: no resource line"));
        assert!(
            frame.contains(" 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"),
            "{name} spills or has a stack frame: {frame}"
        );
        checked += 1;
    }
    let entries: usize = gemm_launch::KERNELS
        .iter()
        .map(|s| gemm_launch::OperandLayout::ALL.iter().filter(|l| s.supports(**l)).count())
        .sum::<usize>()
        + gemm_launch::split_k::REDUCE_KERNELS.len();
    assert_eq!(checked, entries, "ptxas reported a different number of kernels:\n{log}");
}
