/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/80-zoom.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): zoom: to a trie node
 * (drill-down) or a drawn frame.
 */
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
		if (z.sw !== undefined) {
			return SW && SW.raw === z.sw ? sandwichNote(SW)
				: 'Sandwich: needs the embedded profile (none here, or a flame chart or chain graph)';
		}
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
		return a.node === b.node && a.frame === b.frame && a.sw === b.sw && a.half === b.half;
	}

	/* Zooms to z ({ node }, { frame }, a sandwich { sw } or one of its
	 * halves { sw, half, node }, or null = the file as written); `push`
	 * adds a history entry so browser Back undoes it. */
	function zoom(z, push) {
		if (later(() => zoom(z, push))) return;
		if (z !== null && (z.node === 0 || z.frame === 0)) z = null;
		z = settledZoom(z);
		if (sameZoom(z, state.zoom)) return;
		state.zoom = z;
		if (z === null && state.range) {
			drawView(trieView(data(), 0)); /* the time range's whole graph (88-heatmap.js) */
		} else if (z === null) {
			clearView();
			setExtraRows(0);
		} else if (z.sw !== undefined) {
			const D = drillData(), S = D ? makeSandwich(D, z.sw, z.half === undefined) : null;
			if (S && !S.error) {
				const v = sandwichView(S, z.half, z.node);
				if (S.partial) v.replace = () => completeView(S, z);
				drawView(v);
			} else {
				clearView();
				setExtraRows(0);
			}
		} else {
			drawView(z.node !== undefined ? trieView(data(), z.node) : tableView(z.frame));
		}
		state.note = zoomNote(z);
		if (el.details) el.details.textContent = state.note || detailsIdle;
		if (el.unzoom) el.unzoom.classList.toggle('hide', z === null);
		showMatched();
		writeUrl(push);
	}

	/* After a quick sandwich's first frame: the full sandwich's view in
	 * its place (the same frames at a pixel and wider, then the rest). */
	function completeView(S, z) {
		completeSandwich(S);
		if (S.error) {
			clearView();
			setExtraRows(0);
			state.note = zoomNote(z);
			if (el.details) el.details.textContent = state.note;
			return;
		}
		drawView(sandwichView(S, z.half, z.node));
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

