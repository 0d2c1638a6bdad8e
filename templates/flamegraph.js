/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/flamegraph.js — the interactive layer embedded in every SVG
 * uniprof-flame writes: hover details, click-to-zoom with lossless
 * drill-down from the embedded profile, regex search with an exact Matched
 * share, ignore-case, and zoom/search state kept in the URL.
 *
 * The file as written is a complete image (invariant 6); the script adds a
 * "view" on top of it.  At load it only attaches listeners: no DOM reads, so
 * the first paint costs what the image costs.  After that paint, idle time
 * reads the drawn frames into flat arrays and parses the embedded trie
 * (<metadata id="uniprof-flame-data">, uf-trie/1); an action that comes
 * earlier finishes that work first.
 *
 * Zoom draws a new view in <g id="uf-view">, after #frames, over an opaque
 * background: from the embedded trie when there is one (drill-down: every
 * call path under the frame that is at least --minwidth wide at the new
 * scale, laid out by flamegraph.pl's flow() as `render` of that subtree
 * alone would, with the renderer's colours and labels), otherwise from the
 * drawn frames, rescaled.  The frames as written are never touched by zoom,
 * so Reset Zoom only removes the view: the file as written is back.
 *
 * Main trade-off: the view is rebuilt per zoom (cost ~ frames in view)
 * rather than patched in place; in exchange a zoom never restyles the
 * frames it hides, and the drill-down can show frames the file never drew.
 *
 * Invariants:
 *  1. This file never contains the CDATA terminator (two closing square
 *     brackets then ">"): the SVG embeds it in CDATA and the build refuses it.
 *  2. Names and URL parameters are data: they reach the DOM only through
 *     textContent / createTextNode and setAttribute of presentation values
 *     we compute (numbers, colours), never innerHTML, eval or new Function.
 *  3. The frames as written (#frames) change only by search colouring, which
 *     clearing the search restores to the exact saved strings.
 *  4. Matched shares come from sample counts (the embedded trie when present,
 *     else the tooltips), never from pixel widths; a match inside a matched
 *     ancestor is not counted again; frames outside the zoom are not counted.
 *  5. Search matches the frame NAME only (as the tooltip shows it), never
 *     counts or percentages.
 *  6. Plain ES2017, no library, no network: works from file:// in Chromium
 *     and Firefox.  Without script the SVG is still a full image.
 *  7. The drill-down's geometry and labels follow render/ (frames.c,
 *     layout.c, palette.c, escape.c); a change there must be mirrored here
 *     (tests/browser/test-drill.js compares both).
 */
(function () {
	'use strict';

	const svg = document.documentElement;
	const framesEl = document.getElementById('frames');
	if (!framesEl || !svg.getAttribute) {
		return;
	}
	const NS = 'http://www.w3.org/2000/svg';

	/* ---- configuration from the root element ---- */

	function attr(name, dflt) {
		const v = svg.getAttribute(name);
		return v === null ? dflt : v;
	}
	function num(name, dflt) {
		const v = parseFloat(svg.getAttribute(name));
		return isFinite(v) ? v : dflt;
	}

	const cfg = {
		width: num('data-uf-width', num('width', 1200)),
		xpad: num('data-uf-xpad', 10),
		fontsize: num('data-uf-fontsize', 12),
		fontwidth: num('data-uf-fontwidth', 0.59),
		frameheight: num('data-uf-frameheight', 16),
		inverted: attr('data-uf-inverted', '0') === '1',
		nametype: attr('data-uf-nametype', 'Function:'),
		countname: attr('data-uf-countname', 'samples'),
		searchcolor: attr('data-uf-searchcolor', 'rgb(230,0,230)'),
		total: num('data-uf-total', 0),
		factor: num('data-uf-factor', 1),
		minwidth: attr('data-uf-minwidth', '0.1'),
		palette: attr('data-uf-palette', 'hot'),
		colormode: attr('data-uf-colormode', 'name'),
		flamechart: attr('data-uf-flamechart', '0') === '1',
		diff: attr('data-uf-diff', '0') === '1',
		delta: attr('data-uf-delta', 'self'),
		maxdelta: num('data-uf-maxdelta', 1),
		negate: attr('data-uf-negate', '0') === '1',
		mindelta: num('data-uf-mindelta', 0),
		diffpalette: attr('data-uf-diffpalette', 'red-blue'),
		swapped: attr('data-uf-swapped', '0') === '1',
		/* layers.js renamed the AFTER layer: the BEFORE widths are shown */
		before: document.getElementById('frames-after') !== null,
	};

	const el = {
		details: document.getElementById('details'),
		unzoom: document.getElementById('unzoom'),
		search: document.getElementById('search'),
		ignorecase: document.getElementById('ignorecase'),
		matched: document.getElementById('matched'),
		libbutton: document.getElementById('libbutton'),
		libpanel: document.getElementById('libpanel'),
	};
	const detailsIdle = el.details ? el.details.textContent : ' ';
	const matchedIdle = el.matched ? el.matched.textContent : ' ';

	const state = {
		zoom: null,      /* null, { node: trie index } or { frame: drawn frame index } */
		term: null, re: null, ic: false,
		view: null,      /* the drawn view: { g, frames: [...], ... } */
		note: null,      /* what the details line says while idle in a view */
	};


	/* ---- numbers and names as render/ prints them ---- */

	/* printf("%.*f", d, v).  toFixed rounds an exact tie away from zero,
	 * printf to even; v sits on a tie exactly when v * 2^(d+1) is an odd
	 * integer (then v * 10^d is exact too). */
	function fixed(v, d) {
		const a = Math.abs(v), sign = v < 0 || Object.is(v, -0) ? '-' : '';
		const j = a * Math.pow(2, d + 1);
		if (!(j % 2 === 1 && j < 9e15)) {
			return sign + a.toFixed(d);
		}
		const p = Math.pow(10, d);
		let n = Math.floor(a * p);
		if (n % 2 === 1) n++;
		const ip = String(Math.floor(n / p));
		const fp = String(n % p);
		return sign + ip + (d ? '.' + '0'.repeat(d - fp.length) + fp : '');
	}

	/* The value printf shows for v, as a number (uf_fixed_value). */
	function fixedValue(v, d) {
		return parseFloat(fixed(v, d));
	}

	/* nearbyint(): round half to even. */
	function roundEven(v) {
		const f = Math.floor(v);
		if (v - f === 0.5) return f % 2 === 0 ? f : f + 1;
		return Math.round(v);
	}

	function commas(digits) {
		let out = '';
		for (let i = 0; i < digits.length; i++) {
			out += digits[i];
			const left = digits.length - i - 1;
			if (left && left % 3 === 0 && digits[i] >= '0' && digits[i] <= '9') out += ',';
		}
		return out;
	}

	/* fold_format_count(): the shortest text that reads back exactly. */
	function formatCount(v) {
		if (!(v >= 0) || v > 1e300) return '0';
		if (v === Math.floor(v) && v < 1e21) return String(v);
		for (let d = 1; d <= 40; d++) {
			const s = v.toFixed(d);
			if (parseFloat(s) === v) return s;
		}
		return v.toFixed(40);
	}

	/* frames.c display_count(): whole counts exactly, others to two
	 * decimals without trailing zeros ("170.99"). */
	function displayCount(v) {
		if (!(v >= 0) || v > 1e300 || (v === Math.floor(v) && v < 1e15)) return formatCount(v);
		return fixed(v, 2).replace(/0+$/, '').replace(/\.$/, '');
	}

	/* "N COUNTNAME, P" of a tooltip (frames.c count_text). */
	function countText(samples, whole, total) {
		const v = samples * cfg.factor;
		const r = roundEven(v);
		const n = r >= 0 && r < 9e15 ? String(r) : fixed(v, 0);
		const pct = whole ? '100' : fixed(100 * (r >= 0 && r < 9e15 ? r : parseFloat(n)) / total, 2);
		return commas(n) + ' ' + cfg.countname + ', ' + pct;
	}

	/* Bytes of a name (a string of char codes 0..255) as the renderer shows
	 * them: a trailing _[k] _[w] _[i] _[j] dropped, valid UTF-8 decoded,
	 * any other byte as \xNN (escape.c).  Returns { s, chars }. */
	function display(raw) {
		let len = raw.length;
		if (len >= 4 && raw[len - 4] === '_' && raw[len - 3] === '[' && raw[len - 1] === ']' &&
		    'kwij'.indexOf(raw[len - 2]) >= 0) {
			len -= 4;
		}
		let s = '', chars = 0;
		for (let i = 0; i < len;) {
			const n = utf8Valid(raw, i, len);
			if (n) {
				const cp = n === 1 ? raw.charCodeAt(i) : decode1(raw, i, n);
				s += String.fromCodePoint(cp);
				i += n;
				chars++;
			} else {
				const b = raw.charCodeAt(i);
				s += '\\x' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
				chars += 4;
				i++;
			}
		}
		return { s: s, chars: chars };
	}

	function decode1(raw, i, n) {
		const c = raw.charCodeAt(i);
		let v = n === 2 ? c & 0x1f : n === 3 ? c & 0x0f : c & 0x07;
		for (let k = 1; k < n; k++) v = (v << 6) | (raw.charCodeAt(i + k) & 0x3f);
		return v;
	}

	/* Length of a valid UTF-8 sequence XML allows at raw[i], or 0. */
	function utf8Valid(raw, i, len) {
		const c = raw.charCodeAt(i);
		if (c >= 0x20 && c < 0x7f) return 1;
		const n = (c >> 5) === 6 ? 2 : (c >> 4) === 14 ? 3 : (c >> 3) === 30 ? 4 : 0;
		if (n === 0 || i + n > len) return 0;
		for (let k = 1; k < n; k++) {
			if ((raw.charCodeAt(i + k) & 0xc0) !== 0x80) return 0;
		}
		const v = decode1(raw, i, n);
		const min = [0, 0, 0x80, 0x800, 0x10000][n];
		if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) || v === 0xfffe || v === 0xffff ||
		    (v >= 0x80 && v <= 0x9f)) {
			return 0;
		}
		return n;
	}

	/* The label the renderer writes for a frame w px wide (unrounded). */
	function label(disp, w) {
		const chars = Math.floor(w / (cfg.fontsize * cfg.fontwidth));
		if (!(chars >= 3)) return '';
		if (chars >= disp.chars) return disp.s;
		const cps = Array.from(disp.s);
		return cps.slice(0, chars - 2).join('') + '..';
	}

	/* ---- colours (palette.c and frames.c, for drill-down frames) ---- */

	/* One code point of raw at i as palette.c reads it: [cp, bytes]. */
	function cpAt(raw, i) {
		const c = raw.charCodeAt(i);
		const n = c < 0x80 ? 1 : (c >> 5) === 6 ? 2 : (c >> 4) === 14 ? 3 : (c >> 3) === 30 ? 4 : 0;
		if (n === 0 || i + n > raw.length) return [c, 1];
		for (let k = 1; k < n; k++) {
			if ((raw.charCodeAt(i + k) & 0xc0) !== 0x80) return [c, 1];
		}
		return [n === 1 ? c : decode1(raw, i, n), n];
	}

	function codePoints(raw) {
		const out = [];
		for (let i = 0; i < raw.length;) {
			const r = cpAt(raw, i);
			out.push(r[0]);
			i += r[1];
		}
		return out;
	}

	/* drand48() after srand48(seed): the first value. 48-bit arithmetic in
	 * 24-bit halves so every product stays exact in a double. */
	function drand48(seed) {
		const T24 = 16777216;
		const xh = Math.floor(seed / 256), xl = (seed % 256) * 65536 + 0x330e;
		const ah = 0x5de, al = 0xece66d;
		const lo = xl * al + 0xb;
		const carry = Math.floor(lo / T24);
		const mid = (xh * al + xl * ah + carry) % T24;
		return (mid * T24 + lo % T24) / (T24 * T24);
	}

	function namehash(cps) {
		let vector = 0, weight = 1, max = 1, mod = 10;
		for (let i = 0; i < cps.length; i++) {
			const v = cps[i] % mod;
			vector += (v / (mod++ - 1)) * weight;
			max += weight;
			weight *= 0.70;
			if (mod > 12) break;
		}
		return 1 - vector / max;
	}

	/* palette.c decode(): after the module strip s/.(.*?)`//, max 64. */
	function hashInput(raw, reverse) {
		const all = codePoints(raw);
		if (reverse) all.reverse();
		let start = 0;
		for (let i = 1; i < all.length; i++) {
			if (all[i] === 96) { start = i + 1; break; }
		}
		return all.slice(start, start + 64);
	}

	function multiType(colors, s, waker) {
		const ends = (x) => s.length >= x.length && s.slice(s.length - x.length) === x;
		const has = (x) => s.indexOf(x) >= 0;
		const starts = (x) => s.slice(0, x.length) === x;
		switch (colors) {
		case 'java': {
			if (ends('_[j]')) return 'green';
			if (ends('_[i]')) return 'aqua';
			for (const p of ['java/', 'javax/', 'jdk/', 'net/', 'org/', 'com/', 'io/', 'sun/']) {
				if (starts(p) || (s[0] === 'L' && s.slice(1, 1 + p.length) === p)) return 'green';
			}
			if (has(':::')) return 'green';
			if (ends('_[k]')) return 'orange';
			return has('::') ? 'yellow' : 'red';
		}
		case 'js': {
			if (ends('_[j]')) return has('/') ? 'green' : 'aqua';
			if (has('::')) return 'yellow';
			const sl = s.indexOf('/');
			if (sl >= 0 && s.indexOf('.js', sl) >= 0) return 'green';
			if (has(':')) return 'aqua';
			if (s === ' ') return 'green';
			return has('_[k]') ? 'orange' : 'red';
		}
		case 'perl':
			if (has('::')) return 'yellow';
			if (has('Perl') || has('.pl')) return 'green';
			return ends('_[k]') ? 'orange' : 'red';
		case 'python':
			if (ends('_[k]')) return 'orange';
			if (has('.py') || starts('<module>')) return 'green';
			if (starts('<built-in') || starts('<frozen') || starts('_Py') || starts('Py')) return 'aqua';
			return has('::') ? 'yellow' : 'red';
		case 'rust': {
			if (ends('_[k]')) return 'orange';
			const p = s[0] === '<' ? s.slice(1) : s;
			if (p.slice(0, 5) === 'std::' || p.slice(0, 6) === 'core::' || p.slice(0, 7) === 'alloc::') return 'yellow';
			return has('::') ? 'green' : 'red';
		}
		case 'wakeup':
			return 'aqua';
		case 'chain':
			return waker || has('_[w]') ? 'aqua' : 'blue';
		default:
			return colors;
		}
	}

	function rgb(r, g, b) {
		return 'rgb(' + r + ',' + g + ',' + b + ')';
	}

	function formatType(type, v) {
		const f = Math.floor;
		switch (type) {
		case 'hot': return rgb(205 + f(50 * v[2]), f(230 * v[0]), f(55 * v[1]));
		case 'mem': return rgb(0, 190 + f(50 * v[1]), f(210 * v[0]));
		case 'io': return rgb(80 + f(60 * v[0]), 80 + f(60 * v[0]), 190 + f(55 * v[1]));
		case 'red': return rgb(200 + f(55 * v[0]), 50 + f(80 * v[0]), 50 + f(80 * v[0]));
		case 'green': return rgb(50 + f(60 * v[0]), 200 + f(55 * v[0]), 50 + f(60 * v[0]));
		case 'blue': return rgb(80 + f(60 * v[0]), 80 + f(60 * v[0]), 205 + f(50 * v[0]));
		case 'yellow': return rgb(175 + f(55 * v[0]), 175 + f(55 * v[0]), 50 + f(20 * v[0]));
		case 'purple': return rgb(190 + f(65 * v[0]), 80 + f(60 * v[0]), 190 + f(65 * v[0]));
		case 'aqua': return rgb(50 + f(60 * v[0]), 165 + f(55 * v[0]), 165 + f(55 * v[0]));
		case 'orange': return rgb(190 + f(65 * v[0]), 90 + f(65 * v[0]), 0);
		default: return 'rgb(0,0,0)';
		}
	}

	/* palette_color() for the name and hash modes. */
	function paletteColor(raw, waker) {
		let v;
		if (cfg.colormode === 'hash') {
			const a = namehash(hashInput(raw, false)), b = namehash(hashInput(raw, true));
			v = [a, b, b];
		} else {
			let sum = 0;
			for (const cp of codePoints(raw)) sum = (sum + cp) >>> 0;
			const x = drand48(sum);
			v = [x, x, x];
		}
		/* --colors=lib, a name not drawn: by name, as palette.c falls back */
		return formatType(multiType(cfg.palette === 'lib' ? 'hot' : cfg.palette, raw, waker), v);
	}

	const DIFF_PAL = {
		'red-blue': { grow: [255, 0, 0], shrink: [0, 0, 255], added: 'rgb(190,110,250)',
			gone: 'rgb(110,190,110)', faint: 'rgb(225,225,225)' },
		cb: { grow: [230, 97, 1], shrink: [33, 102, 172], added: 'rgb(178,171,210)',
			gone: 'rgb(166,219,160)', faint: 'rgb(225,225,225)' },
	};

	function colorScale(value) {
		const max = cfg.maxdelta;
		let r = 255, g = 255, b = 255;
		if (cfg.negate) value = -value;
		if (value > max) value = max;
		if (value < -max) value = -max;
		if (value > 0) g = b = Math.floor(210 * (max - value) / max);
		else if (value < 0) r = g = Math.floor(210 * (max + value) / max);
		return rgb(r, g, b);
	}

	/* The change a frame is coloured by (frames.c frame_delta). */
	function frameDelta(D, f) {
		const d = cfg.delta === 'total' ? D.total[f.node] - D.btotal[f.node] : f.delta;
		return cfg.negate ? -d : d;
	}

	function diffColor(D, f) {
		const p = cfg.diffpalette === 'cb' ? DIFF_PAL.cb : DIFF_PAL['red-blue'];
		const at = D.total[f.node], bt = D.btotal[f.node];
		if (cfg.delta === 'total' && f.node !== 0 && ((bt === 0 && at > 0) || (at === 0 && bt > 0))) {
			return (bt === 0) !== cfg.swapped ? p.added : p.gone;
		}
		const d = frameDelta(D, f);
		if (cfg.mindelta > 0 && Math.abs(d) * 100 < cfg.mindelta * D.total[0]) return p.faint;
		if (p === DIFF_PAL['red-blue']) return colorScale(cfg.delta === 'total' ? at - bt : f.delta);
		const k = Math.min(Math.abs(d) / cfg.maxdelta, 1);
		const c = d > 0 ? p.grow : p.shrink;
		return rgb(Math.floor(255 - (255 - c[0]) * k), Math.floor(255 - (255 - c[1]) * k),
			Math.floor(255 - (255 - c[2]) * k));
	}

	/* frames.c frame_color() for a drill-down frame. */
	function frameColor(D, f) {
		if (D.diff) return frameColor1(D, f);
		const key = D.name[f.node] * 2 + (f.waker ? 1 : 0);
		if (!D.colours) D.colours = new Map();
		let c = D.colours.get(key);
		if (c === undefined) D.colours.set(key, c = frameColor1(D, f));
		return c;
	}

	function frameColor1(D, f) {
		const raw = D.names[D.name[f.node]];
		if (raw === '--') return 'rgb(160,160,160)';
		if (raw === '-') return 'rgb(200,200,200)';
		if (D.diff) return diffColor(D, f);
		if (cfg.colormode === 'map' || cfg.colormode === 'random' || cfg.palette === 'lib') {
			/* --cp / --random / --colors=lib (the library's hue): the
			 * colour the file gave the name, if drawn */
			const T = table(), c = T.fillByName.get(dispName(D, f.node).s);
			if (c) return c;
		}
		return paletteColor(raw, f.waker);
	}


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

	/* ---- the embedded profile (uf-trie/1, fold/embed.c), parsed once ----
	 * Nodes in pre-order: depth, name id, self (and BEFORE) counts; derived
	 * parent, subtree end and totals.  Names are byte strings (one char per
	 * byte), so byte order is string order.  Anything malformed: no data,
	 * and the script works from the drawn frames alone. */

	let DATA;   /* undefined: not read yet; null: none or unusable */

	let parsing = null;   /* the parser, while idle time runs it a slice at a time */

	/* The block's contents: undefined until read; null when there is none
	 * this browser can read; { text, dc, nc }: the text (header, names,
	 * node lines or, packed, only their counts, later sections) and, for a
	 * packed block (fold/embed-pack.c), the depth-code and name columns.
	 * A packed block inflates asynchronously (DecompressionStream), so an
	 * action that comes before it is done waits for it (later()). */
	let BLOCK;
	let inflating = false;
	const waiting = [];

	/* True when BLOCK is settled; else starts inflating it. */
	function readBlock() {
		if (BLOCK !== undefined) return true;
		if (inflating) return false;
		const md = document.getElementById('uniprof-flame-data');
		const enc = md ? md.getAttribute('data-encoding') : null;
		if (!md || md.getAttribute('data-format') !== 'uf-trie/1') {
			BLOCK = null;
		} else if (enc === null) {
			BLOCK = { text: md.textContent, dc: null, nc: null };
		} else if (enc !== 'pack-deflate-base64' || typeof DecompressionStream !== 'function') {
			BLOCK = null;
		} else {
			let p;
			try {
				p = inflate(md.textContent);
			} catch (e) {
				BLOCK = null; /* not base64 */
				return true;
			}
			inflating = true;
			p.then((u) => {
				try {
					return u ? unpackColumns(u) : null;
				} catch (e) {
					return null;
				}
			}, () => null).then((b) => {
				BLOCK = b;
				inflating = false;
				for (const f of waiting.splice(0)) f();
			});
			return false;
		}
		return true;
	}

	/* base64 of a zlib stream -> its bytes (null past 1 GiB, as fold/ caps it). */
	function inflate(b64) {
		const bin = atob(b64);
		const z = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) z[i] = bin.charCodeAt(i);
		const r = new Blob([z]).stream().pipeThrough(new DecompressionStream('deflate')).getReader();
		const parts = [];
		let n = 0;
		const pump = () => r.read().then((c) => {
			if (c.done) {
				const u = new Uint8Array(n);
				let o = 0;
				for (const p of parts) {
					u.set(p, o);
					o += p.length;
				}
				return u;
			}
			n += c.value.length;
			if (n > 1073741824) {
				r.cancel();
				return null;
			}
			parts.push(c.value);
			return pump();
		});
		return pump();
	}

	/* Packed bytes -> { text, dc, nc }: text = the header and names, then
	 * the count lines and later sections; dc, nc = the two varint columns
	 * between them.  Out of bounds: null. */
	function unpackColumns(u) {
		const latin = (a, b) => new TextDecoder('latin1').decode(u.subarray(a, b));
		let p = u.indexOf(10);
		if (p < 0) return null;
		const h = latin(0, p).split(' ');
		const nn = parseInt(h[1], 10), n = parseInt(h[2], 10);
		if (!(nn >= 0 && n >= 1 && n <= u.length)) return null;
		p++;
		for (let i = 0; i < nn; i++) {
			p = u.indexOf(10, p);
			if (p < 0) return null;
			p++;
		}
		const head = p;
		const cols = [new Float64Array(n), new Float64Array(n)];
		for (const col of cols) {
			for (let i = 0; i < n; i++) {
				let v = 0, mul = 1, c;
				do {
					if (p >= u.length || mul > 268435456) return null;
					c = u[p++];
					v += (c & 127) * mul;
					mul *= 128;
				} while (c & 128);
				col[i] = v;
			}
		}
		return { text: latin(0, head) + latin(p, u.length), dc: cols[0], nc: cols[1] };
	}

	/* Defers f until the block is settled: true when it did (the caller
	 * returns, f runs later, in order with other deferred actions). */
	function later(f) {
		if (readBlock()) return false;
		waiting.push(f);
		return true;
	}

	/* Runs the parser for about `ms` milliseconds; true when it is done. */
	function dataStep(ms) {
		if (DATA !== undefined) return true;
		if (!readBlock()) return false;
		if (parsing === null) parsing = parseData();
		const t0 = performance.now();
		try {
			for (;;) {
				const r = parsing.next();
				if (r.done) {
					DATA = r.value;
					break;
				}
				if (performance.now() - t0 > ms) return false;
			}
		} catch (e) {
			DATA = null;
		}
		parsing = null;
		return true;
	}

	/* The parsed profile; null when there is none (or, before a packed
	 * block has inflated, none yet: actions wait for it with later()). */
	function data() {
		dataStep(Infinity);
		return DATA === undefined ? null : DATA;
	}

	function unescapeName(s) {
		return s.indexOf('%') < 0 ? s : s.replace(/%([0-9A-Fa-f]{2})/g,
			(m, h) => String.fromCharCode(parseInt(h, 16)));
	}

	/* A generator: yields every few thousand lines so idle time can
	 * parse in slices; returns the data or null. */
	function* parseData() {
		if (BLOCK === null) return null;
		const text = BLOCK.text, dc = BLOCK.dc, nc = BLOCK.nc;
		let pos = 0;
		while (pos < text.length && /\s/.test(text[pos])) pos++;
		function line() {
			if (pos >= text.length) throw new Error('short');
			let nl = text.indexOf('\n', pos);
			if (nl < 0) nl = text.length;
			let s = text.slice(pos, nl);
			if (s.charCodeAt(s.length - 1) === 13) s = s.slice(0, -1);
			pos = nl + 1;
			return s;
		}
		const h = line().split(' ');
		if (h[0] !== 'uf-trie/1' || h.length < 5) return null;
		const nnames = parseInt(h[1], 10), n = parseInt(h[2], 10), diff = h[3] === '1';
		if (!(nnames >= 0 && n >= 1 && nnames <= text.length && n <= text.length)) return null;
		const names = new Array(nnames);
		for (let i = 0; i < nnames; i++) {
			names[i] = unescapeName(line());
			if (i % 4096 === 4095) yield;
		}
		const D = {
			n: n, names: names, diff: diff, pruned: h[4] === '1',
			depth: new Int32Array(n), name: new Int32Array(n), self: new Float64Array(n),
			base: diff ? new Float64Array(n) : null,
			parent: new Int32Array(n), end: new Int32Array(n),
			total: null, btotal: null,
			disp: new Array(nnames), matched: null,
			ent: new Array(n), fu: null, integral: true,
		};
		const stack = [];
		if (dc && (dc.length !== n || nc.length !== n)) return null;
		for (let i = 0, prev = -1; i < n; i++) {
			/* packed: the line holds the counts, the columns the rest */
			const f = line().split(' ');
			const k = dc ? 0 : 2;
			const d = dc ? prev + 1 - dc[i] : Number(f[0]), nm = dc ? nc[i] : Number(f[1]);
			const self = Number(f[k]), base = diff ? Number(f[k + 1]) : 0;
			prev = d;
			if (f.length !== (diff ? 2 : 1) + k || !Number.isInteger(d) || !Number.isInteger(nm) ||
			    nm < 0 || nm >= nnames || !(self >= 0 && self < Infinity) || !(base >= 0 && base < Infinity) ||
			    (i === 0) !== (d === 0) || d > stack.length || d > 8192) {
				return null;
			}
			D.depth[i] = d;
			D.name[i] = nm;
			D.self[i] = self;
			if (diff) D.base[i] = base;
			if (self !== Math.floor(self) || base !== Math.floor(base)) D.integral = false;
			stack.length = d;
			D.parent[i] = d > 0 ? stack[d - 1] : -1;
			stack.push(i);
			if (i % 4096 === 4095) yield;
		}
		if (line() !== 'end') return null;
		D.locs = parseSections(n, line, () => pos < text.length).pos;
		D.total = Float64Array.from(D.self);
		D.btotal = diff ? Float64Array.from(D.base) : D.total;
		for (let i = 0; i < n; i++) D.end[i] = i + 1;
		for (let i = n - 1; i > 0; i--) {
			const p = D.parent[i];
			D.total[p] += D.total[i];
			if (diff) D.btotal[p] += D.btotal[i];
			if (D.end[i] > D.end[p]) D.end[p] = D.end[i];
		}
		if (D.total[0] > 9e15) D.integral = false;
		return D;
	}

	/* The tagged sections after "end" (fold/embed/embed.c, item 5):
	 * "NAME LINES [ARG...]", LINES body lines, "end"; an unknown NAME is
	 * stepped over by its count.  Returns { pos }: the source positions,
	 * or null when absent or malformed (the frames then show none).  An
	 * older block's "loc STRINGS RECORDS" is read as "pos". */
	function parseSections(n, line, more) {
		const out = { pos: null };
		try {
			while (more()) {
				const h = line();
				if (/^[ \t\r]*$/.test(h)) break;
				const m = /^([a-z][a-z0-9-]{0,15}) (\d+)((?: \d+){0,8})$/.exec(h);
				if (!m) break;
				const args = m[3] ? m[3].slice(1).split(' ').map(Number) : [];
				const name = m[1], lines = Number(m[2]);
				if (name === 'pos' && args.length === 1) {
					out.pos = parsePositions(n, line, args[0], lines - args[0]);
				} else if (name === 'loc' && args.length === 1) {
					out.pos = parsePositions(n, line, lines, args[0]);
				} else {
					for (let i = 0; i < lines; i++) line();
					if (line() !== 'end') break;
				}
			}
		} catch (e) {
			/* a short block: keep what was read */
		}
		return out;
	}

	/* The "pos" body (fold/model/loc.c): each node's source positions,
	 * most samples first, as a Map node -> [[position, count], ...];
	 * null when malformed. */
	function parsePositions(n, line, nstr, nrec) {
		if (!(nstr >= 0 && nrec >= 0)) return null;
		const strs = [];
		for (let i = 0; i < nstr; i++) strs.push(unescapeName(line()));
		const locs = new Map();
		let ok = true;
		for (let i = 0; i < nrec; i++) {
			const f = line().split(' ');
			const node = Number(f[0]), str = Number(f[1]), c = Number(f[2]);
			if (f.length !== 3 || !Number.isInteger(node) || node < 0 || node >= n ||
			    !Number.isInteger(str) || str < 0 || str >= nstr || !(c > 0 && c < Infinity)) {
				ok = false;
				continue;
			}
			let l = locs.get(node);
			if (!l) locs.set(node, l = []);
			l.push([strs[str], c]);
		}
		return line() === 'end' && ok ? locs : null;
	}

	/* Each name's library (<metadata id="uniprof-flame-libs">, "NAME\tLIB"
	 * lines escaped as the block's names), read once: Map name -> lib. */
	let LIBS;
	function libOf(name) {
		if (LIBS === undefined) {
			LIBS = new Map();
			const md = document.getElementById('uniprof-flame-libs');
			for (const ln of md ? md.textContent.split('\n') : []) {
				const tab = ln.indexOf('\t');
				if (tab > 0) LIBS.set(unescapeName(ln.slice(0, tab)), unescapeName(ln.slice(tab + 1).trim()));
			}
		}
		return LIBS.get(name);
	}

	/* The tooltip lines after the first (frames.c): library, then the
	 * hottest source positions with their share of the node's samples. */
	function extraLines(D, node) {
		if (node === 0) return '';
		let t = '';
		const lib = libOf(D.names[D.name[node]]);
		if (lib !== undefined) t += '\nlibrary: ' + display(lib).s;
		const l = D.locs ? D.locs.get(node) : undefined;
		if (l && D.total[node] > 0) {
			const top = l.slice(0, 3).map((p) => display(p[0].slice(p[0].lastIndexOf('/') + 1)).s +
				' (' + fixed(100 * p[1] / D.total[node], 0) + '%)');
			t += '\nsource: ' + top.join(', ') + (l.length > 3 ? ', +' + (l.length - 3) + ' more' : '');
		}
		return t;
	}

	function dispName(D, node) {
		if (node === 0) return { s: 'all', chars: 3 };
		const id = D.name[node];
		let d = D.disp[id];
		if (d === undefined) d = D.disp[id] = display(D.names[id]);
		return d;
	}

	/* ---- flamegraph.pl's sibling order (fold/finish.c) ----
	 * Among one parent's children, a child's own line sorts as "name " and
	 * its subtree's lines as "name;" (byte order; names are byte strings,
	 * so string order is byte order): each parent's entries are sorted by
	 * those keys when first needed (idle time prepares them all, a slice
	 * at a time).  An entry is a child index; its own line is stored as
	 * -1 - index. */

	const NO_ENTRIES = new Int32Array(0);

	function own(D, c) {
		return D.self[c] !== 0 || (D.diff && D.base[c] !== 0) || D.end[c] === c + 1;
	}

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

	/* ---- drill-down layout: flamegraph.pl's flow() over node z's subtree ----
	 * As `render` of the lines through z alone: z spans the full width, a
	 * frame narrower than minwidth (in samples at this scale) is dropped
	 * and summed into its parent's pruned runs.  Frames come out in
	 * pre-order: { node, depth, start, end, delta, waker, runs, pf, ps }.
	 * A kept frame narrower than `cut` samples (a pixel) is not walked
	 * into: it is marked `rest` and expand() walks it later.  Its width is
	 * known without the walk (its subtree's total), so everything after it
	 * lands where the full walk puts it (exactly so for integer counts). */
	function flow(D, z, useBase, minw, cut) {
		const cnt = useBase ? D.base : D.self;
		/* flow() marks a frame above a "--" frame (not the root) a waker */
		let waker = false;
		for (let p = D.parent[z]; p > 0; p = D.parent[p]) {
			if (D.names[D.name[p]] === '--') waker = true;
		}
		const zr = { node: z, depth: D.depth[z], start: 0, end: 0, delta: 0, waker: waker,
			runs: [], pf: 0, ps: 0, sub: true };
		let time = 0;
		if (own(D, z)) {
			zr.delta = D.diff ? D.self[z] - D.base[z] : 0;
			time += cnt[z];
		}
		const out = [zr];
		walk(D, useBase, minw, cut, zr, time, out);
		return out;
	}

	/* Walks the subtree lines of frame r (opened at r.start; its own line
	 * already counted: `time`), appending kept frames to out. */
	function walk(D, useBase, minw, cut, r0, time, out) {
		const cnt = useBase ? D.base : D.self, tot = useBase ? D.btotal : D.total;
		const st = [{ p: r0.node, r: r0, e: entries(D, r0.node), k: 0 }];
		while (st.length) {
			const top = st[st.length - 1];
			const e = top.e;
			if (top.k >= e.length) {
				top.r.end = time;
				st.pop();
				continue;
			}
			const x = e[top.k], isSelf = x < 0, c = isSelf ? -1 - x : x;
			const merged = isSelf && top.k + 1 < e.length && e[top.k + 1] === c;
			top.k += merged ? 2 : 1;
			const hasSub = !isSelf || merged;
			const width = (isSelf ? cnt[c] : 0) + (hasSub ? tot[c] - cnt[c] : 0);
			const r = top.r;
			if (width < minw) {
				r.pf += 1 + (hasSub ? framesUnder(D, c) : 0);
				r.ps += width;
				const runs = r.runs;
				if (runs.length && runs[runs.length - 1] === time) runs[runs.length - 1] = time + width;
				else runs.push(time, time + width);
				time += width;
				continue;
			}
			const f = {
				node: c, depth: r.depth + 1, start: time, end: 0,
				delta: isSelf && D.diff ? D.self[c] - D.base[c] : 0,
				waker: r.waker || (r.depth + 1 > 1 && D.names[D.name[top.p]] === '--'),
				runs: [], pf: 0, ps: 0, sub: hasSub,
			};
			out.push(f);
			if (isSelf) time += cnt[c];
			if (hasSub && width < cut) {
				f.rest = time;   /* walk later, from here */
				time = f.end = f.start + width;
			} else if (hasSub) {
				st.push({ p: c, r: f, e: entries(D, c), k: 0 });
			} else {
				f.end = time;
			}
		}
	}

	/* The frames under a frame flow() left for later. */
	function expand(D, useBase, minw, f) {
		const out = [], end = f.end;
		walk(D, useBase, minw, 0, f, f.rest, out);
		f.end = end;
		f.rest = undefined;
		return out;
	}

	/* ---- geometry: rows, and growing the canvas for a deeper view ---- */

	let G = null;

	function geom() {
		if (G) return G;
		const first = framesEl.firstElementChild;
		const r = first ? parts(first).rect : null;
		const fh = cfg.frameheight, fs = cfg.fontsize;
		const vb = (svg.getAttribute('viewBox') || '').split(/[\s,]+/).map(Number);
		const ok = vb.length === 4 && vb.every(isFinite);
		G = {
			y0: r ? parseFloat(r.getAttribute('y')) || 0 : 0,
			vb: ok ? vb : [0, 0, cfg.width, num('height', 0)],
			vbAttr: svg.getAttribute('viewBox'),
			hAttr: svg.getAttribute('height'),
			bg: svg.querySelector('rect.background'),
			extra: 0, moved: [],
		};
		G.bgY = G.bg ? G.bg.getAttribute('y') : null;
		G.bgH = G.bg ? G.bg.getAttribute('height') : null;
		const ypad1 = fs * 3, ypad2 = fs * 2 + 10;
		const ypad3 = document.getElementById('subtitle') ? fs * 2 : 0;
		const legendH = num('data-uf-legendh', 0); /* the diff legend's rows, above */
		G.rows = cfg.inverted ? Math.round((G.vb[1] + G.vb[3] - ypad2 - G.y0) / fh)
			: Math.round((G.y0 + fh - 1 - (G.vb[1] + legendH + ypad1 + ypad3)) / fh);
		if (!(G.rows >= 1)) G.rows = 1;
		return G;
	}

	function rowY(depth) {
		const g = geom(), fh = cfg.frameheight;
		return cfg.inverted ? g.y0 + depth * fh : g.y0 - depth * fh;
	}

	/* Makes room for `k` rows beyond the drawn ones: the canvas grows away
	 * from the root (upward for flame graphs, moving the header with it),
	 * as the renderer grows it for pruned rows.  k = 0 restores the file's
	 * own attributes exactly. */
	function setExtraRows(k) {
		const g = geom();
		if (k === g.extra) return;
		for (const m of g.moved) m.removeAttribute('transform');
		g.moved = [];
		g.extra = k;
		if (k === 0) {
			if (g.vbAttr !== null) svg.setAttribute('viewBox', g.vbAttr);
			if (g.hAttr !== null) svg.setAttribute('height', g.hAttr);
			if (g.bg) {
				g.bg.setAttribute('y', g.bgY);
				g.bg.setAttribute('height', g.bgH);
			}
			return;
		}
		const dy = k * cfg.frameheight, vb = g.vb;
		const top = cfg.inverted ? vb[1] : vb[1] - dy;
		svg.setAttribute('viewBox', [vb[0], top, vb[2], vb[3] + dy].join(' '));
		if (g.hAttr !== null) svg.setAttribute('height', String(parseFloat(g.hAttr) + dy));
		if (g.bg) {
			g.bg.setAttribute('y', String(parseFloat(g.bgY) + (cfg.inverted ? 0 : -dy)));
			g.bg.setAttribute('height', String(parseFloat(g.bgH) + dy));
		}
		const shift = 'translate(0,' + (cfg.inverted ? dy : -dy) + ')';
		if (cfg.inverted) {
			for (const e of [el.details, el.matched]) {
				if (e) { e.setAttribute('transform', shift); g.moved.push(e); }
			}
			return;
		}
		const keep = /^(defs|style|script|metadata|title|desc|clipPath|linearGradient)$/;
		for (let e = svg.firstElementChild; e && e !== framesEl; e = e.nextElementSibling) {
			if (keep.test(e.localName) || e === g.bg || e === el.details || e === el.matched ||
			    /^frames/.test(e.getAttribute('id') || '')) {
				continue;
			}
			e.setAttribute('transform', shift);
			g.moved.push(e);
		}
	}

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

	/* Draws view v ({ items, rows, more }) over the file's frames. */
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
		framesEl.parentNode.insertBefore(g, framesEl.nextSibling);
		/* The file's frames are under the view's opaque cover: moved far
		 * outside the canvas while it shows, so the view's frames do not
		 * paint them again and Reset Zoom does not lay them out again
		 * (28k frames, Firefox: zoom 167 -> 109 ms, reset 311 -> 94 ms;
		 * Chromium 177 -> 109 and 145 -> 55; display: none made Firefox
		 * lay out every frame at reset, no hiding repainted them all in
		 * each slice of the zoom; the file never has a transform here). */
		framesEl.setAttribute('transform', 'translate(0,-1000000)');
		if (!later.length) return;
		g.setAttribute('data-pending', '1');
		let k = 0;
		const slice = () => {
			if (state.view !== view) return;
			if (k === 0) {
				/* walk every subtree left for later first (no DOM, a few ms):
				 * the canvas then grows once, to its final rows */
				let rows = v.rows;
				for (let j = 0; j < later.length; j++) {
					const it = items[later[j]];
					if (it.rest && v.more) {
						const m = v.more(it);
						for (const x of m.items) later.push(items.push(x) - 1);
						rows = Math.max(rows, m.rows);
					}
				}
				fit(rows);
			}
			const frag = document.createDocumentFragment();
			const t0 = performance.now();
			while (k < later.length && performance.now() - t0 < 12) {
				for (const stop = Math.min(k + 200, later.length); k < stop; k++) {
					addItem(frag, items, later[k]);
				}
			}
			g.appendChild(frag);
			if (k < later.length) setTimeout(slice, 0);
			else g.removeAttribute('data-pending');
		};
		requestAnimationFrame(() => setTimeout(slice, 0));
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
				const pf = f.pf, ps = f.ps;
				list.push({ kind: 'box', d: d, fill: 'rgb(190,190,190)', name: null, row: f.depth + 1,
					title: () => pf + ' frame' + (pf === 1 ? '' : 's') + ' pruned (' +
						countText(ps, false, fileTotal) + '%)' });
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

	/* ---- zoom ---- */

	/* Embedded data the drill-down can use: not for flame charts, whose
	 * frames merge by time order, which the trie does not keep, nor for
	 * --colors chain, whose drawing rewrites every stack (a "--" leaf on
	 * each stack without a waker part, render/svg.c chain_rewrite) from
	 * the profile the trie holds as it was. */
	function drillData() {
		const D = data();
		return D && !cfg.flamechart && cfg.palette !== 'chain' && (!cfg.before || D.diff) ? D : null;
	}

	function zoomNote(z) {
		if (z === null) return null;
		const D = data();
		if (z.node !== undefined) {
			if (!D.pruned) return null;
			const md = document.getElementById('uniprof-flame-data');
			const all = md && md.getAttribute('data-nodes-total');
			return 'Drawn from the embedded profile, pruned to ' + D.n + (all ? ' of ' + all : '') +
				' call paths: smaller subtrees show as their parents\' own time';
		}
		if (cfg.flamechart) return 'Flame chart: zoom stretches the drawn frames (no drill-down: merging follows time order)';
		if (cfg.palette === 'chain') return 'Chain graph: zoom stretches the drawn frames (no drill-down: the drawing rewrites each stack)';
		if (!D) return 'No embedded profile: zoom stretches the drawn frames (no drill-down)';
		return null;
	}

	function sameZoom(a, b) {
		if (a === null || b === null) return a === b;
		return a.node === b.node && a.frame === b.frame;
	}

	/* Zooms to z ({ node }, { frame } or null = the file as written);
	 * `push` adds a history entry so browser Back undoes it. */
	function zoom(z, push) {
		if (later(() => zoom(z, push))) return;
		if (z !== null && (z.node === 0 || z.frame === 0)) z = null;
		if (sameZoom(z, state.zoom)) return;
		state.zoom = z;
		if (z === null) {
			clearView();
			setExtraRows(0);
		} else {
			drawView(z.node !== undefined ? trieView(data(), z.node) : tableView(z.frame));
		}
		state.note = zoomNote(z);
		if (el.details) el.details.textContent = state.note || detailsIdle;
		if (el.unzoom) el.unzoom.classList.toggle('hide', z === null);
		showMatched();
		writeUrl(push);
	}

	/* The trie node of drawn frame i: its names from the root, matched
	 * by name and count (a split frame maps to its node). */
	function nodeOf(D, i) {
		const T = table();
		const path = [];
		for (let p = i; p > 0; p = T.parent[p]) path.unshift(p);
		const tot = cfg.before ? D.btotal : D.total;
		let node = 0;
		for (const p of path) {
			let best = -1;
			for (let c = node + 1; c < D.end[node]; c = D.end[c]) {
				if (dispName(D, c).s !== T.name[p]) continue;
				const want = T.count[p] / cfg.factor;
				if (best < 0 || (Math.abs(tot[c] - want) < Math.abs(tot[best] - want))) best = c;
			}
			if (best < 0) return -1;
			node = best;
		}
		return node;
	}

	function zoomToFrame(i, push) {
		if (later(() => zoomToFrame(i, push))) return;
		const D = drillData();
		const n = D ? nodeOf(D, i) : -1;
		zoom(n >= 0 ? { node: n } : { frame: i }, push);
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
		el.matched.textContent = 'Matched: ' + pct(view > 0 ? 100 * m / view : 0) +
			'% of view, ' + pct(total > 0 ? 100 * m / total : 0) + '% of total';
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

	/* ---- URL state: n= (zoomed trie node) or x=&y= (zoomed drawn frame),
	 * s= (search), i=1 (ignore case) ---- */

	function writeUrl(push) {
		try {
			const p = new URLSearchParams(location.search);
			const z = state.zoom;
			for (const k of ['n', 'x', 'y']) p.delete(k);
			if (z !== null && z.node !== undefined) {
				p.set('n', String(z.node));
			} else if (z !== null) {
				const T = table();
				p.set('x', T.xattr[z.frame]);
				p.set('y', T.yattr[z.frame]);
			}
			if (state.term !== null) p.set('s', state.term);
			else p.delete('s');
			if (state.ic) p.set('i', '1');
			else p.delete('i');
			const q = p.toString();
			const url = location.href.replace(/[?#].*$/, '') + (q ? '?' + q : '') + location.hash;
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
		const T = table();
		for (let i = 0; i < T.n; i++) {
			if (Math.abs(T.y[i] - y) < 0.01 && Math.abs(T.x[i] - x) < 0.01 && T.w[i] > 0) return i;
		}
		return -1;
	}

	/* Applies the state the URL describes (load and browser Back/Forward). */
	function readUrl() {
		if (later(readUrl)) return;
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
		let z = null;
		if (p.has('n')) {
			const D = drillData(), n = Number(p.get('n'));
			if (D && Number.isInteger(n) && n > 0 && n < D.n) z = { node: n };
		} else if (p.has('x') && p.has('y')) {
			const i = findFrame(p.get('x'), p.get('y'));
			if (i > 0) {
				const D = drillData(), n = D ? nodeOf(D, i) : -1;
				z = n >= 0 ? { node: n } : { frame: i };
			}
		}
		zoom(z, false);
		const s = p.get('s');
		if (s !== state.term || (s !== null && state.re && state.re.ignoreCase !== ic)) search(s);
	}

	/* ---- events ---- */

	/* What the pointer is on: a view item, a frame as written, a pruned
	 * box as written, or nothing. */
	function hit(target) {
		if (target && target.ufItem !== undefined && state.view) {
			return { item: state.view.items[target.ufItem] };
		}
		let g = target;
		while (g && g.parentNode !== framesEl) g = g.parentNode;
		return g ? { g: g } : null;
	}

	function firstLine(t) {
		const nl = t.indexOf('\n');
		return nl < 0 ? t : t.slice(0, nl);
	}

	/* The details line of a frame: "Function: " and the tooltip's first
	 * line, then the hottest source position when the tooltip has one. */
	function detailsOf(t) {
		const m = /\nsource: (.*?\(\d+%\))/.exec(t);
		return cfg.nametype + ' ' + firstLine(t) + (m ? ' \u00b7 ' + m[1] : '');
	}

	function onOver(e) {
		const h = hit(e.target);
		if (!h || !el.details) return;
		if (h.item) {
			const it = h.item, t = it.title();
			if (!it.el.firstElementChild) {   /* the tooltip, made when first wanted */
				const title = document.createElementNS(NS, 'title');
				title.textContent = t;
				it.el.appendChild(title);
			}
			el.details.textContent = it.kind === 'box' ? firstLine(t) : detailsOf(t);
			return;
		}
		const c = parts(h.g);
		if (!c.title) return;
		const t = c.title.textContent;
		const cls = h.g.getAttribute('class');
		el.details.textContent = cls && /(^|\s)pruned(\s|$)/.test(cls) ? firstLine(t) : detailsOf(t);
	}

	function onOut(e) {
		const h = hit(e.target);
		if (!h || !el.details) return;
		const r = e.relatedTarget ? hit(e.relatedTarget) : null;
		if (r && ((h.g && r.g === h.g) || (h.item && r.item === h.item))) return;
		el.details.textContent = state.note || detailsIdle;
	}

	function onClick(e) {
		const h = hit(e.target);
		if (!h) return;
		if (h.item) {
			if (h.item.node !== undefined) zoom({ node: h.item.node }, true);
			else if (h.item.frame !== undefined) zoom({ frame: h.item.frame }, true);
			return;
		}
		const T = table();
		if (h.g.ufIndex !== undefined && T.w[h.g.ufIndex] > 0) zoomToFrame(h.g.ufIndex, true);
	}

	function onKey(e) {
		const k = e.key;
		const ctrl = e.ctrlKey || e.metaKey;
		if (k === 'Escape') {
			if (el.libpanel && !el.libpanel.classList.contains('hide')) el.libpanel.classList.add('hide');
			else if (state.zoom !== null) zoom(null, true);
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
		const area = framesEl.parentNode;
		area.addEventListener('mouseover', onOver);
		area.addEventListener('mouseout', onOut);
		area.addEventListener('click', onClick);
		if (el.unzoom) el.unzoom.addEventListener('click', () => zoom(null, true));
		if (el.search) el.search.addEventListener('click', promptSearch);
		if (el.ignorecase) el.ignorecase.addEventListener('click', () => setIgnoreCase(!state.ic));
		if (el.libbutton && el.libpanel) {
			/* the library panel (render/libpanel.c): the button opens and
			 * closes it, a click on it closes it */
			el.libbutton.addEventListener('click', () => el.libpanel.classList.toggle('hide'));
			el.libpanel.addEventListener('click', (e) => {
				e.stopPropagation();
				el.libpanel.classList.add('hide');
			});
		}
		window.addEventListener('keydown', onKey, true);
		window.addEventListener('popstate', readUrl);
	}

	/* After the first paint: read the drawn frames a slice at a time, then
	 * the embedded profile and its sibling order, so the first action
	 * finds them ready. */
	function idle() {
		if (T === null) T = newTable();
		if (!T.done && !tableStep(8)) {
			setTimeout(idle, 0);
			return;
		}
		setTimeout(parseSlice, 0);
	}

	function parseSlice() {
		if (later(parseSlice)) return;
		if (!dataStep(8)) {
			setTimeout(parseSlice, 0);
			return;
		}
		setTimeout(() => {
			const D = DATA;
			if (!D) return;
			setTimeout(() => {
				setTimeout(() => names(D, 0), 0);
				if (!cfg.flamechart) setTimeout(() => prepare(D, D.n - 1), 0);
			}, 0);
		}, 0);
	}

	/* Sibling entries and framesUnder() of every node, children first
	 * (a child's index is above its parent's), a slice at a time. */
	function prepare(D, k) {
		if (!D.fu) D.fu = new Int32Array(D.n).fill(-1);
		const t0 = performance.now();
		let i = k;
		for (; i >= 0; i--) {
			if (i % 512 === 0 && performance.now() - t0 > 8) break;
			if (D.fu[i] >= 0) continue;
			const e = entries(D, i);
			let s = 0;
			for (let j = 0; j < e.length; j++) {
				if (e[j] < 0 && j + 1 < e.length && e[j + 1] === -1 - e[j]) j++;
				s += 1 + (e[j] >= 0 ? D.fu[e[j]] : 0);
			}
			D.fu[i] = s;
		}
		if (i >= 0) setTimeout(() => prepare(D, i), 0);
	}

	/* Display names of the whole table, a slice at a time (search needs
	 * them all). */
	function names(D, k) {
		const end = Math.min(k + 5000, D.names.length);
		for (let i = k; i < end; i++) {
			if (D.disp[i] === undefined) D.disp[i] = display(D.names[i]);
		}
		if (end < D.names.length) setTimeout(() => names(D, end), 0);
	}

	listen();
	if (/[?&](n|x|y|s|i)=/.test(location.search)) readUrl();
	if (window.requestAnimationFrame) requestAnimationFrame(() => setTimeout(idle, 0));
	else setTimeout(idle, 0);

}());
