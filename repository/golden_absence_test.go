package repository

import (
	"testing"
	"time"

	"usertasks/models"
)

// Golden scenarios of out-of-office absences (absence.go).

func goldenAbsence() models.Absence {
	a, err := models.NewAbsence("t1", models.ParticipantRef{ID: "u1"}, goldenNow.Add(-time.Hour), goldenNow.Add(24*time.Hour),
		models.ParticipantRef{ID: "u2", DisplayName: "Ulla Two"})
	if err != nil {
		panic(err)
	}
	a.CreatedAt, a.UpdatedAt = goldenNow.Add(-2*time.Hour), goldenNow.Add(-2*time.Hour)
	return a
}

func (g *goldenEnv) absenceRecord(a models.Absence) *absenceRecord {
	return &absenceRecord{g.s.codec().AbsenceRow(&a)}
}

func absenceScenarios() []goldenScenario {
	u1 := models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "u1"}
	return []goldenScenario{
		{"put-absence-new", func(t *testing.T, g *goldenEnv) {
			a, err := g.s.PutAbsence(g.ctx, goldenAbsence())
			goldenOK(t, err)
			if !a.CreatedAt.Equal(goldenNow) {
				t.Fatalf("created %v", a.CreatedAt)
			}
		}},
		{"put-absence-replace", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_absences": {{g.absenceRecord(goldenAbsence())}}}.rows})
			a, err := g.s.PutAbsence(g.ctx, goldenAbsence())
			goldenOK(t, err)
			if !a.CreatedAt.Equal(goldenNow.Add(-2*time.Hour)) || !a.UpdatedAt.Equal(goldenNow) {
				t.Fatalf("created %v updated %v", a.CreatedAt, a.UpdatedAt)
			}
		}},
		{"absence", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_absences": {{g.absenceRecord(goldenAbsence())}}}.rows})
			a, err := g.s.Absence(g.ctx, "t1", u1)
			goldenOK(t, err)
			if a.Substitute.ID != "u2" {
				t.Fatalf("got %+v", a)
			}
		}},
		{"active-absence", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_absences": {{g.absenceRecord(goldenAbsence())}}}.rows})
			_, err := g.s.ActiveAbsence(g.ctx, "t1", u1)
			goldenOK(t, err)
		}},
		{"delete-absence", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.DeleteAbsence(g.ctx, "t1", u1))
		}},
		{"substituted-by", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_absences": {{g.absenceRecord(goldenAbsence())}}}.rows})
			got, err := g.s.SubstitutedBy(g.ctx, "t1", models.ParticipantRef{Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "u2"})
			goldenOK(t, err)
			if len(got) != 1 || got[0].ID != "u1" {
				t.Fatalf("got %+v", got)
			}
		}},
	}
}
