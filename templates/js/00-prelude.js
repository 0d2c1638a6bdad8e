/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * templates/js/00-prelude.js — the first part of the script embedded in
 * every SVG uniprof-flame writes (templates/flamegraph.js, as the build
 * names it): hover details, click-to-zoom with lossless drill-down from
 * the embedded profile, regex search with an exact Matched share,
 * ignore-case, and zoom/search state kept in the URL.
 *
 * The script is written in parts, templates/js/NN-name.js, one concern
 * each (configuration, numbers, colours, the frames as written, the
 * block, sibling order, layout, geometry, the view, zoom, search, URL
 * state, events); build-aux/bin2c joins them in name order into one
 * script, one IIFE that this part opens and the last part closes, so
 * every part shares one scope and the SVG carries what one file would.
 * A part's header comment says what it holds; whole-line comments never
 * reach the SVG.
 *
 * The file as written is a complete image (invariant 6); the script adds a
 * "view" on top of it.  The SVG carries it as an inert block that
 * templates/boot.js runs after the first paint (or at the first event), so
 * the browser does not compile it while the file opens; when it runs it
 * only attaches listeners: no DOM reads, so the first paint costs what the
 * image costs.  After that paint, idle time
 * reads the drawn frames into flat arrays and parses the embedded trie
 * (<metadata id="uniprof-flame-data">, uf-trie/1); an action that comes
 * earlier finishes that work first.
 *
 * Zoom draws a new view in <g id="uf-view">, after #frames, over an opaque
 * background: from the embedded trie when there is one (drill-down: every
 * call path under the frame that is at least --minwidth wide at the new
 * scale, laid out by flamegraph.pl's flow() as `render` of that subtree
 * alone would, with the renderer's colours and labels), otherwise from the
 * drawn frames, rescaled.  The frames as written are never touched by zoom,
 * so Reset Zoom only removes the view: the file as written is back.
 *
 * The view's frames narrower than a pixel ("slivers", most of a deep
 * drill-down) are not one element each: one <path class="sliver"> per
 * fill holds a subpath per frame (the rectangle its rect would have), so
 * the browser draws and Reset Zoom removes a few hundred elements rather
 * than thousands (tree100k's complete view: 8,676 -> 752).  The pointer
 * on a sliver path hits the frame whose rectangle holds the point, else
 * the nearest in that row within a pixel (sliverAt, 72-view.js); its
 * details line and the path's one tooltip are that frame's, a click
 * zooms into it; no outline on hover.
 *
 * Main trade-off: the view is rebuilt per zoom (cost ~ frames in view)
 * rather than patched in place; in exchange a zoom never restyles the
 * frames it hides, and the drill-down can show frames the file never drew.
 *
 * Invariants:
 *  1. This file never contains the CDATA terminator (two closing square
 *     brackets then ">"): the SVG embeds it in CDATA and the build refuses it.
 *  2. Names and URL parameters are data: they reach the DOM only through
 *     textContent / createTextNode and setAttribute of presentation values
 *     we compute (numbers, colours), never innerHTML, eval or new Function.
 *  3. The frames as written (#frames) change only by search colouring, which
 *     clearing the search restores to the exact saved strings.  In the
 *     view, each sliver path's fill is the fill every frame in it shows
 *     (its own, or the search colour when matched): a search regroups
 *     them, one path per fill.
 *  4. Matched shares come from sample counts (the embedded trie when present,
 *     else the tooltips), never from pixel widths; a match inside a matched
 *     ancestor is not counted again; frames outside the zoom are not counted.
 *  5. Search matches the frame NAME only (as the tooltip shows it), never
 *     counts or percentages.
 *  6. Plain ES2017, no library, no network: works from file:// in Chromium
 *     and Firefox.  Without script the SVG is still a full image.
 *  7. The drill-down's geometry and labels follow render/ (frames.c,
 *     layout.c, palette.c, escape.c); a change there must be mirrored here
 *     (tests/browser/test-drill.js compares both).  Each function that
 *     follows a C function says so on the line above it,
 *     "mirrors FILE:FUNC()", and tests/render/t-mirrors.sh fails when a
 *     named function no longer exists (renamed or moved on the C side).
 */
(function () {
	'use strict';

	const svg = document.documentElement;
	const framesEl = document.getElementById('frames');
	if (!framesEl || !svg.getAttribute) {
		return;
	}
	const NS = 'http://www.w3.org/2000/svg';
