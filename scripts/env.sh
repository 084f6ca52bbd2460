# Sourced by the scripts: makes the link-time libcuda from bootstrap loadable
# at run time only on machines without an NVIDIA driver of their own (there
# cuInit then reports "no device" and the programs say so). On a machine with
# a driver nothing is changed, so the real libcuda is always the one used.
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
  export LD_LIBRARY_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
