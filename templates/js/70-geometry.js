/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/70-geometry.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): rows and growing the
 * canvas for a view deeper than the file.
 */
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
		const heatH = num('data-uf-heatroom', 0); /* the time view's room, above the header */
		G.rows = cfg.inverted ? Math.round((G.vb[1] + G.vb[3] - ypad2 - G.y0) / fh)
			: Math.round((G.y0 + fh - 1 - (G.vb[1] + heatH + legendH + ypad1 + ypad3)) / fh);
		if (!(G.rows >= 1)) G.rows = 1;
		return G;
	}

	/* mirrors render/frames.c:row_y() */
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
