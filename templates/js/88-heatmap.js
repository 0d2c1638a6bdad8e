/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/88-heatmap.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the time view (issue 30),
 * a FlameScope-style heat map above the graph, drawn from the block's
 * "time" section (fold/embed/embed.c), and the flame graph of a range.
 *
 * Layout.  A column per time slice, cells top to bottom in time order
 * within it, as FlameScope draws them.  FlameScope's grid is 1 s columns
 * of 50 x 20 ms cells; a short recording would be two columns of that, so
 * the column is the smallest of 1, 2, 5 x 10^k ms that keeps the
 * recording within 100 columns (1.5 s: 20 ms columns; 100 s and more:
 * 1 s columns, or more when longer) and a column holds HEAT_ROWS cells,
 * fewer when a cell would hold less than two samples' mean interval (at
 * 99 Hz, 1.5 s: one 20 ms cell per column; FlameScope's own grid at
 * 99 Hz and 1 s columns: 50 cells of two samples).
 * All threads and vCPUs share one band (merged): a sample's root frame
 * says its thread in the graph below; bands per thread are not drawn.
 *
 * Colour: a cell's lightness is its samples over the busiest cell's (all
 * states), its hue the waiting share: red when every sample ran, blue
 * when every sample waited ([blocked], [runnable], [offline]), between
 * for a mix; an empty cell is pale grey.  The details line names a
 * cell's time span and its running / waiting counts.
 *
 * Range.  Drag across cells (or click one) to select the cells from the
 * first to the last in time order: the graph is redrawn from the block's
 * nodes with each node's own count summed over the samples in [from, to)
 * (the half-open cut `render --time FROM-TO` makes, in whole microseconds,
 * the section's unit), so zoom, search, the sandwich and the URL work on
 * the range: the range's profile replaces the parsed one (DATA) while the
 * range holds; the file's own frames show again when it is cleared
 * (Escape, or a click on the panel's "clear" text).  ?t=FROM-TO in
 * seconds restores it.  Samples with no time are in no range.
 *
 * Keyboard.  The panel is focusable (Tab, or a click on it): Left/Right
 * move a cursor column (Home/End: the first/last), Shift with them
 * extends a selection of whole columns from where it started, Enter
 * shows that selection's range (the range a drag over the same columns
 * selects: the same cells, the same µs), Escape drops a selection not yet
 * shown, else clears as above.  The cursor is a dashed outline; the
 * details line names the cursor column or the selection.
 *
 * Cost: the panel is drawn once the block is parsed (idle time), one
 * <rect> per cell (at most 100 x HEAT_ROWS; its index as a property,
 * no attribute); a range costs one
 * pass over the samples and one over the nodes, then a drill-down's draw.
 * The renderer keeps the panel's height free above the header
 * (data-uf-heatroom, render/svg.c heat_room(), with a note for viewers
 * that run no script), so no frame moves when the panel appears; a file
 * written before that grows its canvas upward by it at this point.
 */

	/* ---- the time view ---- */

	const HEAT_ROWS = 50, HEAT_MAX_COLS = 100, HEAT_H = 100, HEAT_AXIS = 16;
	let FULL = null;  /* the parsed profile while a range's replaces it */
	let HM = null;    /* the panel: { g, cols, colUs, cellUs, cells, sel, ... } */

	/* The column length in µs: 1, 2, 5 x 10^k ms, within HEAT_MAX_COLS. */
	function heatColumnUs(endUs) {
		for (let k = 1000; ; k *= 10) {
			for (const m of [1, 2, 5]) {
				if (Math.ceil(endUs / (k * m)) <= HEAT_MAX_COLS || k * m >= 1e6 * 1e6) return k * m;
			}
		}
	}

	/* px the file keeps above its header for this panel (0: none kept) */
	function heatRoom() {
		return num('data-uf-heatroom', 0);
	}

	function timesOf() {
		const D = FULL || data();
		return D && D.time && !cfg.flamechart && !cfg.diff ? D.time : null;
	}

	/* Makes room above everything and draws the cells; once. */
	function installHeatmap() {
		if (HM || later(installHeatmap)) return;
		const T = timesOf();
		if (!T) return;
		const colUs = heatColumnUs(T.end);
		/* a cell holds two samples' mean interval at least */
		const rows = Math.max(1, Math.min(HEAT_ROWS, Math.floor(colUs * T.timed / (2 * T.end))));
		const cellUs = colUs / rows, cellH = HEAT_H / rows;
		const cols = Math.max(1, Math.ceil(T.end / colUs));
		const run = new Float64Array(cols * rows), wait = new Float64Array(cols * rows);
		for (let i = 0; i < T.us.length; i++) {
			if (T.us[i] !== T.us[i]) continue;
			const k = Math.min(run.length - 1, Math.floor(T.us[i] / cellUs));
			if (T.st[i] >= 2) wait[k] += T.c[i];
			else run[k] += T.c[i];
		}
		let max = 0;
		for (let k = 0; k < run.length; k++) max = Math.max(max, run[k] + wait[k]);
		/* mirrors render/svg.c:heat_room() */
		const g0 = geom(), ph = HEAT_H + HEAT_AXIS + 8;
		if (!(heatRoom() >= ph)) {
			/* a file from before the room was made (data-uf-heatroom): its
			 * canvas grows upward by ph; geom() keeps the new base */
			g0.vb[1] -= ph;
			g0.vb[3] += ph;
			g0.vbAttr = g0.vb.join(' ');
			svg.setAttribute('viewBox', g0.vbAttr);
			if (g0.hAttr !== null) svg.setAttribute('height', g0.hAttr = String(parseFloat(g0.hAttr) + ph));
			if (g0.bg) {
				g0.bg.setAttribute('y', g0.bgY = String(parseFloat(g0.bgY) - ph));
				g0.bg.setAttribute('height', g0.bgH = String(parseFloat(g0.bgH) + ph));
			}
		}
		const note = document.getElementById('uf-heatnote');
		if (note) note.remove();
		const x0 = cfg.xpad, cw = (cfg.width - 2 * cfg.xpad) / cols, y0 = g0.vb[1] + 4;
		const g = make('g', { id: 'uf-heatmap' });
		const frag = document.createDocumentFragment();
		for (let c = 0; c < cols; c++) {
			for (let r = 0; r < rows; r++) {
				const k = c * rows + r, n = run[k] + wait[k];
				const a = max > 0 ? n / max : 0, w = n > 0 ? wait[k] / n : 0;
				const hue = [230 - 170 * w, 70 + 40 * w, 40 + 180 * w];
				const mix = (h) => Math.round(255 - (255 - h) * (0.12 + 0.88 * a));
				frag.appendChild(make('rect', { x: fixed(x0 + c * cw, 2), y: fixed(y0 + r * cellH, 2),
					width: fixed(cw, 2), height: fixed(cellH, 2), 
					fill: n > 0 ? rgb(mix(hue[0]), mix(hue[1]), mix(hue[2])) : 'rgb(238,238,238)' })).ufCell = k;
			}
		}
		g.appendChild(frag);
		const sel = make('rect', { fill: 'none', stroke: 'rgb(0,0,0)', 'stroke-width': '1', display: 'none' });
		g.appendChild(sel);
		const cursor = make('rect', { fill: 'none', stroke: 'rgb(0,0,0)', 'stroke-width': '1',
			'stroke-dasharray': '2,2', display: 'none', y: fixed(y0, 2), height: String(HEAT_H), width: fixed(cw, 2) });
		g.appendChild(cursor);
		g.setAttribute('tabindex', '0');
		g.setAttribute('aria-label', 'time heat map: arrow keys move, Shift extends, Enter shows the range');
		const label = make('text', { x: String(x0), y: String(y0 + HEAT_H + 12),
			'font-size': String(cfg.fontsize), 'font-family': 'Verdana' });
		g.appendChild(label);
		/* before the header, so a deeper view moves it with the header */
		const first = g0.bg ? g0.bg.nextSibling : framesEl;
		first.parentNode.insertBefore(g, first);
		HM = { g: g, cols: cols, rows: rows, cellH: cellH, colUs: colUs, cellUs: cellUs, run: run, wait: wait, x0: x0, cw: cw, y0: y0,
			sel: sel, label: label, drag: null, range: null, cursor: cursor, at: -1, anchor: -1 };
		heatLabel();
		listenHeatmap();
	}

	function secondsText(us) {
		return String(Math.round(us) / 1e6);
	}

	function heatLabel() {
		const r = HM.range;
		HM.label.textContent = 'Time: ' + secondsText(HM.cols * HM.colUs) + ' s, ' + (HM.colUs / 1000) +
			' ms columns of ' + HM.rows + ' cells (red ran, blue waited); drag, or Tab here and use arrows, Shift, Enter to select' +
			(r ? '; showing ' + secondsText(r.from) + '-' + secondsText(r.to) + ' s (Escape clears)' : '');
	}

	function cellAt(e) {
		const k = e.target.ufCell;
		return e.target.parentNode === HM.g && Number.isInteger(k) ? k : -1;
	}

	function cellDetails(k) {
		const a = k * HM.cellUs;
		return 'Time ' + secondsText(a) + '-' + secondsText(a + HM.cellUs) + ' s: ' + HM.run[k] + ' running, ' +
			HM.wait[k] + ' waiting';
	}

	function showSelection(k1, k2) {
		if (k1 < 0) {
			HM.sel.setAttribute('display', 'none');
			return;
		}
		const c1 = Math.floor(k1 / HM.rows), c2 = Math.floor(k2 / HM.rows);
		const y1 = HM.y0 + (c1 === c2 ? (k1 % HM.rows) * HM.cellH : 0);
		const y2 = HM.y0 + (c1 === c2 ? (k2 % HM.rows + 1) * HM.cellH : HEAT_H);
		HM.sel.setAttribute('x', fixed(HM.x0 + c1 * HM.cw, 2));
		HM.sel.setAttribute('width', fixed((c2 - c1 + 1) * HM.cw, 2));
		HM.sel.setAttribute('y', fixed(y1, 2));
		HM.sel.setAttribute('height', fixed(y2 - y1, 2));
		HM.sel.removeAttribute('display');
	}

	function listenHeatmap() {
		HM.g.addEventListener('mousedown', (e) => {
			const k = cellAt(e);
			if (k < 0) return;
			e.preventDefault();
			/* focus for the keys, the cursor at the pressed column */
			HM.g.focus();
			HM.at = HM.anchor = Math.floor(k / HM.rows);
			showCursor();
			HM.drag = { a: k, b: k };
			showSelection(k, k);
		});
		HM.g.addEventListener('mouseover', (e) => {
			const k = cellAt(e);
			if (k < 0) return;
			if (el.details) el.details.textContent = cellDetails(k);
			if (HM.drag) {
				HM.drag.b = k;
				showSelection(Math.min(HM.drag.a, k), Math.max(HM.drag.a, k));
			}
		});
		window.addEventListener('mouseup', () => {
			if (!HM.drag) return;
			const k1 = Math.min(HM.drag.a, HM.drag.b), k2 = Math.max(HM.drag.a, HM.drag.b);
			HM.drag = null;
			setRange({ from: k1 * HM.cellUs, to: (k2 + 1) * HM.cellUs }, true);
		});
		HM.g.addEventListener('click', (e) => e.stopPropagation());
		HM.g.addEventListener('focus', () => {
			if (HM.at < 0) {
				const r = HM.range;
				HM.at = HM.anchor = r ? Math.min(HM.cols - 1, Math.floor(r.from / HM.colUs)) : 0;
			}
			showCursor();
		});
		HM.g.addEventListener('blur', () => HM.cursor.setAttribute('display', 'none'));
	}

	/* The cursor column's outline and what the details line says of it
	 * (or of the keyboard's selection, when it spans columns). */
	function showCursor() {
		HM.cursor.setAttribute('x', fixed(HM.x0 + HM.at * HM.cw, 2));
		HM.cursor.removeAttribute('display');
		const c1 = Math.min(HM.anchor, HM.at), c2 = Math.max(HM.anchor, HM.at);
		let run = 0, wait = 0;
		for (let k = c1 * HM.rows; k < (c2 + 1) * HM.rows; k++) {
			run += HM.run[k];
			wait += HM.wait[k];
		}
		if (el.details) {
			el.details.textContent = (c1 === c2 ? 'Column ' : 'Selected ') + secondsText(c1 * HM.colUs) + '-' +
				secondsText((c2 + 1) * HM.colUs) + ' s: ' + run + ' running, ' + wait + ' waiting' +
				(c1 === c2 ? '' : ' (Enter shows it, Escape drops it)');
		}
	}

	/* A key while the panel has the focus; true when it was the panel's. */
	function heatKey(e) {
		if (!HM || document.activeElement !== HM.g) return false;
		const last = HM.cols - 1, k = e.key;
		let to = -1;
		if (k === 'ArrowLeft') to = Math.max(0, HM.at - 1);
		else if (k === 'ArrowRight') to = Math.min(last, HM.at + 1);
		else if (k === 'Home') to = 0;
		else if (k === 'End') to = last;
		if (to >= 0) {
			e.preventDefault();
			HM.at = to;
			if (!e.shiftKey) HM.anchor = to;
			const c1 = Math.min(HM.anchor, HM.at), c2 = Math.max(HM.anchor, HM.at);
			if (c1 !== c2) showSelection(c1 * HM.rows, c2 * HM.rows + HM.rows - 1);
			else heatRangeOutline();
			showCursor();
			return true;
		}
		if (k === 'Enter') {
			e.preventDefault();
			const c1 = Math.min(HM.anchor, HM.at), c2 = Math.max(HM.anchor, HM.at);
			setRange({ from: c1 * HM.rows * HM.cellUs, to: (c2 * HM.rows + HM.rows) * HM.cellUs }, true);
			return true;
		}
		if (k === 'Escape' && HM.anchor !== HM.at) {
			/* a selection not shown yet: dropped, the range shown stays */
			e.preventDefault();
			HM.anchor = HM.at;
			heatRangeOutline();
			showCursor();
			return true;
		}
		return false;
	}

	/* The outline back on the range shown (none without one). */
	function heatRangeOutline() {
		const r = HM.range;
		if (!r) {
			showSelection(-1, -1);
			return;
		}
		const k1 = Math.floor(r.from / HM.cellUs), k2 = Math.ceil(r.to / HM.cellUs) - 1;
		showSelection(Math.max(0, k1), Math.min(HM.cols * HM.rows - 1, Math.max(k1, k2)));
	}

	/* The parsed profile with each node's own count over the samples in
	 * [from, to) µs: what `render --time` draws of the same range. */
	function rangeData(D, T, from, to) {
		const self = new Float64Array(D.n);
		for (let i = 0; i < T.us.length; i++) {
			const t = T.us[i];
			if (t >= from && t < to) self[T.node[i]] += T.c[i];
		}
		const R = Object.assign({}, D, { self: self, total: Float64Array.from(self), ent: new Array(D.n),
			fu: null, matched: null, range: { from: from, to: to } });
		R.btotal = R.total;
		for (let i = D.n - 1; i > 0; i--) R.total[D.parent[i]] += R.total[i];
		return R;
	}

	/* Shows range r ({ from, to } µs, or null = the whole profile). */
	function setRange(r, push) {
		if (later(() => setRange(r, push))) return;
		if (!FULL) {
			const D = data();
			if (!D || !D.time) return;
			FULL = D;
		}
		installHeatmap();
		SW = null;
		DATA = r ? rangeData(FULL, FULL.time, r.from, r.to) : FULL;
		if (HM) {
			HM.range = r;
			HM.anchor = HM.at;
			heatRangeOutline();
			heatLabel();
		}
		if (!r) FULL = null;
		state.range = r;
		state.zoom = {}; /* the range's root, redrawn by zoom(null) */
		zoom(null, push);
		if (state.term !== null) {
			const t = state.term;
			search(null);
			search(t);
		}
	}

	/* "?t=FROM-TO" seconds, as --time reads them. */
	function parseRangeParam(s) {
		const m = /^(\d+(?:\.\d*)?)?-(\d+(?:\.\d*)?)?$/.exec(s || '');
		if (!m) return null;
		const from = m[1] ? Math.round(parseFloat(m[1]) * 1e6) : 0;
		const to = m[2] ? Math.round(parseFloat(m[2]) * 1e6) : Infinity;
		return to > from ? { from: from, to: to } : null;
	}
