#!/usr/bin/env bash
# Baseline of main (f7a11ce) before this session's work.
set -u
cd "$(dirname "$0")"; tar xJf device-bundle.tar.xz; B=./device-bundle
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee $OUT/gpu.txt
export CUDA_CACHE_PATH=$(mktemp -d)
{ echo "cold (empty cache):"; /usr/bin/time -f "%e s" $B/gemm --m 64 --n 64 --k 64 --kernel auto; echo "warm:"; /usr/bin/time -f "%e s" $B/gemm --m 64 --n 64 --k 64 --kernel auto; } 2>&1 | tee $OUT/coldstart.txt
ls -la $B/gemm >> $OUT/coldstart.txt
$B/gemm | tee $OUT/bench-default.txt
$B/gemm --m 4096 --n 4096 --k 4096 | tee $OUT/bench-4096.txt
for s in "128 128 65536" "7 5 300000" "1 1 1000000" "256 256 65536" "1 4096 4096" "4096 1 4096" "8192 8192 16" "1024 1024 1024" "2048 2048 2048" "4000 3000 1000" "8192 8192 8192" "16384 16384 1024"; do
  set -- $s; $B/gemm --m $1 --n $2 --k $3 --kernel auto --iters 10
done 2>&1 | tee $OUT/bench-classes.txt
