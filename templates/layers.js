/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/layers.js — the BEFORE layer of a differential flame graph.
 *
 * A diff SVG draws AFTER's widths in <g id="frames"> and BEFORE's in a
 * hidden <g id="frames-before">, so frames that disappeared are still in
 * the file.  The "Show before" button reloads the same file with
 * ?layer=before; this script, which runs before flamegraph.js, then
 * swaps the two layers' ids, so the interactive script drives whichever
 * layer is shown.  Reloading (instead of re-initializing in place) keeps
 * one code path for zoom and search, and gives the browser's Back button
 * the switch for free.  Zoom coordinates belong to one layer and are
 * dropped on a switch; the search is kept.
 */
(function () {
	'use strict';
	const before = document.getElementById('frames-before');
	const after = document.getElementById('frames');
	const button = document.getElementById('showbefore');
	if (!before || !after || !button) {
		return;
	}
	let params = null;
	try {
		params = new URLSearchParams(location.search);
	} catch (e) {
		params = null;
	}
	const showing = params !== null && params.get('layer') === 'before';
	if (showing) {
		after.setAttribute('id', 'frames-after');
		after.setAttribute('class', 'hide');
		before.setAttribute('id', 'frames');
		before.removeAttribute('class');
		button.textContent = button.getAttribute('data-other') || 'Show after';
	}
	button.style.cursor = 'pointer';
	button.addEventListener('click', function () {
		try {
			const q = new URLSearchParams(location.search);
			q.delete('x');
			q.delete('y');
			if (showing) q.delete('layer');
			else q.set('layer', 'before');
			const s = q.toString();
			location.href = location.href.replace(/[?#].*$/, '') + (s ? '?' + s : '');
		} catch (e) {
			/* a viewer without URL support keeps the AFTER layer */
		}
	});
}());
