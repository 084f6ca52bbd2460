#!/usr/bin/env bash
# Quick device check: resources, correctness on odd shapes, the default run.
set -u
B=${1:-device-bundle}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
$B/gemm --list-kernels
for s in "1 1 1" "17 33 65" "1000 777 3001" "129 131 67" "1024 1024 1024"; do
  set -- $s
  $B/gemm --m $1 --n $2 --k $3 --iters 3 --no-cublas 2>&1 | grep -v "^device" | grep -v "^kernel"
done
$B/gemm
$B/gemm --m 4096 --n 4096 --k 4096 --kernel db_128x128x8 --group-m 1
