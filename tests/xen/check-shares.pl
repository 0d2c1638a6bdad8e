#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause
# tests/xen/check-shares.pl — assert a folded profile against a .truth file.
#
#   check-shares.pl NAME FOLDED TRUTH [--map NM_MAP] [--root PREFIX]
#                   [--select FRAME0] [--min N] [--tol PP]
#
# FOLDED is "frame;frame;... COUNT" (root first).  With --map, frames are
# hex addresses and are symbolized with the `nm -n` map (return addresses,
# all but the leaf, are looked up at addr-1).  --select keeps only stacks
# whose first frame is FRAME0 and drops that frame (e.g. vcpu-0).  Checks,
# one PASS/FAIL line each (tests/lib.sh format):
#   NAME: samples       at least --min samples (default 1000)
#   NAME: FN share      self/total share within --tol points (default 3)
#   NAME: FN chain      the truth's call chain appears in some stack
#   NAME: root          with --root, >= --rootmin % (default 90) of samples
#                       start with PREFIX
# perl-base only (Essential in Debian): no modules beyond the core.
use strict; use warnings;
my ($name, $folded, $truth) = splice(@ARGV, 0, 3);
my %o = (min => 1000, tol => 3, rootmin => 90);
while (@ARGV) { my $k = shift; $k =~ s/^--//; $o{$k} = shift; }
my @syms;
if ($o{map}) {
  open my $m, '<', $o{map} or die "$o{map}: $!";
  while (<$m>) { my ($a, $t, $n) = split; push @syms, [hex $a, $n] if defined $n && $t =~ /^[tTwW]$/; }
}
sub sym { my $a = shift; my ($lo, $hi) = (0, $#syms); return sprintf("0x%x", $a) if !@syms || $a < $syms[0][0];
  while ($lo < $hi) { my $mid = int(($lo + $hi + 1) / 2); if ($syms[$mid][0] <= $a) { $lo = $mid } else { $hi = $mid - 1 } }
  return $syms[$lo][1]; }
my (@stacks, $total);
open my $f, '<', $folded or do { print "FAIL: $name: samples: cannot read $folded\n"; exit 0 };
while (<$f>) {
  chomp; next unless /^(.*) (\d+(?:\.\d+)?)$/;
  my ($s, $c) = ($1, $2); my @fr = split /;/, $s;
  if (defined $o{select}) { next unless @fr && $fr[0] eq $o{select}; shift @fr; }
  if (@syms) { for my $i (0 .. $#fr) { next unless $fr[$i] =~ /^0x[0-9a-f]+$/i; $fr[$i] = sym(hex($fr[$i]) - ($i == $#fr ? 0 : 1)); } }
  push @stacks, [\@fr, $c]; $total += $c;
}
$total //= 0;
sub res { my ($ok, $what, $why) = @_; print $ok ? "PASS: $name: $what\n" : "FAIL: $name: $what: $why\n"; }
res($total >= $o{min}, "samples", "only $total samples (need $o{min})");
exit 0 unless $total;
open my $t, '<', $truth or die "$truth: $!";
while (<$t>) {
  next if /^#/ || !/\S/; chomp;
  my ($fn, $share, $kind, $chain) = split /\t/;
  my $n = 0; my $found = 0; my $want = ";$chain;";
  for my $st (@stacks) {
    my @fr = @{$st->[0]};
    $n += $st->[1] if $kind eq 'self' ? ($fr[-1] // '') eq $fn : grep { $_ eq $fn } @fr;
    $found ||= index(';' . join(';', @fr) . ';', $want) >= 0;
  }
  my $got = 100 * $n / $total;
  res(abs($got - $share) <= $o{tol}, "$fn $kind share", sprintf("%.1f%% (want %s%% +-%s)", $got, $share, $o{tol}));
  res($found, "$fn chain", "no stack contains $chain") if $kind eq 'self';
}
if (defined $o{root}) {
  my $n = 0; $n += $_->[1] for grep { index(join(';', @{$_->[0]}) . ';', "$o{root};") == 0 } @stacks;
  res($n >= $o{rootmin} / 100 * $total, "root", sprintf("only %.1f%% of samples start with %s", 100 * $n / $total, $o{root}));
}
