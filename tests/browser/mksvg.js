#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/mksvg.js — writes an SVG that follows the renderer's DOM
 * contract (see templates/flamegraph.js) from folded stacks, embedding the
 * CURRENT templates/js/*.js (joined) and templates/flamegraph.css.  It lets the browser test check
 * the script on its own (before or apart from render/) and makes large
 * synthetic graphs for measuring the script's speed.
 *
 * Trade-off: geometry follows flamegraph.pl's arithmetic (siblings sorted
 * by name, x = xpad + start * (width - 2*xpad) / total) but colours are a
 * simple hash; it is a test fixture writer, not a second renderer.
 *
 * Invariants:
 *  1. Frames are written in depth-first pre-order, parents first.
 *  2. Every name is XML-escaped; the output is well-formed XML.
 *
 * Usage: mksvg.js [--inverted] [--minwidth PX] [--synthetic N] [--folded] [FOLDED] > OUT.svg
 *   --synthetic N  draw a deterministic random tree of about N frames
 *   --folded       write the tree as folded stacks instead of an SVG
 */
'use strict';
const fs = require('fs');
const path = require('path');

const top = path.resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
const opt = { inverted: false, minwidth: 0.1, synthetic: 0, folded: false, file: null };
for (let i = 0; i < args.length; i++) {
	if (args[i] === '--inverted') opt.inverted = true;
	else if (args[i] === '--minwidth') opt.minwidth = parseFloat(args[++i]);
	else if (args[i] === '--synthetic') opt.synthetic = parseInt(args[++i], 10);
	else if (args[i] === '--folded') opt.folded = true;
	else opt.file = args[i];
}

function esc(s) {
	return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }[c]));
}

function node(name) {
	return { name: name, count: 0, kids: new Map() };
}

function addStack(root, frames, n) {
	let t = root;
	t.count += n;
	for (const f of frames) {
		if (!t.kids.has(f)) t.kids.set(f, node(f));
		t = t.kids.get(f);
		t.count += n;
	}
}

function readFolded(text, root) {
	for (const line of text.split('\n')) {
		const m = /^(.*) (\d+(?:\.\d+)?)$/.exec(line.trim());
		if (m) addStack(root, m[1].split(';'), parseFloat(m[2]));
	}
}

/* About n frames: a deterministic random tree, fan-out 1..8, depth <= 40. */
function synthetic(root, n) {
	let seed = 12345;
	const rnd = (k) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return (seed >>> 12) % k; };
	const queue = [[root, 0]];
	let made = 1;
	while (queue.length && made < n) {
		const [t, d] = queue.shift();
		const kids = d >= 40 ? 0 : 1 + rnd(d < 2 ? 4 : 8);
		for (let k = 0; k < kids && made < n; k++) {
			const c = node('fn_' + d + '_' + k + '_' + rnd(1000));
			t.kids.set(c.name, c);
			queue.push([c, d + 1]);
			made++;
		}
	}
	(function fill(t) {
		if (t.kids.size === 0) t.count = 1 + rnd(20);
		for (const k of t.kids.values()) { fill(k); t.count += k.count; }
		if (t.count === 0) t.count = 1;
	}(root));
}

const root = node('all');
if (opt.synthetic) synthetic(root, opt.synthetic);
else readFolded(fs.readFileSync(opt.file || 0, 'utf8'), root);

if (opt.folded) {
	const lines = [];
	(function walk(t, pre) {
		let self = t.count;
		for (const k of t.kids.values()) {
			self -= k.count;
			walk(k, pre.concat(k.name));
		}
		if (self > 0 && pre.length) lines.push(pre.join(';') + ' ' + self);
	}(root, []));
	process.stdout.write(lines.join('\n') + '\n');
	process.exit(0);
}

const W = 1200, xpad = 10, fh = 16, fs_ = 12, fw = 0.59;
const total = root.count;
let maxdepth = 0;
(function walk(t, d) { if (d > maxdepth) maxdepth = d; for (const k of t.kids.values()) walk(k, d + 1); }(root, 0));
const ypad1 = fs_ * 3, ypad2 = fs_ * 2 + 10;
const H = (maxdepth + 1) * fh + ypad1 + ypad2;
const wpt = (W - 2 * xpad) / total;
const out = [];

function colour(name) {
	let h = 0;
	for (const c of name) h = (h * 31 + c.codePointAt(0)) >>> 0;
	return 'rgb(' + (205 + h % 50) + ',' + (h >> 8) % 230 + ',' + (h >> 16) % 55 + ')';
}

