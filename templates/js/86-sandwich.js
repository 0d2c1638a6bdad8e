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
 * Trade-offs: the halves are built on demand, straight into typed arrays
 * (one visit per trie node under F's outermost frames and per row of each
 * caller path; memory ~ 40 bytes per node of a half), and the last one is
 * kept.  The unzoomed view's first frame comes from quick halves, built
 * only down to frames narrower than half a pixel or in rows past the
 * canvas, which that frame leaves for later (a stand-in child keeps
 * each cut node's subtree width), then the full halves' view replaces
 * it: the same frames at the same places, plus the narrower ones; the callers half is capped as the C side caps it (16 x the
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

	/* A half is built straight into pre-order typed arrays, a node at a
	 * time: a node is a group of "members" (trie nodes for the callees,
	 * caller paths for the callers) that merge into one frame; popping it
	 * gives it the next pre-order index, and its members' next steps,
	 * grouped by name (a stamp per name, no hashing), become its children,
	 * pushed to be popped next.  Each member moves to exactly one child,
	 * so a half costs one visit per (member, row) and no Map or object per
	 * node (a Map over (parent, name) keys and a reorder pass afterwards
	 * were 100-540 ms of tree100k's worst sandwich). */
	function newHalf(D, fname, cap) {
		const H = { n: 0, cap: cap, name: null, self: null, base: null, parent: null, depth: null,
			nn: D.names.length, fname: fname, diff: D.diff };
		halfRoom(H, 1024);
		/* node 0: the root, as the block's; node 1: F */
		halfNode(H, D.name[0], -1);
		return H;
	}
	function halfRoom(H, want) {
		if (H.name && want <= H.name.length) return;
		/* every array at least as long as name, whose length is the room */
		const size = Math.max(want, SCRATCH.has('h.name') ? SCRATCH.get('h.name').length : 0);
		H.name = scratch('h.name', Int32Array, size, H.n);
		H.parent = scratch('h.parent', Int32Array, size, H.n);
		H.depth = scratch('h.depth', Int32Array, size, H.n);
		H.self = scratch('h.self', Float64Array, size, H.n);
		if (H.diff) H.base = scratch('h.base', Float64Array, size, H.n);
	}

	/* Scratch arrays, kept from one half's build to the next: a half is
	 * built in them and copied out (halfData()), and one half is built at
	 * a time.  Fresh typed arrays are fresh pages to fault in: a build of
	 * tree100k's worst sandwich made ~4 MB of them, in doublings and
	 * D.n-sized links.  Returns an array of `key` with room for `want`,
	 * its first `keep` elements kept when it had to grow, the rest as a
	 * previous build left them.  After a sandwich is made, arrays past
	 * SCRATCH_KEEP elements are let go (trimScratch()): a page keeps at
	 * most ~36 MB of them, not the largest sandwich it ever made. */
	const SCRATCH = new Map(), SCRATCH_KEEP = 1 << 20;
	function trimScratch() {
		for (const [key, a] of SCRATCH) if (a.length > SCRATCH_KEEP) SCRATCH.delete(key);
	}
	function scratch(key, T, want, keep) {
		const a = SCRATCH.get(key);
		if (a && a.length >= want) return a;
		let size = a ? a.length : 1024;
		while (size < want) size *= 2;
		const b = new T(size);
		if (a && keep) b.set(a.subarray(0, keep));
		SCRATCH.set(key, b);
		return b;
	}
	function halfNode(H, nm, parent) {
		if (H.n >= H.name.length) halfRoom(H, H.n + 1);
		const i = H.n++;
		H.name[i] = nm;
		H.parent[i] = parent;
		H.depth[i] = parent < 0 ? 0 : H.depth[parent] + 1;
		H.self[i] = 0;   /* scratch: a previous build's values */
		if (H.diff) H.base[i] = 0;
		return i;
	}

	/* Pending groups: a stack of (first member, name, parent node). */
	function groupStack(size) {
		return { head: new Int32Array(size), name: new Int32Array(size), parent: new Int32Array(size), top: 0 };
	}
	function pushGroup(G, head, nm, parent) {
		if (G.top >= G.head.length) {
			const grow = (a) => { const b = new Int32Array(a.length * 2); b.set(a); return b; };
			G.head = grow(G.head);
			G.name = grow(G.name);
			G.parent = grow(G.parent);
		}
		G.head[G.top] = head;
		G.name[G.top] = nm;
		G.parent[G.top] = parent;
		return G.top++;
	}
	/* The groups pushed from `from` on, reversed: popped in the order they
	 * were found, so a node's children keep the block's sibling order
	 * (already sorted: entries() sorts them again at no cost; reversed,
	 * its sort made the view of tree100k's worst sandwich 2x slower). */
	function foundOrder(G, from) {
		const head = G.head, name = G.name, parent = G.parent;
		for (let a = from, b = G.top - 1; a < b; a++, b--) {
			const h = head[a], nm = name[a], p = parent[a];
			head[a] = head[b];
			name[a] = name[b];
			parent[a] = parent[b];
			head[b] = h;
			name[b] = nm;
			parent[b] = p;
		}
	}

	/* The callees half: the subtrees under the outermost frames, merged
	 * (inner F frames stay frames).  Members are trie nodes. */
	/* mirrors fold/model/sandwich.c:build_callees() */
	function buildCallees(D, fname, outermost, cutT, dcut) {
		const H = newHalf(D, fname, Infinity);
		const next = scratch('next', Int32Array, D.n, 0);   /* read only where written */
		const stamp = new Int32Array(H.nn).fill(-1), slot = new Int32Array(H.nn);
		const G = groupStack(64);
		let head = -1;
		for (let k = outermost.length - 1; k >= 0; k--) { next[outermost[k]] = head; head = outermost[k]; }
		pushGroup(G, head, fname, 0);
		while (G.top) {
			G.top--;
			const v = halfNode(H, G.name[G.top], G.parent[G.top]), from = G.top;
			if (v > 1 && (cutT > 0 || H.depth[v] >= dcut) &&
				calleesStub(D, H, v, G.head[G.top], next, cutT, H.depth[v] >= dcut)) continue;
			let self = 0, base = 0;
			for (let x = G.head[G.top]; x >= 0;) {
				const xn = next[x];
				self += D.self[x];
				if (D.diff) base += D.base[x];
				for (let c = x + 1; c < D.end[x]; c = D.end[c]) {
					const nm = D.name[c];
					if (stamp[nm] !== v) { stamp[nm] = v; slot[nm] = pushGroup(G, -1, nm, v); }
					next[c] = G.head[slot[nm]];
					G.head[slot[nm]] = c;
				}
				x = xn;
			}
			foundOrder(G, from);
			H.self[v] = self;
			if (D.diff) H.base[v] = base;
		}
		return H;
	}

	/* The callers half: each outermost frame's total summed at its parent,
	 * then each parent's path to the root read upwards, merged.  Members
	 * are those paths: a cursor (the next trie node up) and a weight,
	 * which lands as self where the path ends. */
	/* mirrors fold/model/sandwich.c:build_callers(), fold/model/sandwich.c:sum_by_caller() */
	function buildCallers(D, fname, outermost, cap, cutT, dcut) {
		const H = newHalf(D, fname, cap);
		const tb = D.diff ? D.btotal : null;
		const at = scratch('at', Int32Array, D.n, 0), cur = [], w = [], wb = [];
		for (const o of outermost) at[D.parent[o]] = -1;
		for (const o of outermost) {
			const p = D.parent[o];
			if (at[p] < 0) { at[p] = cur.length; cur.push(p); w.push(0); wb.push(0); }
			w[at[p]] += D.total[o];   /* AFTER (the drawn layer), BEFORE beside it */
			if (tb) wb[at[p]] += tb[o];
		}
		const m = cur.length, next = new Int32Array(m), cursor = Int32Array.from(cur);
		for (let k = 0; k < m; k++) next[k] = k + 1 < m ? k + 1 : -1;
		const stamp = new Int32Array(H.nn).fill(-1), slot = new Int32Array(H.nn);
		const G = groupStack(64);
		pushGroup(G, m ? 0 : -1, fname, 0);
		while (G.top) {
			G.top--;
			const v = halfNode(H, G.name[G.top], G.parent[G.top]);
			if (H.n > cap) return null;
			if (v > 1 && (cutT > 0 || H.depth[v] >= dcut) &&
				callersStub(H, v, G.head[G.top], next, cursor, w, cutT, H.depth[v] >= dcut)) continue;
			const from = G.top;
			let self = 0, base = 0;
			for (let k = G.head[G.top]; k >= 0;) {
				const kn = next[k], x = cursor[k];
				if (x === 0) {
					self += w[k];
					base += wb[k];
				} else {
					const nm = D.name[x];
					if (stamp[nm] !== v) { stamp[nm] = v; slot[nm] = pushGroup(G, -1, nm, v); }
					cursor[k] = D.parent[x];
					next[k] = G.head[slot[nm]];
					G.head[slot[nm]] = k;
				}
				k = kn;
			}
			foundOrder(G, from);
			H.self[v] = self;
			if (D.diff) H.base[v] = base;
		}
		return H;
	}

	/* A quick half (see makeSandwich) stops at a node narrower than
	 * cutT samples: it keeps its own line as self and gets one stand-in
	 * child for its subtree lines (their total as self), so the node's
	 * entries, their order and widths are the full half's while its
	 * subtree is not built.  True when node v (members from `head`) is
	 * such a stub. */
	function calleesStub(D, H, v, head, next, cutT, past) {
		let total = 0, self = 0, sub = false;
		for (let x = head; x >= 0; x = next[x]) {
			total += D.total[x];
			self += D.self[x];
			if (D.end[x] > x + 1) sub = true;
		}
		return stub(H, v, total, self, sub, cutT, past);
	}
	function callersStub(H, v, head, next, cursor, w, cutT, past) {
		let total = 0, self = 0, sub = false;
		for (let k = head; k >= 0; k = next[k]) {
			total += w[k];
			if (cursor[k] === 0) self += w[k];
			else sub = true;
		}
		return stub(H, v, total, self, sub, cutT, past);
	}
	function stub(H, v, total, self, sub, cutT, past) {
		if (!past && total >= cutT) return false;
		H.self[v] = self;
		if (sub) {
			const c = halfNode(H, H.name[v], v);   /* may grow H.self */
			H.self[c] = total - self;
		}
		H.partial = true;
		return true;
	}

	/* Half H (pre-order, parents before children) in the block's shape,
	 * so the drill-down's flow() lays it out (50-block.js parseData()). */
	function halfData(D, H) {
		const n = H.n;
		const X = {
			n: n, names: D.names, diff: D.diff, pruned: D.pruned,
			depth: H.depth.slice(0, n), name: H.name.slice(0, n), self: H.self.slice(0, n),
			base: D.diff ? H.base.slice(0, n) : null, parent: H.parent.slice(0, n), end: new Int32Array(n),
			total: null, btotal: null, disp: D.disp, matched: null, ent: new Array(n), fu: null,
			integral: D.integral, locs: null, partial: !!H.partial,
		};
		X.total = X.self.slice();
		X.btotal = D.diff ? X.base.slice() : X.total;
		X.maxDepth = 0;
		for (let i = 0; i < n; i++) {
			X.end[i] = i + 1;
			if (X.depth[i] > X.maxDepth) X.maxDepth = X.depth[i];
		}
		for (let i = n - 1; i > 0; i--) {
			const p = X.parent[i];
			X.total[p] += X.total[i];
			if (D.diff) X.btotal[p] += X.btotal[i];
			if (X.end[i] > X.end[p]) X.end[p] = X.end[i];
		}
		/* shares and differential details are of the whole profile */
		X.total[0] = D.total[0];
		if (D.diff) X.btotal[0] = D.btotal[0];
		return X;
	}

	/* The two halves for function `raw` (bytes), or a reason it has none.
	 * `quick` (the unzoomed view's first frame): halves built only down
	 * to frames narrower than half a pixel at F's width (stubs, above),
	 * a few hundred nodes where the full halves of tree100k's worst
	 * sandwich have 131k (their build was ~60 ms of its 140); such a
	 * sandwich is `partial` until completeSandwich() builds the rest.
	 * Its rows are the full halves' (their depths need no build), so the
	 * full view lands on the quick one's frames. */
	/* mirrors fold/model/sandwich.c:fold_sandwich(), fold/model/sandwich.c:outermost() */
	function makeSandwich(D, raw, quick) {
		if (!(SW && SW.D === D && SW.raw === raw)) SW = newSandwich(D, raw, quick && !D.diff);
		if (!quick && SW.partial) completeSandwich(SW);
		return SW;
	}
	function newSandwich(D, raw, quick) {
		const isF = new Uint8Array(D.names.length);
		let any = false;
		for (let k = 0; k < D.names.length; k++) {
			if (isFunction(D.names[k], raw)) { isF[k] = 1; any = true; }
		}
		if (!any) return { D: D, raw: raw, error: 'no frame is ' + display(raw).s };
		let fname = D.names.indexOf(raw);
		if (fname < 0) fname = D.names.push(raw) - 1;   /* only annotated copies (F_[i]) */
		/* the outermost F frames: pre-order, skipping each one's subtree */
		const outermost = [];
		let total = 0;
		for (let i = 1; i < D.n;) {
			if (isF[D.name[i]]) {
				outermost.push(i);
				total += D.total[i];
				i = D.end[i];
			} else {
				i++;
			}
		}
		if (!outermost.length) return { D: D, raw: raw, error: 'no frame is ' + display(raw).s };
		const S = { D: D, raw: raw, fname: fname, outermost: outermost, partial: false };
		if (!quick) return completeSandwich(S);
		const cutT = total / (cfg.width - 2 * cfg.xpad) / 2;
		const depth = halfDepths(D, outermost);
		const up = buildCallers(D, fname, outermost, Infinity, cutT, depthPastCanvas('up', depth));
		S.up = halfData(D, up);
		S.down = halfData(D, buildCallees(D, fname, outermost, cutT, depthPastCanvas('down', depth)));
		S.partial = S.up.partial || S.down.partial;
		S.up.maxDepth = depth.up;
		S.down.maxDepth = depth.down;
		trimScratch();
		return S;
	}

	/* S's full halves (or its error: too many caller paths); returns S. */
	function completeSandwich(S) {
		const D = S.D, up = buildCallers(D, S.fname, S.outermost,
			D.n * SANDWICH_NODE_FACTOR + SANDWICH_NODE_SLACK, 0, Infinity);
		S.partial = false;
		if (!up) {
			trimScratch();
			S.error = 'too many caller paths to draw';
			return S;
		}
		S.up = halfData(D, up);
		S.down = halfData(D, buildCallees(D, S.fname, S.outermost, 0, Infinity));
		trimScratch();
		return S;
	}

	/* The first depth of a half (F at 1) whose rows are past the file's
	 * canvas, which the first frame of a view leaves for later
	 * (drawView()), or Infinity: the half sandwichView() draws away from
	 * row 0 (the callers, or the callees of an icicle) starts at F's row
	 * and climbs a row a depth.  Tree100k's worst sandwich has 35 rows
	 * of callees where the canvas has 31: its quick callers half is F
	 * and the stubs of F's callers, not 4.5k nodes no one sees before the
	 * full view replaces them (its first frame is the same to the byte,
	 * flame graph and icicle; with the scratch arrays and the cached
	 * depths, the click's script went from 72.7 to 68.2 ms, medians of
	 * 10 traced Chromium runs each). */
	function depthPastCanvas(half, depth) {
		const inv = cfg.inverted;
		if ((half === 'up') === inv) return Infinity;
		const rF = inv ? depth.up - 1 : depth.down - 1;
		return Math.max(2, geom().rows - rF + 1);
	}

	/* The depth of the deepest frame of each full half (F at 1): of the
	 * callers, the deepest outermost frame's; of the callees, 1 + the
	 * deepest frame under an outermost one, below it. */
	function halfDepths(D, outermost) {
		if (!D.deepest) {   /* each node's deepest depth below: once per block */
			const deepest = D.depth.slice(0, D.n);
			for (let i = D.n - 1; i > 0; i--) {
				const p = D.parent[i];
				if (deepest[i] > deepest[p]) deepest[p] = deepest[i];
			}
			D.deepest = deepest;
		}
		let up = 1, down = 1;
		for (const o of outermost) {
			if (D.depth[o] > up) up = D.depth[o];
			if (D.deepest[o] - D.depth[o] + 1 > down) down = D.deepest[o] - D.depth[o] + 1;
		}
		return { up: up, down: down };
	}

	/* Zoom z made from a quick sandwich's frame: its node in the full
	 * half (the same names from F down), the sandwich completed first. */
	function settledZoom(z) {
		if (z === null || z.half === undefined || !z.of || !z.of.partial) return z;
		const D = drillData(), P = z.of;
		const S = D ? makeSandwich(D, z.sw, false) : null;
		if (!S || S.error) return { sw: z.sw };
		const X = z.half === 'up' ? S.up : S.down, path = [];
		for (let p = z.node; p > 1; p = P.parent[p]) path.unshift(P.name[p]);
		let v = 1;
		for (const nm of path) {
			let c = v + 1;
			while (c < X.end[v] && X.name[c] !== nm) c = X.end[c];
			if (c >= X.end[v]) break;
			v = c;
		}
		return v === 1 ? { sw: z.sw } : { sw: z.sw, half: z.half, node: v };
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
			it.zoomTo = f.node === 1 ? { sw: S.raw } : { sw: S.raw, half: half, node: f.node, of: X };
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
				it.zoomTo = p === 1 ? { sw: S.raw } : { sw: S.raw, half: half, node: p, of: X };
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

