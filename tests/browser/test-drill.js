#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/browser/test-drill.js — the zoom that reveals what pruning hid
 * (issue 17), against the real renderer, in a real browser:
 *
 *  - drill-down equals `render` of the zoomed subtree alone: on a generated
 *    profile, zooming frame by frame down a hot path, every frame of the
 *    view (zoomed frame and below) has the name, count, x and width that
 *    `uniprof-flame render` of the folded lines through that frame draws;
 *  - the same for a differential, in both layers (AFTER: `diff` of the
 *    subtree's lines; BEFORE: `render` of the subtree's BEFORE lines),
 *    with the colours the file gives those frames under every diff option
 *    and (AFTER) the tooltips the file has for them (whole-graph shares);
 *  - search's Matched share is exact when every match hides in a pruned
 *    subtree (computed here from the folded input);
 *  - Back/Forward restore a drill-down chain and the search;
 *  - the drill-down draws each frame in the colour the renderer gives its
 *    name, in every palette and in --hash mode;
 *  - hostile names that only the drill-down draws stay inert text, and
 *    names as bytes (UTF-8 of each length, sequences XML refuses, control
 *    bytes, annotation suffixes) read as the renderer writes them;
 *  - the packed block: a plain-text block (files before packing) drills
 *    down the same; a damaged one (not base64, cut or corrupt stream)
 *    leaves the page working from its drawn frames, without an error;
 *  - the file as written is the plain image: with script, after the idle
 *    work and after zoom + reset, the page looks exactly (pixel for pixel)
 *    as the same file with its <script> element removed.
 * Expected figures come from the renderer or the fixtures, never from the
 * script under test.
 *
 * Usage: test-drill.js UF_BINARY TMPDIR [chromium|firefox]
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { pathToFileURL } = require('url');
const drv = require('./driver.js');

const [uf, tmp, browserName = 'chromium'] = process.argv.slice(2);
const rep = drv.reporter('drill', browserName);
const group = rep.group, expect = drv.expect;

/* ---- fixtures ---- */

/* A deterministic profile: a call tree with hot trunks and a long tail of
 * one-sample paths, so the file prunes a lot that a zoom must reveal. */
function genProfile(n, seed) {
	let s = seed >>> 0 || 1;
	const rnd = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
	const stacks = [];
	const names = (d) => 'fn' + d + '_' + Math.floor(40 * Math.pow(rnd(), 2));
	for (let i = 0; i < n; i++) {
		let st;
		if (stacks.length > 5 && rnd() < 0.9) {
			const b = stacks[Math.floor(stacks.length * Math.pow(rnd(), 3))];
			st = b.slice(0, 1 + Math.floor(rnd() * b.length));
		} else {
			st = ['proc' + Math.floor(rnd() * 3)];
		}
		const extra = 1 + Math.floor(rnd() * 4);
		for (let k = 0; k < extra && st.length < 30; k++) st.push(names(st.length));
		stacks.push(st);
	}
	const counts = new Map();
	stacks.forEach((st, i) => {
		const k = st.join(';');
		counts.set(k, (counts.get(k) || 0) + Math.max(1, Math.round(3000 / Math.pow(i + 1, 1.1))));
	});
	return counts;   /* "a;b;c" -> count */
}

function writeFolded(file, counts) {
	fs.writeFileSync(file, Array.from(counts, ([k, v]) => k + ' ' + v).join('\n') + '\n');
}

/* Frames of an SVG the renderer wrote: name, count, x, width, depth. */
function svgFrames(file) {
	const text = fs.readFileSync(file, 'utf8');
	const body = text.slice(text.indexOf('<g id="frames">'), text.indexOf('</g>\n</g>') + 4);
	const out = [];
	const re = /<g>\n<title>([^<]*)<\/title><rect x="([^"]*)" y="([^"]*)" width="([^"]*)" height="[^"]*" fill="([^"]*)"/g;
	let m, yRoot = null;
	while ((m = re.exec(body)) !== null) {
		const title = unxml(m[1]).split('\n')[0];
		const p = title.lastIndexOf(' (');
		const y = parseFloat(m[3]);
		if (yRoot === null) yRoot = y;
		out.push({ name: title.slice(0, p), count: title.slice(p + 2).split(' ')[0], x: m[2], w: m[4],
			depth: Math.round(Math.abs(yRoot - y) / 16), fill: m[5], title: unxml(m[1]) });
	}
	return out;
}

function unxml(s) {
	return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&');
}

function render(args, out) {
	execFileSync(uf, args.concat(['-o', out]), { stdio: ['ignore', 'ignore', 'pipe'] });
}

/* ---- the page ---- */

async function waitView(page) {
	await page.waitForFunction(() => {
		const v = document.getElementById('uf-view');
		return !v || !v.hasAttribute('data-pending');
	}, { timeout: 20000 });
}

/* The view's frames as a user reads them (details line on hover):
 * name, count, x, width, y, and whether it is a dimmed ancestor. */
async function viewFrames(page) {
	await waitView(page);
	await drv.viewShapes(page);
	return page.evaluate(() => {
		const v = document.getElementById('uf-view');
		if (!v) return null;
		const details = document.getElementById('details');
		const nt = document.documentElement.getAttribute('data-uf-nametype') + ' ';
		const out = [];
		for (const r of window.ufShapes()) {   /* slivers too (driver.js) */
			if (r.ufItem === undefined || !r.classList.contains('f')) continue;
			r.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
			const t = details.textContent.slice(nt.length);
			r.dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
			const p = t.lastIndexOf(' (');
			const tip = r.querySelector('title');   /* the tooltip, made on the first hover */
			out.push({ name: t.slice(0, p), count: t.slice(p + 2).split(' ')[0], x: r.getAttribute('x'),
				w: r.getAttribute('width'), y: parseFloat(r.getAttribute('y')), anc: r.classList.contains('parent'),
				fill: r.getAttribute('fill'), title: tip ? tip.textContent : null });
		}
		return out;
	});
}

/* Clicks the frame named `name` one row above the zoomed frame (the
 * view's) or, unzoomed, at depth 1 of the file's frames. */
