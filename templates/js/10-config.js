/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/10-config.js — part of the SVG's script (the build joins
 * templates/js/*.js in name order into templates/flamegraph.js, one IIFE;
 * 00-prelude.js has the design and invariants): the configuration the
 * renderer writes on the root element (data-uf-*), the header elements,
 * the view state.
 */
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
		badRe: null,     /* why the search term is no regex (matched as text), or null */
		matchedList: '', /* the hottest matched functions, for hovering the Matched line */
		view: null,      /* the drawn view: { g, frames: [...], ... } */
		note: null,      /* what the details line says while idle in a view */
		range: null,     /* the time view's range { from, to } in µs, or null (88-heatmap.js) */
	};

