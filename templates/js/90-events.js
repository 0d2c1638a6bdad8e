/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/90-events.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): events, idle-time
 * preparation and the start-up (the IIFE's close).
 */
	/* ---- events ---- */

	/* What the pointer is on: a view item, a frame as written, a pruned
	 * box as written, or nothing.  On a sliver path the item is found by
	 * the event's client point (sliverAt, 72-view.js). */
	function hit(target, e) {
		if (target && target.ufItem !== undefined && state.view) {
			return { item: state.view.items[target.ufItem] };
		}
		if (target && target.ufSlivers !== undefined) {
			const it = state.view && e ? sliverAt(target, e.clientX, e.clientY) : null;
			return it ? { item: it, sliver: target } : null;
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
		const h = hit(e.target, e);
		if (!h || !el.details) return;
		if (h.sliver) {
			showSliver(h.sliver, h.item);
			return;
		}
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

	/* A sliver under the pointer: its details line, and its tooltip as
	 * the path's one <title> (rewritten when the pointer moves to another
	 * sliver of the path, before the browser shows it). */
	function showSliver(p, it) {
		if (!el.details || !state.view) return;
		state.view.hovered = it;
		const t = it.title();
		let title = p.firstElementChild;
		if (!title) title = p.appendChild(document.createElementNS(NS, 'title'));
		if (title.textContent !== t) title.textContent = t;
		el.details.textContent = detailsOf(t);
	}

	/* Along one sliver path no mouseover fires: the item follows the
	 * pointer here (or the idle line, off every sliver of it). */
	function onMove(e) {
		const p = e.target;
		if (!p || p.ufSlivers === undefined || !state.view || !el.details) return;
		const it = sliverAt(p, e.clientX, e.clientY);
		if (it === state.view.hovered) return;
		if (it) showSliver(p, it);
		else {
			state.view.hovered = null;
			el.details.textContent = state.note || detailsIdle;
		}
	}

	function onOut(e) {
		/* leaving a sliver path: what it showed (the point is already
		 * the new one) */
		let h;
		if (e.target && e.target.ufSlivers !== undefined) {
			h = state.view && state.view.hovered ? { item: state.view.hovered } : null;
			if (state.view) state.view.hovered = null;
		} else {
			h = hit(e.target, e);
		}
		if (!h || !el.details) return;
		const r = e.relatedTarget ? hit(e.relatedTarget, e) : null;
		if (r && ((h.g && r.g === h.g) || (h.item && r.item === h.item))) return;
		el.details.textContent = state.note || detailsIdle;
	}

	/* The function a click names (bytes, as the block holds it), for the
	 * sandwich; null without embedded data. */
	function rawNameOf(h) {
		const D = drillData();
		if (!D) return null;
		if (h.item && h.item.sw) return h.item.sw.X.names[h.item.sw.X.name[h.item.node]];
		if (h.item) return h.item.node > 0 ? D.names[D.name[h.item.node]] : null;
		const n = h.g.ufIndex !== undefined ? nodeOf(D, h.g.ufIndex) : -1;
		return n > 0 ? D.names[D.name[n]] : null;
	}

	function onClick(e) {
		const h = hit(e.target, e);
		if (!h) return;
		if (e.shiftKey) {   /* Shift-click: the function's sandwich */
			const go = () => {
				const raw = rawNameOf(h);
				if (raw !== null) zoom({ sw: raw }, true);
			};
			if (!later(go)) go();
			return;
		}
		if (h.item) {
			if (h.item.zoomTo) zoom(h.item.zoomTo, true);
			else if (h.item.node !== undefined) zoom({ node: h.item.node }, true);
			else if (h.item.frame !== undefined) zoom({ frame: h.item.frame }, true);
			return;
		}
		const T = table();
		if (h.g.ufIndex !== undefined && T.w[h.g.ufIndex] > 0) zoomToFrame(h.g.ufIndex, true);
	}

	function onKey(e) {
		const k = e.key;
		const ctrl = e.ctrlKey || e.metaKey;
		if (heatKey(e)) return;   /* the time view's keys, when it has the focus */
		if (k === 'Escape') {
			if (el.libpanel && !el.libpanel.classList.contains('hide')) el.libpanel.classList.add('hide');
			else if (state.zoom !== null) zoom(null, true);
			else if (state.range) setRange(null, true);
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
		area.addEventListener('mousemove', onMove);
		area.addEventListener('click', onClick);
		if (el.unzoom) el.unzoom.addEventListener('click', () => zoom(null, true));
		if (el.search) el.search.addEventListener('click', promptSearch);
		if (el.ignorecase) el.ignorecase.addEventListener('click', () => setIgnoreCase(!state.ic));
		if (el.matched && el.details) {
			/* the Matched line's list of the hottest matched functions */
			el.matched.addEventListener('mouseover', () => {
				if (state.re !== null && state.matchedList) el.details.textContent = state.matchedList;
			});
			el.matched.addEventListener('mouseout', () => { el.details.textContent = state.note || detailsIdle; });
		}
		if (el.libbutton && el.libpanel) {
			/* the library panel (render/libpanel.c): the button opens and
			 * closes it, a click on it closes it */
			el.libbutton.addEventListener('click', () => el.libpanel.classList.toggle('hide'));
			el.libpanel.addEventListener('click', (e) => {
				e.stopPropagation();
				el.libpanel.classList.add('hide');
			});
		}
		/* on the document, not the window: when templates/boot.js runs this
		 * code from its window listener for a first key, the document is
		 * still ahead on that key's path */
		document.addEventListener('keydown', onKey, true);
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
			if (D.time) setTimeout(installHeatmap, 0);
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

	/* The idle work is asked for from the first frame after the load
	 * event: its idle time comes after that frame is out.  Asked for at
	 * once (before the load), the idle callback ran in the gap before
	 * that frame whenever the browser had painted once during the parse
	 * (Firefox, the small capture: its first 4-24 ms slices came before
	 * the frame in 2 of 4 probed runs); a timer queued from the first
	 * animation frame could run before the frame was out (issue 32). */
	function startIdle() {
		const go = () => (window.requestIdleCallback ? requestIdleCallback(idle, { timeout: 250 }) : setTimeout(idle, 0));
		if (window.requestAnimationFrame) requestAnimationFrame(go);
		else go();
	}

	listen();
	if (/[?&](n|x|y|s|i|f|t)=/.test(location.search)) readUrl();
	if (document.readyState === 'complete') startIdle();
	else window.addEventListener('load', startIdle, { once: true });

}());
