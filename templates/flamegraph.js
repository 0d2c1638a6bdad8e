/*
 * templates/flamegraph.js — the interactive layer embedded in every SVG
 * uniprof-flame writes: hover details, click-to-zoom, regex search with a
 * Matched share, ignore-case, and zoom/search state kept in the URL.
 *
 * It reads the DOM the renderer wrote (render/: one <g> per frame inside
 * <g id="frames">, depth-first pre-order, tooltip "NAME (N samples, P%)")
 * once at load into flat arrays, and from then on every action is one pass
 * over those arrays that writes only the attributes that change.
 *
 * Main trade-off: we trust the pre-order the renderer promises, so a
 * frame's subtree is the index range [i, end[i]) and zoom, hiding and the
 * "count each matched subtree once" rule cost O(frames) with no tree walk
 * and no layout query (no getBBox / getComputedTextLength).  Labels are
 * re-fitted by arithmetic (font size x font width per character), which
 * can be a character off where a real measurement would not.
 *
 * Invariants:
 *  1. This file never contains the CDATA terminator (two closing square
 *     brackets then ">"): the SVG embeds it in CDATA and the build refuses it.
 *  2. Names and URL parameters are data: they reach the DOM only through
 *     textContent and setAttribute, never innerHTML, eval or new Function.
 *  3. A frame's original x/width/fill/label strings are saved before the
 *     script first changes them; reset restores exactly those strings, so
 *     an unzoomed, unsearched graph is the image the renderer drew.
 *  4. Matched shares come from sample counts parsed from the tooltips, never
 *     from pixel widths; a matched frame inside a matched ancestor is not
 *     counted again; frames hidden by zoom are not counted.
 *  5. Search matches the frame NAME only (the title up to its last " ("),
 *     never the counts or percentages after it.
 *  6. Plain ES2017, no library, no network: works from file:// in
 *     Chromium and Firefox.  Without script the SVG is still a full image.
 */
