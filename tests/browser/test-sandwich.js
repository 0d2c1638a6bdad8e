#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-sandwich.js — the sandwich view in headless Chromium
 * or Firefox ESR (driver.js), against the command line:
 *
 *   - SVG?f=NAME draws NAME's callers above it and its callees below it;
 *     every frame of the callers half (name, count, x, width, depth from
 *     NAME's row) equals a frame of `render --callers NAME SVG`, and the
 *     callees half `render --callees NAME SVG`, frame for frame (both are
 *     laid out at NAME's width, so x and width compare to the decimal);
 *     NAME's own count is what the caller says (samples with NAME on the
 *     stack, each once however deep it recurses);
 *   - search inside it: Matched's share of the view is the share of
 *     NAME's samples whose stack has a matching frame (the caller gives the
 *     truth, from the folded text); hovering Matched lists the hottest
 *     matched callees first (ditto); an invalid regex says so;
 *   - a click on a callee zooms inside that half (the frame at full
 *     width), Reset Zoom returns to the flame graph and the URL loses f=;
 *     Shift-click on a frame of the file opens its function's sandwich;
 *   - the time from each action to the next drawn frame (a spot check,
 *     printed, asserted only under 1 s: the machine is shared).
 *
 * Usage: test-sandwich.js BROWSER UF WORKDIR CASES.json
 *   CASES.json: [{ svg, name, count, search, matchedView, topFirst, topCount }]
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { pathToFileURL } = require('url');
const drv = require('./driver.js');

const [browserName, uf, work, casesFile] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'));
const rep = drv.reporter('sandwich browser', browserName);
const group = rep.group, expect = drv.expect;

