// The Bataille Navale page writes exactly the server's orders. Specials cost nothing in this match,
// so every ship may use both of its specials. At the start of the turn, for every ship (the one the
// server asks next and the others, planned from the turn's options), the pointer is moved over every
// cell of the four boards in every mode (bombing in both orientations). Then a second connection of
// the seat passes the ships one by one, so the server asks for each in turn, and the set of orders
// the page showed as possible (green) for that ship, in the parts it would send, must equal the
// server's legal list for it in parts (`legal_info`): same orders, same normalised aims (rules/naval.md section 6.5a), same torpedo lanes, shield centres and
// EMP targets. Passing changes none of a later ship's orders, so the lists are comparable. Last,
// a shot planned for one ship is no longer green for the next (section 5.5).

import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openCreatedMatch } from './lib.mjs';

const SHIPS = ['carrier', 'cruiser', 'battleship', 'frigate', 'submarine', 'corvette'];
/** An order's parts as one comparable string, from the page's `data-aim-parts` or from `legal_info`. */
const key = (p) => JSON.stringify([p.kind, p.piece ?? p.pieces?.[0], p.target ?? null, p.to ?? null, p.choice ?? null]);
const ABILITIES = ['shield', 'satellite', 'torpedo', 'sonar', 'rockets', 'missile', 'charges', 'radar', 'artillery', 'heavy', 'bombing', 'emp'];

test('Bataille Navale: the green aims of every mode are exactly the server legal orders', { timeout: 180000 }, async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const { page, created } = await openCreatedMatch(server, browser, {
        game: 'naval',
        config: { placement_moves: 1, costs: Object.fromEntries(ABILITIES.map((a) => [a, 0])) },
        seats: [{ kind: 'human' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }, { kind: 'bot', bot: 'random' }],
        creator_seat: 0,
      });
    await page.waitForFunction(() => document.body.dataset.nvPhase === 'placement' && document.body.dataset.myTurn === 'true');
    // Pick up a piece and put it back (rule 4.5), then Ready.
    const [px, py] = await page.evaluate(() => {
      const cell = document.querySelector('.nv-board.own .nv-piece[data-piece="carrier"]').dataset.cells.split(' ')[0];
      const b = document.querySelector(`rect.nv-cell[data-seat="0"][data-cell="${cell}"]`).getBoundingClientRect();
      return [b.x + b.width / 2, b.y + b.height / 2];
    });
    await page.mouse.click(px, py);
    await page.click('#nv-ready');
    await page.waitForFunction(() => document.body.dataset.nvTurn === 'mine' && document.body.dataset.myTurn === 'true', null, { timeout: 60000 });

    /** One exchange on a second connection of this seat: the current state, or the answer to `action` (chat aside). */
    const side = (action) => page.evaluate(([id, act]) => new Promise((resolve) => {
      const ws = new WebSocket(`ws://${location.host}/api/matches/${id}/ws`);
      ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: localStorage.getItem(`plateau.token.${id}`) }));
      let sent = false;
      ws.onmessage = (ev) => {
        const m = JSON.parse(ev.data);
        // The chat backlog follows each state of a connection; the spectator's state before the
        // auth message is answered is not the seat's.
        if (m.type === 'chat_backlog' || m.type === 'chat' || (m.type === 'state' && m.seat === null)) return;
        if (m.type === 'state' && act && !sent) {
          sent = true;
          ws.send(JSON.stringify({ type: 'act', version: m.version, action: act }));
          return;
        }
        ws.close();
        resolve(m);
      };
    }), [created.id, action]);

    /** The orders the page shows green in the selected mode, pointing at every cell of every board. */
    const greenAims = () => page.evaluate(() => {
      const svg = document.querySelector('svg.board');
      const seen = new Set();
      for (const rect of [...svg.querySelectorAll('rect.nv-cell')]) {
        const b = rect.getBoundingClientRect();
        svg.dispatchEvent(new PointerEvent('pointermove', { clientX: b.x + b.width / 2, clientY: b.y + b.height / 2, bubbles: true }));
        if (svg.dataset.aim === 'ok') seen.add(svg.dataset.aimParts);
      }
      return [...seen];
    });

    const start = await side(null);
    await page.waitForFunction((v) => document.body.dataset.version === String(v), start.version);
    const offered = new Map();
    for (const ship of SHIPS) {
      const row = await page.$(`.nv-ship[data-ship="${ship}"]:not([disabled])`);
      if (!row) continue; // sunk by the bots' first turns
      await row.click();
      const modes = await page.$$eval('.nv-mode', (els) => els.filter((e) => !e.disabled).map((e) => e.dataset.mode).filter((m) => m !== 'pass'));
      const seen = new Set();
      for (const mode of modes) {
        for (const vertical of mode === 'bombing' ? [false, true] : [false]) {
          await page.click(`.nv-mode[data-mode="${mode}"]`);
          if (vertical) await page.click('#nv-orient');
          for (const parts of await greenAims()) seen.add(key(JSON.parse(parts)));
        }
      }
      offered.set(ship, { modes, seen });
    }

    // Section 5.5: a shot planned for the first ship is not green for the next one.
    const [first, second] = [...offered.keys()];
    await page.click(`.nv-ship[data-ship="${first}"]`);
    const aimed = await page.evaluate(() => {
      const svg = document.querySelector('svg.board');
      for (const rect of [...svg.querySelectorAll('rect.nv-cell')]) {
        const b = rect.getBoundingClientRect();
        const at = { clientX: b.x + b.width / 2, clientY: b.y + b.height / 2, bubbles: true };
        svg.dispatchEvent(new PointerEvent('pointermove', at));
        if (svg.dataset.aim === 'ok') {
          svg.dispatchEvent(new MouseEvent('click', at));
          return { seat: rect.dataset.seat, cell: rect.dataset.cell };
        }
      }
      return null;
    });
    assert.ok(aimed, 'a cell to fire at');
    await page.click(`.nv-ship[data-ship="${second}"]`);
    const after = (await greenAims()).map((parts) => key(JSON.parse(parts)));
    const text = key({ kind: 'fire', piece: second, target: Number(aimed.seat), to: aimed.cell });
    assert.ok(offered.get(second).seen.has(text), text);
    assert.ok(!after.includes(text), `${text} is green though ${first} fires there`);
    await page.click('#nv-clear');

    const checked = [];
    for (const ship of SHIPS) {
      const st = await side(null);
      if (st.observation.next_ship !== ship) continue;
      const { modes, seen } = offered.get(ship);
      // The server's legal orders in parts, the pass aside.
      const legal = st.legal_info.filter((x) => x.kind !== 'pass').map(key);
      const kinds = new Set(legal.map((x) => JSON.parse(x)[0]));
      assert.deepEqual([...kinds].sort(), ['fire', ...modes.filter((m) => m !== 'fire')].sort(), `${ship}: the modes offered are the server's`);
      assert.deepEqual([...seen].sort(), [...legal].sort(), `${ship}: the green aims are the legal orders`);
      checked.push(ship);
      const answer = await side(`${ship}:pass`);
      assert.equal(answer.type, 'state', JSON.stringify(answer));
    }
    assert.ok(checked.length >= 3, `ships checked: ${checked.join(', ')}`);
    assert.deepEqual(page.jsErrors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
