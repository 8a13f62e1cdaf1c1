#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (e2e/), from apt only, when it is missing.
# Called by .ci/run before the tests; usable by hand: bash .ci/browser.sh
# The tests drive /usr/bin/chromium headless (chromedp); under CI=true they fail without it.
# fonts-liberation and fonts-dejavu-core give pages real text metrics in screenshots and in the
# axe colour-contrast checks (Chromium only recommends them).
set -euo pipefail

if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi -e liberation -e dejavu; then
  echo "installing chromium from Debian" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation fonts-dejavu-core >&2
fi

# Debian's wrapper script prints a harmless shell warning on some machines; keep only the version.
/usr/bin/chromium --headless --no-sandbox --disable-gpu --version 2>/dev/null | grep -i chromium >&2 || {
  echo "chromium is installed but does not start" >&2
  exit 1
}
