#!/usr/bin/env bash
# Runs on the GPU machine over a bundle from scripts/device-bundle.sh: the GPU
# tests, compute-sanitizer on odd and aligned shapes, the criterion bench, then
# the benchmarks.
# Full logs go to $OUT (or ./device-out); a summary is printed last.
# QUICK=1 leaves out the criterion bench and `gemm tune` (the longest parts).
set -u
B=${1:-device-bundle}
OUT=${OUT:-device-out}; mkdir -p "$OUT"
export RGEMM_GEMM_BIN=$B/gemm RGEMM_TUNE_CACHE=$OUT/tune.json
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
summary=()
note() { summary+=("$*"); echo "== $*"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$OUT/gpu.txt"
for t in "$B"/tests/*; do
  if "$t" --test-threads=1 >"$OUT/test-$(basename "$t").log" 2>&1; then r=pass; else r=FAIL; fi
  note "tests/$(basename "$t"): $r ($(grep -h 'test result' "$OUT/test-$(basename "$t").log" | tail -1))"
  grep -h SKIPPED "$OUT/test-$(basename "$t").log"
done
for tool in memcheck racecheck synccheck initcheck; do
  for shape in "--m 129 --n 131 --k 67" "--m 256 --n 256 --k 256"; do
    log="$OUT/sanitizer-$tool-${shape// /_}.log"
    "$SAN" --tool "$tool" --error-exitcode 3 "$B/gemm" $shape --iters 1 --no-cublas >"$log" 2>&1
    note "compute-sanitizer --tool $tool gemm $shape: rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$log" | tr '\n' ' ')"
  done
done
# Every PTX entry (all layouts) with α, β and a batch, from the library tests.
for tool in memcheck racecheck synccheck initcheck; do
  log="$OUT/sanitizer-$tool-library-layouts.log"
  "$SAN" --tool "$tool" --error-exitcode 3 "$B/tests/library" every_layout_kernel --test-threads=1 >"$log" 2>&1
  note "compute-sanitizer --tool $tool tests/library every_layout_kernel: rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$log" | tr '\n' ' ')"
done
"$B/gemm" --list-kernels | tee "$OUT/list-kernels.txt"
[ -n "${QUICK:-}" ] || for bench in "$B"/benches/*; do
  "$bench" --bench >"$OUT/criterion.txt" 2>&1
  note "benches/$(basename "$bench"): rc=$? $(grep -c 'time:' "$OUT/criterion.txt") results"
done
"$B/gemm" ${GEMM_ARGS:-} | tee "$OUT/bench-default.txt"
"$B/gemm" --kernel db_256x128x8 --group-m 1 | tee "$OUT/bench-group1.txt"
"$B/gemm" --m 4096 --n 4096 --k 4096 | tee "$OUT/bench-4096.txt"
[ -n "${QUICK:-}" ] || "$B/gemm" tune --iters 10 | tee "$OUT/tune.txt"
"$B/gemm" --kernel auto | tee "$OUT/bench-auto.txt"
"$B/gemm" --m 4096 --n 4096 --k 4096 --kernel auto | tee "$OUT/bench-auto-4096.txt"
echo; echo "SUMMARY"; printf '%s\n' "${summary[@]}"