const unxml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
	.replace(/&apos;/g, "'").replace(/&#(\d+);/g, (m, d) => String.fromCharCode(Number(d))).replace(/&amp;/g, '&');

/* "NAME (N samples" of a title: [name, count] */
function head(title) {
	const m = /^([\s\S]*?) \(([\d,]+) samples/.exec(title);
	return m ? [m[1], m[2].replace(/,/g, '')] : null;
}

/* The frames of `render --callers|--callees NAME svg`: "depth|name|count|x|w",
 * depth 1 for NAME (the root "all" left out). */
function reference(svg, half, name, out) {
	execFileSync(uf, ['render', '--' + half, name, svg, '-o', out], { stdio: ['ignore', 'ignore', 'pipe'] });
	const s = fs.readFileSync(out, 'utf8');
	const from = s.indexOf('<g id="frames">');
	const ends = ['<g id="frames-before"', '<metadata', '<script'].map((x) => s.indexOf(x, from)).filter((i) => i > 0);
	const frames = s.slice(from, Math.min(...ends, s.length));
	const re = /<title>([^<]*)<\/title><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"/g;
	const all = [];
	let m, y0 = null;
	while ((m = re.exec(frames)) !== null) {
		const h = head(unxml(m[1]));
		if (!h) continue;
		if (h[0] === 'all' && y0 === null) { y0 = parseFloat(m[3]); continue; }
		all.push({ name: h[0], count: h[1], x: m[2], w: m[4], y: parseFloat(m[3]) });
	}
	return all.map((f) => Math.round((y0 - f.y) / 16) + '|' + f.name + '|' + f.count + '|' + f.x + '|' + f.w).sort();
}

/* The view's frames with their tooltips (made on hover: a synthetic
 * mouseover makes each), as "depth|name|count|x|w" per half. */
async function viewFrames(page, name) {
	await drv.viewShapes(page);
	return page.evaluate((nm) => {
		const out = [];
		for (const r of window.ufShapes('rect.f')) {   /* slivers too (driver.js) */
			r.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
			const t = r.querySelector('title');
			out.push({ t: t ? t.textContent : '', x: r.getAttribute('x'), w: r.getAttribute('width'),
				y: parseFloat(r.getAttribute('y')), cls: r.getAttribute('class') });
		}
		return out;
	}, name);
}

function halves(frames, name) {
	const parsed = frames.map((f) => Object.assign(f, { h: head(f.t) })).filter((f) => f.h);
	const mid = parsed.filter((f) => f.h[0] === name && f.x === '10.0');
	if (mid.length === 0) return null;
	const yF = mid.reduce((a, f) => (a === null || Math.abs(f.w - 1180) < Math.abs(a.w - 1180) ? f : a), null).y;
	const up = [], down = [];
	for (const f of parsed) {
		const k = Math.round((f.y - yF) / 16);
		const s = (d) => d + '|' + f.h[0] + '|' + f.h[1] + '|' + f.x + '|' + f.w;
		if (k === 0) { up.push(s(1)); down.push(s(1)); }
		else if (k < 0) up.push(s(1 - k));
		else down.push(s(1 + k));
	}
	return { up: up.sort(), down: down.sort(), f: mid[0] };
}

function sameList(got, want, what) {
	const g = new Set(got), w = new Set(want);
	const missing = want.filter((x) => !g.has(x)), extra = got.filter((x) => !w.has(x));
	expect(!missing.length && !extra.length && got.length === want.length,
		what + ': ' + got.length + ' frames, want ' + want.length + (missing.length ? '; missing ' + missing.slice(0, 2).join(' / ') : '') +
		(extra.length ? '; extra ' + extra.slice(0, 2).join(' / ') : ''));
}

/* In the page: the view's frame shapes as "x|y|width|fill|tooltip"
 * (tooltips made by a synthetic hover), and whether it is pending. */
function firstShapes() {
	const v = document.getElementById('uf-view');
	const list = [];
	for (const r of window.ufShapes('rect.f')) {   /* slivers too (driver.js) */
		r.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
		const t = r.querySelector('title');
		list.push([r.getAttribute('x'), r.getAttribute('y'), r.getAttribute('width'), r.getAttribute('fill'),
			t ? t.textContent : ''].join('|'));
	}
	return { list: list, pending: v.hasAttribute('data-pending') };
}

/* Shift-clicks NAME's drawn frame, then clicks a frame of its sandwich
 * and returns that frame's tooltip and the zoomed view's frames: at once
 * (want null: the widest frame narrower than NAME in the first frame),
 * or once settled (the frame whose tooltip is `want`). */
async function zoomInto(page, name, want) {
	await drv.viewShapes(page);
	await page.evaluate(() => document.getElementById('unzoom').dispatchEvent(new MouseEvent('click', { bubbles: true })));
	const r = await page.evaluate(async (nm, w) => {
		const g = Array.from(document.getElementById('frames').children).find((x) => {
			const t = x.querySelector('title');
			return t && t.textContent.startsWith(nm + ' (');
		});
		g.querySelector('rect').dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true }));
		if (w !== null) {
			for (let i = 0; i < 500 && document.getElementById('uf-view').hasAttribute('data-pending'); i++) {
				await new Promise((res) => setTimeout(res, 10));
			}
		}
		const v = document.getElementById('uf-view'), pending = v.hasAttribute('data-pending');
		let best = null, title = null;
		for (const x of window.ufShapes('rect.f')) {
			x.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
			const t = x.querySelector('title').textContent, wd = parseFloat(x.getAttribute('width'));
			if (w === null ? wd < 1180 && (!best || wd > parseFloat(best.getAttribute('width'))) : t === w) {
				best = x;
				title = t;
			}
		}
		if (best) best.dispatchEvent(new MouseEvent('click', { bubbles: true }));
		return { pending: pending, title: title };
	}, name, want);
	await settle(page);
	r.frames = (await page.evaluate(firstShapes)).list;
	return r;
}

/* ms from running `act` in the page to the next animation frame after
 * the view settles (data-pending gone) */
async function timed(page, act) {
	return page.evaluate(async (a) => {
		const t0 = performance.now();
		(new Function(a))();
		await new Promise((r) => requestAnimationFrame(() => r()));
		return performance.now() - t0;
	}, act);
}

async function settle(page) {
	await page.waitForFunction(() => {
		const v = document.getElementById('uf-view');
		return v && !v.hasAttribute('data-pending');
	}, { timeout: 20000 });
}

