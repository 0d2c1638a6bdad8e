/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/84-url.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the URL state: n=, x=&y=,
 * s=, i=, t=, layer=.
 */
	/* ---- URL state: n= (zoomed trie node) or x=&y= (zoomed drawn frame)
	 * or f= (a function's sandwich), s= (search), i=1 (ignore case) ----
	 *
	 * The URL is worked out at once but handed to history a frame later:
	 * pushState is a round trip to the browser process in Chromium
	 * (1-16 ms measured inside tree100k's sandwich click, the most in the
	 * click-to-frame time of anything not drawing), and nothing on screen
	 * waits for it.  The writes queue in order, so a zoom then a search
	 * before the frame still make the same entries. */

	let urlQueue = null;   /* [{ url, push }] waiting for the next frame, or null */

	function writeUrl(push) {
		try {
			const p = new URLSearchParams(location.search);
			const z = state.zoom;
			for (const k of ['n', 'x', 'y', 'f']) p.delete(k);
			if (z !== null && z.sw !== undefined) {
				p.set('f', fromRaw(z.sw));
			} else if (z !== null && z.node !== undefined) {
				p.set('n', String(z.node));
			} else if (z !== null) {
				const T = table();
				p.set('x', T.xattr[z.frame]);
				p.set('y', T.yattr[z.frame]);
			}
			if (state.range) p.set('t', secondsText(state.range.from) + '-' + secondsText(state.range.to));
			else p.delete('t');
			if (state.term !== null) p.set('s', state.term);
			else p.delete('s');
			if (state.ic) p.set('i', '1');
			else p.delete('i');
			const q = p.toString();
			const url = location.href.replace(/[?#].*$/, '') + (q ? '?' + q : '') + location.hash;
			if (url === (urlQueue && urlQueue.length ? urlQueue[urlQueue.length - 1].url : location.href)) return;
			if (urlQueue === null) {
				urlQueue = [];
				afterFrame(flushUrl);
			}
			urlQueue.push({ url: url, push: push });
		} catch (e) {
			/* Some viewers forbid history on local files: state stays in memory. */
		}
	}

	function flushUrl() {
		const q = urlQueue;
		urlQueue = null;
		for (const w of q || []) {
			try {
				if (w.push) history.pushState({ uf: 1 }, '', w.url);
				else history.replaceState({ uf: 1 }, '', w.url);
			} catch (e) {
				/* Some viewers forbid history on local files: state stays in memory. */
			}
		}
	}

	/* f once the next frame is out (a timer queued from that frame's own
	 * animation callback can still run before it is handed on: two). */
	function afterFrame(f) {
		if (window.requestAnimationFrame) requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(f, 0)));
		else setTimeout(f, 0);
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

	/* Applies the state the URL describes (load and browser Back/Forward).
	 * A write still queued is of the state Back left: dropped. */
	function readUrl() {
		urlQueue = null;
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
		const r = parseRangeParam(p.get('t'));
		const cur = state.range;
		if (r ? !cur || cur.from !== r.from || cur.to !== r.to : cur) setRange(r, false);
		let z = null;
		if (p.has('f')) {
			z = { sw: toRaw(p.get('f')) };
		} else if (p.has('n')) {
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
