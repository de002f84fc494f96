// @ts-check
// "Your turn": the tab title, the browser's Notification API (permission asked on a click, as
// browsers require) and a short sound made with WebAudio (no asset), muted with a toggle kept in
// localStorage ("plateau.sound" = "off").

import { t } from './i18n.js';

const SOUND_KEY = 'plateau.sound';
/** The page's sound and title: made once, kept for the page's life. */
const sound = {
  /** @type {AudioContext | null} The page's audio context, made at the first sound. */
  audio: null,
  /** The page's title without the turn's mark. */
  baseTitle: document.title,
};

/**
 * Sets the title the page shows when it is not this player's turn.
 * @param {string} title
 */
export function setBaseTitle(title) {
  sound.baseTitle = title;
}

/**
 * Shows or clears the "your turn" mark in the tab title.
 * @param {boolean} yourTurn
 */
export function markTitle(yourTurn) {
  const title = yourTurn ? `● ${t('match.turn.you')} · ${sound.baseTitle}` : sound.baseTitle;
  if (document.title !== title) document.title = title;
}

/** Whether the sound is on (the default). */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== 'off';
}

/**
 * Turns the sound on or off and remembers it.
 * @param {boolean} on
 */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

/** The page's audio context, made at the first sound (browsers start audio only after a gesture). */
function context() {
  sound.audio = sound.audio || new (window.AudioContext || /** @type {any} */ (window).webkitAudioContext)();
  if (sound.audio.state === 'suspended') sound.audio.resume();
  return sound.audio;
}

/**
 * Plays `notes` (`[start s, frequency Hz, length s, loudness]`) with WebAudio, unless the sound is
 * off, and counts it in `data-<counter>` on the body (tests read it). A context that cannot start
 * yet is simply silent.
 * @param {[number, number, number, number][]} list
 * @param {string} counter
 * @param {OscillatorType} [type]
 */
function notes(list, counter, type = 'sine') {
  if (!soundOn()) return;
  try {
    const ctx = context();
    const now = ctx.currentTime;
    for (const [at, freq, length, loud] of list) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(loud, now + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.01);
    }
    document.body.dataset[counter] = String(Number(document.body.dataset[counter] || 0) + 1);
  } catch {
    // No audio on this browser: the board and the title still tell.
  }
}

/** Your turn: two short rising notes (about 0.25 s). */
export function chime() {
  notes([[0, 660, 0.12, 0.18], [0.12, 880, 0.12, 0.18]], 'chimes');
}

/** Another seat moved: one soft low knock, like a piece set down (0.08 s). */
export function moveSound() {
  notes([[0, 220, 0.08, 0.22]], 'moveSounds', 'triangle');
}

/** The game is over: three notes down to the tonic (about 0.6 s). */
export function endSound() {
  notes([[0, 784, 0.2, 0.16], [0.18, 659, 0.2, 0.16], [0.36, 523, 0.3, 0.16]], 'endSounds');
}

/** Whether the page may ask for notifications (the API exists and nobody answered yet). */
export function canAskNotifications() {
  return 'Notification' in window && Notification.permission === 'default';
}

/** Asks for the permission; call from a click handler. Resolves to the answer. */
export async function askNotifications() {
  if (!('Notification' in window)) return 'denied';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * A system notification "your turn in {title}" when the page is not in view and it is allowed.
 * @param {string} title the game's title
 * @param {string} url the match page, opened by a click on the notification
 */
export function notifyTurn(title, url) {
  notifyText(t('notify.turn', { title }), t('notify.body'), url);
}

/**
 * A system notification of `text` (and `body`) when the page is not in view and it is allowed;
 * `tag` keeps one notification per subject.
 * @param {string} text
 * @param {string} body
 * @param {string} tag
 */
export function notifyText(text, body, tag) {
  if (!('Notification' in window) || Notification.permission !== 'granted' || !document.hidden) return;
  try {
    const n = new Notification(text, { body, tag });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the title mark remains.
  }
}
