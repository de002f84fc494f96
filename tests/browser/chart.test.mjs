// The rating chart of the player page (web/js/chart.js), drawn in the browser from a sample
// `history` as the players API gives it: one line per game, one point per rated game, higher
// ratings higher on the chart, the x axis counting games, and round numbers on the y axis.

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage } from './lib.mjs';

test('the rating chart draws each game\'s history', { timeout: 60000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await newPage(browser);
    await page.goto(`${server.url}/assets/howto.html?game=mad`);
    await page.waitForSelector('body[data-ready="true"]');
    const drawn = await page.evaluate(async () => {
      const { ratingChart, chartLegend, ticks } = await import('/assets/js/chart.js');
      const history = {
        mad: [1500, 1658, 1570, 1611].map((rating, i) => ({ at: 1764466800000 + i * 60000, rating, match: i ? `m${i}` : null })),
        moonleap: [1500, 1432].map((rating, i) => ({ at: 1764466800000 + i * 60000, rating, match: i ? `n${i}` : null })),
        chakart: [],
      };
      const svg = ratingChart(history, (g) => g.toUpperCase(), 'sample');
      document.body.append(svg, chartLegend(history, (g) => g.toUpperCase()));
      const points = [...svg.querySelectorAll('circle.point')].map((c) => ({
        game: c.dataset.game, i: Number(c.dataset.index), rating: Number(c.dataset.rating),
        x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')), title: c.querySelector('title').textContent,
      }));
      const tickLabels = [...svg.querySelectorAll('text.tick')].map((e) => e.textContent);
      return {
        points, tickLabels, lines: svg.querySelectorAll('polyline.series').length,
        legend: [...document.querySelectorAll('.chart-legend li')].map((li) => li.textContent.trim()),
        ticks: ticks(1390, 1700), label: svg.getAttribute('aria-label'),
      };
    });
    assert.equal(drawn.lines, 2, 'a game without points draws no line');
    assert.deepEqual(drawn.legend, ['MAD', 'MOONLEAP']);
    assert.equal(drawn.label, 'sample');
    const mad = drawn.points.filter((p) => p.game === 'mad');
    assert.deepEqual(mad.map((p) => p.rating), [1500, 1658, 1570, 1611]);
    assert.equal(mad[1].title, 'MAD: 1658');
    // x grows with the game count; both games share the axis (point 1 at the same x).
    for (let i = 1; i < mad.length; i++) assert.ok(mad[i].x > mad[i - 1].x);
    const ml = drawn.points.filter((p) => p.game === 'moonleap');
    assert.equal(ml[1].x, mad[1].x);
    // y: a higher rating is drawn higher (smaller y), proportionally.
    const all = drawn.points;
    for (const a of all) for (const b of all) if (a.rating > b.rating) assert.ok(a.y < b.y, `${a.rating} above ${b.rating}`);
    const slope = (mad[1].y - mad[0].y) / (1658 - 1500);
    assert.ok(Math.abs((ml[1].y - ml[0].y) / (1432 - 1500) - slope) < 1e-3, 'one scale for every line');
    // Round ticks: steps of 100 between 1390 and 1700.
    assert.deepEqual(drawn.ticks, [1400, 1500, 1600, 1700]);
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
