// Package e2e holds the end-to-end tests of the Temporal integration: a Temporal server
// in-process (temporaltest), a real `web serve` of User Tasks built from this repository, the
// runtime endpoint between them, and people deciding through the JSON API and the browser.
package e2e
