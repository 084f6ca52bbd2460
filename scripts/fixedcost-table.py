#!/usr/bin/env python3
"""Median µs per (M=N, K) and kernel build from device-check's `fixedcost`
log: cuBLAS, the bundle's step 10, each variant in VARIANTS (named by its
folder) and the ablation storing C from registers ("direct"); the last
column is the bundle's % of cuBLAS. Usage: fixedcost-table.py fixedcost.txt
"""
import collections
import statistics
import sys

times = collections.defaultdict(list)
build = None
for line in open(sys.argv[1]):
    if line.startswith("# "):
        build = line.split()[1].rstrip("/").split("/")[-1]
        continue
    fields = line.split()
    if len(fields) > 5 and "×" in fields[2] and fields[0] != "kernel":
        m, n, k = map(int, fields[2].split("×"))
        us = 2 * m * n * k / float(fields[5]) / 1e6
        times[(m, k, "cublas" if fields[0] == "cublas" else build)].append(us)

builds = ["cublas"] + sorted({b for (_, _, b) in times if b != "cublas"}, key=lambda b: (b != "device-bundle", b))
print("M=N K " + " ".join(f"{b:>13}" for b in builds) + "  bundle % cuBLAS")
for m, k in sorted({(m, k) for (m, k, _) in times}):
    med = {b: statistics.median(times[(m, k, b)]) for b in builds if times[(m, k, b)]}
    row = " ".join(f"{med[b]:13.2f}" if b in med else f"{'-':>13}" for b in builds)
    print(f"{m} {k} {row}  {100 * med['cublas'] / med['device-bundle']:.1f}")
