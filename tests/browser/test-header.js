#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-header.js — the header and footer texts of SVGs of
 * ours, as the browser lays them out (issue 31 items 1 and 2): no two
 * overlap and each lies inside the canvas.  Measured with getBBox() in the
 * SVG's own units, after a search (so "Matched: ..." has its longest
 * text) and with "Reset Zoom" shown (as after a click), so every text the
 * header can hold at once is there.
 *
 * Usage: test-header.js BROWSER SVG...   (t-header.sh makes them: three
 * widths, with and without libraries, differential and plain)
 *
 * Trade-off: boxes, not pixels: a glyph's box is its advance and the
 * font's ascent/descent, a little larger than the ink, so this errs on the
 * side of reporting an overlap.
 */
'use strict';
const path = require('path');
const { pathToFileURL } = require('url');
const drv = require('./driver.js');

const browserName = process.argv[2];
const files = process.argv.slice(3);
const rep = drv.reporter('header', browserName);
const expect = drv.expect;

/* Every header/footer text (and legend swatch) present: [name, box]. */
function boxes() {
	const svg = document.documentElement;
	const vb = svg.viewBox.baseVal;
	const out = [];
	const add = (name, e) => {
		if (!e || e.classList.contains('hide')) return;
		const b = e.getBBox();
		if (b.width > 0) out.push([name, { x: b.x, y: b.y, w: b.width, h: b.height }]);
	};
	for (const id of ['title', 'subtitle', 'unzoom', 'libbutton', 'search', 'ignorecase', 'showbefore',
		'matched', 'details']) add(id, document.getElementById(id));
	const lg = document.getElementById('legend');
	if (lg && lg.localName === 'text') add('lib legend', lg);
	else if (lg) Array.from(lg.children).forEach((c, i) => add('legend[' + i + '] ' + (c.textContent || c.localName), c));
	for (const t of document.querySelectorAll('text#legend')) if (t !== lg) add('lib legend', t);
	return { W: svg.width.baseVal.value, vb: { x: vb.x, y: vb.y, w: vb.width, h: vb.height }, out };
}

const overlap = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 &&
	a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;

async function check(browser, file) {
	const page = await browser.newPage();
	const W = Number((require('fs').readFileSync(file, 'latin1').match(/<svg[^>]* width="([0-9.]+)"/) || [])[1]);
	await page.setViewport({ width: Math.ceil(W), height: 700 });
	await page.goto(pathToFileURL(file).href + '?s=' + encodeURIComponent('.'));
	await page.waitForFunction(() => {
		const m = document.getElementById('matched');
		return m && m.textContent.startsWith('Matched');
	}, { timeout: 20000 });
	await page.evaluate(() => {
		const u = document.getElementById('unzoom');
		if (u) u.classList.remove('hide');
	});
	const r = await page.evaluate(boxes);
	await page.close();
	const probs = [];
	const names = r.out.map((o) => o[0]);
	for (const [n, b] of r.out) {
		if (b.x < -0.5 || b.x + b.w > r.W + 0.5) probs.push(n + ' outside the canvas (x ' + b.x.toFixed(1) +
			'..' + (b.x + b.w).toFixed(1) + ' of ' + r.W + ')');
		if (b.y < r.vb.y - 0.5 || b.y + b.h > r.vb.y + r.vb.h + 0.5) probs.push(n + ' above or below the canvas');
	}
	for (let i = 0; i < r.out.length; i++)
		for (let j = i + 1; j < r.out.length; j++)
			if (overlap(r.out[i][1], r.out[j][1])) probs.push(r.out[i][0] + ' overlaps ' + r.out[j][0]);
	for (const want of ['title', 'search', 'matched', 'unzoom'])
		if (!names.includes(want)) probs.push('no ' + want);
	expect(probs.length === 0, probs.slice(0, 4).join('; '));
	return names;
}

async function main() {
	let browser;
	try {
		browser = await drv.launch(browserName);
		for (const f of files) {
			const label = path.basename(f, '.svg');
			await rep.group(label + ': header texts apart and inside the canvas', async () => {
				const names = await check(browser, f);
				if (/libs/.test(label)) expect(names.includes('libbutton'), 'no Libraries button');
				if (/diff/.test(label)) expect(names.some((n) => n.startsWith('legend')), 'no diff legend');
			});
		}
	} catch (e) {
		rep.fail(e);
	} finally {
		if (browser) await browser.close();
	}
	process.exit(rep.failed() ? 1 : 0);
}
main();
