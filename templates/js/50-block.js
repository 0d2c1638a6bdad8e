/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/50-block.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the embedded block (uf-
 * trie/1): inflating, unpacking the columns, parsing the nodes and the
 * tagged sections; libraries and source lines.
 */
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
	/* mirrors fold/embed/embed-pack.c:fold_embed_unpack() */
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

	/* mirrors fold/embed/embed-read.c:unescape() */
	function unescapeName(s) {
		return s.indexOf('%') < 0 ? s : s.replace(/%([0-9A-Fa-f]{2})/g,
			(m, h) => String.fromCharCode(parseInt(h, 16)));
	}

	/* A generator: yields every few thousand lines so idle time can
	 * parse in slices; returns the data or null. */
	/* mirrors fold/embed/embed-read.c:fold_embed_read(), fold/embed/embed-read.c:read_nodes() */
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
			ent: new Array(n), fu: null, deepest: null, integral: true,
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
		const sec = parseSections(n, line, () => pos < text.length);
		D.locs = sec.pos;
		D.time = sec.time;
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
	 * stepped over by its count.  Returns { pos, time }: the source
	 * positions and the samples' times (parseTimes), each null when absent
	 * or malformed (the frames then show none, the time view is off).  An
	 * older block's "loc STRINGS RECORDS" is read as "pos". */
	/* mirrors fold/embed/embed-read.c:scan_sections(), fold/embed/embed-read.c:section_header() */
	function parseSections(n, line, more) {
		const out = { pos: null, time: null };
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
				} else if (name === 'time' && args.length === 0) {
					out.time = parseTimes(n, line, lines);
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

	/* The "time" body (fold/embed/embed.c, item 5): per sequence entry
	 * "DT INDEX STATE [COUNT]", DT microseconds since the previous timed
	 * entry or "-"; as { us (Float64Array, NaN when unknown), node, st
	 * (Uint8Array), c, end (the last time + 1) }, or null when malformed. */
	/* mirrors fold/embed/embed.c:write_times() */
	function parseTimes(n, line, lines) {
		if (!(lines >= 1 && lines <= 1e8)) return null;
		const T = { us: new Float64Array(lines), node: new Int32Array(lines), st: new Uint8Array(lines),
			c: new Float64Array(lines), end: 0, timed: 0 };
		let prev = 0, ok = true;
		for (let i = 0; i < lines; i++) {
			const f = line().split(' ');
			const node = Number(f[1]), st = Number(f[2]), c = f.length > 3 ? Number(f[3]) : 1;
			const dt = f[0] === '-' ? NaN : Number(f[0]);
			if (f.length < 3 || f.length > 4 || !Number.isInteger(node) || node < 0 || node >= n ||
			    !Number.isInteger(st) || st < 0 || st > 4 || !(c >= 0 && c < Infinity) ||
			    (f[0] !== '-' && !Number.isInteger(dt))) {
				ok = false;
				continue;
			}
			if (dt === dt) {
				prev += dt;
				T.timed++;
				if (prev + 1 > T.end) T.end = prev + 1;
			}
			T.us[i] = dt === dt ? prev : NaN;
			T.node[i] = node;
			T.st[i] = st;
			T.c[i] = c;
		}
		return line() === 'end' && ok && T.timed > 0 ? T : null;
	}

	/* The "pos" body (fold/model/loc.c): each node's source positions,
	 * most samples first, as a Map node -> [[position, count], ...];
	 * null when malformed. */
	/* mirrors fold/model/loc.c:fold_locs_read() */
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
	/* mirrors fold/embed/embed.c:fold_libs_read() */
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
	/* mirrors render/frames.c:source_line() */
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
