const drv = require('./driver.js');
const { pathToFileURL } = require('url');
(async () => {
  const b = await drv.launch('chromium', { width: 1250, height: 420 });
  const p = await b.newPage();
  await p.goto(pathToFileURL(process.argv[2]).href + (process.argv[3] || ''));
  await p.waitForFunction(() => document.getElementById('uf-heatmap'), { timeout: 20000 });
  await new Promise((r) => setTimeout(r, 500));
  await p.screenshot({ path: process.argv[4] });
  await b.close();
})();
