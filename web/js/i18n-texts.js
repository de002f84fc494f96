// @ts-check
// Every text of the pages as data, per language: the tables of the i18n-*.js files merged, each a
// plain object of key -> text. A text is a string with `{name}` placeholders, or, for a count, its
// plural forms (`{ one, other }`, more where a language has them: the categories of
// Intl.PluralRules), of which i18n.js's `tn` picks one. A table holds no code, so that a test
// (tests/browser/i18n.test.mjs) checks the French complete against the English.

import { PAGE_TEXTS } from './i18n-pages.js';
import { GAME_TEXTS } from './i18n-games.js';
import { PLAYER_TEXTS } from './i18n-players.js';
import { TABLE_TEXTS } from './i18n-table.js';
import { MANNERS_TEXTS } from './i18n-manners.js';
import { COMMUNITY_TEXTS } from './i18n-community.js';
import { TOURNAMENT_TEXTS } from './i18n-tournaments.js';
import { MODERATION_TEXTS } from './i18n-moderation.js';

/**
 * A count's forms, by plural category (Intl.PluralRules); `other` is always there and stands for
 * any category a table leaves out.
 * @typedef {{ zero?: string, one?: string, two?: string, few?: string, many?: string, other: string }} Plural
 */

/** @typedef {Record<string, string | Plural>} Table One language's texts, by key. */

/** The tables merged in, in order (a later table never repeats a key: the test checks). */
export const PARTS = { PAGE_TEXTS, GAME_TEXTS, PLAYER_TEXTS, TABLE_TEXTS, MANNERS_TEXTS, COMMUNITY_TEXTS, TOURNAMENT_TEXTS, MODERATION_TEXTS };

/** @type {Record<string, Table>} Every language's texts: `en` is complete, the others follow it. */
export const TEXTS = { en: {}, fr: {} };
for (const part of Object.values(PARTS)) {
  for (const [code, table] of Object.entries(part)) Object.assign(TEXTS[code], table);
}
