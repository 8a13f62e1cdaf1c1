package models

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Rule names one step of an access decision. The keys are stable and kebab-case: the JSON API
// returns them and pages translate them; Reason.Args fill the rule's sentence in order.
type Rule string

// The rules of the decisions in policy.go, and the premises an explanation rests on.
const (
	RuleTenant                Rule = "tenant"                  // same tenant as the task
	RuleOtherTenant           Rule = "other-tenant"            // cross-tenant references never match
	RulePermission            Rule = "permission"              // args: permission, the grant that covers it
	RulePermissionMissing     Rule = "permission-missing"      // args: permission
	RulePermissionAssumed     Rule = "permission-assumed"      // args: permission
	RuleManager               Rule = "manager"                 // managers see every task of their tenant
	RuleHealthBlocking        Rule = "health-blocking"         // args: health code
	RuleHealthBlockingManager Rule = "health-blocking-manager" // args: health code
	RuleAssignee              Rule = "assignee"
	RuleNotAssignee           Rule = "not-assignee"
	RuleGuestAssignee         Rule = "guest-assignee"
	RuleCandidateUser         Rule = "candidate-user"
	RuleCandidateGroup        Rule = "candidate-group"        // args: group (live membership)
	RuleSnapshotMember        Rule = "snapshot-member"        // args: the source group
	RuleSnapshotGroupIgnored  Rule = "snapshot-group-ignored" // args: group
	RuleNotCandidate          Rule = "not-candidate"
	RuleSubstitute            Rule = "substitute" // args: the absent candidate user
	RuleExcluded              Rule = "excluded"
	RuleExclusionOverride     Rule = "exclusion-override"    // a manager may still assign, with a reason
	RuleNoExclusionOverride   Rule = "no-exclusion-override" // nobody may assign them
	RuleExclusionOverridden   Rule = "exclusion-overridden"  // excluded, yet assigned by a manager
	RuleCompleter             Rule = "completer"
	RulePastActor             Rule = "past-actor"
	RuleNoRelationship        Rule = "no-relationship"
	RuleStatus                Rule = "status"        // args: status
	RuleStatusDenies          Rule = "status-denies" // args: status, the status needed

	// Premises: what the explanation knows of the participant and what it assumes.
	RuleOwnToken          Rule = "own-token"             // the caller's own token: groups, permissions, role
	RuleGroupsFromDir     Rule = "groups-directory"      // args: the candidate groups the directory lists them in
	RuleGroupsNone        Rule = "groups-directory-none" // the directory lists them in none of the candidate groups
	RuleGroupsUnknown     Rule = "groups-unknown"        // no directory: live group candidacy cannot match
	RuleGroupsNotChecked  Rule = "groups-not-checked"    // args: how many candidate groups were not looked up
	RuleGroupLookupFailed Rule = "group-lookup-failed"   // args: group the directory could not expand
	RuleManagerAssumedNot Rule = "manager-not-assumed"   // explained as a participant, not as a manager
	RuleGroupMember       Rule = "group-member"          // a group: explained for a member by that membership alone
)

// Effect says how a step weighed: it admitted the participant, refused them, or only informs.
type Effect string

const (
	EffectAllow Effect = "allow"
	EffectDeny  Effect = "deny"
	EffectNote  Effect = "note"
)

// Reason is one step of an explanation: the rule, its effect, the values its sentence names
// (permissions, grants, group names, statuses, health codes — never protected content) and a
// short English detail for API clients.
type Reason struct {
	Rule   Rule
	Effect Effect
	Args   []string
	Detail string
}

