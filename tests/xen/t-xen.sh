#!/usr/bin/env bash
# tests/xen/t-xen.sh — end to end: Xen 4.17 + a Debian PV dom0 booted once
# under QEMU (TCG); inside it, the xen-if backend (through tests/xen/
# xen-drive) and uniprof-flame (-d, -c) sample the PV test guest
# (examples/xen-guest); the host asserts shares, call chains, exit codes
# and that the guest is left running.  See tests/xen/README for the layout.
#
# Needs: root is not required; qemu-system-x86, libxen-dev, cpio, gcc and
# apt sources that can `apt-get download` Xen 4.17 and a bookworm kernel
# (cached in $UF_XEN_CACHE, default ~/.cache/uniprof-flame/xen-4.17: it
# survives make clean, and build/ must hold no foreign *.d files).  Env: UF_SAMPLES
# (samples per share run, default 3000).
source "$(dirname "$0")/../lib.sh"
set -u
HERE=$UF_TOP/tests/xen
C=${UF_XEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uniprof-flame/xen-4.17}
W=$UF_TOP/build/xen
TRUTH=$UF_TOP/examples/workloads

need() { command -v "$1" >/dev/null 2>&1 || { skip xen "$1 not installed (scripts/deps.sh check)"; exit 0; }; }
need qemu-system-x86_64; need cpio; need gcc; need apt-get
pkg-config --exists xencontrol xencall xenforeignmemory xenstore || { skip xen "libxen-dev not installed"; exit 0; }
"$HERE/prepare.sh" "$C"; rc=$?
[ $rc = 2 ] && { skip xen "cannot fetch the Xen/kernel packages (see above)"; exit 0; }
[ $rc = 0 ] || { fail xen-prepare "prepare.sh exited $rc"; exit 0; }

rm -rf "$W/bin" "$W/guest" "$W/out"; mkdir -p "$W/bin" "$W/guest" "$W/out"
"$HERE/build.sh" "$W" || { fail xen-build "building the guest or the static binaries failed"; exit 0; }
"$HERE/mkinitrd.sh" "$C" "$W/dom0.cpio.gz" "$HERE/dom0/cases.sh" "$W/bin" "$W/guest" \
  || { fail xen-initrd "mkinitrd.sh failed"; exit 0; }
start=$(date +%s)
"$HERE/boot.sh" "$C" "$W/dom0.cpio.gz" "$W/out" "$W/boot.log" 240; qrc=$?
echo "boot: qemu rc=$qrc in $(( $(date +%s) - start )) s (log: $W/boot.log)"
L=$W/out/cases.log
check xen-boot grep -q '@@STEP done' "$W/boot.log"
check xen-dom0-setup bash -c "! grep -q '@@FAIL' '$W/boot.log'"
[ -f "$L" ] || { fail xen-cases "no cases.log came back over 9p"; exit 0; }
sed 's/^/  | /' "$L"

rcof() { awk -v c="$1" '$1 == "@@RC" && $2 == c {print $3}' "$L"; }
expect_rc() { local got; got=$(rcof "$1"); [ "$got" = "$2" ] && pass "xen-$1 exit $2" || fail "xen-$1 exit $2" "got '${got:-none}'"; }
shares() {  # NAME FOLDED TRUTH SELECT [ROOT [MAP]]
  perl "$HERE/check-shares.pl" "xen-$1" "$W/out/$2" "$TRUTH/$3.truth" --map "$W/guest/${6:-xen-guest.map}" \
    --select "$4" --root "${5:-_start;guest_main;run}"
}
running() {  # the xl state column has no 'p' (paused) and no 's' (shut down)
  local st; st=$(awk -v k="$1" '$1 == k {print $2}' "$L")
  [[ -n "$st" && "$st" != *p* && "$st" != *s* ]]
}

# the backend through the driver
expect_rc drive-bad 3
check xen-drive-bad-message grep -q "domain 'no-such-domain': no such domain" "$W/out/drive-bad.out"
expect_rc drive-app1 0; shares drive-app1 drive-app1.folded app-test-1 vcpu0
expect_rc drive-app2 0; shares drive-app2 drive-app2.folded app-test-2 vcpu0
check xen-drive-steady-no-maps grep -q 'maps/sample=0.000' "$W/out/drive-app1.log"
# steady state: pause + one register read per vCPU + unpause, plus the
# domain-state check (2 per second: 2/rate per sample)
steady() {  # LOG BASE
  sed -n 's/.*steady.*hypercalls\/sample=\([0-9.]*\).*rate=\([0-9.]*\)Hz.*/\1 \2/p' "$W/out/$1" |
    awk -v b="$2" '{ exit !($1 >= b && $1 <= b + 2.2 / $2 + 0.005) }'
}
check xen-drive-steady-hypercalls-1vcpu steady drive-app1.log 3
check xen-drive-steady-hypercalls-2vcpu steady drive-smp.log 4
check xen-drive-smp-steady-no-maps grep -q 'maps/sample=0.000' "$W/out/drive-smp.log"
expect_rc drive-int 0
check xen-drive-int-output test -s "$W/out/drive-int.folded"
check xen-guest-running-after-sigint running state-after-int
check xen-guest-progress-after-sigint awk '$1 == "state-after-int" {a = $3} $1 == "state-after-int-2s" {b = $3} END {exit !(b > a)}' "$L"
expect_rc drive-term 0
check xen-guest-running-after-sigterm running state-after-term
expect_rc drive-vanish 0
check xen-drive-vanish-output test -s "$W/out/drive-vanish.folded"
check xen-drive-vanish-noticed grep -q 'domain gone' "$W/out/drive-vanish.log"
expect_rc drive-create 0
check xen-drive-create-until-shutdown grep -q 'domain gone' "$W/out/drive-create.log"
check xen-drive-create-destroyed grep -q '^short-after-create \[\]' "$L"
# -c: structure only (the run is as long as the guest's 400 rounds); the
# guest's start, its final hypercall and the samples taken before the
# shutdown is noticed (<= 0.5 s) are outside run(), hence --rootmin 50
perl "$HERE/check-shares.pl" xen-drive-create "$W/out/drive-create.folded" "$TRUTH/app-test-2.truth" \
  --map "$W/guest/xen-guest.map" --select vcpu0 --root "_start;guest_main;run" --rootmin 50 --min 200 | grep -v share
expect_rc create-smp 0; expect_rc drive-smp 0
shares drive-smp-vcpu0 drive-smp.folded app-test-1 vcpu0
shares drive-smp-vcpu1 drive-smp.folded app-test-2 vcpu1 "secondary_start;secondary_main;run"
expect_rc create-pvh 0; expect_rc drive-pvh 0
shares drive-pvh drive-pvh.folded app-test-1 vcpu0 "pvh_start64;pvh_main;run" xen-guest-pvh.map
check xen-drive-pvh-steady-no-maps grep -q 'maps/sample=0.000' "$W/out/drive-pvh.log"

[ -f "$HERE/uf-checks.sh" ] && source "$HERE/uf-checks.sh"
