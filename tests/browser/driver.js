/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/browser/driver.js — one way to start a headless browser for the
 * browser tests: Debian's Chromium (CDP) or Firefox ESR (WebDriver BiDi),
 * both through npm's puppeteer-core, with the few page helpers the tests
 * share (keys with modifiers, prompt answers, history, sleeping).
 *
 * Trade-off: puppeteer-core, not playwright-core: playwright cannot drive
 * Debian's firefox-esr (it needs its own patched Firefox build), while
 * puppeteer speaks WebDriver BiDi to a stock Firefox.  No browser is
 * downloaded; the test runs the system's binaries.
 *
 * Invariants: a fresh profile per launch (puppeteer's temporary user data
 * directory, removed on close); the browser name is "chromium" or "firefox".
 */
'use strict';
const path = require('path');
const puppeteer = require(path.join(__dirname, 'node_modules', 'puppeteer-core'));

const BROWSERS = {
	chromium: () => ({
		browser: 'chrome',
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
			'--disable-component-update', '--disable-sync', '--no-first-run'],
	}),
	firefox: () => ({
		browser: 'firefox',
		executablePath: process.env.FIREFOX || '/usr/bin/firefox-esr',
		args: [],
	}),
};

/* Starts `name` headless; returns the puppeteer Browser. */
async function launch(name, viewport) {
	const o = BROWSERS[name];
	if (!o) throw new Error('unknown browser ' + name);
	return puppeteer.launch(Object.assign(o(), {
		headless: true,
		defaultViewport: viewport || { width: 1280, height: 600 },
	}));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* "Control+f", "F3", "Escape": modifiers held around the key. */
async function press(page, combo) {
	const keys = combo.split('+');
	const key = keys.pop();
	for (const m of keys) await page.keyboard.down(m);
	await page.keyboard.press(key);
	for (const m of keys.reverse()) await page.keyboard.up(m);
	await sleep(20);
}

/* The next window.prompt() answers `term`. */
function answerPrompt(page, term) {
	page.once('dialog', (d) => {
		d.accept(term).catch(() => {});
	});
}

/* Browser Back / Forward over same-document (pushState) entries. */
async function back(page) {
	await page.evaluate(() => history.back());
	await sleep(150);
}
async function forward(page) {
	await page.evaluate(() => history.forward());
	await sleep(150);
}

/* PASS/FAIL lines for one test file: group(NAME, FN) runs FN and reports
 * it under "LABEL: [BROWSER: ]NAME"; fail(WHY) reports an error outside a
 * group; failed() counts the failures (the exit status). */
function reporter(label, browserName) {
	const prefix = label + ': ' + (browserName === 'chromium' ? '' : browserName + ': ');
	let failed = 0;
	const why = (e) => String(e && e.message ? e.message : e).split('\n')[0];
	return {
		async group(name, fn) {
			try {
				await fn();
				console.log('PASS: ' + prefix + name);
			} catch (e) {
				failed++;
				console.log('FAIL: ' + prefix + name + ': ' + why(e));
			}
		},
		fail(e) {
			failed++;
			console.log('FAIL: ' + prefix + why(e));
		},
		failed: () => failed,
	};
}

/* An assertion inside a group: throws WHY when COND is false. */
function expect(cond, why) {
	if (!cond) throw new Error(why);
}

module.exports = { launch, press, answerPrompt, back, forward, sleep, reporter, expect };
