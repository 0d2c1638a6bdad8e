#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-lines.js — source positions of a recorded SVG in
 * headless Chromium or Firefox ESR (driver.js): the hot leaf's tooltip
 * names the line its samples ran on, hovering it puts that line in the
 * details bar, the caller's tooltip names its call site, and a frame the
 * script draws on zoom (drill-down from the embedded data) carries the
 * same tooltip as the file's own frame.
 *
 * Usage: test-lines.js REC.svg BROWSER LEAF LINE SHARE CALLER CALLLINE
 *   LEAF      the hot leaf's name (lines_hot); LINE its hottest position as
 *             the tooltip shows it (app-lines.c:17), read by the caller
 *             from the source's marker comment; SHARE the true share of
 *             LINE among LEAF's samples (+-6 points: a few hundred samples)
 *   CALLER    the leaf's caller (main), CALLLINE its call site
 */
'use strict';
const { pathToFileURL } = require('url');
const drv = require('./driver.js');

const [file, browserName, leaf, line, share, caller, callLine] = process.argv.slice(2);
const rep = drv.reporter('lines browser', browserName);
const group = rep.group, expect = drv.expect;

/* The widest drawn frame named `name`: its index among #frames' children,
 * its title text. */
function widest(page, name) {
	return page.evaluate((n) => {
		let best = null;
		Array.from(document.getElementById('frames').children).forEach((g, i) => {
			const t = g.querySelector('title'), r = g.querySelector('rect');
			if (!t || !r || !t.textContent.startsWith(n + ' (')) return;
			const w = parseFloat(r.getAttribute('width'));
			if (!best || w > best.w) best = { i: i, w: w, title: t.textContent };
		});
		return best;
	}, name);
}

/* "FILE:LINE (P%)" entries of a tooltip's source line. */
function sources(title) {
	const m = /\nsource: ([^\n]*)/.exec(title);
	if (!m) return [];
	return Array.from(m[1].matchAll(/([^ ,][^,]*?) \((\d+)%\)/g), (x) => ({ pos: x[1], pct: Number(x[2]) }));
}

const details = (page) => page.evaluate(() => document.getElementById('details').textContent);

async function main() {
	let browser;
	try {
		browser = await drv.launch(browserName, { width: 1280, height: 500 });
		const page = await browser.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto(pathToFileURL(file).href);
		await drv.heatmapReady(page); /* a recording has times: the viewer's code has run once it is in */
		const hot = await widest(page, leaf), top = await widest(page, caller);

		await group('the hot leaf\'s tooltip names its hottest line', async () => {
			expect(hot, 'no frame ' + leaf);
			const s = sources(hot.title);
			expect(s.length >= 1, 'no source line in ' + JSON.stringify(hot.title));
			expect(s[0].pos === line, 'hottest ' + s[0].pos + ', want ' + line + ' (' + JSON.stringify(hot.title) + ')');
			expect(Math.abs(s[0].pct - Number(share)) <= 6, line + ' at ' + s[0].pct + '%, truth ' + share + '% +-6');
		});

		await group('hovering the hot leaf shows its line in the details bar', async () => {
			const r = await page.evaluateHandle((i) => document.getElementById('frames').children[i].querySelector('rect'), hot.i);
			await r.hover();
			await drv.sleep(30);
			const d = await details(page);
			const first = hot.title.split('\n')[0];
			expect(d.startsWith('Function: ' + first + ' \u00b7 ' + line + ' ('), 'details ' + JSON.stringify(d));
			await page.mouse.move(1, 1);
		});

		await group('the caller\'s tooltip names its call site', async () => {
			expect(top, 'no frame ' + caller);
			const s = sources(top.title);
			expect(s.length >= 1 && s[0].pos === callLine, 'call site ' + JSON.stringify(top.title) + ', want ' + callLine);
		});

		await group('a drill-down frame has the file\'s tooltip (library and source lines)', async () => {
			const r = await page.evaluateHandle((i) => document.getElementById('frames').children[i].querySelector('rect'), top.i);
			await r.click();
			await page.waitForFunction(() => {
				const v = document.getElementById('uf-view');
				return v && !v.hasAttribute('data-pending');
			});
			const el = await page.evaluateHandle((n) => Array.from(document.getElementById('uf-view').querySelectorAll('rect.f'))
				.reduce((best, e) => {
					const w = parseFloat(e.getAttribute('width'));
					const lab = e.nextElementSibling && e.nextElementSibling.localName === 'text' ? e.nextElementSibling.textContent : '';
					return lab === n && (!best || w > parseFloat(best.getAttribute('width'))) ? e : best;
				}, null), leaf);
			expect(await el.evaluate((e) => e !== null), 'no drawn ' + leaf + ' in the zoomed view');
			await el.hover();
			await drv.sleep(30);
			const t = await el.evaluate((e) => (e.querySelector('title') || { textContent: '' }).textContent);
			/* the same node: same count and share of the file's total */
			expect(t === hot.title, 'drill-down title ' + JSON.stringify(t) + ' != file\'s ' + JSON.stringify(hot.title));
			expect((await details(page)).includes(' \u00b7 ' + line + ' ('), 'details in the view');
		});
		expect(errors.length === 0, 'page errors: ' + errors.join('; '));
	} catch (e) {
		rep.fail('run: ' + (e && e.message ? e.message : e));
	} finally {
		if (browser) await browser.close();
	}
	process.exit(rep.failed() ? 1 : 0);
}

main();
