package audit

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"usertasks/store"
	"usertasks/storekit"
)

// Report is what a run found (printed as text, or as JSON with these field names).
type Report struct {
	Tenant     string         `json:"tenant,omitempty"`
	Tasks      int            `json:"tasks"`
	Complete   bool           `json:"complete"` // every task in scope was checked
	Last       string         `json:"last,omitempty"`
	PrimaryKey string         `json:"primaryKey"`
	ByKey      map[string]int `json:"sealedValuesByKey"`
	Total      int            `json:"findingCount"`
	Counts     map[string]int `json:"findingsByInvariant"`
	Findings   []Finding      `json:"findings"`
}

// Finding is one finding as the report lists it.
type Finding struct {
	Tenant    string `json:"tenant,omitempty"`
	TaskID    string `json:"taskId,omitempty"`
	Row       string `json:"rowId,omitempty"`
	Invariant string `json:"invariant"`
	Message   string `json:"message"`
}

func (r *Report) add(found []store.AuditFinding) {
	for _, f := range found {
		r.Total++
		r.Counts[f.Invariant]++
		if len(r.Findings) < shown {
			r.Findings = append(r.Findings, Finding(f))
		}
	}
}

// Print writes the report as text.
func (r *Report) Print(w io.Writer) {
	scope := "every tenant"
	if r.Tenant != "" {
		scope = fmt.Sprintf("tenant %q", r.Tenant)
	}
	fmt.Fprintf(w, "audited %d tasks of %s\n", r.Tasks, scope)
	fmt.Fprintf(w, "sealed values by key: %s (primary %q)\n", ByKeyText(r.ByKey), r.PrimaryKey)
	if others := r.sealedUnderOtherKeys(); others > 0 {
		fmt.Fprintf(w, "  %d values are under other keys; `web rekey` moves them to the primary\n", others)
	}
	fmt.Fprintln(w, "findings by invariant:")
	for _, inv := range storekit.Invariants {
		fmt.Fprintf(w, "  %-20s %d\n", inv, r.Counts[inv])
	}
	if len(r.Findings) > 0 {
		fmt.Fprintf(w, "first %d findings:\n", len(r.Findings))
		for _, f := range r.Findings {
			fmt.Fprintf(w, "  %s: %s: %s\n", f.where(), f.Invariant, f.Message)
		}
	}
	switch {
	case r.Complete:
		fmt.Fprintln(w, "every task in scope was checked")
	case r.Last != "":
		fmt.Fprintf(w, "stopped at the limit; continue with --after %s\n", r.Last)
	}
	if r.Total == 0 {
		fmt.Fprintln(w, "clean: no findings")
	} else {
		fmt.Fprintf(w, "%d findings; the audit repairs nothing (docs/operations.md says what to do)\n", r.Total)
	}
}

// where names what a finding is about: the tenant (or the store), the task, the row.
func (f Finding) where() string {
	where := "tenant " + f.Tenant
	if f.Tenant == "" {
		where = "store"
	}
	if f.TaskID != "" {
		where += " task " + f.TaskID
	}
	if f.Row != "" {
		where += " row " + f.Row
	}
	return where
}

func (r *Report) sealedUnderOtherKeys() int {
	n := 0
	for kid, c := range r.ByKey {
		if kid != r.PrimaryKey {
			n += c
		}
	}
	return n
}

// ByKeyText lists sealed-value counts by key id, in key order ("none" when empty).
func ByKeyText(byKey map[string]int) string {
	if len(byKey) == 0 {
		return "none"
	}
	var parts []string
	for _, kid := range slices.Sorted(maps.Keys(byKey)) {
		parts = append(parts, fmt.Sprintf("%s=%d", kid, byKey[kid]))
	}
	return strings.Join(parts, " ")
}
