#!/usr/bin/env bash
# Nsight Compute on the GPU machine: where each named kernel's time goes
# (pipe utilization, stall reasons, shared-memory bank conflicts, launch
# shape) at the seeds' shape. `cublas` profiles the library's kernel for the
# dtype instead of ours. Usage: scripts/device-profile.sh BUNDLE DTYPE KERNEL...
# SHAPE="--m M --n N --k K" profiles another shape.
set -u
B=$1 DTYPE=$2; shift 2
OUT=${OUT:-device-out}; mkdir -p "$OUT"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=launch__registers_per_thread,launch__block_size,launch__grid_size,launch__shared_mem_per_block_dynamic
metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,dram__bytes_write.sum.per_second,dram__bytes_read.sum.per_second
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed
for s in membar sleeping barrier long_scoreboard short_scoreboard mio_throttle lg_throttle math_pipe_throttle not_selected wait dispatch_stall; do
  metrics+=",smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
for k in "$@"; do
  echo "=== $DTYPE $k"
  if [ "$k" = cublas ]; then
    # The first launch of a default run is cuBLAS's checked launch.
    sel=(--launch-skip 0 --launch-count 1)
    args=(--dtype "$DTYPE" --iters 1 ${SHAPE:-})
  else
    sel=(--launch-skip 1 --launch-count 1 --kernel-name "regex:gemm_$k\$")
    args=(--dtype "$DTYPE" --kernel "$k" --iters 1 --no-cublas ${SHAPE:-})
  fi
  "$NCU" --clock-control none "${sel[@]}" --metrics "$metrics" "$B/gemm" "${args[@]}" >"$OUT/ncu-$DTYPE-$k.txt" 2>&1
  grep -E "^  [a-zA-Z_0-9]+.*\(|^\s+(launch__|sm__|smsp__|l1tex__|dram__|lts__|gpu__)" "$OUT/ncu-$DTYPE-$k.txt" \
    | awk '{ if ($1 ~ /__/) printf "  %-78s %s %s\n", $1, $2, $3; else print "  " $0 }'
done
