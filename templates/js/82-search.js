/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/82-search.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): search: colouring matches,
 * the Matched share from sample counts.
 */
	/* ---- search ---- */

	function escapeRe(s) {
		return s.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
	}

	function compile(term, ic) {
		const flags = ic ? 'i' : '';
		state.badRe = null;
		try {
			return new RegExp(term, flags);
		} catch (e) {
			/* Not a valid regex: match it as literal text, and say so. */
			state.badRe = String(e && e.message ? e.message : e).split('\n')[0];
			return new RegExp(escapeRe(term), flags);
		}
	}

	/* Colours the file's frames and the view's by name (invariant 3). */
	function colour(re) {
		const T = table();
		const memo = new Map();
		const test = (name) => {
			let m = memo.get(name);
			if (m === undefined) memo.set(name, m = re !== null && re.test(name) ? 1 : 0);
			return m;
		};
		for (let i = 0; i < T.n; i++) {
			const m = test(T.name[i]);
			if (m !== T.matched[i]) {
				T.matched[i] = m;
				const r = T.rect[i];
				if (m) r.setAttribute('fill', cfg.searchcolor);
				else if (T.fill[i] === null) r.removeAttribute('fill');
				else r.setAttribute('fill', T.fill[i]);
			}
		}
		if (state.view) {
			for (const it of state.view.items) {
				if (it.kind !== 'box' && it.el) it.el.setAttribute('fill', test(it.name) ? cfg.searchcolor : it.fill);
			}
			regroupSlivers(state.view);   /* a matched sliver moves to the search colour's path */
		}
		const D = data();
		if (D) {
			if (!D.matched) D.matched = new Uint8Array(D.names.length);
			for (let k = 0; k < D.names.length; k++) {
				const d = D.disp[k] || (D.disp[k] = display(D.names[k]));
				D.matched[k] = re !== null && re.test(d.s) ? 1 : 0;
			}
			D.rootMatched = re !== null && re.test('all');
		}
	}

	/* [matched, view] samples: a matched subtree counted once, and only
	 * what the zoom shows.  From the embedded trie when there is one (so
	 * matches in pruned subtrees count), else from the drawn frames. */
	function matchedSamples() {
		const z = state.zoom, D = data();
		if (z !== null && z.sw !== undefined) {
			return SW && SW.raw === z.sw && !SW.error && D && D.matched ? sandwichMatched(SW, z) : [0, 0];
		}
		if (D && D.matched && !(z !== null && z.frame !== undefined) && (!cfg.before || D.diff)) {
			const tot = cfg.before ? D.btotal : D.total;
			const hit = (i) => (i === 0 ? D.rootMatched : D.matched[D.name[i]] === 1);
			const v = z === null ? 0 : z.node;
			for (let p = D.parent[v]; p >= 0; p = D.parent[p]) {
				if (hit(p)) return [tot[v], tot[v]];
			}
			let m = 0;
			for (let i = v; i < D.end[v];) {
				if (hit(i)) {
					m += tot[i];
					i = D.end[i];
				} else {
					i++;
				}
			}
			return [m, z === null ? totalSamples(D) : tot[v]];
		}
		const T = table();
		let lo = 0, hi = T.n;
		if (z !== null && z.frame !== undefined) {
			for (let p = T.parent[z.frame]; p >= 0; p = T.parent[p]) {
				if (T.matched[p]) return [T.count[z.frame], T.count[z.frame]];
			}
			lo = z.frame;
			hi = T.end[z.frame];
		}
		let m = 0;
		for (let i = lo; i < hi;) {
			if (T.matched[i]) {
				m += T.count[i];
				i = T.end[i];
			} else {
				i++;
			}
		}
		return [m, z === null ? cfg.total : T.count[z.frame]];
	}

	/* 100 %: the file's total (--total included), in the trie's units */
	function totalSamples(D) {
		return cfg.before ? D.btotal[0] : cfg.total / cfg.factor;
	}

	/* "37", "66.67", and "<0.01" rather than "0" for a tiny real match. */
	function pct(v) {
		if (!isFinite(v) || v <= 0) return '0';
		if (v < 0.005) return '<0.01';
		return v.toFixed(2).replace(/\.?0+$/, '');
	}

	function showMatched() {
		if (!el.matched) return;
		if (state.re === null) {
			el.matched.textContent = matchedIdle;
			return;
		}
		const r = matchedSamples(), m = r[0], view = r[1];
		const D = data();
		const total = D && D.matched && !(state.zoom !== null && state.zoom.frame !== undefined) &&
			(!cfg.before || D.diff) ? totalSamples(D) : cfg.total;
		el.matched.textContent = (state.badRe !== null ? 'Not a regex, as text: ' : '') + 'Matched: ' +
			pct(view > 0 ? 100 * m / view : 0) + '% of view, ' + pct(total > 0 ? 100 * m / total : 0) + '% of total';
		/* what hovering the Matched line shows in the details line */
		const top = topMatches(TOP_MATCHES);
		state.matchedList = (state.badRe !== null ? 'Not a valid regular expression (' + state.badRe +
			'): matched as literal text. ' : '') + (top.length ? 'Top matches: ' : '') +
			top.map((x) => x[0] + ' ' + countText(x[1], false, total * cfg.factor) + '%').join(' \u00b7 ');
	}

	const TOP_MATCHES = 10;

	/* The matched functions in the view, most samples first (at most n):
	 * [display name, samples], each sample counted once per function, at
	 * its outermost matched frame (the sandwich's rule).  From the
	 * embedded trie: the zoomed node's subtree, the whole profile, or in a
	 * sandwich the zoomed half (the callees half when not zoomed). */
	function topMatches(n) {
		const z = state.zoom, D = data();
		if (!D || !D.matched || (z !== null && z.frame !== undefined)) return [];
		let X = D, v = 0;
		if (z !== null && z.sw !== undefined) {
			if (!SW || SW.raw !== z.sw || SW.error) return [];
			if (SW.partial) completeSandwich(SW);
			X = z.half === 'up' ? SW.up : SW.down;
			v = z.half ? z.node : 1;
		} else if (z !== null) {
			v = z.node;
		}
		const tot = cfg.before ? X.btotal : X.total;
		const open = new Int32Array(X.names.length), sums = new Map(), st = [];
		for (let i = v; i < X.end[v]; i++) {
			while (st.length && i >= X.end[st[st.length - 1]]) open[X.name[st.pop()]]--;
			const nm = X.name[i];
			if (i > 0 && D.matched[nm] === 1 && open[nm] === 0) sums.set(nm, (sums.get(nm) || 0) + tot[i]);
			open[nm]++;
			st.push(i);
		}
		/* by the name shown: annotated copies (f_[i]) are one function */
		const byName = new Map();
		for (const [nm, c] of sums) {
			const s = (X.disp[nm] || (X.disp[nm] = display(X.names[nm]))).s;
			byName.set(s, (byName.get(s) || 0) + c);
		}
		return Array.from(byName).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
	}

	/* Searches for `term` (null or "": clear the search). */
	function search(term) {
		if (later(() => search(term))) return;
		if (term === '' || term === undefined) term = null;
		state.term = term;
		state.re = term === null ? null : compile(term, state.ic);
		colour(state.re);
		if (el.search) el.search.classList.toggle('show', term !== null);
		showMatched();
		writeUrl(false);
	}

	function setIgnoreCase(on) {
		state.ic = !!on;
		if (el.ignorecase) el.ignorecase.classList.toggle('show', state.ic);
		search(state.term);
	}

	function promptSearch() {
		const hint = 'Enter a search term (regexp allowed, e.g. ^ext4_)' +
			(state.ic ? ', ignoring case' : '') +
			'\nPress Ctrl-I to toggle case sensitivity; leave empty to clear';
		const t = window.prompt(hint, state.term === null ? '' : state.term);
		if (t !== null) search(t);
	}
