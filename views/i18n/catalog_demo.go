package i18n

// DemoUsersText labels the dev login's demo users by what signing in as each of them shows
// (dev mode only). The keys are the demo seed's (demo.User.Shows); an unknown key shows
// nothing.
type DemoUsersText struct {
	Label          string // the heading of the line, e.g. "Shows"
	Manager        string // "manager"
	Assignee       string // "assignee"
	TwoGroups      string // "two-groups"
	SnapshotMember string // "snapshot-member"
	Excluded       string // "excluded"
	SecondTenant   string // "second-tenant"
	Overdue        string // "overdue-assignee"
	NamedCandidate string // "named-candidate"
	SnapshotLegal  string // "snapshot-legal"
}

// Shows returns the label of a demo user's key, or "" for a key without one.
func (d DemoUsersText) Shows(key string) string {
	switch key {
	case "manager":
		return d.Manager
	case "assignee":
		return d.Assignee
	case "two-groups":
		return d.TwoGroups
	case "snapshot-member":
		return d.SnapshotMember
	case "excluded":
		return d.Excluded
	case "second-tenant":
		return d.SecondTenant
	case "overdue-assignee":
		return d.Overdue
	case "named-candidate":
		return d.NamedCandidate
	case "snapshot-legal":
		return d.SnapshotLegal
	}
	return ""
}
