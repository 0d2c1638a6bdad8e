#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * bench/browser/measure.js — how long an SVG flame graph takes to open and
 * to answer a click, in a fresh headless browser per run.
 *
 * Usage: measure.js --browser chrome|firefox --runs N --out FILE.json
 *        [--ready-only] INPUT|TOOL=FILE.svg [INPUT|TOOL=FILE.svg ...]
 * (--ready-only: ready alone, no actions; a run then takes a third of the
 * time, for the many runs a few-millisecond difference in ready needs)
 * (the table puts each INPUT's TOOLs together and gives the ratio to the
 * TOOL named flamegraph.pl; a label without "|TOOL" is refused, exit 2)
 *
 * Per run and per file (interleaved: run 1 of every file, then run 2, ...),
 * a new browser process opens the file from disk (file://) and records:
 *   ready   navigation start -> the first frame drawn after the load event
 *           (every script of the file has run by then)
 *   hover   mouseover on a frame -> the next drawn frame
 *   search  click on "Search" (window.prompt answers the term) -> next frame
 *   clear   click on "Search" again (the prompt answers "", flamegraph.pl
 *           clears without asking) -> next frame
 *   zoom    click on a frame -> next frame
 *   zoomall click on a frame -> the frame after the view is complete (our
 *           drill-down draws sub-pixel frames and rows the canvas grows
 *           for in slices after the first frame; flamegraph.pl: = zoom)
 *   reset   click on "Reset Zoom" -> next frame
 * "Next drawn frame" = a requestAnimationFrame callback registered after the
 * action, then one message-channel task: that task runs once the frame's
 * style, layout and paint are done.  Events are dispatched inside the page
 * (no automation round trip inside the timed span).  Between actions the
 * page idles 400 ms; before the first action it idles 1 s (a person needs
 * that long to aim, and deferred work of a script gets the same chance).
 *
 * The frame acted on is the same in every tool's file of one input: the
 * frame whose share is nearest 3.7 % (the zoom example), found from
 * the tooltips; the search term is its name (regex-escaped).
 *
 * Trade-off: timing from inside the page misses input-event dispatch of the
 * real OS pointer (the same for every tool); it keeps the figure free of
 * the driver's latency, which is larger than what is measured.
 *
 * Invariants: never throws past main(); a failed run is recorded as an
 * error string, the others still count.  Output is JSON: {label: {metric:
 * [values ms]}, ...} plus "errors".
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const puppeteer = require(path.join(__dirname, '..', '..', 'tests', 'browser', 'node_modules', 'puppeteer-core'));

const argv = process.argv.slice(2);
const opt = { browser: 'chrome', runs: 3, out: null, readyOnly: false, files: [] };
for (let i = 0; i < argv.length; i++) {
	if (argv[i] === '--browser') opt.browser = argv[++i];
	else if (argv[i] === '--runs') opt.runs = parseInt(argv[++i], 10);
	else if (argv[i] === '--out') opt.out = argv[++i];
	else if (argv[i] === '--ready-only') opt.readyOnly = true;
	else {
		const eq = argv[i].indexOf('=');
		opt.files.push({ label: argv[i].slice(0, eq), file: argv[i].slice(eq + 1), arg: argv[i] });
	}
}
/* The table groups by INPUT and names each TOOL: say which argument lacks
 * them rather than fail inside the table after minutes of runs. */
for (const f of opt.files) {
	const bar = f.label.indexOf('|');
	if (bar <= 0 || bar === f.label.length - 1 || !f.file) {
		console.error('measure.js: "' + f.arg + '": want INPUT|TOOL=FILE.svg (e.g. "ex|ours=a.svg")');
		process.exit(2);
	}
}

const METRICS = ['ready', 'hover', 'search', 'clear', 'zoom', 'zoomall', 'reset', 'sandwich',
	'sandwichmax'];

/* Runs in the page before its own scripts: the ready mark. */
function preload() {
	window.__ufb = { ready: -1 };
	window.addEventListener('load', () => {
		requestAnimationFrame(() => {
			const ch = new MessageChannel();
			ch.port1.onmessage = () => { window.__ufb.ready = performance.now(); };
			ch.port2.postMessage(0);
		});
	}, { once: true });
}

/* Runs in the page: the actions, each timed to the next drawn frame. */
async function actions() {
	const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
	function nextFrame(t0) {
		return new Promise((res) => {
			requestAnimationFrame(() => {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => res(performance.now() - t0);
				ch.port2.postMessage(0);
			});
		});
	}
	function timed(fn) {
		const t0 = performance.now();
		fn();
		return nextFrame(t0);
	}
	function fire(el, type) {
		el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window,
			clientX: 1, clientY: 1 }));
	}
	function fireShift(el) {
		el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window,
			clientX: 1, clientY: 1, shiftKey: true }));
	}
	const frames = document.getElementById('frames');
	let best = null, bestd = Infinity;
	/* the function drawn in the most places: the sandwich's worst case */
	const seen = new Map();
	let most = null, mostn = 0;
	for (let g = frames.firstElementChild; g; g = g.nextElementSibling) {
		if (g.classList.contains('pruned')) continue;
		const t = g.querySelector('title');
		const r = g.querySelector('rect');
		if (!t || !r) continue;
		const first = t.textContent.split('\n')[0];
		const fname = first.slice(0, first.lastIndexOf(' ('));
		const k = (seen.get(fname) || 0) + 1;
		seen.set(fname, k);
		if (k > mostn) {
			mostn = k;
			most = r;
		}
		const m = / \(([\d,.]+) [^,]*, ([\d.]+)%/.exec(first.slice(first.lastIndexOf(' (')));
		if (!m) continue;
		const d = Math.abs(parseFloat(m[2]) - 3.7);
		if (d < bestd && parseFloat(m[2]) < 50) {
			bestd = d;
			best = { rect: r, name: first.slice(0, first.lastIndexOf(' (')) };
		}
	}
	if (!best) throw new Error('no frame to act on');
	const term = best.name.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
	const out = {};
	await sleep(1000);
	out.hover = await timed(() => fire(best.rect, 'mouseover'));
	await sleep(400);
	fire(best.rect, 'mouseout');
	window.prompt = () => term;
	out.search = await timed(() => fire(document.getElementById('search'), 'click'));
	await sleep(400);
	window.prompt = () => '';
	out.clear = await timed(() => fire(document.getElementById('search'), 'click'));
	await sleep(400);
	const tz = performance.now();
	fire(best.rect, 'click');
	out.zoom = await nextFrame(tz);
	/* our drill-down adds sub-pixel frames and deeper rows after that
	 * frame (#uf-view[data-pending]): the time until it is complete */
	for (;;) {
		const v = document.getElementById('uf-view');
		if (!v || !v.hasAttribute('data-pending')) break;
		await sleep(1);
	}
	out.zoomall = await nextFrame(tz);
	await sleep(400);
	out.reset = await timed(() => fire(document.getElementById('unzoom'), 'click'));
	/* the sandwich (issue 33): Shift-click to its first drawn frame, for
	 * the 3.7 % frame and for the function drawn in the most places */
	await sleep(400);
	out.sandwich = await timed(() => fireShift(best.rect));
	await sleep(400);
	fire(document.getElementById('unzoom'), 'click');
	await sleep(400);
	out.sandwichmax = most ? await timed(() => fireShift(most)) : null;
	return out;
}

