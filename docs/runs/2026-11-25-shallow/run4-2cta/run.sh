set -u
cd .dev-c4 && for g in gemm-2cta gemm-prev; do xz -dc $g.xz > $g; chmod +x $g; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $OUT/gpu.txt
for shape in "8192 8192 16" "8192 8192 64" "6000 5000 64" "768 768 768" "1024 1024 1024" "1536 1536 1536" "2048 2048 2048" \
             "3072 3072 3072" "4096 4096 4096" "4000 3000 1000" "2048 8192 512" "16384 16384 1024"; do
  set -- $shape
  for k in ws_128x128x64_2cta ws_128x128x64 ws_128x256x64 auto; do
    timeout 60 ./gemm-2cta --m $1 --n $2 --k $3 --dtype f16 --kernel $k --iters 30
  done
  timeout 60 ./gemm-2cta --m $1 --n $2 --k $3 --dtype bf16 --kernel ws_128x128x64_2cta --iters 30
done > $OUT/2cta.txt 2>&1
# The producer now follows the consumers in every step-10 kernel: the old order beside the new.
for round in 1 2; do
  for shape in "4096 4096 4096" "8192 4096 6144"; do set -- $shape
    pair="gemm-prev gemm-2cta"; [ $round = 2 ] && pair="gemm-2cta gemm-prev"
    for g in $pair; do echo "## $g"; timeout 60 ./$g --m $1 --n $2 --k $3 --dtype f16 --kernel ws_128x256x64 --iters 30; done
  done
done > $OUT/roles.txt 2>&1
# Odd shapes, every layout, alpha/beta through the library's own checks is in the tests; here the CLI's check.
for shape in "1 1 1" "127 129 65" "257 131 1000" "1000 999 17"; do set -- $shape
  timeout 60 ./gemm-2cta --m $1 --n $2 --k $3 --dtype f16 --kernel ws_128x128x64_2cta --iters 3
done > $OUT/odd.txt 2>&1
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  timeout 120 $SAN --tool $tool ./gemm-2cta --m 300 --n 260 --k 200 --dtype f16 --kernel ws_128x128x64_2cta --iters 1 --no-cublas > $OUT/san-$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.txt)"
done
