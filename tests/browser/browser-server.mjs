// One headless Chromium for a whole run of the browser tests (run.sh starts this, then the test
// files): launched once with lib.mjs's options through playwright-core's `launchServer`, its
// endpoint printed as the first line of standard output. Each test connects to it
// (`launchBrowser` with PLATEAU_BROWSER_WS) and works in browser contexts of its own, as it did
// in a browser of its own: a context has its own cookies, storage, cache and renderer processes,
// and closing the connection closes the contexts it opened. Launching a Chromium for each test
// cost about a second of wall time and a third of a CPU second, fifty times a run.
//
// Runs until SIGTERM, SIGINT or SIGHUP, or until the process that started it is gone; then closes
// the browser (waiting for it to exit) and exits.

import { chromium } from 'playwright-core';
import { BROWSER_OPTIONS } from './lib.mjs';

const server = await chromium.launchServer({ ...BROWSER_OPTIONS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
process.stdout.write(`${server.wsEndpoint()}\n`);

const parent = process.ppid;
let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  await server.close();
  process.exit(0);
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, close);
// Orphaned (run.sh killed without its trap): nobody will stop this process but itself.
setInterval(() => {
  if (process.ppid !== parent) close();
}, 1000);
