// Package e2e holds the browser tests: the real `web` binary in dev mode on a fresh SQLite file,
// driven through Debian Chromium with chromedp, with an axe-core scan and a screenshot of every
// page. The tests are in _test.go files; this package has no other code.
//
// Without /usr/bin/chromium (or USERTASKS_CHROMIUM) the tests skip with a message, except
// under CI=true, where they fail. .ci/browser.sh installs Chromium from Debian.
//
// Screenshots go to artifacts/screenshots/ at the repository root (gitignored); every path is
// logged.
package e2e
