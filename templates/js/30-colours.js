/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/30-colours.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the colours of frames the
 * script draws: palettes, name hashes, the differential scale.
 */
	/* ---- colours (palette.c and frames.c, for drill-down frames) ---- */

	/* One code point of raw at i as palette.c reads it: [cp, bytes]. */
	/* mirrors render/palette.c:utf8_next() */
	function cpAt(raw, i) {
		const c = raw.charCodeAt(i);
		const n = c < 0x80 ? 1 : (c >> 5) === 6 ? 2 : (c >> 4) === 14 ? 3 : (c >> 3) === 30 ? 4 : 0;
		if (n === 0 || i + n > raw.length) return [c, 1];
		for (let k = 1; k < n; k++) {
			if ((raw.charCodeAt(i + k) & 0xc0) !== 0x80) return [c, 1];
		}
		return [n === 1 ? c : decode1(raw, i, n), n];
	}

	/* mirrors render/palette.c:codepoint_sum() */
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

	/* mirrors render/palette.c:namehash() */
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
	/* mirrors render/palette.c:decode() */
	function hashInput(raw, reverse) {
		const all = codePoints(raw);
		if (reverse) all.reverse();
		let start = 0;
		for (let i = 1; i < all.length; i++) {
			if (all[i] === 96) { start = i + 1; break; }
		}
		return all.slice(start, start + 64);
	}

	/* mirrors render/palette.c:multi_type() */
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

	/* mirrors render/frames.c:rgb_text() */
	function rgb(r, g, b) {
		return 'rgb(' + r + ',' + g + ',' + b + ')';
	}

	/* mirrors render/palette.c:format_type() */
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
	/* mirrors render/palette.c:state_frame_color() */
	/* keyed "[" + state + "]" (fold/model/when.c:fold_state_frame()); made, not
	 * written out, so a file's text names a pseudo-frame only where one is drawn */
	const WAIT_COLOURS = {};
	[['blocked', 'rgb(96,128,200)'], ['runnable', 'rgb(150,110,200)'], ['offline', 'rgb(160,160,160)']]
		.forEach((e) => { WAIT_COLOURS['[' + e[0] + ']'] = e[1]; });

	/* mirrors render/palette.c:palette_color() */
	function paletteColor(raw, waker) {
		if (Object.prototype.hasOwnProperty.call(WAIT_COLOURS, raw)) return WAIT_COLOURS[raw];
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

	/* mirrors render/frames.c:color_scale() */
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
	/* mirrors render/frames.c:frame_delta() */
	function frameDelta(D, f) {
		const d = cfg.delta === 'total' ? D.total[f.node] - D.btotal[f.node] : f.delta;
		return cfg.negate ? -d : d;
	}

	/* mirrors render/frames.c:diff_color() */
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
	/* mirrors render/frames.c:frame_color() */
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

