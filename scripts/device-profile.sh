#!/usr/bin/env bash
# Nsight Compute on the GPU machine: where each named kernel's time goes
# (pipe utilization, stall reasons, shared-memory bank conflicts) at the
# seeds' shape. Usage: scripts/device-profile.sh BUNDLE KERNEL...
set -u
B=$1; shift
OUT=${OUT:-device-out}; mkdir -p "$OUT"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
stalls=barrier,long_scoreboard,short_scoreboard,mio_throttle,lg_throttle,math_pipe_throttle,not_selected,wait,dispatch_stall,no_instruction
for s in ${stalls//,/ }; do metrics+=",smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"; done
for k in "$@"; do
  echo "=== $k"
  "$NCU" --clock-control none --launch-skip 1 --launch-count 1 --kernel-name "sgemm_$k" --metrics "$metrics" \
    "$B/gemm" --kernel "$k" --iters 1 --no-cublas >"$OUT/ncu-$k.txt" 2>&1
  grep -E "^\s+(sm__|smsp__|l1tex__|dram__|lts__|gpu__)" "$OUT/ncu-$k.txt" | awk '{printf "  %-80s %s %s\n", $1, $2, $3}'
done
