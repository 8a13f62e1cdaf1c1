package i18n

var englishDemoUsers = DemoUsersText{
	Label:          "Shows",
	Manager:        "The manager's view: dashboard, Needs attention, bulk actions, Check access and guest invitations",
	Assignee:       "A candidate's inbox: a task assigned to him (EXP-311) and INV-1042 to claim from Available",
	TwoGroups:      "A candidate in two groups (Finance, Purchasing), requester of INV-1042, with an overdue task of her own",
	SnapshotMember: "A member of a snapshot group: the audit sign-off is offered to the auditors as they were when it started",
	Excluded:       "An excluded user: in Finance, yet INV-1042 and TRV-88 exclude her, so she cannot see them",
	SecondTenant:   "The manager of the second tenant (globex): nothing of acme is visible here",
	Overdue:        "An assignee with an overdue task (DSC-3) and a task that times out if nobody acts",
	NamedCandidate: "A candidate by name (the laptop setup) and through the Support group",
	SnapshotLegal:  "A member of the legal snapshot group: the NDA review, frozen to the group as it was",
}
