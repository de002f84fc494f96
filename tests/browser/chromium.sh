#!/bin/sh
# Chromium as the browser tests launch it (lib.mjs's BROWSER_OPTIONS): Debian's, or $CHROMIUM, with
# three more features off than playwright-core's own list, to which they are appended (Chromium
# takes only the last --disable-features it is given, so a second one would undo playwright's).
# The omnibox popups (WebUIOmniboxPopup, WebUIOmniboxAimPopup) are pages of the browser's own
# address bar, which a headless browser never shows: Chromium loads them in a renderer of their
# own for every browser context, which took more CPU than the page under test did to open a
# match, each time a test opened a context. The spare renderer (SpareRendererForSitePerProcess)
# is a renderer started ahead for the next page of a browser context; the tests open a context
# of their own for nearly every page, so the spare was of the wrong context, thrown away and
# started again: about 270 renderer processes in a run of them all, 100 without.
for arg do
  shift
  case "$arg" in
    --disable-features=*) arg="$arg,WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess" ;;
  esac
  set -- "$@" "$arg"
done
exec "${CHROMIUM:-/usr/bin/chromium}" "$@"
