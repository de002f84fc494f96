// The translations as data (web/js/i18n-texts.js): the French is complete against the English
// (every key, every plural form, the same placeholders), no table repeats another's key, and the
// pages' `tn` picks each language's plural form (Intl.PluralRules). Needs no browser or server:
// the page modules are copied beside a package.json that makes Node read them as ES modules.
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WEB_JS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'js');

/** The copies made, removed when the tests are over. */
const copies = [];
after(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

/** Imports web/js/`file` (and what it imports) as an ES module, from a copy of web/js. */
async function importPage(file) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plateau-i18n-'));
  copies.push(dir);
  for (const name of fs.readdirSync(WEB_JS)) fs.copyFileSync(path.join(WEB_JS, name), path.join(dir, name));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type": "module"}');
  return import(pathToFileURL(path.join(dir, file)).href);
}

const { TEXTS, PARTS } = await importPage('i18n-texts.js');

/** The placeholders of a text, sorted: "{side} wins ({kind})" -> ["kind", "side"]. */
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** A text's forms: `{ '': text }` for a plain text, else its plural forms. */
const forms = (entry) => (typeof entry === 'string' ? { '': entry } : entry);

test('every language has every English key, and no key the English lacks', () => {
  const english = Object.keys(TEXTS.en);
  for (const [part, langs] of Object.entries(PARTS)) {
    for (const key of Object.keys(langs.en)) assert.ok(key in TEXTS.en, `${part}'s ${key} is merged`);
  }
  for (const [code, table] of Object.entries(TEXTS)) {
    const missing = english.filter((k) => !(k in table));
    const extra = Object.keys(table).filter((k) => !(k in TEXTS.en));
    assert.deepEqual(missing, [], `${code} lacks these keys`);
    assert.deepEqual(extra, [], `${code} has keys the English lacks`);
  }
});

test('each text is a string or a count\'s forms, the same kind in every language, with the forms its language needs', () => {
  for (const [code, table] of Object.entries(TEXTS)) {
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    for (const [key, entry] of Object.entries(table)) {
      const english = TEXTS.en[key];
      if (english === undefined) continue; // the first test names it
      assert.equal(typeof entry, typeof english, `${code} ${key}: a text where the English has forms, or the reverse`);
      if (typeof entry === 'string') continue;
      assert.equal(typeof entry.other, 'string', `${code} ${key} has its "other" form`);
      for (const form of Object.keys(entry)) {
        assert.ok(categories.includes(form), `${code} ${key}: "${form}" is no plural form of ${code} (${categories})`);
      }
      // Every form the English distinguishes, the language distinguishes too where its rules have it.
      for (const form of Object.keys(english)) {
        if (categories.includes(form)) assert.ok(form in entry, `${code} ${key} lacks its "${form}" form`);
      }
    }
  }
});

test('each text has the same placeholders in every language', () => {
  for (const [code, table] of Object.entries(TEXTS)) {
    for (const [key, entry] of Object.entries(table)) {
      if (TEXTS.en[key] === undefined) continue; // the first test names it
      const english = forms(TEXTS.en[key]);
      for (const [form, text] of Object.entries(forms(entry))) {
        const want = placeholders(english[form] ?? english.other);
        assert.deepEqual(placeholders(text), want, `${code} ${key}${form ? ` (${form})` : ''}: ${text}`);
      }
    }
  }
});

test('no table repeats a key another table holds', () => {
  const seen = new Map();
  for (const [part, langs] of Object.entries(PARTS)) {
    for (const key of Object.keys(langs.en)) {
      assert.ok(!seen.has(key), `${key} is in ${seen.get(key)} and ${part}`);
      seen.set(key, part);
    }
  }
});

test('tn picks the form by the language\'s plural rule', async () => {
  // i18n.js reads the stored language at load: a stand-in storage and navigator for Node.
  const store = new Map([['plateau.lang', 'en']]);
  globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
  const { tn, setLang } = await importPage('i18n.js');
  assert.equal(tn('lobby.online', 1), 'player online');
  assert.equal(tn('lobby.online', 0), 'players online');
  assert.equal(tn('lobby.online', 2), 'players online');
  assert.equal(tn('nv.res.hits', 1), 'hit');
  assert.equal(tn('nv.res.hits', 3), '3 hits');
  setLang('fr');
  assert.equal(tn('lobby.online', 0), 'joueur en ligne');
  assert.equal(tn('lobby.online', 1), 'joueur en ligne');
  assert.equal(tn('lobby.online', 2), 'joueurs en ligne');
  assert.equal(tn('nv.passes', 1), '1 navire a passé');
  assert.equal(tn('nv.passes', 4), '4 navires ont passé');
});

test('the how-to pages have every section and paragraph in every language', async () => {
  const { HOWTO } = await importPage('howto-texts.js');
  const shape = (sections) => sections.map(([heading, paragraphs]) => [typeof heading, paragraphs.length]);
  assert.deepEqual(Object.keys(HOWTO).sort(), ['chakart', 'mad', 'moonleap', 'naval']);
  for (const [game, langs] of Object.entries(HOWTO)) {
    assert.deepEqual(Object.keys(langs).sort(), Object.keys(TEXTS).sort(), `${game}'s languages`);
    for (const code of Object.keys(TEXTS)) {
      assert.deepEqual(shape(langs[code]), shape(langs.en), `${game} in ${code}: sections and paragraphs`);
    }
  }
});