function label(name, w) {
	const chars = Math.floor((w - 6) / (fs_ * fw));
	if (chars < 3) return '';
	const cps = Array.from(name);
	return cps.length <= chars ? name : cps.slice(0, chars - 2).join('') + '..';
}

function yOf(d) {
	return opt.inverted ? ypad1 + d * fh : H - ypad2 - (d + 1) * fh + 1;
}

function fmt(n) {
	return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function frame(t, d, start) {
	const x = xpad + start * wpt, w = t.count * wpt, y = yOf(d);
	const p = (100 * t.count / total).toFixed(2);
	out.push('<g><title>' + esc(t.name) + ' (' + fmt(t.count) + ' samples, ' + p + '%)</title>' +
		'<rect x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '" width="' + w.toFixed(1) +
		'" height="15.0" fill="' + colour(t.name) + '" rx="2" ry="2"/>' +
		'<text x="' + (x + 3).toFixed(2) + '" y="' + (y + 10.5).toFixed(2) + '">' + esc(label(t.name, w)) + '</text></g>');
	let s = start, pruned = 0, pc = 0, ps = -1;
	for (const k of [...t.kids.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
		if (k.count * wpt < opt.minwidth) {
			if (ps < 0) ps = s;
			pruned++; pc += k.count;
		} else {
			frame(k, d + 1, s);
		}
		s += k.count;
	}
	if (pruned) {
		const px = xpad + ps * wpt, py = yOf(d + 1), pw = Math.max(pc * wpt, 0.5);
		out.push('<g class="pruned"><title>' + pruned + ' frames pruned (' + fmt(pc) + ' samples, ' +
			(100 * pc / total).toFixed(2) + '%)</title><path d="M' + px.toFixed(1) + ',' + py.toFixed(1) +
			'h' + pw.toFixed(1) + 'v15h-' + pw.toFixed(1) + 'z" fill="rgb(160,160,160)"/></g>');
	}
}
frame(root, 0, 0);

/* the script's parts joined in name order, as the build joins them */
const jsDir = path.join(top, 'templates', 'js');
const js = fs.readdirSync(jsDir).filter((f) => f.endsWith('.js')).sort()
	.map((f) => fs.readFileSync(path.join(jsDir, f), 'utf8')).join('');
const css = fs.readFileSync(path.join(top, 'templates', 'flamegraph.css'), 'utf8');
/* as render/svg.c writes them: the code inert, run by templates/boot.js */
const boot = fs.readFileSync(path.join(top, 'templates', 'boot.js'), 'utf8');
process.stdout.write(
	'<?xml version="1.0" standalone="no"?>\n' +
	'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" ' +
	'width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H + '" id="uf" font-family="Verdana" font-size="12" ' +
	'data-uf-total="' + total + '" data-uf-countname="samples" data-uf-nametype="Function:" data-uf-fontsize="12" ' +
	'data-uf-fontwidth="0.59" data-uf-xpad="10" data-uf-width="1200" data-uf-frameheight="16" ' +
	'data-uf-inverted="' + (opt.inverted ? 1 : 0) + '" data-uf-diff="0" data-uf-searchcolor="rgb(230,0,230)">\n' +
	'<style type="text/css"><![CDATA[\n' + css + ']]></style>\n' +
	'<defs><linearGradient id="background" y1="0" y2="1" x1="0" x2="0"><stop stop-color="#eeeeee" offset="5%"/>' +
	'<stop stop-color="#eeeeb0" offset="95%"/></linearGradient></defs>\n' +
	'<rect class="background" x="0" y="0" width="' + W + '" height="' + H + '" fill="url(#background)"/>\n' +
	'<text id="title" x="600" y="24" font-size="17">Flame Graph</text>\n' +
	'<text id="details" x="10" y="' + (H - 17) + '"> </text>\n' +
	'<text id="unzoom" class="hide" x="10" y="24">Reset Zoom</text>\n' +
	'<text id="search" x="1090" y="24">Search</text>\n' +
	'<text id="ignorecase" x="1174" y="24">ic</text>\n' +
	'<text id="matched" x="1190" y="' + (H - 17) + '"> </text>\n' +
	'<g id="frames">\n' + out.join('\n') + '\n</g>\n' +
	'<script type="application/x-uniprof-flame" id="uf-code"><![CDATA[\n' + js + ']]></script>\n' +
	'<script type="text/ecmascript"><![CDATA[\n' + boot + ']]></script>\n</svg>\n');