async function clickChild(page, name, depth) {
	await waitView(page);
	await drv.viewShapes(page);
	const ok = await page.evaluate((nm, d) => {
		const details = document.getElementById('details');
		const nt = document.documentElement.getAttribute('data-uf-nametype') + ' ';
		const v = document.getElementById('uf-view');
		const root = document.getElementById('frames').firstElementChild.querySelector('rect');
		const yRoot = parseFloat(root.getAttribute('y'));
		const cands = v ? window.ufShapes().filter((r) => r.ufItem !== undefined && r.classList.contains('f'))
			: Array.from(document.getElementById('frames').children).map((g) => g.querySelector('rect'));
		for (const r of cands) {
			if (!r || Math.abs(yRoot - parseFloat(r.getAttribute('y')) - 16 * d) > 0.01) continue;
			r.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
			const t = details.textContent.slice(nt.length);
			if (t.slice(0, t.lastIndexOf(' (')) === nm) {
				r.dispatchEvent(new MouseEvent('click', { bubbles: true }));
				return true;
			}
		}
		return false;
	}, name, depth);
	expect(ok, 'no frame ' + name + ' at depth ' + depth);
	await waitView(page);
}

const key = (f) => [f.name, f.count, f.x, f.w].join('|');

/* The image keeps its scale: a canvas grown for deeper frames grows the
 * height attribute with the viewBox (else the browser shrinks it all). */
async function expectScale(page, what) {
	const hv = await page.evaluate(() => {
		const e = document.documentElement;
		return [e.getAttribute('height'), e.getAttribute('viewBox').split(' ')[3]];
	});
	expect(hv[0] === null || Math.abs(parseFloat(hv[0]) - parseFloat(hv[1])) < 0.01,
		what + ': height ' + hv[0] + ' but viewBox height ' + hv[1]);
	return parseFloat(hv[1]);
}

/* The view below and at the zoomed frame equals the renderer's frames of
 * the subtree file at depth >= zoom depth. */
function compareFrames(got, want, what) {
	const a = got.filter((f) => !f.anc).map(key).sort();
	const b = want.map(key).sort();
	expect(a.length > 0, what + ': empty view');
	if (process.env.UF_DRILL_VERBOSE) console.log(what + ': ' + a.length + ' frames compared');
	const missing = b.filter((k) => !a.includes(k)), extra = a.filter((k) => !b.includes(k));
	expect(missing.length === 0 && extra.length === 0 && a.length === b.length,
		what + ': ' + a.length + ' frames drawn, ' + b.length + ' expected; missing ' +
		missing.slice(0, 3).join(', ') + '; extra ' + extra.slice(0, 3).join(', '));
}

/* The hottest path under `pre` whose frames stay >= share of the total. */
function hotPath(counts, depth) {
	const tot = new Map();
	for (const [k, v] of counts) {
		const fr = k.split(';');
		for (let d = 1; d <= fr.length; d++) {
			const p = fr.slice(0, d).join(';');
			tot.set(p, (tot.get(p) || 0) + v);
		}
	}
	const pathv = [];
	for (let d = 0; d < depth; d++) {
		let best = null;
		for (const [p, v] of tot) {
			const fr = p.split(';');
			if (fr.length !== d + 1 || fr.slice(0, d).join(';') !== pathv.join(';')) continue;
			/* a mid-sized child: drill-down into it shows a lot */
			if (best === null || Math.abs(v - 0.3 * (tot.get(pathv.join(';')) || v)) <
			    Math.abs(tot.get(best) - 0.3 * (tot.get(pathv.join(';')) || v))) best = p;
		}
		if (best === null) break;
		pathv.push(best.split(';')[d]);
	}
	return pathv;
}

function subtree(counts, pathv) {
	const pre = pathv.join(';');
	const out = new Map();
	for (const [k, v] of counts) {
		if (k === pre || k.startsWith(pre + ';')) out.set(k, v);
	}
	return out;
}

/* The file with its block as plain uf-trie/1 text, as SVGs written before
 * packing carry it: unpacked here (zlib, the columns of fold/embed-pack.c),
 * independently of the script under test. */
function plainCopy(svgf, out) {
	const zlib = require('zlib');
	const s = fs.readFileSync(svgf, 'latin1');
	const m = /(<metadata id="uniprof-flame-data"[^>]*) data-encoding="pack-deflate-base64"([^>]*>)([^]*?)(<\/metadata>)/.exec(s);
	expect(m !== null, 'fixture: no packed block in ' + svgf);
	const u = zlib.inflateSync(Buffer.from(m[3].replace(/<!--.*?-->|\s/g, ''), 'base64'));
	let p = u.indexOf(10);
	const h = u.slice(0, p).toString('latin1').split(' '), nn = +h[1], n = +h[2];
	p++;
	for (let i = 0; i < nn; i++) p = u.indexOf(10, p) + 1;
	const head = u.slice(0, p).toString('latin1'), cols = [[], []];
	for (const col of cols) {
		for (let i = 0; i < n; i++) {
			let v = 0, mul = 1, c;
			do { c = u[p++]; v += (c & 127) * mul; mul *= 128; } while (c & 128);
			col.push(v);
		}
	}
	const rest = u.slice(p).toString('latin1').split('\n'), lines = [];
	for (let i = 0, d = -1; i < n; i++) {
		d = d + 1 - cols[0][i];
		lines.push(d + ' ' + cols[1][i] + ' ' + rest[i]);
	}
	const text = head + lines.concat(rest.slice(n)).join('\n');
	fs.writeFileSync(out, s.slice(0, m.index) + m[1] + m[2] + text + m[4] + s.slice(m.index + m[0].length), 'latin1');
}

