package views

import (
	"fmt"
	"strings"
	"time"

	"usertasks/views/i18n"
)

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

// ZoneLabel is the reader's time zone as people say it: the zone's city and its offset now,
// e.g. "Berlin time (UTC+01:00)"; UTC is "UTC". The IANA id stays in ZoneName, for a tooltip.
func (c Chrome) ZoneLabel() string {
	name := c.ZoneName()
	if c.Location == nil || name == "UTC" || name == "Local" {
		return name
	}
	city := name
	if i := strings.LastIndexByte(city, '/'); i >= 0 {
		city = city[i+1:]
	}
	city = strings.ReplaceAll(city, "_", " ")
	now := c.Now
	if now.IsZero() {
		now = time.Now()
	}
	_, offset := now.In(c.Location).Zone()
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	utc := fmt.Sprintf("UTC%s%02d:%02d", sign, offset/3600, offset%3600/60)
	if strings.HasPrefix(name, "Etc/") || city == "" {
		return utc
	}
	return c.T.Format(c.T.Labels.ZoneLabel, city, utc)
}
