// "Your turn": the tab title, the browser's Notification API (permission asked on a click, as
// browsers require) and a short sound made with WebAudio (no asset), muted with a toggle kept in
// localStorage ("plateau.sound" = "off").

import { t } from './i18n.js';

const SOUND_KEY = 'plateau.sound';
let audio = null;
let baseTitle = document.title;

/** Sets the title the page shows when it is not this player's turn. */
export function setBaseTitle(title) {
  baseTitle = title;
}

/** Shows or clears the "your turn" mark in the tab title. */
export function markTitle(yourTurn) {
  const title = yourTurn ? `● ${t('match.turn.you')} · ${baseTitle}` : baseTitle;
  if (document.title !== title) document.title = title;
}

/** Whether the sound is on (the default). */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) !== 'off';
}

/** Turns the sound on or off and remembers it. */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
}

/**
 * Two short notes (about 0.25 s). Browsers start audio only after a user gesture on the page; a
 * context that cannot start yet is simply silent.
 */
export function chime() {
  if (!soundOn()) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
    const now = audio.currentTime;
    for (const [i, freq] of [[0, 660], [1, 880]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.18, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.13);
    }
    document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch {
    // No audio on this browser: the title and the notification still tell.
  }
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

/** A system notification "your turn in {title}" when the page is not in view and it is allowed. */
export function notifyTurn(title, url) {
  if (!('Notification' in window) || Notification.permission !== 'granted' || !document.hidden) return;
  try {
    const n = new Notification(t('notify.turn', { title }), { body: t('notify.body'), tag: url });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the title mark remains.
  }
}
