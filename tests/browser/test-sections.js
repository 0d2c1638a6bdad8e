#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-sections.js — the script reads SVGs whose embedded
 * block differs only in its sections after "end" (block-edit.py: unknown
 * sections added, the untagged "loc" of older writers) exactly as the
 * file the renderer wrote: after a drill-down to call path 1 (?n=1, drawn
 * from the block), every drawn frame (label, x, width) and the tooltips of
 * the widest frames (counts, shares, library and source lines, read from
 * the "pos"/"loc" section) are the same in every file.
 *
 * Usage: test-sections.js BROWSER REF.svg OTHER.svg...
 */
'use strict';
const { pathToFileURL } = require('url');
const path = require('path');
const drv = require('./driver.js');

const [browserName, ref, ...others] = process.argv.slice(2);
const rep = drv.reporter('sections browser', browserName);
const group = rep.group, expect = drv.expect;

/* What the drill-down to call path 1 shows: frames, and the tooltips of
 * the widest ones (titles are made on hover). */
async function view(browser, file) {
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await page.goto(pathToFileURL(file).href + '?n=1');
	await page.waitForFunction(() => {
		const v = document.getElementById('uf-view');
		return v && !v.hasAttribute('data-pending');
	}, { timeout: 20000 });
	await drv.viewShapes(page);
	const frames = await page.evaluate(() => window.ufShapes('rect.f').map(   /* slivers too (driver.js) */
		(e) => [e.nextElementSibling && e.nextElementSibling.localName === 'text' ? e.nextElementSibling.textContent : '',
			e.getAttribute('x'), e.getAttribute('width'), e.getAttribute('fill')].join('|')));
	const widest = await page.evaluate(() => Array.from(document.getElementById('uf-view').querySelectorAll('rect.f'), (e, i) =>
		[parseFloat(e.getAttribute('width')), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 6).map((p) => p[1]));
	const titles = [];
	for (const i of widest) {
		const el = await page.evaluateHandle((k) => document.getElementById('uf-view').querySelectorAll('rect.f')[k], i);
		await el.hover();
		await drv.sleep(20);
		titles.push(await el.evaluate((e) => (e.querySelector('title') || { textContent: '' }).textContent));
	}
	await page.close();
	return { frames: frames, titles: titles, errors: errors };
}

async function main() {
	let browser;
	try {
		browser = await drv.launch(browserName, { width: 1280, height: 600 });
		const want = await view(browser, ref);
		await group('the reference file draws a drill-down with source lines', async () => {
			expect(want.frames.length >= 3, 'only ' + want.frames.length + ' frames');
			expect(want.titles.some((t) => /\nsource: /.test(t)), 'no source line in ' + JSON.stringify(want.titles));
			expect(want.errors.length === 0, 'page errors: ' + want.errors.join('; '));
		});
		for (const f of others) {
			await group(path.basename(f) + ' reads as ' + path.basename(ref), async () => {
				const got = await view(browser, f);
				expect(got.errors.length === 0, 'page errors: ' + got.errors.join('; '));
				expect(got.frames.length === want.frames.length, got.frames.length + ' frames, want ' + want.frames.length);
				const d = got.frames.findIndex((x, i) => x !== want.frames[i]);
				expect(d < 0, 'frame ' + d + ': ' + got.frames[d] + ' != ' + want.frames[d]);
				const t = got.titles.findIndex((x, i) => x !== want.titles[i]);
				expect(t < 0, 'tooltip ' + JSON.stringify(got.titles[t]) + ' != ' + JSON.stringify(want.titles[t]));
			});
		}
	} catch (e) {
		rep.fail('run: ' + (e && e.message ? e.message : e));
	} finally {
		if (browser) await browser.close();
	}
	process.exit(rep.failed() ? 1 : 0);
}

main();
