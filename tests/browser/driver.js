/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/browser/driver.js — one way to start a headless browser for the
 * browser tests: Debian's Chromium (CDP) or Firefox ESR (WebDriver BiDi),
 * both through npm's puppeteer-core, with the few page helpers the tests
 * share (keys with modifiers, prompt answers, history, sleeping).
 *
 * Trade-off: puppeteer-core, not playwright-core: playwright cannot drive
 * Debian's firefox-esr (it needs its own patched Firefox build), while
 * puppeteer speaks WebDriver BiDi to a stock Firefox.  No browser is
 * downloaded; the test runs the system's binaries.
 *
 * Invariants: a fresh profile per launch (puppeteer's temporary user data
 * directory, removed on close); the browser name is "chromium" or "firefox".
 */
'use strict';
const path = require('path');
const puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core'));

const BROWSERS = {
	chromium: () => ({
		browser: 'chrome',
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
			'--disable-component-update', '--disable-sync', '--no-first-run'],
	}),
	firefox: () => ({
		browser: 'firefox',
		executablePath: process.env.FIREFOX || '/usr/bin/firefox-esr',
		args: [],
	}),
};

/* Starts `name` headless; returns the puppeteer Browser. */
async function launch(name, viewport) {
	const o = BROWSERS[name];
	if (!o) throw new Error('unknown browser ' + name);
	return puppeteer.launch(Object.assign(o(), {
		headless: true,
		defaultViewport: viewport || { width: 1280, height: 600 },
	}));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* "Control+f", "F3", "Escape": modifiers held around the key. */
async function press(page, combo) {
	const keys = combo.split('+');
	const key = keys.pop();
	for (const m of keys) await page.keyboard.down(m);
	await page.keyboard.press(key);
	for (const m of keys.reverse()) await page.keyboard.up(m);
	await sleep(20);
}

/* The next window.prompt() answers `term`. */
function answerPrompt(page, term) {
	page.once('dialog', (d) => {
		d.accept(term).catch(() => {});
	});
}

/* Browser Back / Forward over same-document (pushState) entries. */
async function back(page) {
	await page.evaluate(() => history.back());
	await sleep(150);
}
async function forward(page) {
	await page.evaluate(() => history.forward());
	await sleep(150);
}

/* The page's query once the URL the last action made is in history:
 * the script hands it over a frame after the action (templates/js/84-url.js,
 * after two animation frames and a timer; this waits as long, then a timer
 * more). */
async function urlQuery(page) {
	return page.evaluate(() => new Promise((res) => {
		requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => setTimeout(() => res(location.search), 0), 0)));
	}));
}

/* PASS/FAIL lines for one test file: group(NAME, FN) runs FN and reports
 * it under "LABEL: [BROWSER: ]NAME"; fail(WHY) reports an error outside a
 * group; failed() counts the failures (the exit status). */
function reporter(label, browserName) {
	const prefix = label + ': ' + (browserName === 'chromium' ? '' : browserName + ': ');
	let failed = 0;
	const why = (e) => String(e && e.message ? e.message : e).split('\n')[0];
	return {
		async group(name, fn) {
			try {
				await fn();
				console.log('PASS: ' + prefix + name);
			} catch (e) {
				failed++;
				console.log('FAIL: ' + prefix + name + ': ' + why(e));
			}
		},
		fail(e) {
			failed++;
			console.log('FAIL: ' + prefix + why(e));
		},
		failed: () => failed,
	};
}

/* An assertion inside a group: throws WHY when COND is false. */
function expect(cond, why) {
	if (!cond) throw new Error(why);
}

