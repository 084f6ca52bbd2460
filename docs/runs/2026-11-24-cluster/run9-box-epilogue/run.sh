#!/bin/bash
# The TMA epilogue per box (new) against one store per warpgroup (old), f16 and bf16, alternating.
cd "$(dirname "$0")"
for v in old new; do xz -d gemm-$v.xz; chmod +x gemm-$v; done
for round in 1 2; do
  for shape in "8192 8192 16" "8192 8192 64" "6000 5000 64" "16384 16384 1024" "8192 4096 6144" "4096 4096 4096" "2048 2048 2048" "3072 3072 3072" "4000 3000 1000"; do
    set -- $shape
    order="old new"; [ $round = 2 ] && order="new old"
    for v in $order; do
      timeout 60 ./gemm-$v --m $1 --n $2 --k $3 --dtype f16 --kernel auto --iters 30 | grep -v "^cublas\|^device\|^kernel" | sed "s/^/$v /"
    done
  done
done