async function testDrill(browser) {
	const counts = genProfile(4000, 7);
	const folded = path.join(tmp, 'drill.folded'), svgf = path.join(tmp, 'drill.svg');
	writeFolded(folded, counts);
	render(['render', folded], svgf);
	const pathv = hotPath(counts, 4);
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await group('drill-down equals render of the zoomed subtree alone (4 levels)', async () => {
		expect(pathv.length === 4, 'fixture path ' + pathv.join(';'));
		await page.goto(pathToFileURL(svgf).href);
		const file = svgFrames(svgf);
		let revealed = 0;
		for (let d = 1; d <= pathv.length; d++) {
			await clickChild(page, pathv[d - 1], d);
			const sub = path.join(tmp, 'sub' + d + '.folded'), subsvg = path.join(tmp, 'sub' + d + '.svg');
			writeFolded(sub, subtree(counts, pathv.slice(0, d)));
			render(['render', sub], subsvg);
			const want = svgFrames(subsvg).filter((f) => f.depth >= d);
			const got = await viewFrames(page);
			compareFrames(got, want, 'level ' + d + ' (' + pathv.slice(0, d).join(';') + ')');
			/* deeper than the file: the canvas grew so every frame is inside it */
			const out = await page.evaluate(() => {
				const vb = document.documentElement.getAttribute('viewBox').split(' ').map(Number);
				return window.ufShapes('rect.f').filter((r) => {
					const y = parseFloat(r.getAttribute('y'));
					return y < vb[1] || y + 15 > vb[1] + vb[3];
				}).length;
			});
			expect(out === 0, out + ' frames outside the canvas at level ' + d);
			await expectScale(page, 'level ' + d);
			/* ... and the image grew with it, at the same scale */
			const hv = await page.evaluate(() => {
				const e = document.documentElement;
				return [e.getAttribute('height'), e.getAttribute('viewBox').split(' ')[3]];
			});
			expect(hv[0] === null || Math.abs(parseFloat(hv[0]) - parseFloat(hv[1])) < 0.01,
				'height ' + hv[0] + ' but viewBox height ' + hv[1] + ' at level ' + d);
			revealed = Math.max(revealed, want.filter((f) => !file.some((g) => g.name === f.name && g.count === f.count)).length);
		}
		expect(revealed > 0, 'the drill-down drew no frame the file had pruned');
		expect(errors.length === 0, errors.join('; '));
	});
	await group('--minwidth N%: a drill-down prunes at N% of the zoomed frame, as render of the subtree', async () => {
		/* issue 31 item 13: a percentage taken of the whole profile in a
		 * drill-down keeps fewer frames than render of the subtree draws */
		const pf = path.join(tmp, 'drill-pct.svg');
		render(['render', '--minwidth', '0.5%', folded], pf);
		const pg = await browser.newPage();
		await pg.goto(pathToFileURL(pf).href);
		for (let d = 1; d <= pathv.length; d++) {
			await clickChild(pg, pathv[d - 1], d);
			const sub = path.join(tmp, 'sub' + d + '.folded'), subsvg = path.join(tmp, 'sub-pct' + d + '.svg');
			render(['render', '--minwidth', '0.5%', sub], subsvg);
			const want = svgFrames(subsvg).filter((f) => f.depth >= d);
			compareFrames(await viewFrames(pg), want, '--minwidth 0.5%, level ' + d);
		}
		await pg.close();
	});
	await group('a plain-text block (files before packing) drills down the same', async () => {
		const plain = path.join(tmp, 'drill-plain.svg');
		plainCopy(svgf, plain);
		const pg = await browser.newPage();
		await pg.goto(pathToFileURL(plain).href);
		for (let d = 1; d <= pathv.length; d++) {
			await clickChild(pg, pathv[d - 1], d);
			const want = svgFrames(path.join(tmp, 'sub' + d + '.svg')).filter((f) => f.depth >= d);
			compareFrames(await viewFrames(pg), want, 'plain block, level ' + d);
		}
		await pg.close();
	});
	await group('a block deflated as two halves (its columns past 256 KiB) drills down the same', async () => {
		/* 90,000 more call paths of tiny counts beside the profile: the
		 * block's columns pass FOLD_EMBED_SPLIT, so render deflates them
		 * in two halves (one per thread) joined into one stream */
		const big = new Map(counts);
		for (let i = 0; i < 90000; i++) big.set('zfill;f' + (i % 300) + ';g' + i, 0.001);
		const bf = path.join(tmp, 'drill-big.folded'), bsvg = path.join(tmp, 'drill-big.svg');
		writeFolded(bf, big);
		render(['render', '--embed=full', bf], bsvg);
		const m = /<metadata id="uniprof-flame-data"[^>]*>([^]*?)<\/metadata>/.exec(fs.readFileSync(bsvg, 'latin1'));
		const cols = require('zlib').inflateSync(Buffer.from(m[1].replace(/<!--.*?-->|\s/g, ''), 'base64'));
		expect(cols.length >= 262144, 'fixture: columns of ' + cols.length + ' bytes, not two halves');
		const pg = await browser.newPage();
		const errs = [];
		pg.on('pageerror', (e) => errs.push(String(e)));
		await pg.goto(pathToFileURL(bsvg).href);
		for (let d = 1; d <= pathv.length; d++) {
			await clickChild(pg, pathv[d - 1], d);
			const want = svgFrames(path.join(tmp, 'sub' + d + '.svg')).filter((f) => f.depth >= d);
			compareFrames(await viewFrames(pg), want, 'two-half block, level ' + d);
		}
		expect(errs.length === 0, errs.join('; '));
		await pg.close();
	});
	await group('Back/Forward restore the drill-down and the search', async () => {
		drv.answerPrompt(page, pathv[3]);
		await page.click('#search');
		await drv.sleep(50);
		const m4 = await page.evaluate(() => document.getElementById('matched').textContent);
		/* the search recolours the frames the view drew before it: matches
		 * in the search colour, the rest in their own */
		const re = new RegExp(pathv[3]), sv = (await viewFrames(page)).filter((f) => !f.anc);
		const hit = sv.filter((f) => re.test(f.name)), rest = sv.filter((f) => !re.test(f.name));
		expect(hit.length > 0 && hit.every((f) => f.fill === 'rgb(230,0,230)'),
			'matches in the view: ' + hit.map((f) => f.name + ' ' + f.fill).slice(0, 3).join(', '));
		expect(rest.length > 0 && rest.every((f) => f.fill !== 'rgb(230,0,230)'),
			'non-matches in the view: ' + rest.map((f) => f.name + ' ' + f.fill).slice(0, 3).join(', '));
		await drv.back(page);
		let v = await viewFrames(page);
		const zoomed = v.filter((f) => !f.anc).sort((a, b) => Math.abs(b.y - a.y))[0];
		let top = v.find((f) => !f.anc && f.x === '10.0' && f.w === '1180.0');
		expect(top && top.name === pathv[2], 'after Back the view is ' + pathv[2] + ': ' + (top && top.name) + ' ' + (zoomed && zoomed.name));
		await drv.back(page);
		v = await viewFrames(page);
		top = v.find((f) => !f.anc && f.x === '10.0' && f.w === '1180.0');
		expect(top && top.name === pathv[1], 'after Back twice the view is ' + pathv[1]);
		await drv.forward(page);
		await drv.forward(page);
		v = await viewFrames(page);
		top = v.find((f) => !f.anc && f.x === '10.0' && f.w === '1180.0');
		expect(top && top.name === pathv[3], 'after Forward twice the view is ' + pathv[3]);
		const m = await page.evaluate(() => document.getElementById('matched').textContent);
		expect(m === m4 && /Matched: 100% of view/.test(m), 'search restored: ' + m + ' vs ' + m4);
	});
	await page.close();
}