/* In the page: window.ufShapes(sel), the zoomed view's frame shapes as a
 * test reads them: the elements of #uf-view matching `sel` (all its
 * children without one), then one stand-in per frame of each sliver path
 * (path.sliver: frames under a pixel wide, one path per fill, a subpath
 * "Mx yhwvhh-wz" each; templates/js/72-view.js).  A stand-in answers
 * getAttribute (x, y, width, height from its subpath, fill and class of
 * the path), classList.contains, querySelector('title') (the path's
 * tooltip, which the script rewrites for the sliver last hovered) and
 * dispatchEvent: the event goes to the path at the client point of the
 * subpath's centre, so the script's own hit test by coordinates picks the
 * frame; a misplaced subpath gets another frame's title, or none.
 * Browsers give a mouse event's client point in whole CSS pixels, so to
 * aim inside a 0.1-px frame the stand-in first scales the image 16 times
 * (the root's currentScale, which Firefox caps at 16: 0.1 px -> 1.6 px;
 * no layout of the frames changes, only the screen matrix), aims at the
 * first whole pixel right of the frame's left edge (inside it, off the
 * edge it shares with its neighbour) and the middle row, and restores
 * the scale once the caller's synchronous code is done (a microtask:
 * before puppeteer gets the result, so the next command sees the page at
 * its own scale). */
function pageShapes() {
	const SCALE = 16;
	let aimed = false;
	const aim = () => {
		if (aimed) return;
		const svg = document.documentElement, s0 = svg.currentScale;
		aimed = true;
		svg.currentScale = SCALE;
		queueMicrotask(() => {
			svg.currentScale = s0;
			aimed = false;
		});
	};
	const sliver = (p, m) => {
		const a = { x: m[1], y: m[2], width: m[3], height: m[4], fill: p.getAttribute('fill'), class: 'f sliver' };
		/* the client point of the subpath's centre at the current scale */
		const centre = () => {
			const pt = document.documentElement.createSVGPoint();
			pt.x = parseFloat(a.x) + parseFloat(a.width) / 2;
			pt.y = parseFloat(a.y) + parseFloat(a.height) / 2;
			return pt.matrixTransform(p.getScreenCTM());
		};
		/* a whole client pixel inside the subpath (at SCALE) */
		const target = () => {
			const pt = document.documentElement.createSVGPoint();
			pt.x = parseFloat(a.x);
			pt.y = parseFloat(a.y) + parseFloat(a.height) / 2;
			const c = pt.matrixTransform(p.getScreenCTM());
			return { x: Math.floor(c.x) + 1, y: Math.round(c.y) };
		};
		return {
			sliver: true, path: p, ufItem: -1, localName: 'rect', nextElementSibling: null,
			getAttribute: (k) => (a[k] === undefined ? null : a[k]),
			classList: { contains: (c) => c === 'f' || c === 'sliver' },
			querySelector: (q) => p.querySelector(q),
			centre: centre,
			dispatchEvent: (ev) => {
				aim();
				const c = target();
				return p.dispatchEvent(new MouseEvent(ev.type, { bubbles: true, cancelable: true, view: window,
					clientX: c.x, clientY: c.y, shiftKey: ev.shiftKey, relatedTarget: ev.relatedTarget }));
			},
		};
	};
	window.ufShapes = (sel) => {
		const v = document.getElementById('uf-view');
		if (!v) return [];
		const out = Array.from(sel ? v.querySelectorAll(sel) : v.children);
		for (const p of v.querySelectorAll('path.sliver')) {
			const re = /M([-\d.]+) ([-\d.]+)h([\d.]+)v([\d.]+)h-([\d.]+)z/g, d = p.getAttribute('d');
			let m, n = 0;
			while ((m = re.exec(d)) !== null) {
				out.push(sliver(p, m));
				n += m[0].length;
			}
			if (n !== d.length) throw new Error('sliver path not read whole: ' + d.slice(0, 80));
		}
		return out;
	};
}

/* Makes window.ufShapes available in `page`'s current document (call it
 * again after a navigation). */
async function viewShapes(page) {
	await page.evaluate(pageShapes);
}

/* Waits for the time view's heatmap, which the viewer installs after the
 * first paint once the embedded data is read.  Until 78b9baa it made its
 * room then, moving every frame down by its height, and a test pointing at
 * a frame of a recorded SVG before then hit the heatmap (CI, session 24:
 * test-lines' hover read a heatmap cell); the file keeps the room now
 * (test-heatmap checks nothing moves), and waiting still makes the test
 * point at a page whose viewer code has run, as a person's would have. */
async function heatmapReady(page) {
	await page.waitForFunction(() => document.getElementById('uf-heatmap') !== null, { timeout: 20000 });
}

module.exports = { launch, press, answerPrompt, back, forward, sleep, reporter, expect, viewShapes, urlQuery, heatmapReady };
