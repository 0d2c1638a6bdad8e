/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/20-numbers.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): numbers and names as
 * render/ prints them: fixed decimals, counts, the tooltip count text,
 * display escaping, labels cut to a frame.
 */
	/* ---- numbers and names as render/ prints them ---- */

	/* printf("%.*f", d, v).  toFixed rounds an exact tie away from zero,
	 * printf to even; v sits on a tie exactly when v * 2^(d+1) is an odd
	 * integer (then v * 10^d is exact too). */
	/* mirrors render/frames.c:put_fixed() */
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
	/* mirrors util/fmt.h:uf_fixed_value() */
	function fixedValue(v, d) {
		return parseFloat(fixed(v, d));
	}

	/* nearbyint(): round half to even. */
	function roundEven(v) {
		const f = Math.floor(v);
		if (v - f === 0.5) return f % 2 === 0 ? f : f + 1;
		return Math.round(v);
	}

	/* mirrors render/frames.c:with_commas() */
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
	/* mirrors fold/model/count.c:fold_format_count() */
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
	/* mirrors render/frames.c:display_count() */
	function displayCount(v) {
		if (!(v >= 0) || v > 1e300 || (v === Math.floor(v) && v < 1e15)) return formatCount(v);
		return fixed(v, 2).replace(/0+$/, '').replace(/\.$/, '');
	}

	/* "N COUNTNAME, P" of a tooltip (frames.c count_text). */
	/* mirrors render/frames.c:count_text() */
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
	/* mirrors render/escape.c:escape_display() */
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
	/* mirrors render/escape.c:valid_utf8() */
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
	/* mirrors render/frames.c:write_frame(), render/escape.c:escape_prefix_bytes() */
	function label(disp, w) {
		const chars = Math.floor(w / (cfg.fontsize * cfg.fontwidth));
		if (!(chars >= 3)) return '';
		if (chars >= disp.chars) return disp.s;
		const cps = Array.from(disp.s);
		return cps.slice(0, chars - 2).join('') + '..';
	}
