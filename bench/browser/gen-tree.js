#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * bench/browser/gen-tree.js — "tree100k" for the browser bench: N distinct
 * stacks from a call tree shaped like a real perf capture (a few processes
 * holding uneven shares, hot trunks, a long tail of rare paths), written
 * as folded text.  bench/gen-folded.c's `tree` mode saturates its 3,000
 * names well below 100k stacks, so the browser bench grows its own tree
 * with the same rules and more names.
 *
 * Rules: each new stack copies a prefix of a uniformly chosen earlier stack
 * (a Pólya urn: popular trunks grow more popular) and appends 1 + geometric
 * (mean 2) fresh frames, preferring early (hot) stacks as prefixes (rank^3); depth is triangular in 3..40; names come from
 * 3,000 symbol-like names with a skewed pick; counts are Zipf (exponent
 * 1.3, the hottest stack 20,000 samples, the tail 1).
 *
 * Invariants: output depends only on N and SEED (own xorshift PRNG); every
 * line is a distinct stack (each ends in a node created for it).
 *
 * Usage: gen-tree.js N SEED OUT.folded
 */
'use strict';
const fs = require('fs');

const [n, seed0, out] = [parseInt(process.argv[2], 10), parseInt(process.argv[3], 10), process.argv[4]];
if (!(n > 0) || !out) {
	console.error('usage: gen-tree.js N SEED OUT.folded');
	process.exit(1);
}
let s = (seed0 * 2654435761 + 1) >>> 0 || 1;
function rnd() { /* xorshift32, in [0, 1) */
	s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
	return s / 4294967296;
}
const below = (k) => Math.floor(rnd() * k);

const stems = ['parse', 'read', 'write', 'commit', 'visit', 'poll', 'alloc', 'free', 'lookup', 'insert',
	'hash', 'encode', 'decode', 'flush', 'send', 'recv', 'lock', 'unlock', 'wait', 'run', 'step', 'scan'];
const kinds = [(a, i) => a + '_' + i, (a, i) => 'Map::' + a + i, (a, i) => 'util::Request::' + a + '_' + i,
	(a, i) => 'ngx_' + a + '_' + i, (a, i) => a + '_' + i + '_[k]', (a, i) => 'io/Chan.' + a + i,
	(a, i) => 'Frame* Heap::' + a + '<' + (i % 2 ? 'true' : 'false') + '>' + i];
const NAMES = 3000;
const names = [];
for (let i = 0; i < NAMES; i++) names.push(kinds[i % kinds.length](stems[i % stems.length], i));
const procs = ['nginx', 'postgres', 'java', 'kworker/0:1', 'sshd', 'node'];

/* nodes: parent, name, depth; children by "parent name" key */
const parent = [], name = [], depth = [], kids = new Map(), stacks = [];
function child(p, nm, d) {
	const key = p + ' ' + nm;
	let c = kids.get(key);
	if (c === undefined) {
		c = parent.length;
		parent.push(p); name.push(nm); depth.push(d);
		kids.set(key, c);
		return [c, true];
	}
	return [c, false];
}
function pick(d) {
	if (d === 1) return procs[Math.min(procs.length - 1, Math.floor(procs.length * Math.pow(rnd(), 1.8)))];
	return names[Math.min(NAMES - 1, Math.floor(NAMES * Math.pow(rnd(), 2.5)))];
}
for (let i = 0; i < n; i++) {
	let D = 3 + Math.floor((below(38) + below(38)) / 2);
	let fresh = 1;
	while (fresh < D - 1 && rnd() < 0.5) fresh++;
	let at = -1, d = 1;
	if (stacks.length > 6 && rnd() > 0.001) {
		at = stacks[Math.floor(stacks.length * Math.pow(rnd(), 3))];
		while (depth[at] > D - fresh) at = parent[at];
		D = depth[at] + fresh;	/* a shallower stack: still `fresh` new frames */
		d = depth[at] + 1;
	}
	for (; d <= D; d++) {
		let tries = 0, made = false, c;
		do {
			[c, made] = child(at, pick(d), d);
		} while (d === D && !made && ++tries < 200);
		if (d === D && !made) { /* a leaf must be new: take a fresh name */
			[c, made] = child(at, 'leaf_' + i, d);
		}
		at = c;
	}
	stacks.push(at);
}
const order = stacks.map((_, i) => i);
for (let i = order.length - 1; i > 0; i--) { const j = below(i + 1); [order[i], order[j]] = [order[j], order[i]]; }
const rank = new Int32Array(n);
order.forEach((v, r) => { rank[v] = r; });
const lines = [];
for (let i = 0; i < n; i++) {
	const path = [];
	for (let c = stacks[i]; c >= 0; c = parent[c]) path.push(name[c]);
	path.reverse();
	lines.push(path.join(';') + ' ' + Math.max(1, Math.round(20000 / Math.pow(rank[i] + 1, 1.3))));
}
for (let i = lines.length - 1; i > 0; i--) { const j = below(i + 1); [lines[i], lines[j]] = [lines[j], lines[i]]; }
fs.writeFileSync(out + '.tmp', lines.join('\n') + '\n');
fs.renameSync(out + '.tmp', out);
console.log(out + ': ' + n + ' stacks, ' + parent.length + ' call paths');