/* Every palette: the frames the drill-down draws have the colour the
 * renderer gives their names (a zoom must not recolour the graph). */
async function testColors(browser) {
	const counts = genProfile(1500, 5);
	const folded = path.join(tmp, 'col.folded');
	writeFolded(folded, counts);
	const pathv = hotPath(counts, 1);
	const sub = path.join(tmp, 'col-sub.folded');
	writeFolded(sub, subtree(counts, pathv));
	const page = await browser.newPage();
	const modes = ['hot', 'mem', 'io', 'red', 'green', 'blue', 'yellow', 'purple', 'aqua', 'orange']
		.map((p) => ['--colors', p]).concat([['--hash'], ['--colors', 'mem', '--hash']]);
	await group('drill-down colours equal the renderer\'s (' + modes.length + ' palettes and modes)', async () => {
		for (const m of modes) {
			const svgf = path.join(tmp, 'col.svg'), subsvg = path.join(tmp, 'col-sub.svg');
			render(['render'].concat(m, [folded]), svgf);
			render(['render'].concat(m, [sub]), subsvg);
			const want = new Map(svgFrames(subsvg).filter((f) => f.depth >= 1).map((f) => [f.name, f.fill]));
			await page.goto(pathToFileURL(svgf).href);
			await clickChild(page, pathv[0], 1);
			const got = (await viewFrames(page)).filter((f) => !f.anc && want.has(f.name));
			expect(got.length >= 20, m.join(' ') + ': only ' + got.length + ' frames to compare');
			const bad = got.filter((f) => f.fill !== want.get(f.name));
			expect(bad.length === 0, m.join(' ') + ': ' + bad.length + ' of ' + got.length + ' frames recoloured, e.g. ' +
				bad.slice(0, 2).map((f) => f.name + ' ' + f.fill + ' want ' + want.get(f.name)).join(', '));
		}
	});
	await page.close();
}

/* --colors chain: the drawing rewrites every stack (a "--" leaf where no
 * waker part follows, "_[w]" wakers), which the embedded profile does
 * not hold, so zoom stretches the drawn frames instead of drilling down:
 * after the zoom the view holds the subtree's frames with the renderer's
 * names, counts and colours (wakers apart from the same names
 * elsewhere), and the details line says why nothing pruned comes back. */
async function testChainColors(browser) {
	const lines = ['main;big 2000', 'main;mid;work;sleep;--;wake_a;same 300', 'main;mid;work2;same 250',
		'main;mid;work3;wake_a 200', 'main;mid;work3;--;same 150'];
	const folded = path.join(tmp, 'chain.folded'), svgf = path.join(tmp, 'chain.svg');
	fs.writeFileSync(folded, lines.join('\n') + '\n');
	render(['render', '--colors', 'chain', folded], svgf);
	const sub = path.join(tmp, 'chain-sub.folded'), subsvg = path.join(tmp, 'chain-sub.svg');
	fs.writeFileSync(sub, lines.filter((l) => l.startsWith('main;mid;')).join('\n') + '\n');
	render(['render', '--colors', 'chain', sub], subsvg);
	const page = await browser.newPage();
	await group('--colors chain: zoom stretches the drawn frames, names, counts and colours as drawn', async () => {
		await page.goto(pathToFileURL(svgf).href);
		await clickChild(page, 'main', 1);
		await clickChild(page, 'mid', 2);
		const nk = (f) => [f.name, f.count, f.fill].join('|');
		const got = (await viewFrames(page) || []).filter((f) => !f.anc).map(nk).sort();
		const want = svgFrames(subsvg).filter((f) => f.depth >= 2).map(nk).sort();
		expect(want.length >= 12 && JSON.stringify(got) === JSON.stringify(want),
			got.length + ' frames, ' + want.length + ' expected; got ' + got.slice(0, 4).join(', ') +
			'; want ' + want.slice(0, 4).join(', '));
		const note = await page.evaluate(() => document.getElementById('details').textContent);
		expect(/^Chain graph: zoom stretches the drawn frames/.test(note), 'details: ' + note);
	});
	await page.close();
}

async function testDiff(browser) {
	const after = genProfile(2500, 11), before = new Map();
	let i = 0;
	for (const [k, v] of after) {
		i++;
		if (i % 17 === 0) continue;                 /* new in AFTER */
		before.set(k, i % 5 === 0 ? v * 3 : i % 7 === 0 ? Math.max(1, v >> 1) : v);
	}
	before.set(Array.from(after.keys())[3].split(';').slice(0, 2).join(';') + ';gone_fn', 40);
	const fa = path.join(tmp, 'd-after.folded'), fb = path.join(tmp, 'd-before.folded');
	writeFolded(fa, after);
	writeFolded(fb, before);
	const svgf = path.join(tmp, 'd.svg');
	render(['diff', fb, fa], svgf);
	const pathv = hotPath(after, 2);
	const page = await browser.newPage();
	await group('differential drill-down equals diff of the subtree (AFTER layer)', async () => {
		await page.goto(pathToFileURL(svgf).href);
		for (let d = 1; d <= pathv.length; d++) await clickChild(page, pathv[d - 1], d);
		const sa = path.join(tmp, 'ds-a.folded'), sb = path.join(tmp, 'ds-b.folded'), ss = path.join(tmp, 'ds.svg');
		writeFolded(sa, subtree(after, pathv));
		writeFolded(sb, subtree(before, pathv));
		render(['diff', sb, sa], ss);
		const view = await viewFrames(page);
		compareFrames(view, svgFrames(ss).filter((f) => f.depth >= pathv.length), 'AFTER');
		/* a frame's tooltip speaks of the whole graph (its share before and
		 * after, the change in points), so the drill-down shows the
		 * tooltip the file has for that frame */
		const inFile = new Map();
		for (const f of svgFrames(svgf)) {
			const k = f.name + '|' + f.count;
			inFile.set(k, inFile.has(k) ? null : f.title);   /* null: ambiguous */
		}
		const both = view.filter((f) => !f.anc && inFile.get(f.name + '|' + f.count));
		expect(both.length >= 10, 'only ' + both.length + ' drill-down frames also drawn in the file');
		const bad = both.filter((f) => f.title !== inFile.get(f.name + '|' + f.count));
		expect(bad.length === 0, bad.length + ' of ' + both.length + ' drill-down tooltips differ from the ' +
			'file\'s, e.g. ' + bad.slice(0, 1).map((f) => JSON.stringify(f.title) + ' want ' +
			JSON.stringify(inFile.get(f.name + '|' + f.count))).join(''));
	});
	await group('differential drill-down in the BEFORE layer equals render of the BEFORE lines', async () => {
		await page.goto(pathToFileURL(svgf).href + '?layer=before');
		for (let d = 1; d <= pathv.length; d++) await clickChild(page, pathv[d - 1], d);
		const sb = path.join(tmp, 'ds-b.folded'), ss = path.join(tmp, 'dsb.svg');
		render(['render', sb], ss);
		compareFrames(await viewFrames(page), svgFrames(ss).filter((f) => f.depth >= pathv.length), 'BEFORE');
	});
	/* colours: a differential frame's colour is its change against the
	 * whole graph, so the drill-down keeps the colour the file gave it */
	const opts = [[], ['--delta=self'], ['--palette', 'cb'], ['--min-delta', '0.5'], ['--normalize'], ['--negate']];
	await group('differential drill-down keeps the file\'s colours (' + opts.length + ' option sets)', async () => {
		for (const o of opts) {
			const f2 = path.join(tmp, 'dc.svg');
			render(['diff'].concat(o, [fb, fa]), f2);
			const seen = new Map();
			for (const f of svgFrames(f2)) {
				const k = f.name + '|' + f.count;
				seen.set(k, seen.has(k) ? null : f.fill);   /* null: ambiguous */
			}
			await page.goto(pathToFileURL(f2).href);
			for (let d = 1; d <= pathv.length; d++) await clickChild(page, pathv[d - 1], d);
			const got = (await viewFrames(page)).filter((f) => !f.anc && seen.get(f.name + '|' + f.count));
			expect(got.length >= 10, o.join(' ') + ': only ' + got.length + ' frames to compare');
			const bad = got.filter((f) => f.fill !== seen.get(f.name + '|' + f.count));
			expect(bad.length === 0, (o.join(' ') || 'default') + ': ' + bad.length + ' of ' + got.length +
				' frames recoloured, e.g. ' + bad.slice(0, 2).map((f) => f.name + ' ' + f.fill + ' want ' +
				seen.get(f.name + '|' + f.count)).join(', '));
		}
	});
	await page.close();
}

