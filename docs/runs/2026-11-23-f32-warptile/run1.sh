#!/usr/bin/env bash
# f32 warp-tiling exploration, run 1: every candidate at the four shapes, then ncu.
cd "$(dirname "$0")"
tar xJf device-bundle.tar.xz
B=device-bundle
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt"
bench() { # shape kernels...
  local m=$1 n=$2 k=$3; shift 3
  for kn in "$@"; do
    timeout 40 $B/gemm --dtype f32 --m $m --n $n --k $k --kernel $kn --iters 20 2>&1 | grep -v "^kernel\|^device" | tee -a "$OUT/bench.txt"
  done
}
head -2 < <($B/gemm --dtype f32 --m 256 --n 256 --k 256 --kernel wt_256x128x8 2>&1) | tee "$OUT/bench.txt"
bench 8192 4096 6144 db_256x128x8 wt_256x128x8 wt_128x256x8 wt_256x128x16 wt_256x128x8_w32x128 wt_128x128x8
bench 4096 4096 4096 db_256x128x8 wt_256x128x8 wt_128x256x8 wt_256x128x16 wt_256x128x8_w32x128
bench 8192 8192 8192 db_256x128x8 wt_256x128x8 wt_256x128x16
bench 2048 2048 2048 db_128x128x8 wt_128x128x8 wt_256x128x8 db_256x128x8
echo "bench done $SECONDS s" | tee -a "$OUT/bench.txt"
OUT=$OUT timeout 150 ./device-profile.sh $B f32 wt_256x128x8 db_256x128x8 cublas > "$OUT/ncu-summary.txt" 2>&1
echo "all done $SECONDS s" >> "$OUT/bench.txt"
