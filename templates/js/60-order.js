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
	 * at a time).  An entry is a child index; its own line is stored as
	 * -1 - index. */

	const NO_ENTRIES = new Int32Array(0);

	/* mirrors fold/model/finish.c:own_entry() */
	function own(D, c) {
		return D.self[c] !== 0 || (D.diff && D.base[c] !== 0) || D.end[c] === c + 1;
	}

	/* mirrors fold/model/finish.c:sort_entries() */
	function entries(D, p) {
		let e = D.ent[p];
		if (e) return e;
		if (D.end[p] === p + 1) return (D.ent[p] = NO_ENTRIES);
		const list = [], key = [];
		for (let c = p + 1; c < D.end[p]; c = D.end[c]) {
			const nm = D.names[D.name[c]];
			if (own(D, c)) { list.push(-1 - c); key.push(nm + ' '); }
			if (D.end[c] > c + 1) { list.push(c); key.push(nm + ';'); }
		}
		const idx = Array.from(list.keys());
		if (idx.length > 1) idx.sort((a, b) => (key[a] < key[b] ? -1 : key[a] > key[b] ? 1 : a - b));
		e = D.ent[p] = Int32Array.from(idx, (i) => list[i]);
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
