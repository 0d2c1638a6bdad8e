#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-svg.js — drives headless Chromium or Firefox ESR
 * (Debian's, through puppeteer-core: driver.js) over SVGs opened from disk
 * and asserts, through the DOM, what a user of the interactive flame
 * graph relies on: hover details, regex search and its Matched shares,
 * ignore-case, click-zoom, browser Back/Forward, Esc and Reset Zoom, URL
 * state at load, pruned boxes, and that a hostile name runs no script.
 *
 * Trade-off: it drives the real UI (mouse, keys, prompt dialogs) rather
 * than calling into the script, so it is slower (a few seconds) but tests
 * what a person does.  Expected numbers come from the fixture's known
 * counts (tests/data/browser/known.folded: 100 samples), never from the
 * script under test.
 *
 * Invariants:
 *  1. One "PASS: name" or "FAIL: name: why" line per assertion group; the
 *     exit status is 1 when any group failed.
 *  2. A fresh browser profile per run, removed at exit; no network.
 *  3. The same assertions in every browser.  What a user sees is read from
 *     the DOM: the zoomed view (#uf-view, drawn by the script) while
 *     zoomed, the frames as written (#frames) otherwise.
 *
 * Usage: test-svg.js --browser chromium|firefox --label L --known K.svg
 *        [--inverted I.svg] [--pruned P.svg] [--hostile H.svg] [--screenshot DIR]
 */
'use strict';
const path = require('path');
const { pathToFileURL } = require('url');
const drv = require('./driver.js');

const argv = process.argv.slice(2);
const opt = {};
for (let i = 0; i + 1 < argv.length; i += 2) opt[argv[i].replace(/^--/, '')] = argv[i + 1];
const browserName = opt.browser || 'chromium';
const label = (browserName === 'chromium' ? '' : browserName + ': ') + (opt.label ? opt.label + ': ' : '');
const SEARCHCOLOR = 'rgb(230,0,230)';
let failed = 0;

function pass(name) {
	console.log('PASS: ' + label + name);
}
function fail(name, why) {
	failed++;
	console.log('FAIL: ' + label + name + ': ' + why);
}

/* Runs one assertion group: fn throws (with a reason) on failure. */
async function group(name, fn) {
	try {
		await fn();
		pass(name);
	} catch (e) {
		fail(name, String(e && e.message ? e.message : e).split('\n')[0]);
	}
}

function expect(cond, why) {
	if (!cond) throw new Error(why);
}
function eq(got, want, what) {
	if (got !== want) throw new Error(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
}
function near(got, want, tol, what) {
	if (!(Math.abs(got - want) <= tol)) throw new Error(what + ': got ' + got + ', want ' + want + ' +-' + tol);
}

/* The frames as the user sees them, keyed "name/count" (unique in the
 * fixture): while zoomed, the view the script drew (a frame not in it is
 * hidden; its tooltip is read through the details line, as a user reads
 * it), else the frames as written.  Parsed here independently of the
 * script under test. */
async function frames(page) {
	await page.waitForFunction(() => {
		const v = document.getElementById('uf-view');
		return !v || !v.hasAttribute('data-pending');
	});
	return page.evaluate(() => {
		const out = {};
		const parse = (title, pruned) => {
			const p = title.lastIndexOf(' (');
			const name = title.slice(0, p);
			const count = Number(title.slice(p + 2).split(' ')[0].replace(/,/g, ''));
			return { key: pruned ? 'pruned/' + count : name + '/' + count, name: name, count: count };
		};
		const view = document.getElementById('uf-view');
		const details = document.getElementById('details');
		const saved = details.textContent;
		const nametype = document.documentElement.getAttribute('data-uf-nametype') + ' ';
		const gs = document.getElementById('frames').children;
		for (let i = 0; i < gs.length; i++) {
			const g = gs[i];
			const title = g.querySelector('title').textContent.split('\n')[0];
			const r = g.querySelector('rect') || g.querySelector('path');
			const t = g.querySelector('text');
			const k = parse(title, g.classList.contains('pruned'));
			out[k.key] = {
				index: i, view: false, name: k.name, count: k.count, title: title,
				x: parseFloat(r.getAttribute('x')), w: parseFloat(r.getAttribute('width')),
				xattr: r.getAttribute('x'), wattr: r.getAttribute('width'), yattr: r.getAttribute('y'),
				fill: r.getAttribute('fill'), label: t ? t.textContent : '',
				hidden: view !== null || getComputedStyle(g).display === 'none',
				dimmed: false,
				box: view !== null ? 0 : g.getBoundingClientRect().width,
				transform: r.getAttribute('transform'),
			};
		}
		if (view) {
			const kids = view.children;
			for (let i = 0; i < kids.length; i++) {
				const r = kids[i];
				if (r.ufItem === undefined) continue;
				r.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
				let title = details.textContent;
				const pruned = r.classList.contains('pruned');
				if (!pruned && title.startsWith(nametype)) title = title.slice(nametype.length);
				r.dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
				const t = kids[i + 1] && kids[i + 1].localName === 'text' ? kids[i + 1] : null;
				const k = parse(title, pruned);
				out[k.key] = {
					index: i, view: true, name: k.name, count: k.count, title: title,
					x: parseFloat(r.getAttribute('x')), w: parseFloat(r.getAttribute('width')),
					xattr: r.getAttribute('x'), wattr: r.getAttribute('width'), yattr: r.getAttribute('y'),
					fill: r.getAttribute('fill'), label: t ? t.textContent : '',
					hidden: getComputedStyle(r).display === 'none',
					dimmed: r.classList.contains('parent'),
					box: r.getBoundingClientRect().width,
					transform: r.getAttribute('transform'),
				};
			}
		}
		details.textContent = saved;
		return out;
	});
}

async function text(page, id) {
	return page.evaluate((i) => {
		const e = document.getElementById(i);
		return e ? e.textContent : null;
	}, id);
}

async function shown(page, id) {
	return page.evaluate((i) => getComputedStyle(document.getElementById(i)).display !== 'none', id);
}

/* The shape a user points at for frame f (a handle with hover/click). */
function frameLoc(page, f) {
	const get = async () => page.evaluateHandle((i, inView) => (inView
		? document.getElementById('uf-view').children[i]
		: document.getElementById('frames').children[i].querySelector('rect, path')), f.index, f.view);
	return {
		hover: async () => { await (await get()).hover(); await drv.sleep(20); },
		click: async () => { await (await get()).click(); await drv.sleep(30); },
	};
}

async function searchBy(page, how, term) {
	drv.answerPrompt(page, term);
	if (how === 'button') await page.click('#search');
	else await drv.press(page, how);
	await drv.sleep(60);
}

/* The page's URL once the viewer has written it: templates/js/84-url.js
 * writes history after the next frame is out (two animation frames, then
 * a timer), so a URL read at once can be the one before the action (CI,
 * Chromium: "URL keeps i=1" failed on both SVGs of one run, page.url()
 * read right after Ctrl-I).  This waits the same way, and one timer more,
 * read in the page itself (page.url() follows the browser's events); at
 * most 2 s, should no frame come. */
async function urlAfterFrame(page) {
	return page.evaluate(
		() =>
			new Promise((done) => {
				const read = () => done(location.href);
				setTimeout(read, 2000);
				requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => setTimeout(read, 0), 0)));
			})
	);
}

async function matched(page) {
	return (await text(page, 'matched')).trim();
}

function magenta(fs_) {
	return Object.keys(fs_).filter((k) => fs_[k].fill === SEARCHCOLOR).sort();
}

/* ---- groups over the known fixture ---- */

async function testLoad(page, url, errors) {
	await group('load: SVG opens from disk, script runs without errors', async () => {
		await page.goto(url);
		const f = await frames(page);
		eq(Object.keys(f).length, 14, 'frames');
		eq(f['all/100'].count, 100, 'root count');
		eq(f['main/80'].name, 'main', 'name');
		expect(f['S::f(int) const/5'], 'a name with "(" and spaces parsed to the last " ("');
		eq(errors.length, 0, 'page errors ' + errors.join('; '));
	});
}

async function testHover(page) {
	await group('hover: details show the frame and restore on leave', async () => {
		const f = await frames(page);
		await frameLoc(page, f['delta/30']).hover();
		const d = await text(page, 'details');
		eq(d, 'Function: ' + f['delta/30'].title, 'details');
		expect(/^Function: delta \(30 samples, 30(\.0+)?%\)$/.test(d), 'details text ' + d);
		await page.mouse.move(1, 1);
		eq((await text(page, 'details')).trim(), '', 'details after leave');
	});
}

async function testSearch(page) {
	await group('search: regex via button, Matched % from counts', async () => {
		await searchBy(page, 'button', '^alpha$');
		eq(await matched(page), 'Matched: 35% of view, 35% of total', 'matched');
		eq(magenta(await frames(page)).join(' '), 'alpha/30 alpha/5', 'highlighted');
		const u = await urlAfterFrame(page);
		expect(decodeURIComponent(u).includes('s=^alpha$'), 'URL keeps s: ' + u);
	});
	await group('search: nested matches counted once', async () => {
		await searchBy(page, 'Control+f', '^(beta|leaf1)$');
		eq(await matched(page), 'Matched: 40% of view, 40% of total', 'matched');
		eq(magenta(await frames(page)).length, 3, 'highlighted frames');
		await searchBy(page, 'F3', 'leaf');
		eq(await matched(page), 'Matched: 45% of view, 45% of total', 'matched');
	});
	await group('search: text only in counts/percentages matches nothing', async () => {
		for (const t of ['samples', '30.00', '%', ', ']) {
			await searchBy(page, 'button', t);
			eq(await matched(page), 'Matched: 0% of view, 0% of total', 'term ' + t);
			eq(magenta(await frames(page)).length, 0, 'highlighted for ' + t);
		}
	});
	await group('search: invalid regex falls back to a literal match, and says so', async () => {
		await searchBy(page, 'button', 'f(int');
		eq(await matched(page), 'Not a regex, as text: Matched: 5% of view, 5% of total', 'matched');
		eq(magenta(await frames(page)).join(' '), 'S::f(int) const/5', 'highlighted');
	});
	await group('search: ignore-case toggle (Ctrl-I and button)', async () => {
		await searchBy(page, 'button', 'alpha');
		eq(await matched(page), 'Matched: 35% of view, 35% of total', 'case-sensitive');
		await drv.press(page, 'Control+i');
		eq(await matched(page), 'Matched: 38% of view, 38% of total', 'ignore case');
		expect(await page.evaluate(() => document.getElementById('ignorecase').classList.contains('show')),
			'ic shown active');
		expect((await urlAfterFrame(page)).includes('i=1'), 'URL keeps i=1');
		await page.click('#ignorecase');
		eq(await matched(page), 'Matched: 35% of view, 35% of total', 'case-sensitive again');
	});
	await group('search: Esc without zoom clears search and restores fills', async () => {
		const before = await frames(page);
		await drv.press(page, 'Escape');
		const f = await frames(page);
		eq(await matched(page), '', 'matched');
		eq(magenta(f).length, 0, 'highlighted');
		const u = await urlAfterFrame(page);
		expect(!/[?&]s=/.test(u), 'URL drops s: ' + u);
		expect(before['alpha/30'].fill === SEARCHCOLOR && f['alpha/30'].fill !== SEARCHCOLOR, 'fill restored');
	});
}

async function testZoom(page, orig) {
	await group('zoom: click fills the width, hides non-descendants, dims ancestors', async () => {
		await frameLoc(page, orig['beta/20']).click();
		const f = await frames(page);
		near(f['beta/20'].x, 10, 0.5, 'beta x');
		near(f['beta/20'].w, 1180, 0.5, 'beta width');
		near(f['leaf1/15'].w, 1180 * 15 / 20, 0.5, 'child width');
		near(f['alpha/5'].w, 1180 * 5 / 20, 0.5, 'grandchild width');
		for (const k of ['delta/30', 'alpha/30', 'leaf1/20', 'leaf2/10', 'other/20', 'x/12', 'ALPHA/3']) {
			expect(f[k].hidden && f[k].box === 0, k + ' should be hidden');
		}
		for (const k of ['beta/20', 'leaf1/15', 'gamma/5', 'alpha/5']) {
			expect(!f[k].hidden && !f[k].dimmed, k + ' should be visible');
		}
		for (const k of ['main/80', 'all/100']) {
			expect(f[k].dimmed && !f[k].hidden, k + ' should be dimmed');
			near(f[k].w, 1180, 0.5, k + ' width');
		}
		eq(f['beta/20'].label, 'beta', 'label re-fitted');
		expect(await shown(page, 'unzoom'), 'Reset Zoom shown');
		const u = await urlAfterFrame(page);
		expect(/[?&](n=|x=.*[?&]y=)/.test(u), 'URL keeps zoom: ' + u);
	});
	await group('zoom: Matched % of view recomputed, hidden frames excluded', async () => {
		await searchBy(page, 'button', 'alpha');
		eq(await matched(page), 'Matched: 25% of view, 5% of total', 'alpha in beta');
		await searchBy(page, 'button', 'leaf1');
		eq(await matched(page), 'Matched: 75% of view, 15% of total', 'leaf1 in beta');
		await searchBy(page, 'button', '^main$');
		eq(await matched(page), 'Matched: 100% of view, 20% of total', 'ancestor matched');
		await searchBy(page, 'button', 'delta');
		eq(await matched(page), 'Matched: 0% of view, 0% of total', 'hidden frame');
	});
	await group('zoom: browser Back undoes the zoom, Forward redoes it', async () => {
		await drv.back(page);
		let f = await frames(page);
		for (const k of Object.keys(orig)) {
			expect(!f[k].hidden && !f[k].dimmed, k + ' visible after Back');
			eq(f[k].xattr + ' ' + f[k].wattr, orig[k].xattr + ' ' + orig[k].wattr, k + ' geometry');
		}
		expect(!(await shown(page, 'unzoom')), 'Reset Zoom hidden after Back');
		const u = await urlAfterFrame(page);
		expect(!/[?&](x|n)=/.test(u), 'URL after Back ' + u);
		await drv.forward(page);
		f = await frames(page);
		near(f['beta/20'].w, 1180, 0.5, 'beta width after Forward');
		expect(f['delta/30'].hidden, 'delta hidden after Forward');
		eq(await matched(page), 'Matched: 0% of view, 0% of total', 'search restored with the entry');
	});
	await group('zoom: Esc resets, then clears search; Reset Zoom resets', async () => {
		await drv.press(page, 'Escape');
		let f = await frames(page);
		expect(!f['delta/30'].hidden && !(await shown(page, 'unzoom')), 'Esc unzoomed');
		eq(await matched(page), 'Matched: 30% of view, 30% of total', 'search kept after unzoom');
		await drv.press(page, 'Escape');
		eq(await matched(page), '', 'Esc cleared search');
		await frameLoc(page, (await frames(page))['gamma/5']).click();
		f = await frames(page);
		near(f['gamma/5'].w, 1180, 0.5, 'gamma zoomed');
		await page.click('#unzoom');
		f = await frames(page);
		for (const k of Object.keys(orig)) {
			const a = f[k], b = orig[k];
			eq([a.xattr, a.wattr, a.fill, a.label, a.hidden, a.dimmed].join('|'),
				[b.xattr, b.wattr, b.fill, b.label, b.hidden, b.dimmed].join('|'), k + ' restored exactly');
		}
	});
	await group('zoom: clicking the root or a dimmed ancestor zooms out to it', async () => {
		await frameLoc(page, orig['gamma/5']).click();
		let f = await frames(page);
		await frameLoc(page, f['main/80']).click();
		f = await frames(page);
		near(f['main/80'].w, 1180, 0.5, 'main width');
		expect(!f['main/80'].dimmed && !f['beta/20'].hidden && f['other/20'].hidden, 'zoomed to main');
		await frameLoc(page, f['all/100']).click();
		f = await frames(page);
		expect(!f['other/20'].hidden && !(await shown(page, 'unzoom')), 'root click unzooms');
	});
}

/* A search in the URL runs once the embedded block has inflated, which
 * is asynchronous (DecompressionStream) and may end after the load
 * event: wait for its result line (up to 5 s) before reading it. */
async function matchedAtLoad(page) {
	await page.waitForFunction(() => {
		const e = document.getElementById('matched');
		return e && e.textContent.trim() !== '';
	}, { timeout: 5000 }).catch(() => {});
	return matched(page);
}

async function testUrl(page, url, orig) {
	await group('url: ?s= searches at load, i=1 ignores case', async () => {
		await page.goto(url + '?s=leaf');
		eq(await matchedAtLoad(page), 'Matched: 45% of view, 45% of total', '?s=leaf');
		await page.goto(url + '?s=' + encodeURIComponent('^alpha$') + '&i=1');
		eq(await matchedAtLoad(page), 'Matched: 38% of view, 38% of total', '?s=^alpha$&i=1');
	});
	await group('url: ?x=&y= zooms at load', async () => {
		const b = orig['beta/20'];
		await page.goto(url + '?x=' + b.xattr + '&y=' + b.yattr + '&s=alpha');
		const f = await frames(page);
		near(f['beta/20'].w, 1180, 0.5, 'beta width');
		expect(f['delta/30'].hidden, 'delta hidden');
		eq(await matchedAtLoad(page), 'Matched: 25% of view, 5% of total', 'matched');
		const a = orig['alpha/30'];
		await page.goto(url + '?x=' + a.xattr + '&y=' + a.yattr + '&s=' + encodeURIComponent('^leaf1$'));
		eq(await matchedAtLoad(page), 'Matched: 66.67% of view, 20% of total', 'leaf1 in alpha');
	});
}

async function testKnown(browser, file, errors) {
	const page = await browser.newPage();
	page.on('pageerror', (e) => errors.push(String(e)));
	const url = pathToFileURL(file).href;
	await testLoad(page, url, errors);
	const orig = await frames(page);
	if (opt.screenshot) await page.screenshot({ path: path.join(opt.screenshot, 'known.png') });
	await testHover(page);
	await testSearch(page);
	await testZoom(page, orig);
	await testUrl(page, url, orig);
	if (opt.screenshot) {
		await frameLoc(page, orig['beta/20']).hover();
		await page.screenshot({ path: path.join(opt.screenshot, 'zoomed.png') });
	}
	await group('no script errors during the run', async () => eq(errors.join('; '), '', 'page errors'));
	await page.close();
}

/* templates/boot.js: the code is not run while the file opens, but after
 * the first paint, or by the first event if that comes sooner, and that
 * first event still does what it does once the code runs. */
async function testBoot(browser, file) {
	const url = pathToFileURL(file).href;
	const scripts = (page) => page.evaluate(() => document.getElementsByTagName('script').length);
	/* a page whose idle callback never comes: only an event runs the code */
	async function noIdle() {
		const page = await browser.newPage();
		await page.evaluateOnNewDocument(() => { window.requestIdleCallback = () => 0; });
		await page.goto(url);
		await drv.sleep(300);
		return page;
	}
	await group('boot: the code runs after the first paint, with no event', async () => {
		const page = await browser.newPage();
		await page.goto(url);
		await drv.sleep(600);
		eq(await scripts(page), 3, 'script elements (the code block, the loader, the code run)');
		await page.close();
	});
	await group('boot: a first hover runs the code and shows its frame', async () => {
		const page = await noIdle();
		eq(await scripts(page), 2, 'script elements before any event (the code not run)');
		const f = await frames(page);
		await frameLoc(page, f['delta/30']).hover();
		eq(await scripts(page), 3, 'script elements after the hover');
		eq(await text(page, 'details'), 'Function: ' + f['delta/30'].title, 'details');
		await page.close();
	});
	await group('boot: a first click zooms', async () => {
		const page = await noIdle();
		const f = await frames(page);
		await frameLoc(page, f['delta/30']).click();
		expect(await shown(page, 'unzoom'), 'Reset Zoom shown');
		const u = await urlAfterFrame(page);
		expect(/[?&](x|n)=/.test(u), 'zoom in the URL: ' + u);
		await page.close();
	});
	/* F3, not Ctrl-F: the Control key would be the first event */
	await group('boot: a first F3 searches', async () => {
		const page = await noIdle();
		await searchBy(page, 'F3', '^alpha$');
		eq(await matched(page), 'Matched: 35% of view, 35% of total', 'matched');
		await page.close();
	});
}

async function testInverted(browser, file) {
	const page = await browser.newPage();
	await group('icicle: zoom hides non-descendants and dims ancestors', async () => {
		await page.goto(pathToFileURL(file).href);
		let f = await frames(page);
		await frameLoc(page, f['beta/20']).click();
		f = await frames(page);
		near(f['beta/20'].w, 1180, 0.5, 'beta width');
		near(f['leaf1/15'].w, 885, 0.5, 'child width');
		expect(f['delta/30'].hidden && f['other/20'].hidden, 'non-descendants hidden');
		expect(f['main/80'].dimmed && f['all/100'].dimmed, 'ancestors dimmed');
		await searchBy(page, 'button', 'alpha');
		eq(await matchedAtLoad(page), 'Matched: 25% of view, 5% of total', 'matched');
	});
	if (opt.screenshot) await page.screenshot({ path: path.join(opt.screenshot, 'icicle.png') });
	await page.close();
}

/* The pruned fixture draws ALPHA (3 samples) as one pruned box under
 * "other".  Zooming into "other" (20 samples) makes ALPHA 177 px wide:
 * with embedded data the drill-down draws it as a frame (lossless); the
 * contract SVG has none, so the box is stretched instead.  Outside the
 * zoom the box is hidden; Esc restores the file as written. */
async function testPruned(browser, file) {
	const page = await browser.newPage();
	await group('pruned: zoom reveals the pruned frame (or stretches the box), hides it outside', async () => {
		await page.goto(pathToFileURL(file).href);
		const embedded = await page.evaluate(() => document.getElementById('uniprof-flame-data') !== null);
		let f = await frames(page);
		const key = Object.keys(f).find((k) => k.startsWith('pruned/'));
		expect(key, 'a pruned box exists');
		expect(!f['ALPHA/3'], 'ALPHA is pruned, not drawn as a frame');
		const w0 = f[key].box;
		await frameLoc(page, f['other/20']).click();
		f = await frames(page);
		if (embedded) {
			expect(f['ALPHA/3'] && !f['ALPHA/3'].hidden, 'drill-down draws ALPHA');
			near(f['ALPHA/3'].w, 1180 * 3 / 20, 0.15, 'ALPHA width at the zoomed scale');
			expect(!f[key] || f[key].hidden, 'no pruned box left where ALPHA is drawn');
		} else {
			expect(!f[key].hidden, 'pruned box visible inside zoom');
			near(f[key].box, w0 * 100 / 20, 1, 'pruned box width after zoom');
		}
		await drv.press(page, 'Escape');
		await frameLoc(page, (await frames(page))['main/80']).click();
		f = await frames(page);
		expect(f[key].hidden && !(f['ALPHA/3'] && !f['ALPHA/3'].hidden), 'pruned box hidden outside zoom');
		await searchBy(page, 'button', 'frames pruned');
		eq(await matched(page), 'Matched: 0% of view, 0% of total', 'pruned box is not searchable');
		await drv.press(page, 'Escape');
		f = await frames(page);
		expect(!f[key].hidden && f[key].transform === null, 'pruned box restored');
		near(f[key].box, w0, 0.01, 'pruned box width restored');
	});
	await page.close();
}

async function testHostile(browser, file) {
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await group('hostile names: SVG loads, no injected script runs', async () => {
		await page.goto(pathToFileURL(file).href);
		eq(await page.evaluate(() => document.documentElement.localName), 'svg', 'root element');
		eq(await page.evaluate(() => document.getElementsByTagName('parsererror').length), 0, 'parse errors');
		eq(await page.evaluate(() => typeof window.__pwned), 'undefined', 'window.__pwned');
		/* the file's own: the code block and its loader (the script the
		 * loader makes, which has no type, is not the file's) */
		eq(await page.evaluate(() => [...document.getElementsByTagName('script')]
			.filter((s) => s.hasAttribute('type')).map((s) => s.id || s.getAttribute('type')).join(',')),
		'uf-code,text/ecmascript', 'script elements');
		const f = await frames(page);
		const bad = Object.values(f).find((x) => x.name.includes('</script>'));
		expect(bad, 'the hostile name is a frame');
		await frameLoc(page, bad).hover();
		expect((await text(page, 'details')).includes('<script>window.__pwned=1</script>'), 'name shown as text');
		await searchBy(page, 'button', ']]>');
		expect(magenta(await frames(page)).some((k) => k.includes(']]>')), '"]]>" found literally');
		await frameLoc(page, bad).click();
		eq(await page.evaluate(() => typeof window.__pwned), 'undefined', 'window.__pwned after zoom');
		eq(errors.join('; '), '', 'page errors');
	});
	await page.close();
}

async function main() {
	let browser;
	try {
		browser = await drv.launch(browserName);
		const errors = [];
		if (opt.known) await testKnown(browser, opt.known, errors);
		if (opt.known) await testBoot(browser, opt.known);
		if (opt.inverted) await testInverted(browser, opt.inverted);
		if (opt.pruned) await testPruned(browser, opt.pruned);
		if (opt.hostile) await testHostile(browser, opt.hostile);
	} catch (e) {
		fail('browser', String(e).split('\n')[0]);
	} finally {
		if (browser) await browser.close().catch(() => {});
	}
	process.exit(failed ? 1 : 0);
}

main();
