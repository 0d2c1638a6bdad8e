/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/40-frames.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the frames as written,
 * read once into flat arrays (the fallback view without an embedded
 * block).
 */
	/* ---- the frames as written, read once (idle time, or on demand) ----
	 * By pre-order index: the <g>, its rect, tooltip first line, name,
	 * count, x/y/width; then depth from y, parent and subtree end. */

	let T = null;

	function newTable() {
		return {
			done: false, next: framesEl.firstElementChild,
			n: 0, g: [], rect: [], name: [], title: [], count: [],
			xattr: [], yattr: [], wattr: [], fill: [],
			x: null, y: null, w: null, parent: null, end: null, matched: null,
			fillByName: new Map(),
			/* pruned aggregates: not frames; a rescaled view carries them */
			P: { g: [], d: [], rect: [], title: [], x0: [], x1: [], y: [] },
		};
	}

	/* First line of a <title>: "NAME (N samples, P%)" or "...; +D%)". */
	function parseTitle(t) {
		const nl = t.indexOf('\n');
		const first = nl < 0 ? t : t.slice(0, nl);
		const p = first.lastIndexOf(' (');
		if (p < 0) {
			return { first: first, name: first, count: 0 };
		}
		const rest = first.slice(p + 2);
		const sp = rest.indexOf(' ');
		const c = Number(rest.slice(0, sp < 0 ? rest.length : sp).replace(/,/g, ''));
		return { first: first, name: first.slice(0, p), count: isFinite(c) ? c : 0 };
	}

	/* The renderer writes <title>, <rect>, then <text> when a label fits. */
	function parts(g) {
		const title = g.firstElementChild;
		const rect = title && title.nextElementSibling;
		if (title && title.localName === 'title' && rect && rect.localName === 'rect') {
			return { title: title, rect: rect };
		}
		return { title: g.querySelector('title'), rect: g.querySelector('rect') };
	}

	function addFrame(g) {
		const c = parts(g);
		if (!c.rect || !c.title) return;
		const i = T.n++;
		const t = parseTitle(c.title.textContent);
		g.ufIndex = i;
		T.g.push(g);
		T.rect.push(c.rect);
		T.title.push(t.first);
		T.name.push(t.name);
		T.count.push(t.count);
		T.xattr.push(c.rect.getAttribute('x') || '0');
		T.yattr.push(c.rect.getAttribute('y') || '0');
		T.wattr.push(c.rect.getAttribute('width') || '0');
		const fill = c.rect.getAttribute('fill');
		T.fill.push(fill);
		if (fill !== null && !T.fillByName.has(t.name)) T.fillByName.set(t.name, fill);
	}

	/* Bounding box of a path's coordinates (M/L/H/V/Z, absolute or
	 * relative; other commands are read as coordinate pairs). */
	function pathBox(d) {
		const re = /([MmLlHhVvZzCcSsQqTtAa])|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;
		let cmd = 'M', k = 0, cx = 0, cy = 0, sx = 0, sy = 0, pend = null;
		let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
		function point(x, y) {
			cx = x; cy = y;
			x0 = Math.min(x0, x); x1 = Math.max(x1, x);
			y0 = Math.min(y0, y); y1 = Math.max(y1, y);
		}
		let m, guard = 0;
		while ((m = re.exec(d)) !== null && guard++ < 100000) {
			if (m[1]) {
				cmd = m[1]; k = 0; pend = null;
				if (cmd === 'Z' || cmd === 'z') point(sx, sy);
				continue;
			}
			const v = parseFloat(m[2]), rel = cmd >= 'a', up = cmd.toUpperCase();
			if (up === 'H') {
				point(rel ? cx + v : v, cy);
			} else if (up === 'V') {
				point(cx, rel ? cy + v : v);
			} else if (pend === null) {
				pend = v;
			} else {
				point(rel ? cx + pend : pend, rel ? cy + v : v);
				if (up === 'M' && k === 0) { sx = cx; sy = cy; }
				pend = null; k++;
			}
		}
		return isFinite(x0) ? { x0: x0, x1: x1, y: (y0 + y1) / 2 } : null;
	}

	function addPruned(g) {
		let title = g.firstElementChild;
		let shape = title && title.nextElementSibling;
		if (!shape || title.localName !== 'title' ||
		    (shape.localName !== 'path' && shape.localName !== 'rect')) {
			shape = g.querySelector('path') || g.querySelector('rect');
			title = g.querySelector('title');
		}
		let box = null, d = null, rect = null;
		if (shape && shape.localName === 'rect') {
			const a = (n) => parseFloat(shape.getAttribute(n)) || 0;
			box = { x0: a('x'), x1: a('x') + a('width'), y: a('y') + a('height') / 2 };
			rect = [a('x'), a('y'), a('width'), a('height')];
		} else if (shape) {
			d = shape.getAttribute('d') || '';
			box = pathBox(d);
		}
		if (!box) return;
		const P = T.P;
		g.ufPruned = P.g.length;
		P.g.push(g);
		P.d.push(d);
		P.rect.push(rect);
		P.title.push(title ? title.textContent : '');
		P.x0.push(box.x0);
		P.x1.push(box.x1);
		P.y.push(box.y);
	}

	/* Reads frames for about `ms` milliseconds; true when all are read. */
	function tableStep(ms) {
		const t0 = performance.now();
		let k = 0;
		for (let g = T.next; g; g = g.nextElementSibling) {
			const cls = g.getAttribute('class');
			if (cls && /(^|\s)pruned(\s|$)/.test(cls)) addPruned(g);
			else addFrame(g);
			if (++k % 256 === 0 && performance.now() - t0 > ms) {
				T.next = g.nextElementSibling;
				return false;
			}
		}
		T.next = null;
		tableFinish();
		return true;
	}

	/* Depth = rank of the frame's y among the distinct y values, counted
	 * from the root's side; then parent and subtree end from pre-order. */
	function tableFinish() {
		const n = T.n;
		T.count = Float64Array.from(T.count);
		T.x = Float64Array.from(T.xattr, parseFloat);
		T.w = Float64Array.from(T.wattr, parseFloat);
		T.y = Float64Array.from(T.yattr, parseFloat);
		T.parent = new Int32Array(n);
		T.end = new Int32Array(n);
		T.matched = new Uint8Array(n);
		const ys = Array.from(new Set(T.y)).sort((a, b) => a - b);
		if (!cfg.inverted) ys.reverse();
		const rank = new Map();
		ys.forEach((v, r) => rank.set(v, r));
		const stack = [];
		for (let i = 0; i < n; i++) {
			const d = rank.get(T.y[i]);
			T.parent[i] = d > 0 && stack.length >= d ? stack[d - 1] : -1;
			stack.length = d;
			stack[d] = i;
			T.end[i] = i + 1;
		}
		for (let i = n - 1; i > 0; i--) {
			const p = T.parent[i];
			if (p >= 0 && T.end[i] > T.end[p]) T.end[p] = T.end[i];
		}
		T.done = true;
	}

	function table() {
		if (T === null) T = newTable();
		if (!T.done) tableStep(Infinity);
		return T;
	}
