#!/bin/bash
# final verification on the device after the TF32 256x128 kernel
B=device-bundle; O=$OUT; export RGEMM_GEMM_BIN=$B/gemm RGEMM_TUNE_CACHE=/tmp/tune.json
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
for t in gpu library cli cpu; do echo "tests/$t: $($B/tests/$t --test-threads=1 2>&1 | grep -E 'test result|panicked|sweep:' | tr '\n' ' ')"; done
for tool in memcheck racecheck synccheck initcheck; do
  for shape in "--m 129 --n 131 --k 67" "--m 256 --n 256 --k 256"; do
    $SAN --tool $tool --error-exitcode 3 $B/gemm $shape --iters 1 --no-cublas > /tmp/s.log 2>&1; echo "sanitizer $tool gemm $shape rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' /tmp/s.log | tr '\n' ' ')"
  done
  $SAN --tool $tool --error-exitcode 3 $B/tests/library every_layout_kernel --test-threads=1 > /tmp/s.log 2>&1; echo "sanitizer $tool library every_layout_kernel rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' /tmp/s.log | tr '\n' ' ')"
done
} > $O/summary.txt 2>&1
$B/gemm --dtype tf32 > $O/bench-tf32.txt 2>&1
$B/gemm --dtype tf32 --m 4096 --n 4096 --k 4096 > $O/bench-tf32-4096.txt 2>&1
$B/gemm tune --dtype tf32 --iters 10 > $O/tune-tf32.txt 2>&1
$B/gemm --kernel auto > $O/bench-auto.txt 2>&1
cat $O/summary.txt; tail -4 $O/tune-tf32.txt; cat $O/bench-auto.txt
