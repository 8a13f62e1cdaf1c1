package repository

import (
	"testing"

	"usertasks/keyring"
)

// Golden scenarios of key rotation (rekey.go): one page of tasks read, one value resealed
// under the new primary key with a compare-and-swap on the old envelope.

func rekeyScenarios() []goldenScenario {
	return []goldenScenario{
		{"rekey-page", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{Instructions: "Check the totals.", Data: `{"amount":1}`})
			oldSpec, err := keyring.Generate("old")
			goldenOK(t, err)
			newSpec, err := keyring.Generate("new")
			goldenOK(t, err)
			old, err := keyring.Parse(oldSpec)
			goldenOK(t, err)
			g.s.keys = old
			rec := g.record(task)
			g.s.keys, err = keyring.Parse(newSpec + "," + oldSpec)
			goldenOK(t, err)
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{rec}}}.rows})
			p, err := g.s.RekeyPage(g.ctx, "user_tasks", "0", 2, false)
			goldenOK(t, err)
			if p.Rows != 1 || p.Resealed == 0 || p.ByKey["old"] == 0 || len(p.Unreadable) != 0 {
				t.Fatalf("page %+v", p)
			}
		}},
		{"rekey-comments-page", func(t *testing.T, g *goldenEnv) {
			// A comment's associated data is its tenant, task and id: the walk reads them with it.
			task := g.task(goldenTaskOpts{})
			oldSpec, err := keyring.Generate("old")
			goldenOK(t, err)
			newSpec, err := keyring.Generate("new")
			goldenOK(t, err)
			g.s.keys, err = keyring.Parse(oldSpec)
			goldenOK(t, err)
			rec := g.commentRecord(task, "c1", "sealed")
			g.s.keys, err = keyring.Parse(newSpec + "," + oldSpec)
			goldenOK(t, err)
			g.answer(fakeScript{Rows: goldenRows{"user_task_comments": {{rec}}}.rows})
			p, err := g.s.RekeyPage(g.ctx, "user_task_comments", "", 2, false)
			goldenOK(t, err)
			if p.Rows != 1 || p.Resealed != 1 || p.ByKey["old"] != 1 || len(p.Unreadable) != 0 {
				t.Fatalf("page %+v", p)
			}
		}},
	}
}
