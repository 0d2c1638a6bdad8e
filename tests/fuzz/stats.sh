#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/stats.sh — sums build/fuzz/stats.tsv (written by run.sh) per
# harness into a Markdown table: runs, wall and CPU seconds, execs, execs
# per CPU second, the CPU seconds still needed for 10 million execs at that
# speed, and the last run's coverage (cov: edges, ft: features)
# and corpus size.  Used to update tests/fuzz/STATS.md.
#
#   tests/fuzz/stats.sh [FILE.tsv...]     default build/fuzz/stats.tsv
#
# A run stopped from outside is "interrupted" in column 8, not a crash.
# Past campaigns are kept in tests/fuzz/stats/*.tsv (run.sh's columns; an
# optional 10th column says how many runs a summed row stands for), so
# `tests/fuzz/stats.sh tests/fuzz/stats/*.tsv build/fuzz/stats.tsv` gives
# the totals over every campaign.
set -eu
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || set -- build/fuzz/stats.tsv
awk -F'\t' '
/^#/ || NF < 8 { next }
{ n[$2] += ($10 != "" ? $10 : 1); wall[$2] += $3; ex[$2] += $4; cov[$2] = $5; ft[$2] = $6; corp[$2] = $7
  if ($9 != "" && $9 != "?") cpu[$2] += $9
  if ($8 == "crash") bad[$2]++; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } }
END {
  print "| harness | runs | wall s | CPU s | execs | execs/CPU s | CPU s to 10 M | cov | ft | corpus | runs ending in a crash |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= k; i++) { h = order[i]
    rate = cpu[h] > 0 ? ex[h] / cpu[h] : 0
    printf "| %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %d |\n", h, n[h], wall[h], cpu[h], ex[h],
      (rate ? sprintf("%.0f", rate) : "?"),
      (ex[h] >= 1e7 ? "reached" : rate ? sprintf("%.0f", (1e7 - ex[h]) / rate) : "?"),
      cov[h], ft[h], corp[h], bad[h] }
}' "$@"