/* 50 one-sample stacks holding "needle", each in its own subtree of a
 * parent far too narrow to draw: the drawn frames hold no match at all. */
async function testSearchShare(browser) {
	const counts = new Map([['main;work', 99950]]);
	for (let k = 0; k < 50; k++) counts.set('main;rare_' + k + ';needle_' + k, 1);
	counts.set('main;rare_0;other', 3);
	const folded = path.join(tmp, 'needle.folded'), svgf = path.join(tmp, 'needle.svg');
	writeFolded(folded, counts);
	render(['render', folded], svgf);
	let total = 0, hit = 0;
	for (const [k, v] of counts) {
		total += v;
		if (/needle/.test(k)) hit += v;
	}
	const pct = (v) => (v < 0.005 ? '<0.01' : v.toFixed(2).replace(/\.?0+$/, ''));
	const want = 'Matched: ' + pct(100 * hit / total) + '% of view, ' + pct(100 * hit / total) + '% of total';
	const page = await browser.newPage();
	await group('search share is exact when every match is pruned from the drawing', async () => {
		expect(!fs.readFileSync(svgf, 'utf8').includes('<title>needle'), 'fixture: needle frames are drawn');
		await page.goto(pathToFileURL(svgf).href + '?s=needle');
		/* the URL's search waits for the packed profile to inflate */
		await page.waitForFunction(() => document.getElementById('matched').textContent.trim() !== '',
			{ timeout: 10000 }).catch(() => {});
		const m = await page.evaluate(() => document.getElementById('matched').textContent);
		expect(m === want, 'got "' + m + '", want "' + want + '"');
	});
	await page.close();
}

/* Names only the drill-down draws: markup, event handlers, entities. */
/* Names as bytes: what the drill-down shows for each (UTF-8 of every
 * length, sequences XML refuses, C0/C1 controls (both sides of the one-
 * digit hex escape: 0x0f, 0x10), DEL, annotation suffixes)
 * is what the renderer writes for it. */
async function testNameBytes(browser) {
	const names = ['u2_\xc3\xa9', 'u3_\xe2\x82\xac', 'u4_\xf0\x9f\x94\xa5', 'max_\xf4\x8f\xbf\xbf',
		'over_\xf4\x90\x80\x80', 'overlong_\xc0\xaf', 'overlong3_\xe0\x80\xaf', 'surr_\xed\xa0\x80',
		'fffe_\xef\xbf\xbe', 'ffff_\xef\xbf\xbf', 'c1_\xc2\x85', 'a0_\xc2\xa0', 'del_\x7f', 'tilde_~',
		'ctl_\x01', 'si_\x0f', 'dle_\x10', 'trunc_\xe2\x82', 'lone_\x80', 'ff_\xff', 'cut4_\xf0\x9f\x94', 'kern_[k]', 'xk[k]',
		'inl_[i]', 'jit_[j]', 'w_[w]', 'q_[q]', 'k[k]', 'é_[i]', 'back\\x41slash'];
	const lines = ['main;big 20000', 'main;mid;other 200', 'main;mid;deep;d1;d2;d3;d4;d5 3'];
	names.forEach((n, k) => lines.push('main;mid;n' + k + ';' + n + ' ' + (2 + k)));
	const bytes = Buffer.from(lines.join('\n') + '\n', 'latin1');
	const folded = path.join(tmp, 'bytes.folded'), svgf = path.join(tmp, 'bytes.svg');
	fs.writeFileSync(folded, bytes);
	render(['render', '--minwidth', '1', folded], svgf);
	const sub = path.join(tmp, 'bytes-sub.folded'), subsvg = path.join(tmp, 'bytes-sub.svg');
	fs.writeFileSync(sub, Buffer.from(lines.filter((l) => l.startsWith('main;mid;')).join('\n') + '\n', 'latin1'));
	render(['render', sub], subsvg);
	const page = await browser.newPage();
	await group('names as bytes: the drill-down shows what the renderer writes (' + names.length + ' names)', async () => {
		await page.goto(pathToFileURL(svgf).href);
		const h0 = await expectScale(page, 'unzoomed');
		await clickChild(page, 'main', 1);
		await clickChild(page, 'mid', 2);
		compareFrames(await viewFrames(page), svgFrames(subsvg).filter((f) => f.depth >= 2), 'main;mid');
		expect(await expectScale(page, 'zoomed') > h0, 'the canvas did not grow for the frames below mid');
	});
	await page.close();
}