async function main() {
	let browser;
	const times = [];
	try {
		browser = await drv.launch(browserName, { width: 1280, height: 900 });
		for (const [k, c] of cases.entries()) {
			const label = path.basename(c.svg) + ' ' + c.name;
			const page = await browser.newPage();
			const errors = [];
			page.on('pageerror', (e) => errors.push(String(e)));
			await page.goto(pathToFileURL(c.svg).href + '?f=' + encodeURIComponent(c.name));
			await settle(page);
			const details = await page.evaluate(() => document.getElementById('details').textContent);
			const fr = await viewFrames(page, c.name);
			const H = halves(fr, c.name);
			await group(label + ': the callers half is render --callers, frame for frame', async () => {
				expect(H, 'no ' + c.name + ' frame at full width in the view');
				sameList(H.up, reference(c.svg, 'callers', c.name, path.join(work, 'up' + k + '.svg')), 'callers');
			});
			await group(label + ': the callees half is render --callees, frame for frame', async () => {
				sameList(H.down, reference(c.svg, 'callees', c.name, path.join(work, 'down' + k + '.svg')), 'callees');
			});
			await group(label + ': its count is the samples with it on the stack, once each', async () => {
				expect(H.f.h[1] === String(c.count), c.name + ' has ' + H.f.h[1] + ', truth ' + c.count);
				expect(details.startsWith('Sandwich of ' + c.name + ': ' + Number(c.count).toLocaleString('en-US') + ' samples'),
					'details ' + JSON.stringify(details));
			});
			if (c.search) {
				await group(label + ': search inside: Matched is the share of its samples', async () => {
					const ms = await timed(page, 'window.prompt = () => ' + JSON.stringify(c.search) +
						'; document.getElementById("search").dispatchEvent(new MouseEvent("click", {bubbles: true}));');
					times.push(['search', ms]);
					const t = await page.evaluate(() => document.getElementById('matched').textContent);
					expect(t.startsWith('Matched: ' + c.matchedView + '% of view, '), JSON.stringify(t) + ', want ' + c.matchedView + '% of view');
					const top = await page.evaluate(() => {
						document.getElementById('matched').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
						return document.getElementById('details').textContent;
					});
					expect(c.topFirst === undefined || top.startsWith('Top matches: ' + c.topFirst + ' ' + Number(c.topCount).toLocaleString('en-US') + ' samples'),
						'top matches ' + JSON.stringify(top) + ', want first ' + c.topFirst + ' ' + c.topCount);
					await page.evaluate(() => { window.prompt = () => '(('; document.getElementById('search').dispatchEvent(new MouseEvent('click', { bubbles: true })); });
					const bad = await page.evaluate(() => document.getElementById('matched').textContent);
					expect(/^Not a regex, as text: Matched: /.test(bad), 'invalid regex: ' + JSON.stringify(bad));
					await page.evaluate(() => { window.prompt = () => ''; document.getElementById('search').dispatchEvent(new MouseEvent('click', { bubbles: true })); });
				});
			}
			await group(label + ': a click on a callee zooms inside its half; Reset returns', async () => {
				const pick = await page.evaluate((nm) => {
					let best = null, yF = null;
					const rs = Array.from(document.getElementById('uf-view').querySelectorAll('rect.f'));
					for (const r of rs) {
						const t = r.querySelector('title');
						if (t && t.textContent.startsWith(nm + ' (') && r.getAttribute('x') === '10.0') yF = parseFloat(r.getAttribute('y'));
					}
					rs.forEach((r, i) => {
						const w = parseFloat(r.getAttribute('width')), y = parseFloat(r.getAttribute('y'));
						if (Math.round((y - yF) / 16) === 1 && w < 1180 && (!best || w > best.w)) best = { i: i, w: w };
					});
					return best;
				}, c.name);
				if (!pick) return;   /* no callee narrower than the function: nothing to zoom into */
				const ms = await timed(page, 'const r = document.getElementById("uf-view").querySelectorAll("rect.f")[' + pick.i +
					']; r.dispatchEvent(new MouseEvent("click", {bubbles: true}));');
				times.push(['zoom', ms]);
				await settle(page);
				const full = await page.evaluate(() => Array.from(document.getElementById('uf-view').querySelectorAll('rect.f'))
					.filter((r) => r.getAttribute('class') === 'f' && r.getAttribute('width') === '1180.0').length);
				expect(full >= 1, 'no frame at full width after the zoom');
				const ms2 = await timed(page, 'document.getElementById("unzoom").dispatchEvent(new MouseEvent("click", {bubbles: true}));');
				times.push(['reset', ms2]);
				const gone = await page.evaluate(() => !document.getElementById('uf-view')) && !/[?&]f=/.test(await drv.urlQuery(page));
				expect(gone, 'Reset Zoom left the view or f= in the URL');
			});
			await group(label + ': Shift-click on a frame of the file opens its sandwich', async () => {
				await page.goto(pathToFileURL(c.svg).href);
				await page.waitForFunction(() => document.getElementById('frames').children.length > 0);
				const i = await page.evaluate((nm) => Array.from(document.getElementById('frames').children).findIndex((g) => {
					const t = g.querySelector('title');
					return t && t.textContent.startsWith(nm + ' (');
				}), c.name);
				expect(i >= 0, 'no drawn frame ' + c.name);
				await drv.sleep(300);   /* idle time reads the block */
				await drv.viewShapes(page);
				const first = await page.evaluate(async (k, src) => {
					const firstShapes = (new Function('return ' + src))();
					const t0 = performance.now();
					document.getElementById('frames').children[k].querySelector('rect')
						.dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true }));
					const shapes = firstShapes();
					await new Promise((r) => requestAnimationFrame(() => r()));
					return { ms: performance.now() - t0, shapes: shapes };
				}, i, firstShapes.toString());
				times.push(['sandwich', first.ms]);
				await settle(page);
				if (c.quick) {
					/* the first frame, drawn from quick halves before the
					 * full view replaced it: each of its shapes is the
					 * full view's (x, y, width, colour, tooltip) */
					const full = new Set((await page.evaluate(firstShapes)).list);
					const odd = first.shapes.list.filter((x) => !full.has(x));
					expect(first.shapes.pending && first.shapes.list.length >= 100,
						'no quick first frame (pending ' + first.shapes.pending + ', ' + first.shapes.list.length + ' shapes)');
					expect(!odd.length, odd.length + ' of ' + first.shapes.list.length + ' first-frame shapes not in the full view, e.g. ' + odd[0]);
				}
				const url = await drv.urlQuery(page);
				expect(url.includes('f='), 'URL ' + url);
				const fr2 = await viewFrames(page, c.name);
				const H2 = halves(fr2, c.name);
				expect(H2 && H2.up.length === H.up.length && H2.down.length === H.down.length, 'Shift-click drew another view');
			});
			if (c.quick) {
				await group(label + ': a click into the quick first frame zooms where the full view\'s click does', async () => {
					await page.goto(pathToFileURL(c.svg).href);
					await page.waitForFunction(() => document.getElementById('frames').children.length > 0);
					await drv.sleep(300);
					const viaQuick = await zoomInto(page, c.name, null);
					const viaFull = await zoomInto(page, c.name, viaQuick.title);
					expect(viaQuick.pending && viaQuick.title, 'no quick view to click into: ' + JSON.stringify(viaQuick).slice(0, 200));
					expect(viaQuick.title === viaFull.title && viaQuick.frames.length > 1 &&
						viaQuick.frames.join('\n') === viaFull.frames.join('\n'),
						'quick: ' + viaQuick.title + ', ' + viaQuick.frames.length + ' frames; full: ' + viaFull.title + ', ' + viaFull.frames.length);
				});
			}
			expect(errors.length === 0, 'page errors: ' + errors.join('; '));
			await page.close();
		}
		const slow = times.filter((t) => t[1] > 1000);
		console.log('NOTE: sandwich browser: ' + browserName + ': ms to the next frame (spot check, shared machine): ' +
			times.map((t) => t[0] + ' ' + t[1].toFixed(1)).join(', '));
		expect(!slow.length, 'over 1 s: ' + JSON.stringify(slow));
	} catch (e) {
		rep.fail('run: ' + (e && e.message ? e.message : e));
	} finally {
		if (browser) await browser.close();
	}
	process.exit(rep.failed() ? 1 : 0);
}

main();