(function () {
	'use strict';

	const svg = document.documentElement;
	const framesEl = document.getElementById('frames');
	if (!framesEl || !svg.getAttribute) {
		return;
	}

	/* ---- configuration from the root element ---- */

	function num(attr, dflt) {
		const v = parseFloat(svg.getAttribute(attr));
		return isFinite(v) ? v : dflt;
	}

	const cfg = {
		width: num('data-uf-width', num('width', 1200)),
		xpad: num('data-uf-xpad', 10),
		fontsize: num('data-uf-fontsize', 12),
		fontwidth: num('data-uf-fontwidth', 0.59),
		inverted: svg.getAttribute('data-uf-inverted') === '1',
		nametype: svg.getAttribute('data-uf-nametype') || 'Function:',
		searchcolor: svg.getAttribute('data-uf-searchcolor') || 'rgb(230,0,230)',
		total: num('data-uf-total', 0),
	};

	const el = {
		details: document.getElementById('details'),
		unzoom: document.getElementById('unzoom'),
		search: document.getElementById('search'),
		ignorecase: document.getElementById('ignorecase'),
		matched: document.getElementById('matched'),
	};
	const detailsIdle = el.details ? el.details.textContent : ' ';
	const matchedIdle = el.matched ? el.matched.textContent : ' ';

	/* ---- frame table, filled once by init() ---- */

	/* Per frame, by pre-order index.  DOM strings a reset must restore
	 * (fill, label, label x) are read lazily, the first time they change:
	 * on a big graph every DOM read at load costs. */
	const F = {
		n: 0,
		g: [], rect: [], text: [], name: [], title: [],
		xattr: [], yattr: [], wattr: [],
		fill: [], tx: [], label: [], cur: [],   /* lazy: undefined until read */
		count: [], x: null, w: null, y: null,
		parent: null, end: null, matched: null, moved: null,
	};
	/* Pruned aggregates: not frames; they follow zoom but are never
	 * zoomable or searchable. */
	const P = { g: [], shape: [], title: [], x0: [], x1: [], y: [] };

	const state = {
		zoom: -1, term: null, re: null, ic: false,
		shown: [],     /* frames marked "z"/"parent" and moved by the zoom */
		pshown: [],    /* pruned boxes marked "z" by the zoom */
	};

	/* First line of a <title>: "NAME (N samples, P%)" or "...; +D%)". */
	function parseTitle(t) {
		const nl = t.indexOf('\n');
		const first = nl < 0 ? t : t.slice(0, nl);
		const p = first.lastIndexOf(' (');
		if (p < 0) {
			return { first: first, name: first, count: 0 };
		}
		/* The count runs to the first space; "," separates thousands. */
		const rest = first.slice(p + 2);
		const sp = rest.indexOf(' ');
		const c = Number(rest.slice(0, sp < 0 ? rest.length : sp).replace(/,/g, ''));
		return { first: first, name: first.slice(0, p), count: isFinite(c) ? c : 0 };
	}

	/* The renderer writes <title>, <rect>, <text> in that order; anything
	 * else is searched for, slowly but correctly.  (One check per frame:
	 * on 50k frames each DOM read costs about 10 ms.) */
	function parts(g) {
		const title = g.firstElementChild;
		const rect = title && title.nextElementSibling;
		if (rect && rect.localName === 'rect') {
			return { title: title, rect: rect, text: rect.nextElementSibling };
		}
		return { title: g.querySelector('title'), rect: g.querySelector('rect'), text: g.querySelector('text') };
	}

	function addFrame(g) {
		const c = parts(g);
		if (!c.rect || !c.title) {
			return;
		}
		const i = F.n++;
		const t = parseTitle(c.title.textContent);
		g.ufIndex = i;
		F.g.push(g);
		F.rect.push(c.rect);
		F.text.push(c.text || null);
		F.title.push(t.first);
		F.name.push(t.name);
		F.count.push(t.count);
		F.xattr.push(c.rect.getAttribute('x') || '0');
		F.yattr.push(c.rect.getAttribute('y') || '0');
		F.wattr.push(c.rect.getAttribute('width') || '0');
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
		while ((m = re.exec(d)) !== null && guard++ < 10000) {
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
		let box = null;
		if (shape && shape.localName === 'rect') {
			const a = (n) => parseFloat(shape.getAttribute(n)) || 0;
			box = { x0: a('x'), x1: a('x') + a('width'), y: a('y') + a('height') / 2 };
		} else if (shape) {
			box = pathBox(shape.getAttribute('d') || '');
		}
		if (!box) {
			return;
		}
		g.ufPruned = P.g.length;
		P.g.push(g);
		P.shape.push(shape);
		P.title.push(title ? parseTitle(title.textContent).first : '');
		P.x0.push(box.x0);
		P.x1.push(box.x1);
		P.y.push(box.y);
	}

	/* Depth = rank of the frame's y among the distinct y values, counted
	 * from the root's side; then parent and subtree end from pre-order. */
	function buildTree() {
		const n = F.n;
		const ys = Array.from(new Set(F.y)).sort((a, b) => a - b);
		if (!cfg.inverted) {
			ys.reverse();
		}
		const rank = new Map();
		ys.forEach((v, r) => rank.set(v, r));
		const stack = [];
		for (let i = 0; i < n; i++) {
			const d = rank.get(F.y[i]);
			F.parent[i] = d > 0 && stack.length >= d ? stack[d - 1] : -1;
			stack.length = d;
			stack[d] = i;
			F.end[i] = i + 1;
		}
		for (let i = n - 1; i > 0; i--) {
			const p = F.parent[i];
			if (p >= 0 && F.end[i] > F.end[p]) {
				F.end[p] = F.end[i];
			}
		}
	}

	function init() {
		for (let g = framesEl.firstElementChild; g; g = g.nextElementSibling) {
			const cls = g.getAttribute('class');
			if (cls && /(^|\s)pruned(\s|$)/.test(cls)) addPruned(g);
			else addFrame(g);
		}
		const n = F.n;
		F.count = Float64Array.from(F.count);
		F.x = Float64Array.from(F.xattr, parseFloat);
		F.w = Float64Array.from(F.wattr, parseFloat);
		F.y = Float64Array.from(F.yattr, parseFloat);
		F.parent = new Int32Array(n);
		F.end = new Int32Array(n);
		F.matched = new Uint8Array(n);
		F.moved = new Uint8Array(n);
		buildTree();
		if (!(cfg.total > 0)) {
			cfg.total = n > 0 ? F.count[0] : 0;
		}
		if (el.matched) {
			/* "Matched: X% of view, Y% of total" is longer than the space
			 * to the right of x: anchor it at the right margin instead. */
			el.matched.setAttribute('text-anchor', 'end');
			el.matched.setAttribute('x', String(cfg.width - cfg.xpad));
		}
	}

	/* ---- drawing helpers: each writes only what changes ---- */

	/* The label for a frame `w` px wide: all of the name if it fits,
	 * else its first chars-2 characters and "..", else nothing. */
	function fit(i, w) {
		const chars = Math.floor((w - 6) / (cfg.fontsize * cfg.fontwidth));
		if (!(chars >= 3)) {
			return '';
		}
		const name = F.name[i];
		if (name.length <= chars) {
			return name;
		}
		if (!/[\uD800-\uDFFF]/.test(name)) {
			return name.slice(0, chars - 2) + '..';
		}
		const cps = Array.from(name);   /* do not split a surrogate pair */
		return cps.length <= chars ? name : cps.slice(0, chars - 2).join('') + '..';
	}

	function setLabel(i, s) {
		if (F.cur[i] !== s) {
			F.cur[i] = s;
			F.text[i].textContent = s;
		}
	}

	function place(i, x, w) {
		const r = F.rect[i], t = F.text[i];
		r.setAttribute('x', x.toFixed(2));
		r.setAttribute('width', w.toFixed(2));
		if (t) {
			if (F.tx[i] === undefined) {
				F.tx[i] = t.getAttribute('x');
				F.label[i] = F.cur[i] = t.textContent;
			}
			const label = fit(i, w);
			/* An empty label needs no position: most frames of a big
			 * subtree stay too narrow for one. */
			if (label !== '' || F.cur[i] !== '') t.setAttribute('x', (x + 3).toFixed(2));
			setLabel(i, label);
		}
		F.moved[i] = 1;
	}

	function restore(i) {
		if (!F.moved[i]) {
			return;
		}
		const r = F.rect[i], t = F.text[i];
		r.setAttribute('x', F.xattr[i]);
		r.setAttribute('width', F.wattr[i]);
		if (t) {
			if (F.tx[i] === null) t.removeAttribute('x');
			else t.setAttribute('x', F.tx[i]);
			setLabel(i, F.label[i]);
		}
		F.moved[i] = 0;
	}

	/* ---- zoom ----
	 * Hiding is one class on #frames ("zoomed": the style sheet hides every
	 * frame) plus "z" (zoomed subtree) or "parent" (ancestor) on the frames
	 * that stay, so a zoom touches only the frames it shows. */

	function undoZoom() {
		for (const i of state.shown) {
			F.g[i].classList.remove('z', 'parent');
			restore(i);
		}
		for (const k of state.pshown) {
			P.g[k].classList.remove('z');
			P.shape[k].removeAttribute('transform');
		}
		state.shown = [];
		state.pshown = [];
		framesEl.classList.remove('zoomed');
	}

	function zoomFrames(z) {
		const full = cfg.width - 2 * cfg.xpad;
		const zx = F.x[z], scale = full / F.w[z], e = F.end[z];
		const shown = state.shown;
		for (let i = z; i < e; i++) {
			F.g[i].classList.add('z');
			place(i, cfg.xpad + (F.x[i] - zx) * scale, F.w[i] * scale);
			shown.push(i);
		}
		for (let p = F.parent[z]; p >= 0; p = F.parent[p]) {
			F.g[p].classList.add('parent');
			place(p, cfg.xpad, full);
			shown.push(p);
		}
		zoomPruned(z, scale, cfg.xpad - zx * scale);
		framesEl.classList.add('zoomed');
	}

	/* A pruned box follows zoom when its parent lies in the zoomed subtree:
	 * it is deeper than z and its centre is inside z's x range. */
	function zoomPruned(z, scale, shift) {
		const lo = F.x[z], hi = F.x[z] + F.w[z], zy = F.y[z];
		const m = 'matrix(' + scale + ',0,0,1,' + shift + ',0)';
		for (let k = 0; k < P.g.length; k++) {
			const c = (P.x0[k] + P.x1[k]) / 2;
			const deeper = cfg.inverted ? P.y[k] > zy : P.y[k] < zy;
			if (deeper && c >= lo && c <= hi) {
				P.g[k].classList.add('z');
				P.shape[k].setAttribute('transform', m);
				state.pshown.push(k);
			}
		}
	}

	/* Zooms to frame z (-1 or the root: unzoom).  `push` adds a history
	 * entry so browser Back undoes it. */
	function zoom(z, push) {
		if (z === 0 || !(z > 0 && z < F.n && F.w[z] > 0)) {
			z = -1;
		}
		if (z === state.zoom) {
			return;
		}
		state.zoom = z;
		undoZoom();
		if (z >= 0) zoomFrames(z);
		if (el.unzoom) el.unzoom.classList.toggle('hide', z < 0);
		showMatched();
		writeUrl(push);
	}

	/* ---- search ---- */

	function escapeRe(s) {
		return s.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
	}

	function compile(term, ic) {
		const flags = ic ? 'i' : '';
		try {
			return new RegExp(term, flags);
		} catch (e) {
			/* Not a valid regex: match it as literal text. */
			return new RegExp(escapeRe(term), flags);
		}
	}

	function colour(re) {
		for (let i = 0; i < F.n; i++) {
			const m = re !== null && re.test(F.name[i]) ? 1 : 0;
			if (m !== F.matched[i]) {
				F.matched[i] = m;
				const r = F.rect[i];
				if (m) {
					if (F.fill[i] === undefined) F.fill[i] = r.getAttribute('fill');
					r.setAttribute('fill', cfg.searchcolor);
				} else if (F.fill[i] === null) {
					r.removeAttribute('fill');
				} else {
					r.setAttribute('fill', F.fill[i]);
				}
			}
		}
	}

	/* Samples in view whose stack holds a match, each counted once. */
	function matchedSamples() {
		const z = state.zoom;
		let lo = 0, hi = F.n;
		if (z > 0) {
			for (let p = F.parent[z]; p >= 0; p = F.parent[p]) {
				if (F.matched[p]) return F.count[z];
			}
			lo = z;
			hi = F.end[z];
		}
		let m = 0;
		for (let i = lo; i < hi;) {
			if (F.matched[i]) {
				m += F.count[i];
				i = F.end[i];
			} else {
				i++;
			}
		}
		return m;
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
		const m = matchedSamples();
		const view = state.zoom > 0 ? F.count[state.zoom] : cfg.total;
		el.matched.textContent = 'Matched: ' + pct(view > 0 ? 100 * m / view : 0) +
			'% of view, ' + pct(cfg.total > 0 ? 100 * m / cfg.total : 0) + '% of total';
	}

	/* Searches for `term` (null or "": clear the search). */
	function search(term) {
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
		if (t !== null) {
			search(t);
		}
	}

	/* ---- URL state: ?x=&y= (zoomed frame), s= (search), i=1 (ignore case) ---- */

	function writeUrl(push) {
		let url;
		try {
			const p = new URLSearchParams(location.search);
			const z = state.zoom;
			if (z > 0) {
				p.set('x', F.xattr[z]);
				p.set('y', F.yattr[z]);
			} else {
				p.delete('x');
				p.delete('y');
			}
			if (state.term !== null) p.set('s', state.term);
			else p.delete('s');
			if (state.ic) p.set('i', '1');
			else p.delete('i');
			const q = p.toString();
			url = location.href.replace(/[?#].*$/, '') + (q ? '?' + q : '') + location.hash;
			if (url === location.href) return;
			if (push) history.pushState({ uf: 1 }, '', url);
			else history.replaceState({ uf: 1 }, '', url);
		} catch (e) {
			/* Some viewers forbid history on local files: state stays in memory. */
		}
	}

	function findFrame(xs, ys) {
		const x = parseFloat(xs), y = parseFloat(ys);
		if (!isFinite(x) || !isFinite(y)) return -1;
		for (let i = 0; i < F.n; i++) {
			if (Math.abs(F.y[i] - y) < 0.01 && Math.abs(F.x[i] - x) < 0.01 && F.w[i] > 0) {
				return i;
			}
		}
		return -1;
	}

	/* Applies the state the URL describes (load and browser Back/Forward). */
	function readUrl() {
		let p;
		try {
			p = new URLSearchParams(location.search);
		} catch (e) {
			return;
		}
		const ic = p.get('i') === '1';
		if (ic !== state.ic) {
			state.ic = ic;
			if (el.ignorecase) el.ignorecase.classList.toggle('show', ic);
		}
		const z = p.has('x') && p.has('y') ? findFrame(p.get('x'), p.get('y')) : -1;
		zoom(z, false);
		search(p.get('s'));
	}

	/* ---- events ---- */

	function frameOf(target) {
		let g = target;
		while (g && g.parentNode !== framesEl) {
			g = g.parentNode;
		}
		return g;
	}

	function onOver(e) {
		const g = frameOf(e.target);
		if (!g || !el.details) return;
		if (g.ufIndex !== undefined) {
			el.details.textContent = cfg.nametype + ' ' + F.title[g.ufIndex];
		} else {
			if (g.ufPruned !== undefined) el.details.textContent = P.title[g.ufPruned];
		}
	}

	function onOut(e) {
		const g = frameOf(e.target);
		if (!g || !el.details) return;
		if (e.relatedTarget && frameOf(e.relatedTarget) === g) return;
		el.details.textContent = detailsIdle;
	}

	function onClick(e) {
		const g = frameOf(e.target);
		if (g && g.ufIndex !== undefined) {
			zoom(g.ufIndex, true);
		}
	}

	function onKey(e) {
		const k = e.key;
		const ctrl = e.ctrlKey || e.metaKey;
		if (k === 'Escape') {
			if (state.zoom > 0) zoom(-1, true);
			else search(null);
		} else if (k === 'F3' || (ctrl && (k === 'f' || k === 'F'))) {
			e.preventDefault();
			promptSearch();
		} else if (ctrl && (k === 'i' || k === 'I')) {
			e.preventDefault();
			setIgnoreCase(!state.ic);
		}
	}

	function listen() {
		framesEl.addEventListener('mouseover', onOver);
		framesEl.addEventListener('mouseout', onOut);
		framesEl.addEventListener('click', onClick);
		if (el.unzoom) el.unzoom.addEventListener('click', () => zoom(-1, true));
		if (el.search) el.search.addEventListener('click', promptSearch);
		if (el.ignorecase) el.ignorecase.addEventListener('click', () => setIgnoreCase(!state.ic));
		window.addEventListener('keydown', onKey, true);
		window.addEventListener('popstate', readUrl);
	}

	init();
	listen();
	readUrl();
}());