// details are the English sentences of the rules, %s filled from Args in order.
var details = map[Rule]string{
	RuleTenant:                "The participant belongs to the task's tenant.",
	RuleOtherTenant:           "The participant belongs to another tenant; cross-tenant references never match.",
	RulePermission:            "Needs %s; the grant %s covers it.",
	RulePermissionMissing:     "Needs %s; no grant covers it.",
	RulePermissionAssumed:     "Needs %s; another person's permissions are not known here, so it is assumed held.",
	RuleManager:               "A manager of the tenant sees every task.",
	RuleHealthBlocking:        "Blocking health (%s) hides the task from everyone but managers.",
	RuleHealthBlockingManager: "Blocking health (%s) hides the task from everyone but managers; managers still see it.",
	RuleAssignee:              "The participant is the assignee.",
	RuleNotAssignee:           "Only the assignee may complete; the participant is not the assignee.",
	RuleGuestAssignee:         "The guest holds the task through a verified invitation.",
	RuleCandidateUser:         "The participant is named as a candidate user.",
	RuleCandidateGroup:        "The participant is a member of the candidate group %s (live membership).",
	RuleSnapshotMember:        "The participant was a member of %s when the task was created (snapshot membership).",
	RuleSnapshotGroupIgnored:  "The participant is in the candidate group %s, but snapshot membership fixed the members when the task was created.",
	RuleNotCandidate:          "The participant is not a candidate.",
	RuleSubstitute:            "The participant stands in for %s, an absent candidate user.",
	RuleExcluded:              "The participant is excluded; exclusions override candidacy.",
	RuleExclusionOverride:     "The task allows a manager to assign an excluded user, with a reason.",
	RuleNoExclusionOverride:   "The task does not allow assigning an excluded user.",
	RuleExclusionOverridden:   "The participant is excluded, but a manager assigned the task to them with the override.",
	RuleCompleter:             "The participant completed the task.",
	RulePastActor:             "The participant acted on the task before.",
	RuleNoRelationship:        "The participant has no relationship to the task: not a manager, assignee, candidate, completer or past actor.",
	RuleStatus:                "The status %s allows it.",
	RuleStatusDenies:          "The status is %s; this needs %s.",

	RuleOwnToken:          "Explained from the caller's own token: its groups, permissions and role.",
	RuleGroupsFromDir:     "The participant directory lists the participant in these candidate groups: %s.",
	RuleGroupsNone:        "The participant directory lists the participant in none of the candidate groups.",
	RuleGroupsNotChecked:  "%s more candidate groups were not looked up; membership in them is not known.",
	RuleGroupsUnknown:     "No participant directory is configured, so the participant's groups are not known; live group candidacy cannot match.",
	RuleGroupLookupFailed: "The participant directory could not expand the group %s; membership in it is not known.",
	RuleManagerAssumedNot: "Another person's role is not known here: they are explained as a participant, not as a manager.",
	RuleGroupMember:       "Explained for a member of the group who has no other relationship to the task.",
}

// NewReason builds a reason with its English detail.
func NewReason(rule Rule, effect Effect, args ...string) Reason {
	detail := string(rule)
	if format, ok := details[rule]; ok {
		anys := make([]any, len(args))
		for i, a := range args {
			anys[i] = a
		}
		detail = fmt.Sprintf(format, anys...)
	}
	return Reason{Rule: rule, Effect: effect, Args: args, Detail: detail}
}

// RuleArgs is how many values a rule's sentence names; pages check their translations by it.
func RuleArgs(rule Rule) int { return strings.Count(details[rule], "%s") }

// Rules lists every rule, for the translations' completeness test.
func Rules() []Rule { return slices.Sorted(maps.Keys(details)) }

// because records the steps of one decision. A nil *because records nothing, so the boolean
// answers run the same code as the explanation without its cost.
type because struct {
	reasons []Reason
	// assumed marks the actor's permissions as assumed: the explanation is about another person.
	assumed bool
}

func (b *because) add(rule Rule, effect Effect, args ...string) {
	if b != nil {
		b.reasons = append(b.reasons, NewReason(rule, effect, args...))
	}
}

// permitted is ActorCan, recording which grant covered the permission.
func (b *because) permitted(a Actor, perm string) bool {
	grant, ok := GrantFor(a.Permissions, perm)
	switch {
	case b == nil:
	case !ok:
		b.add(RulePermissionMissing, EffectDeny, perm)
	case b.assumed:
		b.add(RulePermissionAssumed, EffectNote, perm)
	default:
		b.add(RulePermission, EffectAllow, perm, grant)
	}
	return ok
}

// status records whether the task's status allows the operation, which needs want.
func (b *because) status(t Task, ok bool, want Status) bool {
	if ok {
		b.add(RuleStatus, EffectAllow, string(t.Status))
	} else {
		b.add(RuleStatusDenies, EffectDeny, string(t.Status), string(want))
	}
	return ok
}
