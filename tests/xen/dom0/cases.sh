# tests/xen/dom0/cases.sh — the test cases, run by /init inside dom0.
# Results go to /out (the host's 9p share): one "@@RC CASE STATUS" line per
# command in cases.log, outputs as /out/<case>.*; the host asserts on them
# (tests/xen/t-xen.sh).  Keep every step bounded: `timeout` on each run.
rc() { echo "@@RC $1 $2"; }
state() { xl list "$1" 2>/dev/null | awk 'NR==2 {print $5, $6}'; }  # "STATE CPU-SECONDS"
cfg() {  # NAME EXTRA VCPUS ON_POWEROFF
  cat > /guest/$1.cfg <<CFG
name = "$1"
type = "pv"
kernel = "/guest/xen-guest.elf"
extra = "$2"
memory = 16
vcpus = $3
on_poweroff = "$4"
on_crash = "preserve"
CFG
}
T="timeout -s INT 60"
# wait for PID at most S seconds; a hang is reported (kernel stack) and killed
waitfor() {
  local i=0
  while kill -0 $1 2>/dev/null && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 $1 2>/dev/null; then
    echo "HUNG pid $1: wchan=$(cat /proc/$1/wchan)"; cat /proc/$1/stack; kill -9 $1
  fi
  wait $1
}
now() { cut -d' ' -f1 /proc/uptime; }
UF=/bin/uniprof-flame
cfg uf-app1 "app-test-1" 1 destroy
cfg uf-app2 "app-test-2" 1 destroy
cfg uf-smp "app-test-1 smp" 2 destroy
cfg uf-short "app-test-2 rounds=${UF_ROUNDS:-400}" 1 preserve

# bad domain name: one-line error, exit 3
$T xen-drive -d no-such-domain -n 1 > /out/drive-bad.out 2>&1; rc drive-bad $?

# shares: sampled at a fixed rate, so that the guest runs between samples
# and 3000 samples span about a hundred rounds of the workload (saturated
# sampling would freeze it and make successive samples correlated)
F="-F ${UF_HZ:-300} -J 0.3 -T 40"
xl create -q /guest/uf-app1.cfg; rc create-app1 $?
xl list
$T xen-drive -d uf-app1 $F -n ${UF_SAMPLES:-3000} -o /out/drive-app1.folded > /out/drive-app1.log 2>&1; rc drive-app1 $?

# SIGINT mid-run (saturated, so most likely inside a pause): the guest must
# be left running and the output written
xen-drive -d uf-app1 -n 0 -o /out/drive-int.folded > /out/drive-int.log 2>&1 &
pid=$!; sleep 3; kill -INT $pid; waitfor $pid 20; rc drive-int $?
echo "state-after-int $(state uf-app1)"; sleep 2; echo "state-after-int-2s $(state uf-app1)"
xen-drive -d uf-app1 -n 0 -o /out/drive-term.folded > /out/drive-term.log 2>&1 &
pid=$!; sleep 2; kill -TERM $pid; waitfor $pid 20; rc drive-term $?
echo "state-after-term $(state uf-app1)"
xl destroy uf-app1

xl create -q /guest/uf-app2.cfg; rc create-app2 $?
$T xen-drive -d uf-app2 $F -n ${UF_SAMPLES:-3000} -o /out/drive-app2.folded > /out/drive-app2.log 2>&1; rc drive-app2 $?

# the domain vanishing mid-run: output still written, exit 0
xen-drive -d uf-app2 -n 0 -o /out/drive-vanish.folded > /out/drive-vanish.log 2>&1 &
pid=$!; sleep 2; timeout 20 xl destroy uf-app2; echo "xl destroy rc=$?"; waitfor $pid 20; rc drive-vanish $?

# -c: created paused, profiled from the first instruction until it powers
# off, destroyed (on_poweroff=preserve would keep it) because of --destroy
echo "create-start $(now)"
$T xen-drive -c /guest/uf-short.cfg --destroy $F -n 0 -o /out/drive-create.folded > /out/drive-create.log 2>&1
rc drive-create $?
echo "create-end $(now)"
echo "short-after-create [$(state uf-short)]"
tail -2 /var/log/xen/console/guest-uf-short.log

# two vCPUs: vCPU 0 runs app-test-1, vCPU 1 app-test-2
xl create -q /guest/uf-smp.cfg; rc create-smp $?
$T xen-drive -d uf-smp $F -n ${UF_SAMPLES:-3000} -o /out/drive-smp.folded > /out/drive-smp.log 2>&1; rc drive-smp $?
xl destroy uf-smp

# PVH (HVM container): registers and CR3 from the HVM CPU record, guest
# frames, 2 MiB pages.  TCG's SVM gives no NRIP for intercepted RDTSCP:
# without tsc_mode="native" Xen fails to emulate it and kills the guest.
cat > /guest/uf-pvh.cfg <<CFG
name = "uf-pvh"
type = "pvh"
kernel = "/guest/xen-guest-pvh.elf"
extra = "app-test-1"
memory = 32
vcpus = 1
tsc_mode = "native"
on_crash = "preserve"
CFG
xl create -q /guest/uf-pvh.cfg; rc create-pvh $?
$T xen-drive -d uf-pvh $F -n ${UF_SAMPLES:-3000} -o /out/drive-pvh.folded > /out/drive-pvh.log 2>&1; rc drive-pvh $?
xl list uf-pvh
xl destroy uf-pvh

if [ -x $UF ] && [ -f /guest/uf-cases.sh ]; then . /guest/uf-cases.sh; fi
xl list
head -3 /var/log/xen/console/guest-uf-app1.log
