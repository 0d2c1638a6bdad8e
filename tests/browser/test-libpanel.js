#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-libpanel.js — the library panel of a recorded SVG in
 * headless Chromium or Firefox ESR (driver.js): hidden until the
 * "Libraries" button opens it; drawn over the frames; its rows are record's
 * per-library table (library, self and total share, in that order); a click
 * on it or Escape closes it without touching the zoom; the frames under it
 * take clicks again once it is closed.
 *
 * Usage: test-libpanel.js REC.svg BROWSER TABLE
 *   TABLE  record's table from its stderr: "lib self total" rows joined
 *          with ",", shares without the % sign (libukalloc 41.5 41.5,...)
 */
'use strict';
const { pathToFileURL } = require('url');
const drv = require('./driver.js');

const [file, browserName, table] = process.argv.slice(2);
const rep = drv.reporter('libpanel browser', browserName);
const group = rep.group, expect = drv.expect;

const shown = (page) => page.evaluate(() => getComputedStyle(document.getElementById('libpanel')).display !== 'none');
const zoomed = (page) => page.evaluate(() => !document.getElementById('unzoom').classList.contains('hide'));

/* The panel's rows as "lib self total", read from its text elements. */
function rows(page) {
	return page.evaluate(() => {
		const t = Array.from(document.querySelectorAll('#libpanel text'));
		const out = [];
		for (let i = 3; i + 3 < t.length; i += 3) /* after the header: name, self, total; a note last */
			out.push([t[i].textContent, t[i + 1].textContent.replace('%', ''),
				t[i + 2].textContent.replace('%', '')].join(' '));
		return out.join(',');
	});
}

/* A point inside the panel's box over a drawn frame other than the root
 * (the centre of the first such frame's overlap with the box), in page
 * pixels. */
function centre(page) {
	return page.evaluate(() => {
		const p = document.querySelector('#libpanel > rect').getBoundingClientRect();
		const all = Array.from(document.querySelectorAll('#frames > g > rect'), (r) => r.getBoundingClientRect());
		const widest = Math.max(...all.map((f) => f.width));
		for (const f of all) {
			if (f.width > widest * 0.99) continue; /* the root: a click on it zooms nothing */
			const x0 = Math.max(p.left, f.left), x1 = Math.min(p.right, f.right);
			const y0 = Math.max(p.top, f.top), y1 = Math.min(p.bottom, f.bottom);
			if (x1 - x0 >= 4 && y1 - y0 >= 4) return { x: (x0 + x1) / 2, y: (y0 + y1) / 2 };
		}
		return { x: p.left + p.width / 2, y: p.top + p.height / 2 };
	});
}

async function main() {
	let browser;
	try {
		browser = await drv.launch(browserName, { width: 1280, height: 600 });
		const page = await browser.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto(pathToFileURL(file).href);
		await drv.heatmapReady(page); /* a recording has times: the viewer's code has run once it is in */

		await group('the panel is hidden until the button opens it', async () => {
			expect(!(await shown(page)), 'the panel shows before any click');
			await page.click('#libbutton');
			expect(await shown(page), 'the panel stays hidden after a click on "Libraries"');
		});

		await group('its rows are record\'s per-library table, in its order', async () => {
			const got = await rows(page);
			expect(got === table, 'panel ' + JSON.stringify(got) + ', record printed ' + JSON.stringify(table));
		});

		await group('it is drawn over the frames', async () => {
			const c = await centre(page);
			const top = await page.evaluate((p) => {
				const e = document.elementFromPoint(p.x, p.y);
				return e && e.closest('#libpanel') !== null;
			}, c);
			const under = await page.evaluate((p) => {
				const panel = document.getElementById('libpanel');
				panel.style.display = 'none';
				const e = document.elementFromPoint(p.x, p.y);
				panel.style.display = '';
				return e ? e.closest('#frames') !== null : false;
			}, c);
			expect(top, 'the point at the panel\'s centre is not the panel');
			expect(under, 'no frame under the panel (the test would prove nothing)');
		});

		await group('a click on it closes it and zooms nothing', async () => {
			const c = await centre(page);
			await page.mouse.click(c.x, c.y);
			await drv.sleep(50);
			expect(!(await shown(page)), 'still shown after a click on it');
			expect(!(await zoomed(page)), 'the click went through to a frame (zoomed)');
		});

		await group('Escape closes it, and the frames take clicks again', async () => {
			await page.click('#libbutton');
			expect(await shown(page), 'not reopened');
			const c = await centre(page);
			await page.keyboard.press('Escape');
			await drv.sleep(50);
			expect(!(await shown(page)), 'still shown after Escape');
			await page.mouse.click(c.x, c.y);
			await page.waitForFunction(() => !document.getElementById('unzoom').classList.contains('hide'), { timeout: 5000 });
			expect(await zoomed(page), 'a click where the panel was did not zoom');
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
