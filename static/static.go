// Package static holds the web pages' own CSS and JavaScript, embedded into the binary. Nothing
// is loaded from a CDN: the pages' Content-Security-Policy is `default-src 'self'`.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
)

// FS holds the assets, served under /static/.
//
//go:embed activity.js app.css app.js favicon.ico guest.css icon.svg live.js manage.css people.js timezone.js
var FS embed.FS

// versions maps each asset to a short hash of its content, for cache-busting URLs.
var versions = func() map[string]string {
	out := map[string]string{}
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		panic("static: " + err.Error()) // the embedded directory always reads
	}
	for _, e := range entries {
		b, err := FS.ReadFile(e.Name())
		if err != nil {
			panic("static: " + err.Error())
		}
		sum := sha256.Sum256(b)
		out[e.Name()] = hex.EncodeToString(sum[:6])
	}
	return out
}()

// Prefix is the URL path the assets are served under.
const Prefix = "/static/"

// Path returns the URL of an asset with its content version, e.g. /static/app.css?v=1a2b3c4d5e6f.
// A versioned URL names immutable content and may be cached for a long time.
func Path(name string) string {
	if v, ok := versions[name]; ok {
		return Prefix + name + "?v=" + v
	}
	return Prefix + name
}

// Version returns the content version of an asset, "" when there is none.
func Version(name string) string { return versions[name] }
