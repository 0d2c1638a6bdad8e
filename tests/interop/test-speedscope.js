#!/usr/bin/env node
// SPDX-License-Identifier: BSD-3-Clause
/*
 * tests/interop/test-speedscope.js — loads a speedscope JSON file into the
 * real speedscope app (npm `speedscope`, its release build served over
 * local HTTP) in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core) and reads its Sandwich view table from the DOM.
 *
 *   node test-speedscope.js PROFILE.json EXPECT.tsv LABEL
 *
 * EXPECT.tsv lists "self<TAB>name" of the top functions by self weight,
 * as computed from the folded input; the app's first rows must show the
 * same names and self values.  Prints PASS:/FAIL: lines (tests/lib.sh).
 */
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const http = require('http');
const path = require('path');

const [profile, expectPath, label] = process.argv.slice(2);
const root = path.join(__dirname, 'node_modules/speedscope/dist/release');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
	'.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png' };
let failed = 0;
const pass = (n) => console.log(`PASS: ${label}: ${n}`);
const fail = (n, why) => { failed = 1; console.log(`FAIL: ${label}: ${n}: ${why}`); };

function serve(req, res) {
	const u = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
	const file = u === '/profile.speedscope.json' ? profile : path.join(root, path.normalize(u));
	if (!file.startsWith(root) && file !== profile) { res.writeHead(403); res.end(); return; }
	fs.readFile(file, (e, d) => {
		if (e) { res.writeHead(404); res.end(); return; }
		res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
		res.end(d);
	});
}

/* The Sandwich table as [{self, name}] (value text like "23 (8.1%)"). */
async function sandwich(page) {
	const text = await page.innerText('body');
	const i = text.indexOf('Symbol Name');
	if (i < 0) return null;
	const lines = text.slice(i + 'Symbol Name'.length).split('\n').map((s) => s.trim());
	const rows = [];
	for (let k = 0; k + 2 < lines.length; ) {
		while (k < lines.length && lines[k] === '') k++;
		const total = lines[k], self = lines[k + 1];
		if (!/^[\d.]+\S* \(/.test(total || '') || !/^[\d.]+\S* \(/.test(self || '')) break;
		rows.push({ self: self.split(' ')[0], name: lines[k + 2] });
		k += 3;
	}
	return rows;
}

async function main() {
	const expect = fs.readFileSync(expectPath, 'utf8').trim().split('\n').map((l) => {
		const [self, ...name] = l.split('\t');
		return { self, name: name.join('\t') };
	});
	const srv = http.createServer(serve);
	await new Promise((r) => srv.listen(0, '127.0.0.1', r));
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
		const errors = [], logs = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		page.on('console', (m) => logs.push(m.text()));
		const port = srv.address().port;
		await page.goto(`http://127.0.0.1:${port}/index.html#profileURL=/profile.speedscope.json`);
		await page.waitForFunction(() => document.body.innerText.includes('Sandwich'), null, { timeout: 60000 });
		await page.waitForFunction(() => document.body.innerText.includes('profile.speedscope.json'),
			null, { timeout: 60000 }).catch(() => {});
		logs.some((l) => l.includes('Importing as speedscope json file'))
			? pass('imported as speedscope JSON') : fail('import', `console: ${logs.join(' | ').slice(0, 300)}`);
		await page.getByText('Sandwich').click();
		await page.waitForFunction(() => document.body.innerText.includes('Symbol Name'), null, { timeout: 30000 });
		const rows = await sandwich(page);
		if (!rows || rows.length === 0) {
			fail('sandwich table', 'no rows');
		} else {
			const n = Math.min(expect.length, rows.length);
			let ok = n === expect.length;
			for (let k = 0; k < n; k++)
				if (rows[k].self !== expect[k].self || rows[k].name !== expect[k].name) ok = false;
			ok ? pass(`top ${n} functions and self counts as in the folded input`)
				: fail('top functions', `app ${JSON.stringify(rows.slice(0, n))} want ${JSON.stringify(expect)}`);
		}
		errors.length === 0 ? pass('no page errors') : fail('page errors', errors.join('; '));
	} catch (e) {
		fail('browser', String(e).split('\n')[0]);
	} finally {
		await browser.close();
		srv.close();
	}
	process.exit(failed);
}

main();
