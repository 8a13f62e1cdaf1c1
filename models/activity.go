package models

// ActivityCount is what a list row tells of a task's Activity section (SPEC 10.1, 10.2; issue
// 29 item 4): how many comments it shows with text (deleted ones not) and how many files it
// lists (finished uploads only). The counts are read for the rows shown, never stored.
type ActivityCount struct {
	Comments    int
	Attachments int
}

// MaxActivityCountTasks bounds the tasks one ActivityCounts read names: one list page.
const MaxActivityCountTasks = MaxPageSize

// Zero reports whether the task has neither comments nor files.
func (c ActivityCount) Zero() bool { return c.Comments == 0 && c.Attachments == 0 }
