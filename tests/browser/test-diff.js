#!/usr/bin/env node
/*
 * tests/browser/test-diff.js — a differential SVG in headless Chromium:
 * hovering a parent that grew only through its child shows its before ->
 * after figures, and "Show before" switches to the BEFORE layer (where a
 * frame that disappeared is drawn) and Back returns to AFTER.
 *
 * Usage: test-diff.js DIFF.svg   (made by `uniprof-flame diff` from
 * tests/data/browser/diff-{before,after}.folded; expected figures are
 * that fixture's known counts)
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const { chromium } = require('playwright-core');

let failed = 0;
async function group(name, fn) {
	try {
		await fn();
		console.log('PASS: diff browser: ' + name);
	} catch (e) {
		failed++;
		console.log('FAIL: diff browser: ' + name + ': ' + String(e && e.message ? e.message : e).split('\n')[0]);
	}
}
function expect(cond, why) {
	if (!cond) throw new Error(why);
}

/* The rect of the frame whose title starts with `prefix`. */
async function frameRect(page, prefix) {
	const i = await page.evaluate((p) => Array.from(document.getElementById('frames').children)
		.findIndex((g) => g.querySelector('title').textContent.startsWith(p)), prefix);
	expect(i >= 0, 'no frame ' + prefix);
	return page.locator('#frames > g').nth(i);
}

/* Names and titles of the frames in the layer the script drives. */
function layer(page) {
	return page.evaluate(() => Array.from(document.getElementById('frames').children)
		.filter((g) => !g.classList.contains('pruned'))
		.map((g) => g.querySelector('title').textContent));
}

async function main() {
	const file = process.argv[2];
	const ud = fs.mkdtempSync(path.join(os.tmpdir(), 'uf-chromium-'));
	let ctx;
	try {
		ctx = await chromium.launchPersistentContext(ud, {
			executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
			headless: true,
			viewport: { width: 1280, height: 400 },
			args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
				'--disable-component-update', '--disable-sync', '--no-first-run'],
		});
		const page = await ctx.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto(pathToFileURL(file).href);

		await group('hovering a grown parent shows before -> after', async () => {
			const g = await frameRect(page, 'parse (');
			await g.locator('rect').hover();
			const details = await page.textContent('#details');
			const title = await g.locator('title').textContent();
			expect(/parse \(72 samples/.test(details), 'details line: ' + details);
			expect(title.includes('before \u2192 after: total 30 \u2192 72'), 'tooltip: ' + title);
			expect(title.includes('self 0 \u2192 0'), 'self part: ' + title);
			const fill = await g.locator('rect').getAttribute('fill');
			const m = /rgb\((\d+),(\d+),(\d+)\)/.exec(fill);
			expect(m && m[1] === '255' && Number(m[2]) < 60, 'a grown parent is red: ' + fill);
		});

		await group('Show before switches layers; Back returns', async () => {
			let titles = await layer(page);
			expect(!titles.some((t) => t.startsWith('gc (')), 'gc is not in AFTER');
			await page.click('#showbefore');
			await page.waitForURL(/layer=before/);
			titles = await layer(page);
			expect(titles.some((t) => t.startsWith('gc (5 samples')), 'gc drawn in BEFORE: ' + titles.join(' | '));
			expect(titles.some((t) => t.startsWith('parse (30 samples')), 'BEFORE widths');
			expect((await page.textContent('#showbefore')) === 'Show after', 'button says Show after');
			await page.goBack();
			await page.waitForFunction(() => !/layer=before/.test(location.search));
			titles = await layer(page);
			expect(titles.some((t) => t.startsWith('parse (72 samples')), 'AFTER again');
		});

		await group('search and zoom work in the diff', async () => {
			page.once('dialog', (d) => d.accept('^(lex|ast)$'));
			await page.click('#search');
			await page.waitForFunction(() => /Matched/.test(document.getElementById('matched').textContent));
			const m = await page.textContent('#matched');
			/* lex 12 + ast 60 = 72 of 110 */
			expect(m.includes('65.45% of total'), 'matched: ' + m);
			const g = await frameRect(page, 'parse (');
			await g.locator('rect').click();
			const w = Number(await g.locator('rect').getAttribute('width'));
			expect(Math.abs(w - 1180) < 1, 'zoomed width ' + w);
		});
		expect(errors.length === 0, errors.join('; '));
	} catch (e) {
		failed++;
		console.log('FAIL: diff browser: ' + String(e).split('\n')[0]);
	} finally {
		if (ctx) await ctx.close();
		fs.rmSync(ud, { recursive: true, force: true });
	}
	process.exit(failed ? 1 : 0);
}

main();
