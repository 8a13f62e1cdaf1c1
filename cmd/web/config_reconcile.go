package main

import (
	"fmt"
	"strings"

	"usertasks/models"
)

// reconcileSettings name the tenants the reconciliation visits besides those the store knows
// (USERTASKS_RECONCILE_TENANTS): the store knows a tenant by its tasks, so a tenant whose first
// projection never arrived would otherwise never have its committed bookmarks recreated.
func (c *config) reconcileSettings() []setting {
	return []setting{{name: "USERTASKS_RECONCILE_TENANTS", set: tenantList(&c.ReconcileTenants)}}
}

// tenantList stores comma-separated tenant ids, each once, in the order given. Every id follows
// the rule of a token's tenant claim (auth): 1 to models.MaxTenantLength bytes of UTF-8 without
// control or bidirectional formatting characters; a refusal names the entry by its position.
func tenantList(dst *[]string) func(name, v string) error {
	return func(name, v string) error {
		var ids []string
		seen := map[string]bool{}
		for i, part := range strings.Split(v, ",") {
			id := strings.TrimSpace(part)
			if problem := tenantIDProblem(id); problem != "" {
				return fmt.Errorf("%s: tenant %d (%s) %s", name, i+1, quoteShort(id), problem)
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		*dst = ids
		return nil
	}
}

// tenantIDProblem is why id is no tenant id a token could carry, or "".
func tenantIDProblem(id string) string {
	switch {
	case id == "":
		return "is empty"
	case len(id) > models.MaxTenantLength:
		return fmt.Sprintf("is longer than %d bytes", models.MaxTenantLength)
	}
	return models.TextProblem(id, models.Identifier)
}
