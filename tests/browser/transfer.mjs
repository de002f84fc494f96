// The bytes a match page transfers, on a first load (empty cache) and on a second one (the same
// browser context, so with its cache), as Chromium's DevTools protocol counts them: every HTTP
// response's encoded length, headers included, and the WebSocket's frames apart. Not a test: a
// measurement for docs/performance.md. Run from the repository root:
//   node tests/browser/transfer.mjs            (the binary as lib.mjs finds it, or $PLATEAU_BIN)

import { startServer, launchBrowser, newPage, waitMatchReady } from './lib.mjs';

/**
 * Loads `url` in `page` as a visitor come to watch, and waits until the page shows the match and
 * the network has been quiet.
 */
async function measure(page, url) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  let ws = 0;
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const r = requests.get(requestId) || {};
    Object.assign(r, {
      url: response.url.replace(/^https?:\/\/[^/]+/, ''),
      status: response.status,
      encoding: response.headers['content-encoding'] || response.headers['Content-Encoding'] || '',
      cached: response.fromDiskCache || response.fromMemoryCache || r.cached || false,
    });
    requests.set(requestId, r);
  });
  cdp.on('Network.requestServedFromCache', ({ requestId }) => {
    requests.set(requestId, { ...(requests.get(requestId) || {}), cached: true });
  });
  cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
    const r = requests.get(requestId) || {};
    r.decoded = (r.decoded || 0) + dataLength;
    requests.set(requestId, r);
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const r = requests.get(requestId) || {};
    r.bytes = encodedDataLength;
    requests.set(requestId, r);
  });
  cdp.on('Network.webSocketFrameReceived', ({ response }) => {
    ws += response.payloadData.length;
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await waitMatchReady(page);
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  const list = [...requests.values()].filter((r) => r.url);
  return {
    requests: list.length,
    fromCache: list.filter((r) => r.cached).length,
    notModified: list.filter((r) => r.status === 304).length,
    compressed: list.filter((r) => r.encoding).length,
    bytes: list.reduce((s, r) => s + (r.bytes || 0), 0),
    decoded: list.reduce((s, r) => s + (r.decoded || 0), 0),
    ws,
    list,
  };
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const created = await fetch(`${server.url}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'mad', seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }] }),
  }).then((r) => r.json());
  const url = `${server.url}/m/${created.id}`;
  const page = await newPage(browser);
  const first = await measure(page, url);
  const second = await measure(page, url);
  const row = (name, m) => `${name}: ${m.requests} requests, ${m.bytes} bytes transferred `
    + `(${m.decoded} bytes decoded; ${m.compressed} compressed, ${m.fromCache} from the cache, `
    + `${m.notModified} not modified), WebSocket ${m.ws} bytes received`;
  console.log(row('first load ', first));
  console.log(row('second load', second));
  if (process.env.VERBOSE) {
    for (const r of second.list) console.log(`  ${r.status} ${r.cached ? 'cache' : r.bytes} ${r.url}`);
  }
} finally {
  await browser.close();
  await server.stop();
}