async function once(file) {
	const firefox = opt.browser === 'firefox';
	const browser = await puppeteer.launch({
		browser: firefox ? 'firefox' : 'chrome',
		executablePath: firefox ? (process.env.FIREFOX || '/usr/bin/firefox-esr')
			: (process.env.CHROMIUM || '/usr/bin/chromium'),
		headless: true,
		defaultViewport: { width: 1280, height: 900 },
		args: firefox ? [] : ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
			'--disable-component-update', '--disable-sync', '--no-first-run'],
	});
	try {
		const page = await browser.newPage();
		await page.evaluateOnNewDocument(preload);
		await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 120000 });
		await page.waitForFunction(() => window.__ufb && window.__ufb.ready >= 0, { timeout: 60000 });
		const ready = await page.evaluate(() => window.__ufb.ready);
		const a = opt.readyOnly ? {} : await page.evaluate(actions);
		return Object.assign({ ready: ready }, a);
	} finally {
		await browser.close();
	}
}

async function main() {
	const res = { errors: [] };
	for (const f of opt.files) {
		res[f.label] = {};
		for (const m of METRICS) res[f.label][m] = [];
	}
	for (let r = 0; r < opt.runs; r++) {
		for (const f of opt.files) {
			try {
				const v = await once(f.file);
				for (const m of METRICS) res[f.label][m].push(v[m]);
			} catch (e) {
				res.errors.push(f.label + ': ' + String(e && e.message ? e.message : e).split('\n')[0]);
			}
		}
	}
	if (opt.out) fs.writeFileSync(opt.out, JSON.stringify(res));
	report(res);
}

function median(v) {
	if (!v.length) return NaN;
	const s = v.slice().sort((a, b) => a - b), h = s.length >> 1;
	return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

function size(file) {
	const b = fs.statSync(file).size;
	return b < 1e6 ? (b / 1e3).toFixed(0) + ' KB' : (b / 1e6).toFixed(2) + ' MB';
}

/* One table: per input, each tool's medians and, for ours, the ratio to
 * flamegraph.pl's (below 1 = faster). Labels are "INPUT|TOOL". */
function report(res) {
	const pad = (s, n) => String(s).padStart(n);
	const fmt = (v) => !isFinite(v) ? '-' : v >= 100 ? v.toFixed(0) : v.toFixed(1);
	console.log(opt.browser + ', median of ' + opt.runs + ' fresh runs, ms (ratio = ours / flamegraph.pl)');
	console.log(['input', 'tool'].map((s, i) => s.padEnd(i ? 14 : 10)).join('') + pad('file', 9) +
		METRICS.map((m) => pad(m, 13)).join(''));
	const by = {};
	for (const f of opt.files) {
		const [input, tool] = f.label.split('|');
		(by[input] = by[input] || []).push({ tool: tool, file: f.file, m: res[f.label] });
	}
	for (const input of Object.keys(by)) {
		const ref = by[input].find((t) => t.tool === 'flamegraph.pl');
		for (const t of by[input]) {
			let line = input.padEnd(10) + t.tool.padEnd(14) + pad(size(t.file), 9);
			for (const m of METRICS) {
				const v = median(t.m[m]);
				let cell = fmt(v);
				if (ref && ref !== t) cell += ' (' + (v / median(ref.m[m])).toFixed(2) + ')';
				line += pad(cell, 13);
			}
			console.log(line);
		}
	}
	for (const e of res.errors) console.log('error: ' + e);
}

main().catch((e) => {
	console.error('measure.js: ' + e);
	process.exit(0);
});
