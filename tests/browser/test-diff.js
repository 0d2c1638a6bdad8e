#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-diff.js — a differential SVG in headless Chromium or
 * Firefox ESR (driver.js):
 * hovering a parent that grew only through its child shows its before ->
 * after figures, and "Show before" switches to the BEFORE layer (where a
 * frame that disappeared is drawn) and Back returns to AFTER.
 *
 * Usage: test-diff.js DIFF.svg [chromium|firefox]   (made by `uniprof-flame diff` from
 * tests/data/browser/diff-{before,after}.folded; expected figures are
 * that fixture's known counts)
 */
'use strict';
const { pathToFileURL } = require('url');
const drv = require('./driver.js');

const browserName = process.argv[3] || 'chromium';
const rep = drv.reporter('diff browser', browserName);
const group = rep.group, expect = drv.expect;

/* The <g> of the drawn frame whose title starts with `p` (as written). */
async function frameG(page, p) {
	const h = await page.evaluateHandle((q) => Array.from(document.getElementById('frames').children)
		.find((g) => g.querySelector('title').textContent.startsWith(q)) || null, p);
	expect(await h.evaluate((g) => g !== null), 'no frame ' + p);
	return h;
}

/* Names and titles of the frames in the layer the script drives. */
function layer(page) {
	return page.evaluate(() => Array.from(document.getElementById('frames').children)
		.filter((g) => !g.classList.contains('pruned'))
		.map((g) => g.querySelector('title').textContent));
}

const text = (page, sel) => page.evaluate((s) => document.querySelector(s).textContent, sel);

async function main() {
	const file = process.argv[2];
	let browser;
	try {
		browser = await drv.launch(browserName, { width: 1280, height: 400 });
		const page = await browser.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto(pathToFileURL(file).href);

		await group('hovering a grown parent shows before -> after', async () => {
			const g = await frameG(page, 'parse (');
			await (await g.$('rect')).hover();
			await drv.sleep(20);
			const details = await text(page, '#details');
			const title = await g.evaluate((e) => e.querySelector('title').textContent);
			expect(/parse \(72 samples/.test(details), 'details line: ' + details);
			expect(title.includes('before \u2192 after: total 30 \u2192 72'), 'tooltip: ' + title);
			expect(title.includes('self 0 \u2192 0'), 'self part: ' + title);
			const fill = await g.evaluate((e) => e.querySelector('rect').getAttribute('fill'));
			const m = /rgb\((\d+),(\d+),(\d+)\)/.exec(fill);
			expect(m && m[1] === '255' && Number(m[2]) < 60, 'a grown parent is red: ' + fill);
		});

		await group('Show before switches layers; Back returns', async () => {
			let titles = await layer(page);
			expect(!titles.some((t) => t.startsWith('gc (')), 'gc is not in AFTER');
			await page.click('#showbefore');
			await page.waitForFunction(() => /layer=before/.test(location.search) &&
				document.getElementById('frames-after') !== null, { timeout: 10000 });
			titles = await layer(page);
			expect(titles.some((t) => t.startsWith('gc (5 samples')), 'gc drawn in BEFORE: ' + titles.join(' | '));
			expect(titles.some((t) => t.startsWith('parse (30 samples')), 'BEFORE widths');
			expect((await text(page, '#showbefore')) === 'Show after', 'button says Show after');
			await page.evaluate(() => history.back());
			await page.waitForFunction(() => !/layer=before/.test(location.search) &&
				document.getElementById('frames-after') === null, { timeout: 10000 });
			titles = await layer(page);
			expect(titles.some((t) => t.startsWith('parse (72 samples')), 'AFTER again');
		});

		await group('search and zoom work in the diff', async () => {
			drv.answerPrompt(page, '^(lex|ast)$');
			await page.click('#search');
			await page.waitForFunction(() => /Matched/.test(document.getElementById('matched').textContent));
			const m = await text(page, '#matched');
			/* lex 12 + ast 60 = 72 of 110 */
			expect(m.includes('65.45% of total'), 'matched: ' + m);
			const g = await frameG(page, 'parse (');
			await (await g.$('rect')).click();
			await drv.sleep(30);
			await drv.viewShapes(page);
			const w = await page.evaluate(() => {
				const v = document.getElementById('uf-view');
				const r = v && window.ufShapes('rect.f').find((e) => !e.classList.contains('parent'));
				return r ? Number(r.getAttribute('width')) : NaN;
			});
			expect(Math.abs(w - 1180) < 1, 'zoomed width ' + w);
		});
		expect(errors.length === 0, errors.join('; '));
	} catch (e) {
		rep.fail(String(e));
	} finally {
		if (browser) await browser.close().catch(() => {});
	}
	process.exit(rep.failed() ? 1 : 0);
}

main();
