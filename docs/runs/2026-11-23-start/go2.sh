#!/usr/bin/env bash
# issue 12 start-up measurements, second call (helper "start"). Run from the repo root.
set -u
cd .dev-start && tar xJf bundle2.tar.xz || exit 1
export OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
libs=$( (ldconfig -p | grep -o '/[^ ]*lib\(cublas\|cublasLt\|cuda\)\.so[^ ]*'; ls /usr/local/cuda/lib64/libcublas* 2>/dev/null) | sort -u)
echo "evicted between cold runs:" $libs
evict() { for f in $libs before/gemm new1/gemm device-bundle/gemm; do dd if="$(readlink -f "$f")" iflag=nocache count=0 status=none 2>/dev/null; done; }
wall() { local t0=$(date +%s.%N); "$@" >/dev/null 2>&1; local rc=$?; echo "$(awk -v a=$t0 -v b=$(date +%s.%N) 'BEGIN{printf "%.3f", b-a}')s rc=$rc"; }
small=(--m 64 --n 64 --k 64 --kernel auto)
cold() { local c; c=$(mktemp -d); evict; CUDA_CACHE_PATH=$c wall "$@"; rm -rf "$c"; }
echo "== cold: libcuda, cuBLAS and the binary evicted from the page cache, empty driver cache"
for i in 1 2 3; do
  echo "before $(cold before/gemm "${small[@]}")  new1 $(cold new1/gemm "${small[@]}")  new2 $(cold device-bundle/gemm "${small[@]}")  new2-nowarmup $(RGEMM_CUBLAS_WARMUP=0 cold device-bundle/gemm "${small[@]}")"
done
echo "== warm"
for i in 1 2 3 4; do
  echo "before $(wall before/gemm "${small[@]}")  new1 $(wall new1/gemm "${small[@]}")  new2 $(wall device-bundle/gemm "${small[@]}")  new2-nowarmup $(RGEMM_CUBLAS_WARMUP=0 wall device-bundle/gemm "${small[@]}")  new2-teardown $(RGEMM_FULL_TEARDOWN=1 wall device-bundle/gemm "${small[@]}")"
done
echo "== warm --no-cublas"
for i in 1 2 3; do
  echo "before $(wall before/gemm "${small[@]}" --no-cublas)  new1 $(wall new1/gemm "${small[@]}" --no-cublas)  new2 $(wall device-bundle/gemm "${small[@]}" --no-cublas)  new2-teardown $(RGEMM_FULL_TEARDOWN=1 wall device-bundle/gemm "${small[@]}" --no-cublas)"
done
echo "== CUDA_CACHE_DISABLE=1"
for i in 1 2 3; do
  echo "before $(CUDA_CACHE_DISABLE=1 wall before/gemm "${small[@]}")  new2 $(CUDA_CACHE_DISABLE=1 wall device-bundle/gemm "${small[@]}")"
done
echo "== --dtype f32, warm"
for i in 1 2; do echo "before $(wall before/gemm "${small[@]}" --dtype f32)  new2 $(wall device-bundle/gemm "${small[@]}" --dtype f32)"; done
echo "== device-check.sh coldstart, new2 (machine already warm)"
bash device-check.sh device-bundle coldstart 2>&1 | grep '^=='
rm -f "$OUT/logs.tar.gz"
t() { local t0=$(date +%s.%N); RGEMM_TRACE=1 "$@" 2>&1 | grep -v '^\(cublas\|db_\|mma_\|kernel\|device\)'; echo "wall $(awk -v a=$t0 -v b=$(date +%s.%N) 'BEGIN{printf "%.3f", b-a}') s"; }
echo "== trace new2 cold"; c=$(mktemp -d); evict; CUDA_CACHE_PATH=$c t device-bundle/gemm "${small[@]}"
echo "== trace new2 warm"; t device-bundle/gemm "${small[@]}"
echo "== trace new2 warm, RGEMM_CUBLAS_WARMUP=0"; RGEMM_CUBLAS_WARMUP=0 t device-bundle/gemm "${small[@]}" | tail -12
echo "== trace new2 --no-cublas"; t device-bundle/gemm "${small[@]}" --no-cublas | grep -v 'random\|upload\|reference\|choice'
echo "== output (new2), and the same columns compared with before"
device-bundle/gemm "${small[@]}"
diff <(before/gemm "${small[@]}" | awk '{print $1,$2,$3,$5}') <(device-bundle/gemm "${small[@]}" | awk '{print $1,$2,$3,$5}') && echo same
diff <(before/gemm --m 96 --n 80 --k 48 --json | wc -l) <(device-bundle/gemm --m 96 --n 80 --k 48 --json | wc -l) && echo "same --json row count (kernel all)"
device-bundle/gemm --m 96 --n 80 --k 48 --dtype f16 >/dev/null; echo "kernel all f16 rc=$?"
