/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/86-sandwich.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the sandwich view of one
 * function F, drawn from the embedded block (issue 33).
 *
 * F's callers are merged into one inverted graph above it and its callees
 * into one flame graph below it, F in the middle row at full width.  The
 * two halves are the tries `fold --callers F` and `fold --callees F` write
 * (fold/model/sandwich.c), made here from the block by the same rule:
 * every sample counted once, at F's OUTERMOST frame on its stack (a
 * recursive F is not counted twice, as pprof counts it).  The trie is
 * enough: the samples counted at an outermost F node are exactly that
 * node's total (no F above it), so the callers half is, for each such
 * node, its path to the root read upwards weighted by that total (summed
 * per parent first, as the C side does), and the callees half is the
 * subtrees under those nodes merged, inner F frames kept as frames.  Each
 * half is then a block-shaped structure, laid out by the drill-down's own
 * flow() (62-layout.js), so a half's frames are `render --callers F`'s /
 * `--callees F`'s, at the width of F.
 *
 * Trade-offs: the halves are built on demand (one pass over the nodes and
 * a Map per new node, ~ the nodes under and above F's frames) and the last
 * one is kept; the callers half is capped as the C side caps it (16 x the
 * nodes + 1M), past which the view says so instead.  A pruned block
 * (data-pruned="1") left narrow subtrees out, their samples folded into
 * their parents: F's frames inside them are missing, so the counts are
 * exact for the profile the file carries, not the recording; the details
 * line says so.
 *
 * Zoom inside a half draws that half alone, from the clicked frame (its
 * ancestors up to F dimmed); search colours and counts inside both halves.
 */

	/* ---- the sandwich view ---- */

	const SANDWICH_NODE_FACTOR = 16, SANDWICH_NODE_SLACK = 1 << 20;
	let SW = null;   /* the last sandwich made: { raw, up, down, outer, ... } */

	/* mirrors fold/model/sandwich.c:name_matches() */
	function isFunction(s, want) {
		if (s.length === want.length) return s === want;
		return s.length === want.length + 4 && s.startsWith(want) && s[want.length] === '_' &&
			s[want.length + 1] === '[' && s[want.length + 3] === ']';
	}

	/* A name as the block holds it (bytes as char codes) from text a user
	 * typed or a URL carried (UTF-16), and back. */
	function toRaw(s) {
		try {
			return unescape(encodeURIComponent(s));
		} catch (e) {
			return s;
		}
	}
	function fromRaw(raw) {
		try {
			return decodeURIComponent(escape(raw));
		} catch (e) {
			return raw;
		}
	}

	/* A growing trie of the block's name ids, then laid out in pre-order
	 * with the fields parseData() gives (50-block.js).  One Map over
	 * (parent, name) keys and children as linked lists: a Map per node
	 * was most of a big sandwich's time (tree100k). */
	function newHalf(D, fname) {
		const H = { name: [0, fname], self: [0, 0], base: [0, 0], parent: [-1, 0], first: [1, -1], next: [-1, -1],
			key: new Map(), nn: D.names.length + 1 };
		H.key.set(fname, 1);
		return H;
	}
	function halfChild(H, p, nm) {
		const k = p * H.nn + nm;
		let c = H.key.get(k);
		if (c === undefined) {
			c = H.name.length;
			H.name.push(nm);
			H.self.push(0);
			H.base.push(0);
			H.parent.push(p);
			H.first.push(-1);
			H.next.push(H.first[p]);
			H.first[p] = c;
			H.key.set(k, c);
		}
		return c;
	}
	function halfData(D, H) {
		const n = H.name.length, order = new Int32Array(n), at = new Int32Array(n);
		let k = 0;
		const st = [0];
		while (st.length) {
			const v = st.pop();
			at[v] = k;
			order[k++] = v;
			for (let c = H.first[v]; c >= 0; c = H.next[c]) st.push(c);
		}
		const X = {
			n: n, names: D.names, diff: D.diff, pruned: D.pruned,
			depth: new Int32Array(n), name: new Int32Array(n), self: new Float64Array(n),
			base: D.diff ? new Float64Array(n) : null, parent: new Int32Array(n), end: new Int32Array(n),
			total: null, btotal: null, disp: D.disp, matched: null, ent: new Array(n), fu: null,
			integral: D.integral, locs: null,
		};
		for (let i = 0; i < n; i++) {
			const v = order[i];
			X.name[i] = H.name[v];
			X.self[i] = H.self[v];
			if (D.diff) X.base[i] = H.base[v];
			X.parent[i] = v === 0 ? -1 : at[H.parent[v]];
			X.depth[i] = v === 0 ? 0 : X.depth[X.parent[i]] + 1;
			X.end[i] = i + 1;
		}
		X.name[0] = D.name[0];
		X.total = Float64Array.from(X.self);
		X.btotal = D.diff ? Float64Array.from(X.base) : X.total;
		for (let i = n - 1; i > 0; i--) {
			const p = X.parent[i];
			X.total[p] += X.total[i];
			if (D.diff) X.btotal[p] += X.btotal[i];
			if (X.end[i] > X.end[p]) X.end[p] = X.end[i];
		}
		/* shares and differential details are of the whole profile */
		X.total[0] = D.total[0];
		if (D.diff) X.btotal[0] = D.btotal[0];
		X.maxDepth = 0;
		for (let i = 0; i < n; i++) if (X.depth[i] > X.maxDepth) X.maxDepth = X.depth[i];
		return X;
	}

	/* The two halves for function `raw` (bytes), or a reason it has none. */
	/* mirrors fold/model/sandwich.c:fold_sandwich(), fold/model/sandwich.c:outermost(), fold/model/sandwich.c:build_callees(), fold/model/sandwich.c:build_callers(), fold/model/sandwich.c:sum_by_caller() */
	function makeSandwich(D, raw) {
		if (SW && SW.D === D && SW.raw === raw) return SW;
		const isF = new Uint8Array(D.names.length);
		let any = false;
		for (let k = 0; k < D.names.length; k++) {
			if (isFunction(D.names[k], raw)) { isF[k] = 1; any = true; }
		}
		if (!any) return (SW = { D: D, raw: raw, error: 'no frame is ' + display(raw).s });
		let fname = D.names.indexOf(raw);
		if (fname < 0) fname = D.names.push(raw) - 1;   /* only annotated copies (F_[i]) */
		const outer = new Int32Array(D.n);
		outer[0] = -1;
		const outermost = [];
		for (let i = 1; i < D.n; i++) {
			const up = outer[D.parent[i]];
			outer[i] = up >= 0 ? up : isF[D.name[i]] ? i : -1;
			if (outer[i] === i) outermost.push(i);
		}
		if (!outermost.length) return (SW = { D: D, raw: raw, error: 'no frame is ' + display(raw).s });
		/* callees: the subtrees under the outermost frames, merged */
		const down = newHalf(D, fname), map = new Int32Array(D.n);
		for (let i = 1; i < D.n; i++) {
			if (outer[i] < 0) continue;
			map[i] = outer[i] === i ? 1 : halfChild(down, map[D.parent[i]], D.name[i]);
			down.self[map[i]] += D.self[i];
			if (D.diff) down.base[map[i]] += D.base[i];
		}
		/* callers: each outermost frame's total at its parent, then each
		 * parent's path to the root, read upwards */
		const up = newHalf(D, fname), sum = new Map();
		const tb = D.diff ? D.btotal : null;
		for (const o of outermost) {
			const p = D.parent[o], s = sum.get(p);
			if (s) { s[0] += D.total[o]; s[1] += tb ? tb[o] : 0; } else sum.set(p, [D.total[o], tb ? tb[o] : 0]);
		}
		const cap = D.n * SANDWICH_NODE_FACTOR + SANDWICH_NODE_SLACK;
		for (const [p0, s] of sum) {
			let node = 1;
			for (let p = p0; p > 0; p = D.parent[p]) {
				node = halfChild(up, node, D.name[p]);
				if (up.name.length > cap) return (SW = { D: D, raw: raw, error: 'too many caller paths to draw' });
			}
			up.self[node] += s[0];   /* AFTER (the drawn layer), BEFORE beside it */
			if (D.diff) up.base[node] += s[1];
		}
		SW = { D: D, raw: raw, up: halfData(D, up), down: halfData(D, down), outermost: outermost };
		return SW;
	}

	/* What the details line says over a sandwich. */
	function sandwichNote(S) {
		if (S.error) return 'Sandwich: ' + S.error;
		const t = cfg.before ? S.down.btotal[1] : S.down.total[1];
		let s = 'Sandwich of ' + display(S.raw).s + ': ' +
			countText(t, false, cfg.before ? S.D.btotal[0] * cfg.factor : cfg.total) +
			'% with it on the stack; callers above, callees below; Reset Zoom returns';
		if (S.D.pruned) s += ' (pruned block: subtrees it left out are missing)';
		return s;
	}

	/* The view of sandwich S ({ sw }) or of one half zoomed to a node
	 * ({ sw, half, node }): rows from the root's side (rowY), F's row
	 * between the halves, callers towards the top of the screen. */
	function sandwichView(S, zhalf, znode) {
		const W = cfg.width, xpad = cfg.xpad, fh = cfg.frameheight, inv = cfg.inverted;
		const fileTotal = cfg.before ? S.D.btotal[0] * cfg.factor : cfg.total;
		const upMax = S.up.maxDepth - 1, downMax = S.down.maxDepth - 1;
		const rF = inv ? upMax : downMax;
		const rowOf = (half, d) => ((half === 'up') !== inv ? rF + d - 1 : rF - d + 1);
		const items = [];
		const rows = upMax + downMax + 1;
		const add = (X, half, f, wpt, minw, list) => {
			const row = rowOf(half, f.depth);
			const it = frameItem(X, f, xpad + f.start * wpt, xpad + f.end * wpt, row, f.end - f.start, false,
				fileTotal, 'frame');
			it.zoomTo = f.node === 1 ? { sw: S.raw } : { sw: S.raw, half: half, node: f.node };
			it.sw = { X: X, half: half };
			if (f.rest !== undefined) {
				it.rest = f;
				it.moreOf = () => {
					const l = [];
					for (const g of expand(X, cfg.before, minw, it.rest)) add(X, half, g, wpt, minw, l);
					it.rest = undefined;
					return l;
				};
			}
			list.push(it);
			let px = 0;
			for (let k = 0; k < f.runs.length; k += 2) px += f.runs[k + 1] - f.runs[k];
			if (f.runs.length && px * wpt >= 1) {   /* pruned runs, as trieView draws them */
				let d = '';
				const y1 = rowY(rowOf(half, f.depth + 1)), y2 = y1 + fh - 1;
				for (let k = 0; k < f.runs.length; k += 2) {
					const x1 = xpad + f.runs[k] * wpt, x2 = xpad + f.runs[k + 1] * wpt;
					d += 'M' + fixed(x1, 1) + ' ' + fixed(y1, 1) + 'h' + fixed(x2 - x1, 1) + 'v' +
						fixed(y2 - y1, 1) + 'h' + fixed(x1 - x2, 1) + 'z';
				}
				const ps = f.ps, pf = () => prunedFrames(X, f);
				list.push({ kind: 'box', d: d, fill: 'rgb(190,190,190)', name: null, row: rowOf(half, f.depth + 1),
					title: () => { const k = pf(); return k + ' frame' + (k === 1 ? '' : 's') + ' pruned (' + countText(ps, false, fileTotal) + '%)'; } });
			}
		};
		for (const half of zhalf ? [zhalf] : ['down', 'up']) {
			const X = half === 'up' ? S.up : S.down, tot = cfg.before ? X.btotal : X.total;
			const z = zhalf ? znode : 1;
			const wpt = (W - 2 * xpad) / tot[z];
			const mw = parseFloat(cfg.minwidth) || 0;
			const minw = /%$/.test(cfg.minwidth) ? tot[z] * mw / 100 : mw / wpt;
			const anc = [];
			for (let p = X.parent[z]; p >= 1; p = X.parent[p]) anc.unshift(p);
			for (const p of anc) {
				const f = { node: p, delta: X.diff && own(X, p) ? X.self[p] - X.base[p] : 0, waker: false };
				const it = frameItem(X, f, xpad, W - xpad, rowOf(half, X.depth[p]), tot[p], false, fileTotal, 'anc');
				it.zoomTo = p === 1 ? { sw: S.raw } : { sw: S.raw, half: half, node: p };
				items.push(it);
			}
			const fl = flow(X, z, cfg.before, minw, 1 / wpt);
			for (let k = half === 'up' && !zhalf ? 1 : 0; k < fl.length; k++) add(X, half, fl[k], wpt, minw, items);
		}
		return { items: items, rows: rows, more: (it) => ({ items: it.moreOf(), rows: rows }) };
	}

	/* Matched samples under node v of block-shaped X (a matched frame's
	 * subtree counted once; v itself counted whole when it or a frame
	 * above it matches). */
	function matchedUnder(X, v, tot, hit) {
		for (let p = X.parent[v]; p >= 0; p = X.parent[p]) {
			if (hit(X, p)) return tot[v];
		}
		let m = 0;
		for (let i = v; i < X.end[v];) {
			if (hit(X, i)) {
				m += tot[i];
				i = X.end[i];
			} else {
				i++;
			}
		}
		return m;
	}

	/* [matched, view] samples in the sandwich: unzoomed, every sample with
	 * F on its stack once (a match among its callers or its callees);
	 * zoomed, under the zoomed frame of its half. */
	function sandwichMatched(S, z) {
		const D = S.D;
		const hit = (X, i) => (i === 0 ? (X === D && D.rootMatched) : D.matched[X.name[i]] === 1);
		if (z.half) {
			const X = z.half === 'up' ? S.up : S.down, tot = cfg.before ? X.btotal : X.total;
			const m = z.half === 'up' ? upMatched(S, z.node, tot, hit) : matchedUnder(X, z.node, tot, hit);
			return [m, tot[z.node]];
		}
		const tot = cfg.before ? D.btotal : D.total;
		let m = 0, all = 0;
		for (const o of S.outermost) {
			m += matchedUnder(D, o, tot, hit);
			all += tot[o];
		}
		return [m, all];
	}

	/* In the callers half a frame's samples are those of the stacks whose
	 * callers run through it: matched when a frame on the path from F to
	 * it, or one of its callers, matches. */
	function upMatched(S, v, tot, hit) {
		const X = S.up;
		for (let p = v; p >= 1; p = X.parent[p]) {
			if (hit(X, p)) return tot[v];
		}
		return matchedUnder(X, v, tot, hit);
	}