/* Sibling order as flamegraph.pl sorts lines (a child's own line as
 * "name ", its subtree as "name;", bytes compared): names that interleave
 * ("a" with children, "a b", "a.c", "a::d"), parents of two entries,
 * capitals, bytes over 0x7f. */
async function testSiblingOrder(browser) {
	const lines = ['main;big 20000', 'main;mid;other 300',
		'main;mid;s;a;x 3', 'main;mid;s;a b 4', 'main;mid;s;a.c;y 5', 'main;mid;s;a 2', 'main;mid;s;a::d 6',
		'main;mid;s;a-b;z 7', 'main;mid;s;a;w 1',
		'main;mid;t;a;q 3', 'main;mid;t;a b 2',
		'main;mid;v;a b 2', 'main;mid;v;a;q 3',
		'main;mid;u;B 1', 'main;mid;u;a 1', 'main;mid;u;_x 1', 'main;mid;u;\xc3\xa9 1', 'main;mid;u;z 1',
		'main;mid;u;Z;k 2', 'main;mid;u;10 1', 'main;mid;u;9 1'];
	const folded = path.join(tmp, 'order.folded'), svgf = path.join(tmp, 'order.svg');
	fs.writeFileSync(folded, Buffer.from(lines.join('\n') + '\n', 'latin1'));
	render(['render', '--minwidth', '2', folded], svgf);
	const sub = path.join(tmp, 'order-sub.folded'), subsvg = path.join(tmp, 'order-sub.svg');
	fs.writeFileSync(sub, Buffer.from(lines.filter((l) => l.startsWith('main;mid;')).join('\n') + '\n', 'latin1'));
	render(['render', sub], subsvg);
	const page = await browser.newPage();
	await group('drill-down orders siblings as flamegraph.pl sorts lines ("a", "a b", "a.c", "a::d", two-entry parents)', async () => {
		expect(!fs.readFileSync(svgf, 'utf8').includes('<title>a.c '), 'fixture: the siblings are drawn in the file');
		await page.goto(pathToFileURL(svgf).href);
		await clickChild(page, 'main', 1);
		await clickChild(page, 'mid', 2);
		compareFrames(await viewFrames(page), svgFrames(subsvg).filter((f) => f.depth >= 2), 'main;mid');
	});
	await page.close();
}

/* Pruned boxes ("N frames pruned", grey) of an SVG: the first line of
 * each title up to the samples count, and the boxes' x spans. */
function svgBoxes(file) {
	const text = fs.readFileSync(file, 'utf8');
	const out = [];
	const re = /<g class="pruned">\n<title>([^<]*)<\/title><path d="([^"]*)"/g;
	let m;
	while ((m = re.exec(text)) !== null) out.push(boxKey(unxml(m[1]), m[2]));
	return out;
}
function boxKey(title, d) {
	const head = title.split('\n')[0].replace(/,[^,]*%\)$/, ')');
	const spans = Array.from(d.matchAll(/M([-\d.]+) [-\d.]+h([-\d.]+)/g), (x) => x[1] + '+' + x[2]);
	return head + ' @ ' + spans.join(' ');
}

/* The drill-down's pruned boxes equal the renderer's for the zoomed
 * subtree alone: how many frames and samples each holds, and where. */
async function testPrunedBoxes(browser) {
	const counts = genProfile(4000, 7);
	const folded = path.join(tmp, 'pb.folded'), svgf = path.join(tmp, 'pb.svg');
	writeFolded(folded, counts);
	render(['render', '--minwidth', '10', folded], svgf);
	const pathv = hotPath(counts, 1);
	const sub = path.join(tmp, 'pb-sub.folded'), subsvg = path.join(tmp, 'pb-sub.svg');
	writeFolded(sub, subtree(counts, pathv));
	render(['render', '--minwidth', '10', sub], subsvg);
	const page = await browser.newPage();
	await group('drill-down pruned boxes equal render of the zoomed subtree (frames, samples, x spans)', async () => {
		await page.goto(pathToFileURL(svgf).href);
		for (let d = 1; d <= pathv.length; d++) await clickChild(page, pathv[d - 1], d);
		await waitView(page);
		const got = await page.evaluate(() => {
			const details = document.getElementById('details');
			return Array.from(document.querySelectorAll('#uf-view > .pruned')).map((b) => {
				b.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
				const t = details.textContent;
				b.dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
				const d = b.localName === 'path' ? b.getAttribute('d')
					: 'M' + b.getAttribute('x') + ' 0h' + b.getAttribute('width');
				return [t, d];
			});
		});
		const a = got.map(([t, d]) => boxKey(t, d)).sort(), b = svgBoxes(subsvg).sort();
		/* the subtree's own root row ("all") holds no box; deeper boxes only */
		expect(b.length >= 3, 'fixture: only ' + b.length + ' pruned boxes in the subtree render');
		const missing = b.filter((k) => !a.includes(k)), extra = a.filter((k) => !b.includes(k));
		expect(missing.length === 0 && extra.length === 0, a.length + ' boxes drawn, ' + b.length +
			' expected; missing ' + missing.slice(0, 2).join(' | ') + '; extra ' + extra.slice(0, 2).join(' | '));
	});
	await page.close();
}

