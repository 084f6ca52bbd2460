#!/usr/bin/env bash
# issue 12 start-up measurements (helper "start"). Run from the repo root.
set -u
cd .dev-start && tar xJf bundle.tar.xz || exit 1
export OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv
libs=$( (ldconfig -p | grep -o '/[^ ]*libcublas[^ ]*'; ls /usr/local/cuda/lib64/libcublas* 2>/dev/null) | sort -u)
echo "cublas libs:"; for f in $libs; do ls -laL "$f"; done
evict() { for f in $libs "$@"; do dd if="$f" iflag=nocache count=0 status=none 2>/dev/null; done; }
wall() { local t0=$(date +%s.%N); "$@" >/dev/null 2>&1; local rc=$?; echo "$(awk -v a=$t0 -v b=$(date +%s.%N) 'BEGIN{printf "%.3f", b-a}') s rc=$rc"; }
small=(--m 64 --n 64 --k 64 --kernel auto)
# 1. new binary, device-check's coldstart part (first process on this machine), traced
RGEMM_TRACE=1 bash device-check.sh device-bundle coldstart 2>&1 | grep '^=='
mkdir -p "$OUT/new" && tar xzf "$OUT/logs.tar.gz" -C "$OUT/new" && rm "$OUT/logs.tar.gz"
echo "--- trace, new, cold:"; cat "$OUT/new/logs/coldstart/cold.log"
echo "--- trace, new, warm3:"; grep trace "$OUT/new/logs/coldstart/warm3.log"
# 2. old binary (main), cuBLAS evicted from the page cache first
evict before/gemm
bash device-check.sh before coldstart 2>&1 | grep '^=='
mkdir -p "$OUT/before" && tar xzf "$OUT/logs.tar.gz" -C "$OUT/before" && rm "$OUT/logs.tar.gz"
# 3. both again, alternating, page cache evicted each time (cold library read), and warm
for i in 1 2; do
  evict before/gemm; echo "before, evicted: $(CUDA_CACHE_DISABLE=1 wall before/gemm "${small[@]}")"
  evict device-bundle/gemm; echo "new, evicted:    $(CUDA_CACHE_DISABLE=1 wall device-bundle/gemm "${small[@]}")"
done
for i in 1 2 3; do
  echo "before warm: $(wall before/gemm "${small[@]}")   new warm: $(wall device-bundle/gemm "${small[@]}")   new --no-cublas: $(wall device-bundle/gemm "${small[@]}" --no-cublas)   before --no-cublas: $(wall before/gemm "${small[@]}" --no-cublas)"
done
for d in f32 f16; do echo "new --dtype $d: $(wall device-bundle/gemm "${small[@]}" --dtype $d)  before: $(wall before/gemm "${small[@]}" --dtype $d)"; done
echo "--- trace, new, warm, --dtype all:"; RGEMM_TRACE=1 device-bundle/gemm "${small[@]}" 2>&1
echo "--- trace, new, warm, --no-cublas:"; RGEMM_TRACE=1 device-bundle/gemm "${small[@]}" --no-cublas 2>&1 | grep trace
echo "--- output diff (new vs before, columns that do not vary):"
diff <(before/gemm "${small[@]}" | awk '{print $1,$2,$3}'; before/gemm "${small[@]}" | grep -c pass) <(device-bundle/gemm "${small[@]}" | awk '{print $1,$2,$3}'; device-bundle/gemm "${small[@]}" | grep -c pass) && echo same
