package handlers

import (
	"net/url"
	"slices"

	"usertasks/models"
	"usertasks/tasks"
	"usertasks/views"
	"usertasks/views/i18n"
)

// The inbox's health filters (managers only, as on the API): healthCode may repeat, and
// healthSeverity is blocking or advisory. They live in the URL like every other filter:
//
//	/inbox?tab=needs-attention&healthCode=no-participants&healthCode=form-resolution-failed&healthSeverity=blocking

// readHealthFilters reads the health filters of an inbox URL, as typed; empty and repeated
// codes are left out (the URL is tidied of them like of every other empty input), so a link
// built from the state never grows with a repeated code.
func readHealthFilters(q url.Values) views.HealthFilters {
	h := views.HealthFilters{Severity: q.Get("healthSeverity")}
	for _, code := range q["healthCode"] {
		if code != "" && !slices.Contains(h.Codes, code) {
			h.Codes = append(h.Codes, code)
		}
	}
	return h
}

// setHealthFilters puts the health filters into an inbox URL's query.
func setHealthFilters(v url.Values, h views.HealthFilters) {
	for _, code := range h.Codes {
		v.Add("healthCode", code)
	}
	if h.Severity != "" {
		v.Set("healthSeverity", h.Severity)
	}
}

// filtersHealth reports whether the URL narrows the list by health.
func (q inboxQuery) filtersHealth() bool {
	return len(q.filters.Health.Codes) > 0 || q.filters.Health.Severity != ""
}

// healthFilter parses the health filters into f; problems are messages by input name.
func (q inboxQuery) healthFilter(f *models.TaskFilter, errs map[string]string, t *i18n.Catalog) {
	h := q.filters.Health
	for _, code := range h.Codes {
		if !models.KnownHealthCode(code) {
			errs["healthCode"] = t.InvalidChoice
			return
		}
		f.HealthCodes = append(f.HealthCodes, code)
	}
	if h.Severity != "" {
		if s := models.Severity(h.Severity); s.Valid() {
			f.HealthSeverity = s
		} else {
			errs["healthSeverity"] = t.InvalidChoice
		}
	}
}

// attentionNotes says why a row is on the Needs attention list, besides its health finding,
// which the row's badge shows.
func attentionNotes(v tasks.TaskView) []views.AttentionNote {
	var out []views.AttentionNote
	for _, r := range v.Attention {
		switch r {
		case models.AttentionOverdue:
			out = append(out, views.AttentionNote{Reason: r})
		case models.AttentionStale:
			if v.Task.TransitionedAt != nil {
				out = append(out, views.AttentionNote{Reason: r, Since: *v.Task.TransitionedAt})
			}
		case models.AttentionUnassigned:
			out = append(out, views.AttentionNote{Reason: r, Since: v.Task.CreatedAt})
		}
	}
	return out
}
