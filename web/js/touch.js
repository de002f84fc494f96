// @ts-check
// Touch has no hover: on a touch screen, what a mouse shows on hover (the ships a swap moves, where
// a leap lands, the area of a shot) is shown by a first tap, and a second tap on the same control
// plays it. This module tells whether the last press was a finger, and keeps which control was
// tapped once.

/** What the page knows of the last presses. */
const fingers = {
  /** Whether the last press was a finger (or a pen). */
  touch: false,
  /** @type {string | null} The control tapped once (a key the caller chooses), waiting for its second tap; or null. */
  armed: null,
};
document.addEventListener('pointerdown', (ev) => {
  fingers.touch = ev.pointerType === 'touch' || ev.pointerType === 'pen';
}, { capture: true, passive: true });

/** Whether the last press on the page was a finger (or a pen) rather than a mouse. */
export function lastTouch() {
  return fingers.touch;
}

/**
 * A press on the control named `key`: with a mouse `act()` at once; with a finger the first tap
 * calls `preview()` and arms the control, the second tap on the same control calls `act()`.
 * Returns true when it acted.
 * @param {string} key
 * @param {() => void} preview
 * @param {() => void} act
 * @returns {boolean}
 */
export function tapTwice(key, preview, act) {
  if (!fingers.touch || fingers.armed === key) {
    fingers.armed = null;
    act();
    return true;
  }
  fingers.armed = key;
  preview();
  return false;
}

/** The control waiting for its second tap (null when none): drawn as "tap again". */
export function armedKey() {
  return fingers.armed;
}

/** Forgets the control tapped once (the position changed, or the player did something else). */
export function disarm() {
  fingers.armed = null;
}