async function testHostile(browser) {
	const bad = ['<script>window.__pwned=1</script>', '<img src=x onerror="window.__pwned=2">',
		'&lt&gt&amp &#x41', ']]><svg onload="window.__pwned=3">', '"q\'', 'javascript:window.__pwned=4'];
	const counts = new Map([['main;big', 20000], ['main;mid;other', 200]]);
	bad.forEach((b, k) => counts.set('main;mid;small;' + b + ';leaf' + k, 2));
	const folded = path.join(tmp, 'hostile-drill.folded'), svgf = path.join(tmp, 'hostile-drill.svg');
	writeFolded(folded, counts);
	render(['render', '--minwidth', '1', folded], svgf);
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	await group('hostile names drawn only by the drill-down stay inert text', async () => {
		await page.goto(pathToFileURL(svgf).href);
		expect(!fs.readFileSync(svgf, 'utf8').includes('<title>&lt;script'), 'fixture: hostile frames are drawn in the file');
		await clickChild(page, 'main', 1);
		await clickChild(page, 'mid', 2);
		const v = await viewFrames(page);
		for (const b of bad) expect(v.some((f) => f.name === b), 'drawn as text: ' + b);
		const r = await page.evaluate(() => {
			const view = document.getElementById('uf-view');
			const odd = Array.from(view.querySelectorAll('*')).filter((e) =>
				!/^(rect|text|path|title|clipPath|g)$/.test(e.localName) ||
				Array.from(e.attributes).some((a) => /^on/i.test(a.name) || /javascript:/i.test(a.value)));
			/* the file's two (the code block, its loader) and the one the
			 * loader made from the block's text: nothing from a name */
			const code = document.getElementById('uf-code');
			const scripts = Array.from(document.getElementsByTagName('script')).map((e) =>
				e.id || e.getAttribute('type') || (code && e.textContent === code.textContent ? 'run' : 'other'));
			return { pwned: typeof window.__pwned, odd: odd.map((e) => e.localName), scripts: scripts.join(',') };
		});
		expect(r.pwned === 'undefined', 'window.__pwned is ' + r.pwned);
		expect(r.odd.length === 0, 'unexpected elements/attributes in the view: ' + r.odd.join(' '));
		expect(r.scripts === 'uf-code,text/ecmascript,run', 'script elements: ' + r.scripts);
		expect(errors.length === 0, errors.join('; '));
	});
	/* a damaged packed block: the page works from its drawn frames */
	for (const [what, damage] of [['not base64', (b) => b.slice(0, 40) + '*' + b.slice(40)],
		['a cut deflate stream', (b) => b.slice(0, Math.floor(b.length / 8) * 4)],
		['a corrupt deflate stream', (b) => b.slice(0, 20) + (b[20] === 'A' ? 'B' : 'A') + b.slice(21)]]) {
		await group('damaged packed block (' + what + '): zoom stretches the drawn frames, no error', async () => {
			const s = fs.readFileSync(svgf, 'latin1');
			const m = /(<metadata id="uniprof-flame-data"[^>]*>)([^]*?)(<\/metadata>)/.exec(s);
			const out = path.join(tmp, 'damaged.svg');
			fs.writeFileSync(out, s.slice(0, m.index) + m[1] + damage(m[2].replace(/\s/g, '')) + m[3] +
				s.slice(m.index + m[0].length), 'latin1');
			const pg = await browser.newPage();
			const errs = [];
			pg.on('pageerror', (e) => errs.push(String(e)));
			await pg.goto(pathToFileURL(out).href);
			await pg.evaluate(() => {
				const g = Array.from(document.querySelectorAll('#frames > g')).find((x) =>
					/^main \(/.test(x.querySelector('title').textContent));
				g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
			});
			await pg.waitForFunction(() => document.getElementById('uf-view') !== null, { timeout: 10000 }).catch(() => {});
			const d = await pg.evaluate(() => document.getElementById('details').textContent);
			expect(/No embedded profile: zoom stretches the drawn frames/.test(d), 'details line: ' + d);
			expect(errs.length === 0, errs.join('; '));
			await pg.close();
		});
	}
	await page.close();
}

/* The file as written is the image: script or not, zoomed and reset. */
async function testNoScript(browser) {
	const counts = genProfile(3000, 3);
	const folded = path.join(tmp, 'plain.folded'), svgf = path.join(tmp, 'plain.svg');
	writeFolded(folded, counts);
	render(['render', folded], svgf);
	await group('no-script image unchanged: same pixels with script, after idle work, zoom and reset', async () => {
		/* the same file without its script, as an image viewer shows it */
		const text = fs.readFileSync(svgf, 'utf8');
		const bare = text.replace(/<script[^]*?<\/script>\n/g, '');
		expect(bare.length < text.length && !bare.includes('<script'), 'fixture has scripts');
		const plainf = path.join(tmp, 'plain-noscript.svg');
		fs.writeFileSync(plainf, bare);
		const off = await browser.newPage();
		await off.goto(pathToFileURL(plainf).href);
		const plain = await off.screenshot({ fullPage: true });
		await off.close();
		const page = await browser.newPage();
		await page.goto(pathToFileURL(svgf).href);
		await drv.sleep(600);
		const idle = await page.screenshot({ fullPage: true });
		expect(Buffer.compare(plain, idle) === 0, 'the page differs from the no-script image after load');
		await clickChild(page, hotPath(counts, 1)[0], 1);
		await drv.press(page, 'Escape');
		await page.mouse.move(1, 1);
		await drv.sleep(100);
		const reset = await page.screenshot({ fullPage: true });
		expect(Buffer.compare(plain, reset) === 0, 'the page differs from the no-script image after zoom + reset');
		await page.close();
	});
}

/* Frames narrower than a pixel (path.sliver, one per fill; 72-view.js):
 * 'main;hot' holds 1,500 leaves of one sample under 1,500 parents, so
 * zoomed to hot each is 1180/1500 = 0.79 px wide.  Every one is drawn
 * where, in the colour and with the name and count `render` of the
 * subtree gives it; a real pointer on one shows its details line and
 * tooltip, a click zooms into it; a search colours only the matched one
 * and clearing it restores every colour; the view holds one element per
 * fill for them, not one per frame. */
async function testSlivers(browser) {
	const N = 1500;
	const counts = new Map([['main;big', 60000]]);
	for (let i = 0; i < N; i++) counts.set('main;hot;a' + i + ';b' + i, 1);
	const folded = path.join(tmp, 'sliver.folded'), svgf = path.join(tmp, 'sliver.svg');
	writeFolded(folded, counts);
	render(['render', folded], svgf);
	const sub = path.join(tmp, 'sliver-sub.folded'), subsvg = path.join(tmp, 'sliver-sub.svg');
	writeFolded(sub, subtree(counts, ['main', 'hot']));
	render(['render', sub], subsvg);
	const want = svgFrames(subsvg).filter((f) => f.depth >= 2);
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	const toHot = async () => {
		await page.goto(pathToFileURL(svgf).href);
		await clickChild(page, 'main', 1);
		await clickChild(page, 'hot', 2);
	};
	/* the sliver stand-ins (driver.js) as key -> fill, and the view's census */
	const slivers = async () => {
		await drv.viewShapes(page);
		return page.evaluate(() => {
			const v = document.getElementById('uf-view');
			const fills = {}, census = {};
			for (const e of v.children) {
				const k = e.localName + '.' + (e.getAttribute('class') || '');
				census[k] = (census[k] || 0) + 1;
			}
			for (const r of window.ufShapes().filter((x) => x.sliver)) fills[r.getAttribute('x') + '|' + r.getAttribute('y')] = r.getAttribute('fill');
			const pf = Array.from(v.querySelectorAll('path.sliver'), (p) => p.getAttribute('fill'));
			return { fills: fills, census: census, pathFills: pf, children: v.children.length };
		});
	};
	await group('sub-pixel frames: drawn as render of the subtree draws them, one path per fill', async () => {
		await toHot();
		const got = await viewFrames(page);
		/* name, count, x, width and fill of every frame */
		compareFrames(got.map((f) => Object.assign({}, f, { x: f.x + '|' + f.fill })),
			want.map((f) => Object.assign({}, f, { x: f.x + '|' + f.fill })), 'zoomed to hot (frames and fills)');
		const s = await slivers();
		const n = Object.keys(s.fills).length;
		expect(n === 2 * N, n + ' sliver frames drawn, want ' + 2 * N);
		const distinct = new Set(s.pathFills);
		expect(distinct.size === s.pathFills.length, s.pathFills.length + ' sliver paths for ' + distinct.size + ' fills');
		const c = s.census;
		const bound = (c['rect.f'] || 0) + (c['rect.f parent'] || 0) + (c['text.'] || 0) + (c['text.parent'] || 0) +
			(c['path.pruned'] || 0) + (c['rect.pruned'] || 0) + distinct.size + 2;
		expect(s.children <= bound && s.children < 2 * N / 4, s.children + ' view elements for ' + 2 * N +
			' sliver frames (bound ' + bound + '): ' + JSON.stringify(c));
	});
	await group('sub-pixel frames: a real pointer on one shows its details and tooltip, a click zooms into it', async () => {
		await drv.viewShapes(page);
		/* a b-row sliver (b_i is the row above a_i: same x and width, a
		 * smaller y) that holds a whole client pixel 0.2 px off its edges
		 * (a pointer's position is in whole pixels), the first from the
		 * 700th on; its name from the renderer's frame at that x */
		const pt = await page.evaluate(() => {
			const s = window.ufShapes().filter((e) => e.sliver);
			const ys = s.map((e) => parseFloat(e.getAttribute('y')));
			const top = Math.min.apply(null, ys);
			const row = s.filter((e, i) => ys[i] === top).sort((a, b) => parseFloat(a.getAttribute('x')) - parseFloat(b.getAttribute('x')));
			for (let i = 700; i < row.length; i++) {
				const e = row[i], m = e.path.getScreenCTM();
				const lo = m.a * parseFloat(e.getAttribute('x')) + m.e;
				const hi = lo + m.a * parseFloat(e.getAttribute('width'));
				const k = Math.ceil(lo + 0.2);
				if (k <= hi - 0.2) return { x: k, y: Math.round(e.centre().y), fx: e.getAttribute('x'), fw: e.getAttribute('width') };
			}
			return null;
		});
		expect(pt !== null, 'no b-row sliver holds a whole pixel');
		const target = want.find((f) => /^b\d+$/.test(f.name) && f.x === pt.fx && f.w === pt.fw);
		expect(target !== undefined, 'the renderer has no b frame at x=' + pt.fx + ' width ' + pt.fw);
		await page.mouse.move(pt.x, pt.y);
		await drv.sleep(50);
		const d = await page.evaluate(() => document.getElementById('details').textContent);
		const nt = (await page.evaluate(() => document.documentElement.getAttribute('data-uf-nametype'))) + ' ';
		expect(d.startsWith(nt + target.name + ' (1 sample'), 'details on the sliver: ' + JSON.stringify(d) + ', want ' + target.name);
		const tip = await page.evaluate((x, y) => {
			const e = document.elementFromPoint(x, y);
			const t = e && e.querySelector('title');
			return [e ? e.localName + '.' + e.getAttribute('class') : null, t ? t.textContent : null];
		}, pt.x, pt.y);
		expect(tip[0] === 'path.sliver' && tip[1] !== null && tip[1].startsWith(target.name + ' (1 sample'),
			'tooltip under the pointer: ' + JSON.stringify(tip));
		await page.mouse.click(pt.x, pt.y);
		await waitView(page);
		const z = (await viewFrames(page)).filter((f) => !f.anc && f.w === '1180.0');
		expect(z.length === 1 && z[0].name === target.name && z[0].count === '1', 'zoomed into ' + JSON.stringify(z));
	});
	await group('sub-pixel frames: a search colours the matched one only, clearing restores every colour', async () => {
		await toHot();
		const before = await slivers();
		const pick = want.find((f) => f.name === 'a7');
		const search = (term) => page.evaluate((t) => {
			window.prompt = () => t;
			document.getElementById('search').dispatchEvent(new MouseEvent('click', { bubbles: true }));
		}, term);
		await search('^a7$');
		const on = await slivers();
		const sc = await page.evaluate(() => document.documentElement.getAttribute('data-uf-searchcolor') || 'rgb(230,0,230)');
		const changed = Object.keys(on.fills).filter((k) => on.fills[k] !== before.fills[k]);
		expect(changed.length === 1 && changed[0].startsWith(pick.x + '|') && on.fills[changed[0]] === sc,
			'recoloured: ' + changed.slice(0, 3).map((k) => k + ' ' + on.fills[k]).join(', ') + ' (want a7 at x=' + pick.x + ' in ' + sc + ')');
		expect(new Set(on.pathFills).size === on.pathFills.length, 'two paths of one fill after the search');
		await search('');
		const off = await slivers();
		const diff = Object.keys(before.fills).filter((k) => off.fills[k] !== before.fills[k]);
		expect(diff.length === 0 && Object.keys(off.fills).length === 2 * N, diff.length + ' slivers not restored');
		expect(off.pathFills.length === before.pathFills.length, off.pathFills.length + ' sliver paths after clearing, ' +
			before.pathFills.length + ' before');
	});
	expect(errors.length === 0, errors.join('; '));
	await page.close();
}

async function main() {
	let browser;
	try {
		browser = await drv.launch(browserName, { width: 1280, height: 900 });
		await testDrill(browser);
		await testSlivers(browser);
		await testColors(browser);
		await testPrunedBoxes(browser);
		await testChainColors(browser);
		await testDiff(browser);
		await testSearchShare(browser);
		await testHostile(browser);
		await testNameBytes(browser);
		await testSiblingOrder(browser);
		await testNoScript(browser);
	} catch (e) {
		rep.fail(String(e));
	} finally {
		if (browser) await browser.close().catch(() => {});
	}
	process.exit(rep.failed() ? 1 : 0);
}

main();
