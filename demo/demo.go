// Package demo is the dev-mode demo (SPEC 9: "demo tenants/users/tasks seeded once"): two
// tenants, their users and groups, a small form folder, and a dozen tasks projected through the
// real workflow.Projector.
package demo

import (
	"usertasks/formsource"
	"usertasks/workflow"
)

// ResolverOptions are the resolution sources of the demo: Directory and the embedded
// forms under FormProvider. MissingFormProvider is left out on purpose.
func ResolverOptions() workflow.ResolverOptions {
	return workflow.ResolverOptions{
		Directory: Directory,
		Forms:     map[string]formsource.Provider{FormProvider: formsource.NewFileProvider(Forms)},
	}
}
