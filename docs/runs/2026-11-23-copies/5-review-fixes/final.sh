#!/usr/bin/env bash
# Final check of the review fixes (host-side choice rules): the GPU test
# binaries that call the library, and `auto` on the shapes the rules move.
B=device-bundle
for t in library gpu cli split_k; do
  timeout 150 $B/tests/$t --test-threads=1 > $OUT/test-$t.log 2>&1; echo "tests/$t rc=$? $(grep -h 'test result' $OUT/test-$t.log)"
done
for shape in "1536 1536 1536 tf32" "1024 1024 1024 tf32" "16 16384 4096 f16" "16384 16 4096 bf16" "4 32768 1025 f16" "16 16384 4095 f16" "5003 4001 3001 f16"; do
  set -- $shape
  timeout 60 $B/gemm --m $1 --n $2 --k $3 --dtype $4 --kernel auto --iters 30 | grep -v "^device\|^kernel"
done 2>&1 | tee $OUT/auto.txt
