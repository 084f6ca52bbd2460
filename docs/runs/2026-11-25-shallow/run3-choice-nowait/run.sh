set -u
cd .dev-c3 && for g in gemm-new gemm-nowait; do xz -dc $g.xz > $g; chmod +x $g; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv > $OUT/gpu.txt
for round in 1 2; do
  for shape in "8192 8192 16" "8192 8192 64" "6000 5000 64" "2048 2048 2048" "4096 4096 4096"; do
    set -- $shape
    pair="gemm-new gemm-nowait"; [ $round = 2 ] && pair="gemm-nowait gemm-new"
    for g in $pair; do
      echo "## $g"; timeout 60 ./$g --m $1 --n $2 --k $3 --dtype f16 --kernel ws_128x256x64 --iters 30
    done
  done
done > $OUT/nowait.txt 2>&1
shapes=128x128x65536,256x256x131072,64x192x300000,384x384x100000,1024x1024x16384,100x3000x20000,512x512x32768
shapes=$shapes,16x16384x4096,16384x16x4096,8x8192x8192,8192x12x8192,4x16384x4096,64x20008x4096,384x5000x4096
timeout 300 ./gemm-new sweep --shapes $shapes --iters 20 --out $OUT/auto > $OUT/auto-sweep.log 2>&1
echo "sweep rc=$?" >> $OUT/auto-sweep.log
