#!/bin/sh
# Chromium as the browser tests launch it (lib.mjs's BROWSER_OPTIONS): Debian's, or $CHROMIUM, with
# two more features off than playwright-core's own list, to which they are appended (Chromium
# takes only the last --disable-features it is given, so a second one would undo playwright's).
# The omnibox popups (WebUIOmniboxPopup, WebUIOmniboxAimPopup) are pages of the browser's own
# address bar, which a headless browser never shows: Chromium loads them in a renderer of their
# own for every browser context, which took more CPU than the page under test did to open a
# match, each time a test opened a context.
for arg do
  shift
  case "$arg" in
    --disable-features=*) arg="$arg,WebUIOmniboxPopup,WebUIOmniboxAimPopup" ;;
  esac
  set -- "$@" "$arg"
done
exec "${CHROMIUM:-/usr/bin/chromium}" "$@"
