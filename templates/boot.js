/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/boot.js — the only script a browser compiles while it opens
 * an SVG of uniprof-flame: it runs the real one (templates/js/*.js, kept
 * in the inert <script id="uf-code" type="application/x-uniprof-flame">
 * before it) after the first paint, or at once when something needs it
 * sooner.
 *
 * Why: a browser compiles every script of a document before it can show
 * it, and the viewer's script is ~80 KB.  Firefox takes 15-20 ms for that
 * in a fresh process here (7 ms once warm), which is what put its first
 * paint of our file behind that of flamegraph.pl's (a 14 KB script): see
 * bench/browser/RESULTS.md.  A script element whose type is not a script
 * type is a data block in both engines (never compiled); this file
 * compiles in well under a millisecond.
 *
 * When the code runs:
 *  - after the first paint, in idle time (requestIdleCallback, at most
 *    250 ms later, as the code's own idle work is scheduled);
 *  - at once, when the URL carries view state (?x=, ?s=, ...): the first
 *    paint then shows that state, as before;
 *  - at the first pointer or key event that comes earlier: this listener
 *    is on the window in the capture phase, the first place an event
 *    reaches, and the code runs synchronously in it, so the listeners the
 *    code adds further along the event's path (the root <svg>, the
 *    document) see that same event (DOM: each node's listeners are read
 *    when the event reaches that node).
 *
 * Trade-off: the code is run from a copy of its own element's text by a
 * new script element, not by eval or new Function (invariant 2 of
 * 00-prelude.js): it is the template the renderer wrote, never data, and
 * a frame name cannot make an element (names are escaped text).  In
 * exchange the first action of a person quicker than the idle callback
 * pays the compile (~20 ms) once.
 *
 * Invariants: runs the code at most once; without the code element (or
 * with script off) the SVG stays the complete image it always is.
 */
(function () {
	'use strict';
	const EVENTS = ['mouseover', 'mousemove', 'mousedown', 'click', 'keydown', 'touchstart'];
	let done = false;

	function run() {
		if (done) return;
		done = true;
		for (const t of EVENTS) window.removeEventListener(t, run, true);
		const code = document.getElementById('uf-code');
		if (!code) return;
		const s = document.createElementNS('http://www.w3.org/2000/svg', 'script');
		s.textContent = code.textContent;
		document.documentElement.appendChild(s);
	}

	function afterPaint() {
		requestAnimationFrame(() => {
			if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 250 });
			else setTimeout(run, 0);
		});
	}

	for (const t of EVENTS) window.addEventListener(t, run, true);
	/* view state in the URL: 90-events.js reads it by the same test */
	if (/[?&](n|x|y|s|i|f|t)=/.test(location.search)) run();
	else if (document.readyState === 'complete') afterPaint();
	else window.addEventListener('load', afterPaint, { once: true });
}());
