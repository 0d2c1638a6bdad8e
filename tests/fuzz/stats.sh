#!/usr/bin/env bash
# tests/fuzz/stats.sh — sums build/fuzz/stats.tsv (written by run.sh) per
# harness into a Markdown table: runs, wall and CPU seconds, execs, execs
# per CPU second, and the last run's coverage (cov: edges, ft: features)
# and corpus size.  Used to update tests/fuzz/STATS.md.
set -eu
cd "$(dirname "$0")/../.."
awk -F'\t' '
{ n[$2]++; wall[$2] += $3; ex[$2] += $4; cov[$2] = $5; ft[$2] = $6; corp[$2] = $7
  if ($9 != "" && $9 != "?") cpu[$2] += $9
  if ($8 != "ok") bad[$2]++; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } }
END {
  print "| harness | runs | wall s | CPU s | execs | execs/CPU s | cov | ft | corpus | runs ending in a crash |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= k; i++) { h = order[i]
    printf "| %s | %d | %d | %d | %d | %s | %s | %s | %s | %d |\n", h, n[h], wall[h], cpu[h], ex[h],
      (cpu[h] > 0 ? sprintf("%.0f", ex[h] / cpu[h]) : "?"), cov[h], ft[h], corp[h], bad[h] }
}' build/fuzz/stats.tsv
