/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/72-view.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the view a zoom draws over
 * the file's own frames: items, titles, batches.
 */
	/* ---- the view: what a zoom draws over the file's own frames ----
	 * Items: { kind: 'frame' | 'anc' | 'box', x, y, w, h (attribute
	 * strings) or d (a path), fill, label, lx, ly, name (display), title()
	 * (full tooltip), node (trie) or frame (drawn frame index) }. */

	function make(tag, attrs) {
		const e = document.createElementNS(NS, tag);
		for (const k in attrs) e.setAttribute(k, attrs[k]);
		return e;
	}

	function clearView() {
		if (state.view) {
			state.view.g.remove();
			state.view = null;
			framesEl.removeAttribute('transform');
		}
	}

	/* Draws view v ({ items, rows, more, replace }) over the file's
	 * frames. */
	/* Shapes a zoom's first frame draws at most (see drawView). */
	const FIRST_FRAME_ITEMS = 400;

	function drawView(v) {
		clearView();
		const items = v.items;
		const g = make('g', { id: 'uf-view' });
		/* An opaque cover over the rows: the file's background, clipped. */
		const clip = make('clipPath', { id: 'uf-view-clip' });
		const clipRect = make('rect', { x: '0', width: String(cfg.width) });
		clip.appendChild(clipRect);
		g.appendChild(clip);
		const g0 = geom();
		let cover;
		if (g0.bg) {
			cover = g0.bg.cloneNode(false);
			cover.removeAttribute('id');
		} else {
			cover = make('rect', { x: '0', width: String(cfg.width), fill: 'white' });
		}
		cover.setAttribute('clip-path', 'url(#uf-view-clip)');
		cover.setAttribute('class', 'uf-cover');
		g.appendChild(cover);
		const view = state.view = { g: g, items: items, rows: 0 };
		const fit = (rows) => {
			if (rows <= view.rows) return;
			view.rows = rows;
			setExtraRows(Math.max(0, rows - g0.rows));
			const R = Math.max(rows, g0.rows), fh = cfg.frameheight;
			const y0 = cfg.inverted ? g0.y0 - 1 : g0.y0 - (R - 1) * fh - 1;
			clipRect.setAttribute('y', String(y0));
			clipRect.setAttribute('height', String(R * fh + 1));
			if (!g0.bg) {
				cover.setAttribute('y', String(y0));
				cover.setAttribute('height', String(R * fh + 1));
			}
		};
		/* What is at least a pixel wide and fits the canvas now; narrower
		 * frames (invisible one by one, and most of a deep drill-down) and
		 * rows the canvas must grow for in slices after it, walking the
		 * subtrees flow() left for later as they come. */
		fit(Math.min(Math.max(v.rows, 1), g0.rows));
		let later = [];
		const now = [];
		for (let i = 0; i < items.length; i++) {
			const it = items[i];
			if ((it.kind === 'frame' && it.px < 1) || it.row >= g0.rows) later.push(i);
			else now.push(i);
		}
		if (now.length > FIRST_FRAME_ITEMS) {
			/* The widest first: the first frame shows the shape, the
			 * slivers follow in the next slices (s100k's zoom drew 1,923
			 * shapes in its first frame: 104-163 ms) */
			const px = (i) => (items[i].kind === 'frame' ? items[i].px : Infinity);
			now.sort((a, b) => px(b) - px(a) || a - b);
			later = now.splice(FIRST_FRAME_ITEMS).sort((a, b) => a - b).concat(later);
		}
		for (const i of now) addItem(g, items, i);
		view.slivers = { byFill: new Map(), items: [], pending: [] };
		framesEl.parentNode.insertBefore(g, framesEl.nextSibling);
		/* The file's frames are under the view's opaque cover: moved far
		 * outside the canvas while it shows, so the view's frames do not
		 * paint them again and Reset Zoom does not lay them out again
		 * (28k frames, Firefox: zoom 167 -> 109 ms, reset 311 -> 94 ms;
		 * Chromium 177 -> 109 and 145 -> 55; display: none made Firefox
		 * lay out every frame at reset, no hiding repainted them all in
		 * each slice of the zoom; the file never has a transform here). */
		framesEl.setAttribute('transform', 'translate(0,-1000000)');
		if (v.replace) {
			/* a quick view (a partial sandwich): its whole view replaces it
			 * once this frame is out (the same timing as the slices) */
			g.setAttribute('data-pending', '1');
			requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
				if (state.view === view) v.replace();
			}, 0)));
			return;
		}
		if (!later.length) return;
		g.setAttribute('data-pending', '1');
		let k = 0, walked = 0, rows = v.rows;
		const slice = () => {
			if (state.view !== view) return;
			const t0 = performance.now();
			if (walked < later.length) {
				/* walk every subtree left for later first (no DOM), in
				 * slices too (one walk of tree100k's worst sandwich took
				 * 42 ms): the canvas then grows once, to its final rows */
				for (; walked < later.length && performance.now() - t0 < 12; walked++) {
					const it = items[later[walked]];
					if (it.rest && v.more) {
						const m = v.more(it);
						for (const x of m.items) later.push(items.push(x) - 1);
						rows = Math.max(rows, m.rows);
					}
				}
				if (walked < later.length) {
					setTimeout(slice, 0);
					return;
				}
				fit(rows);
			}
			const frag = document.createDocumentFragment();
			while (k < later.length && performance.now() - t0 < 12) {
				for (const stop = Math.min(k + 200, later.length); k < stop; k++) {
					if (isSliver(items[later[k]])) view.slivers.pending.push(later[k]);
					else addItem(frag, items, later[k]);
				}
			}
			drawSlivers(view, frag, view.slivers.pending);
			view.slivers.pending = [];
			g.appendChild(frag);
			if (k < later.length) setTimeout(slice, 0);
			else g.removeAttribute('data-pending');
		};
		/* the first slice waits for the frame after the first one: queued
		 * from that frame's own animation callback it ran before the
		 * browser had handed the frame on (tree100k's zoom: 43 ms of walk
		 * between the first frame's paint and the next task) */
		requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(slice, 0)));
	}

	/* ---- slivers: the view's frames narrower than a pixel ----
	 * A deep drill-down is mostly frames under a pixel wide (tree100k's
	 * complete view: 8,205 of 8,619).  Drawn as one element each, they
	 * cost the browser per element at every draw and again when Reset
	 * Zoom removes them (Firefox: ~6-9 us each, however hidden); so they
	 * are drawn as one <path class="sliver"> per fill (a subpath per
	 * frame, the rectangle a rect would have: same x, y, width, height
	 * strings, square corners) and found under the pointer by
	 * coordinates (sliverAt).  A path's ufSlivers lists its items; a
	 * search regroups them by the fill they now show. */

	function isSliver(it) {
		return it.kind === 'frame' && it.px < 1;
	}

	function shownFill(it) {
		return state.re !== null && state.re.test(it.name) ? cfg.searchcolor : it.fill;
	}

	/* Adds sliver items `list` to view v's paths, one per fill: a fill's
	 * path gets the new subpaths; a new fill's path goes into parent. */
	function drawSlivers(v, parent, list) {
		const S = v.slivers, touched = new Map();
		for (const i of list) {
			const it = v.items[i];
			if (it.prep) it.prep();
			it.el = null;
			const fill = shownFill(it);
			let p = S.byFill.get(fill);
			if (!p) {
				p = { el: make('path', { fill: fill, class: 'sliver' }), d: '' };
				p.el.ufSlivers = [];
				S.byFill.set(fill, p);
				parent.appendChild(p.el);
			}
			p.d += 'M' + it.x + ' ' + it.y + 'h' + it.w + 'v' + it.h + 'h-' + it.w + 'z';
			p.el.ufSlivers.push(i);
			S.items.push(i);
			touched.set(fill, p);
		}
		for (const p of touched.values()) p.el.setAttribute('d', p.d);
	}

	/* After a search: every drawn sliver regrouped by its fill now. */
	function regroupSlivers(v) {
		const S = v.slivers;
		if (!S) return;
		for (const p of S.byFill.values()) p.el.remove();
		S.byFill = new Map();
		const all = S.items;
		S.items = [];
		const frag = document.createDocumentFragment();
		drawSlivers(v, frag, all);
		v.g.appendChild(frag);
	}

	/* The sliver of path element p under client point (cx, cy): the item
	 * whose rectangle holds the point, else the nearest in that row within
	 * a pixel (the browser's hit test and the strings' rounding can differ
	 * at an edge); null when none. */
	function sliverAt(p, cx, cy) {
		const m = p.getScreenCTM();
		if (!m || !state.view) return null;
		const pt = svg.createSVGPoint();
		pt.x = cx;
		pt.y = cy;
		const u = pt.matrixTransform(m.inverse());
		const items = state.view.items;
		let best = null, bestDx = 1;
		for (const i of p.ufSlivers) {
			const it = items[i];
			const y = +it.y;
			if (u.y < y || u.y > y + +it.h) continue;
			const x = +it.x, dx = u.x < x ? x - u.x : Math.max(0, u.x - x - +it.w);
			if (dx === 0) return it;
			if (dx <= bestDx) {
				best = it;
				bestDx = dx;
			}
		}
		return best;
	}

	function addItem(parent, items, i) {
		const it = items[i];
		if (it.prep) it.prep();
		let shape;
		if (it.kind === 'box') {
			shape = it.d !== undefined ? make('path', { d: it.d, fill: it.fill })
				: make('rect', { x: it.x, y: it.y, width: it.w, height: it.h, fill: it.fill });
			shape.setAttribute('class', 'pruned');
			if (it.transform) shape.setAttribute('transform', it.transform);
		} else {
			const m = state.re !== null && state.re.test(it.name);
			shape = make('rect', { x: it.x, y: it.y, width: it.w, height: it.h,
				fill: m ? cfg.searchcolor : it.fill, rx: '2', ry: '2' });
			shape.setAttribute('class', it.kind === 'anc' ? 'f parent' : 'f');
		}
		shape.ufItem = i;
		it.el = shape;
		parent.appendChild(shape);
		if (it.label) {
			const t = make('text', { x: it.lx, y: it.ly });
			if (it.kind === 'anc') t.setAttribute('class', 'parent');
			t.textContent = it.label;
			parent.appendChild(t);
		}
	}

	/* Tooltip pieces of a differential (frames.c diff_details). */
	/* mirrors render/frames.c:diff_details() */
	function diffDetails(D, n) {
		let bt = D.btotal[n], at = D.total[n], bs = D.base[n], as = D.self[n];
		let btot = D.btotal[0], atot = D.total[0];
		if (cfg.swapped) {
			[bt, at] = [at, bt];
			[bs, as] = [as, bs];
			[btot, atot] = [atot, btot];
		}
		const share = (v, t) => fixed(t > 0 ? 100 * v / t : 0, 2) + '%';
		const pts = (atot > 0 ? 100 * at / atot : 0) - (btot > 0 ? 100 * bt / btot : 0);
		let s = '\nbefore \u2192 after: total ' + displayCount(bt * cfg.factor) + ' \u2192 ' +
			displayCount(at * cfg.factor) + ' (' + share(bt, btot) + ' \u2192 ' + share(at, atot) + ', ' +
			(pts > 0 ? '+' : '') + fixed(pts, 2) + ' pts); self ' + displayCount(bs * cfg.factor) +
			' \u2192 ' + displayCount(as * cfg.factor);
		if (bt === 0 && at > 0) s += ' (new)';
		else if (at === 0 && bt > 0) s += ' (gone)';
		return s;
	}

	/* mirrors render/frames.c:write_frame(), render/frames.c:count_text() */
	function frameTitle(D, f, count, whole, fileTotal) {
		let t = dispName(D, f.node).s + ' (' + countText(count, whole, fileTotal) + '%';
		if (D.diff && f.node !== 0) {
			const d = frameDelta(D, f);
			t += '; ' + (d > 0 ? '+' : '') + fixed(100 * d / fileTotal, 2) + '%';
		}
		t += ')';
		return (D.diff ? t + diffDetails(D, f.node) : t) + extraLines(D, f.node);
	}

	/* The drill-down view of trie node z: ancestors at full width, then
	 * flow() of z's subtree at the new scale (see flow()). */
	function trieView(D, z) {
		const tot = cfg.before ? D.btotal : D.total;
		const fileTotal = cfg.before ? D.btotal[0] * cfg.factor : cfg.total;
		const W = cfg.width, xpad = cfg.xpad, wpt = (W - 2 * xpad) / tot[z];
		const mw = parseFloat(cfg.minwidth) || 0;
		const minw = /%$/.test(cfg.minwidth) ? tot[z] * mw / 100 : mw / wpt;
		const fh = cfg.frameheight;
		const items = [];
		let rows = D.depth[z] + 1;
		const anc = [];
		for (let p = D.parent[z]; p >= 0; p = D.parent[p]) anc.unshift(p);
		const full = { x1: xpad, x2: W - xpad };
		for (const p of anc) {
			const f = { node: p, delta: D.diff && own(D, p) ? D.self[p] - D.base[p] : 0, waker: false };
			items.push(frameItem(D, f, full.x1, full.x2, D.depth[p], p === 0 ? fileTotal / cfg.factor : tot[p],
				p === 0, fileTotal, 'anc'));
		}
		const fl = flow(D, z, cfg.before, minw, 1 / wpt);
		const add = (f, list) => {
			const it = frameItem(D, f, xpad + f.start * wpt, xpad + f.end * wpt, f.depth, f.end - f.start,
				false, fileTotal, 'frame');
			if (f.rest !== undefined) it.rest = f;
			list.push(it);
			rows = Math.max(rows, f.depth + 1);
			let px = 0;
			for (let k = 0; k < f.runs.length; k += 2) px += f.runs[k + 1] - f.runs[k];
			/* a box narrower than a pixel shows nothing (frames.c) */
			if (f.runs.length && px * wpt >= 1) {
				let d = '';
				const y1 = rowY(f.depth + 1), y2 = y1 + fh - 1;
				for (let k = 0; k < f.runs.length; k += 2) {
					const x1 = xpad + f.runs[k] * wpt, x2 = xpad + f.runs[k + 1] * wpt;
					d += 'M' + fixed(x1, 1) + ' ' + fixed(y1, 1) + 'h' + fixed(x2 - x1, 1) + 'v' +
						fixed(y2 - y1, 1) + 'h' + fixed(x1 - x2, 1) + 'z';
				}
				const ps = f.ps, pf = () => prunedFrames(D, f);
				list.push({ kind: 'box', d: d, fill: 'rgb(190,190,190)', name: null, row: f.depth + 1,
					title: () => { const k = pf(); return k + ' frame' + (k === 1 ? '' : 's') + ' pruned (' +
						countText(ps, false, fileTotal) + '%)'; } });
				rows = Math.max(rows, f.depth + 2);
			}
		};
		for (const f of fl) add(f, items);
		/* the frames under a frame left for later, as items; rows so far */
		const more = (it) => {
			const list = [];
			for (const f of expand(D, cfg.before, minw, it.rest)) add(f, list);
			it.rest = undefined;
			return { items: list, rows: rows };
		};
		return { items: items, rows: rows, more: more };
	}

	/* A drill-down item; its attribute strings are made when it is drawn. */
	function frameItem(D, f, x1, x2, depth, count, whole, fileTotal, kind) {
		const disp = dispName(D, f.node);
		const it = {
			kind: kind, node: f.node, name: disp.s, px: x2 - x1, row: depth,
			title: () => frameTitle(D, f, count, whole, fileTotal),
			prep: () => {
				const y1 = rowY(depth), y2 = y1 + cfg.frameheight - 1;
				it.x = fixed(x1, 1);
				it.y = fixed(y1, 1);
				it.w = fixed(fixedValue(x2, 1) - fixedValue(x1, 1), 1);
				it.h = fixed(y2 - y1, 1);
				it.fill = frameColor(D, f);
				it.label = label(disp, x2 - x1);
				it.lx = fixed(x1 + 3, 2);
				it.ly = fixed(3 + (y1 + y2) / 2, 2);
				it.prep = null;
			},
		};
		return it;
	}

	/* The view of drawn frame z without embedded data: the drawn frames of
	 * its subtree and its pruned boxes, rescaled to the full width. */
	function tableView(z) {
		const T = table();
		const full = cfg.width - 2 * cfg.xpad, scale = full / T.w[z], zx = T.x[z];
		const h = fixed(cfg.frameheight - 1, 1);
		const items = [];
		const anc = [];
		for (let p = T.parent[z]; p >= 0; p = T.parent[p]) anc.unshift(p);
		const item = (i, x1, w, kind) => {
			const y1 = T.y[i];
			const disp = { s: T.name[i], chars: Array.from(T.name[i]).length };
			return {
				kind: kind, frame: i, name: T.name[i], px: w, x: fixed(x1, 1), y: T.yattr[i], w: fixed(w, 1), h: h,
				fill: T.fill[i] === null ? 'rgb(0,0,0)' : T.fill[i], label: label(disp, w),
				lx: fixed(x1 + 3, 2), ly: fixed(3 + y1 + (cfg.frameheight - 1) / 2, 2),
				title: () => parts(T.g[i]).title.textContent,
			};
		};
		for (const p of anc) items.push(item(p, cfg.xpad, full, 'anc'));
		for (let i = z; i < T.end[z]; i++) {
			items.push(item(i, cfg.xpad + (T.x[i] - zx) * scale, T.w[i] * scale, 'frame'));
		}
		/* a pruned box follows when its parent lies in the subtree: deeper
		 * than z, its centre within z's x range */
		const P = T.P, lo = zx, hi = zx + T.w[z], zy = T.y[z];
		const m = 'matrix(' + scale + ',0,0,1,' + (cfg.xpad - zx * scale) + ',0)';
		for (let k = 0; k < P.g.length; k++) {
			const c = (P.x0[k] + P.x1[k]) / 2;
			const deeper = cfg.inverted ? P.y[k] > zy : P.y[k] < zy;
			if (!deeper || c < lo || c > hi) continue;
			const t = P.title[k];
			const it = { kind: 'box', fill: 'rgb(190,190,190)', name: null, transform: m, title: () => t };
			if (P.d[k] !== null) it.d = P.d[k];
			else [it.x, it.y, it.w, it.h] = P.rect[k].map(String);
			items.push(it);
		}
		return { items: items, rows: 0 };
	}
