package demo

import (
	"embed"
	"io/fs"
)

// FormProvider is the provider name of the embedded demo forms.
const FormProvider = "demo"

// MissingFormProvider is a provider the demo references but never configures, so one demo
// task shows the blocking form-provider-missing finding.
const MissingFormProvider = "legacy-forms"

//go:embed forms
var demoFormFiles embed.FS

// Forms is the embedded demo form folder (`<key>/<version>.json`).
var Forms = func() fs.FS {
	sub, err := fs.Sub(demoFormFiles, "forms")
	if err != nil {
		panic(err) // the folder is embedded: cannot fail
	}
	return sub
}()
