# SPDX-License-Identifier: BSD-3-Clause
# bench/xen-dom0.sh — run inside the test dom0 by bench/xen.sh (as /cases.sh).
# Ours (tests/xen xen-drive: the xen-if backend as uniprof-flame drives it,
# and uniprof-flame itself when present) and uniprof (when /bin/uniprof
# exists) sample the same PV guest in the same boot, interleaved, twice.
# Prints "@@BENCH tool mode key=value..." lines for the host.
now() { cut -d' ' -f1 /proc/uptime; }
cat > /guest/bench.cfg <<CFG
name = "uf-bench"
type = "pv"
kernel = "/guest/xen-guest.elf"
extra = "app-test-1"
memory = 16
vcpus = 1
CFG
xl create -q /guest/bench.cfg || echo "@@FAIL xl create"
D=$(xl domid uf-bench)
ours() {  # MODE ARGS...
  local m=$1; shift
  xen-drive -d uf-bench "$@" -o /tmp/o.folded > /tmp/o.log 2>&1
  sed -n "s/^xen-drive: steady /@@BENCH ours $m /p" /tmp/o.log
}
theirs() {  # MODE HZ SECONDS: uniprof always takes exactly HZ*SECONDS traces
  [ -x /bin/uniprof ] || return 0
  local t0 t1; t0=$(now)
  uniprof -F $2 -T $3 /tmp/u.trace $D > /tmp/u.log 2>&1
  t1=$(now)
  local n; n=$(grep -c '^$' /tmp/u.trace)
  awk -v m=$1 -v n=$n -v a=$t0 -v b=$t1 'BEGIN {
    printf "@@BENCH uniprof %s samples=%d wall=%.2fs per-sample=%.1fus rate=%.1fHz\n", m, n, b - a, (b - a) / n * 1e6, n / (b - a) }'
}
for round in 1 2; do
  ours saturated -n 2000
  theirs saturated 10000 1    # a 100 us interval: below the cost of a sample
  ours F100 -F 100 -T 5 -n 0
  theirs F100 100 5
  ours F1000 -F 1000 -T 5 -n 0
  theirs F1000 1000 5
done
if [ -x /bin/uniprof-flame ]; then
  for hz in 100 1000; do
    t0=$(now); uniprof-flame -d uf-bench -F $hz -T 5 -x /guest/xen-guest.elf -o /tmp/uf.svg > /tmp/uf.log 2>&1
    echo "@@BENCH uniprof-flame F$hz rc=$? wall=$(awk -v a=$t0 -v b=$(now) 'BEGIN {print b - a}')"; sed 's/^/@@UF /' /tmp/uf.log
  done
fi
xl destroy uf-bench
