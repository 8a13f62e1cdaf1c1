package views

import "usertasks/views/i18n"

// formTroubleRef says which form the task asked for: key, version and provider.
func formTroubleRef(t *i18n.Catalog, f *FormTrouble) string {
	if f.Version == "" {
		return t.Format(t.Labels.FormRefLatest, f.Key, f.Provider)
	}
	return t.Format(t.Labels.FormRef, f.Key, f.Version, f.Provider)
}

// formTroubleWhere says where the provider is configured: the built-in one by its variable;
// any other name is not configured on this server.
func formTroubleWhere(t *i18n.Catalog, f *FormTrouble) string {
	if f.Provider == f.Builtin {
		return t.Format(t.Labels.FormWhereFiles, f.Provider, f.Variable)
	}
	return t.Format(t.Labels.FormWhereUnknown, f.Provider, f.Builtin, f.Variable)
}
