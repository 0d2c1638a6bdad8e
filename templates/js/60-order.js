/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/60-order.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): flamegraph.pl's sibling
 * order among a node's children, as fold/model/finish.c sorts them.
 */
	/* ---- flamegraph.pl's sibling order (fold/finish.c) ----
	 * Among one parent's children, a child's own line sorts as "name " and
	 * its subtree's lines as "name;" (byte order; names are byte strings,
	 * so string order is byte order): each parent's entries are sorted by
	 * those keys when first needed (idle time prepares them all, a slice
	 * at a time), as integers: each key's rank among all names' keys.
	 * An entry is a child index; its own line is stored as -1 - index. */

	const NO_ENTRIES = new Int32Array(0);

	/* mirrors fold/model/finish.c:own_entry() */
	function own(D, c) {
		return D.self[c] !== 0 || (D.diff && D.base[c] !== 0) || D.end[c] === c + 1;
	}

	/* The rank of every name's two keys among all of them: rank[2 * id]
	 * of "name ", rank[2 * id + 1] of "name;".  One string sort per file
	 * (idle time makes it before the entries; an action before that makes
	 * it then), so that entries() sorts integers: its string sort was half
	 * the view of tree100k's worst sandwich.  The keys of one name are not
	 * adjacent in general ("a " < "a.b " < "a.b;" < "a;"), hence two ranks.
	 * Kept for one names array (the block's, which the sandwich's halves
	 * share) and its length (a sandwich may add a name). */
	let RANKED = null, RANK = null;
	function keyRanks(names) {
		if (RANKED === names && RANK.length === 2 * names.length) return RANK;
		const nn = names.length, keys = new Array(2 * nn);
		for (let i = 0; i < nn; i++) {
			keys[2 * i] = names[i] + ' ';
			keys[2 * i + 1] = names[i] + ';';
		}
		const at = new Map();
		const sorted = keys.slice().sort();
		for (let r = 0; r < sorted.length; r++) {
			if (!at.has(sorted[r])) at.set(sorted[r], r);
		}
		RANK = new Int32Array(2 * nn);
		for (let k = 0; k < keys.length; k++) RANK[k] = at.get(keys[k]);
		RANKED = names;
		return RANK;
	}

	/* A parent's entries sorted by key, then by position (equal keys: a
	 * block naming one child twice), as one numeric sort of key * count
	 * + position, exact while 2 x names x count < 2^53 (past that, a
	 * comparison sort). */
	/* mirrors fold/model/finish.c:sort_entries() */
	function entries(D, p) {
		let e = D.ent[p];
		if (e) return e;
		if (D.end[p] === p + 1) return (D.ent[p] = NO_ENTRIES);
		const rank = keyRanks(D.names), list = [], key = [];
		for (let c = p + 1; c < D.end[p]; c = D.end[c]) {
			const nm = D.name[c];
			if (own(D, c)) { list.push(-1 - c); key.push(rank[2 * nm]); }
			if (D.end[c] > c + 1) { list.push(c); key.push(rank[2 * nm + 1]); }
		}
		const m = list.length;
		e = D.ent[p] = new Int32Array(m);
		if (rank.length * m >= 9007199254740992) {
			const idx = Array.from(list.keys()).sort((a, b) => key[a] - key[b] || a - b);
			for (let k = 0; k < m; k++) e[k] = list[idx[k]];
			return e;
		}
		let sorted = true;
		for (let k = 1; k < m && sorted; k++) sorted = key[k - 1] <= key[k];
		if (sorted) {   /* a sandwich's half finds most children in order */
			for (let k = 0; k < m; k++) e[k] = list[k];
			return e;
		}
		const order = new Float64Array(m);
		for (let k = 0; k < m; k++) order[k] = key[k] * m + k;
		order.sort();
		for (let k = 0; k < m; k++) e[k] = list[order[k] % m];
		return e;
	}

	/* Frames flow() opens inside c's subtree lines (all narrower than c). */
	function framesUnder(D, c) {
		if (!D.fu) D.fu = new Int32Array(D.n).fill(-1);
		const fu = D.fu;
		const st = [c];
		while (st.length) {
			const p = st[st.length - 1];
			if (fu[p] >= 0) { st.pop(); continue; }
			const e = entries(D, p);
			let ready = true;
			for (let k = 0; k < e.length; k++) {
				if (e[k] >= 0 && fu[e[k]] < 0) { st.push(e[k]); ready = false; }
			}
			if (!ready) continue;
			st.pop();
			let s = 0;
			for (let k = 0; k < e.length; k++) {
				const merged = e[k] < 0 && k + 1 < e.length && e[k + 1] === -1 - e[k];
				if (merged) k++;
				s += 1 + (e[k] >= 0 ? fu[e[k]] : 0);
			}
			fu[p] = s;
		}
		return fu[c];
	}
