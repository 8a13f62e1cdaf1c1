package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"usertasks/stress"
	"usertasks/testfactory"
)

// stressAnswer is what `web stress --json` prints.
type stressAnswer struct {
	Reports []stress.Report `json:"reports"`
	OK      bool            `json:"ok"`
}

// TestStressOverHTTP runs every mode small against a real server on each dialect: the
// invariants hold, checked over the API and, with the database configured too, by the
// store's audit; the report holds the raw baseline. Timings are never asserted.
func TestStressOverHTTP(t *testing.T) {
	for _, d := range testfactory.SQLProviders {
		t.Run(d.Name(), func(t *testing.T) {
			vars := productionVars("")
			vars["USERTASKS_DATABASE_URL"] = testfactory.Database(t, d)
			base := startServe(t, vars)
			got := stressAllOverHTTP(t, vars, base)
			for _, r := range got.Reports {
				if len(r.Figures) == 0 || r.Figures[0].Baseline == nil || r.Figures[0].ThroughputRatio == 0 {
					t.Errorf("%s: the first figure has no baseline and ratio: %+v", r.Mode, r.Figures)
				}
			}
			if d != "sqlite" {
				return
			}
			t.Run("WithoutDatabase", func(t *testing.T) {
				client := productionVars("")
				delete(client, "USERTASKS_DATABASE_URL")
				code, out, errOut := runCLI(t, client, "stress", "claim", "--url", base, "--tasks", "5", "--writers", "2", "--json")
				if code != exitOK {
					t.Fatalf("stress exited %d:\n%s\n%s", code, out, errOut)
				}
				var got stressAnswer
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatal(err)
				}
				r := got.Reports[0]
				if !r.OK || r.Dialect != "" || len(r.Notes) == 0 || r.Figures[0].Baseline != nil {
					t.Fatalf("over the API alone: ok %v, dialect %q, notes %q, baseline %v", r.OK, r.Dialect, r.Notes, r.Figures[0].Baseline)
				}
			})
		})
	}
}

// stressAllOverHTTP runs every stress mode small against the server at base as the client
// configured by vars, and checks that each passed over HTTP with its invariants.
func stressAllOverHTTP(t *testing.T, vars map[string]string, base string) stressAnswer {
	t.Helper()
	code, out, errOut := runCLI(t, vars, "stress", "all", "--url", base, "--tasks", "20", "--writers", "3", "--json")
	if code != exitOK {
		t.Fatalf("stress exited %d:\n%s\n%s", code, out, errOut)
	}
	var got stressAnswer
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("decode the report: %v\n%s", err, out)
	}
	if !got.OK || len(got.Reports) != len(stress.Modes) {
		t.Fatalf("ok %v with %d reports, want ok with %d", got.OK, len(got.Reports), len(stress.Modes))
	}
	for _, r := range got.Reports {
		if r.Target != "http" || !r.OK || len(r.Checks) == 0 {
			t.Errorf("%s: target %s ok %v with %d checks", r.Mode, r.Target, r.OK, len(r.Checks))
		}
	}
	return got
}

// A failed invariant is exit status 3 (errFindings), in text and in JSON.
func TestStressFindingsExitThree(t *testing.T) {
	reports := []stress.Report{{Mode: "cas", Target: "store", Checks: []stress.Check{{Name: "cas: applied", Want: "5", Got: "6"}}}}
	for _, asJSON := range []bool{false, true} {
		var out strings.Builder
		err := printStress(&out, reports, asJSON)
		if !errors.Is(err, errFindings) || !strings.Contains(out.String(), "cas: applied") {
			t.Fatalf("json %v: err %v, output %q: want errFindings and the check", asJSON, err, out.String())
		}
	}
}

// TestStressStore runs one mode against the store and prints the text report.
func TestStressStore(t *testing.T) {
	vars := productionVars("")
	vars["USERTASKS_DATABASE_URL"] = testfactory.Database(t, testfactory.SQLite)
	code, out, errOut := runCLI(t, vars, "stress", "cas", "--tasks", "10", "--writers", "2")
	if code != exitOK {
		t.Fatalf("stress exited %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"== cas (store on sqlite)", "raw: cas transaction, contended", "ratio (ours / raw)", "invariants: all"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// TestStressNotify runs the notify mode small against the store: its exact counts hold and the
// report prints both projection figures and their p95 ratio.
func TestStressNotify(t *testing.T) {
	vars := productionVars("")
	vars["USERTASKS_DATABASE_URL"] = testfactory.Database(t, testfactory.SQLite)
	code, out, errOut := runCLI(t, vars, "stress", "notify", "--tasks", "6", "--members", "4", "--writers", "2")
	if code != exitOK {
		t.Fatalf("stress exited %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"== notify (store on sqlite): 6 tasks × 2 writers × 1 rounds, a group of 4",
		"projection, notifications off", "projection, notifications on", "notifications on / off", "invariants: all"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestStressRefusesBadInvocations(t *testing.T) {
	vars := productionVars(t.TempDir() + "/ut.db")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"NoMode", []string{"stress"}, "needs a mode"},
		{"UnknownMode", []string{"stress", "nope"}, `no mode "nope"`},
		{"ZeroTasks", []string{"stress", "cas", "--tasks", "0"}, "--tasks must be between"},
		{"TooManyWriters", []string{"stress", "claim", "--writers", "100000"}, "--writers must be between"},
		{"Argument", []string{"stress", "cas", "extra"}, "takes no arguments"},
		{"NegativePace", []string{"stress", "mixed", "--pace", "-5"}, "--pace must be 0 (unthrottled)"},
		{"PaceOutsideMixed", []string{"stress", "claim", "--pace", "10"}, "flag provided but not defined: -pace"},
		{"NotHTTP", []string{"stress", "cas", "--url", "ftp://example.com"}, "must be http(s)"},
		{"ControlCharacterURL", []string{"stress", "cas", "--url", "http://exa\x00mple"}, "must be http(s)"},
		{"NotifyOverHTTP", []string{"stress", "notify", "--url", "http://127.0.0.1:1"}, "no --url"},
		{"NotifyGroupOfOne", []string{"stress", "notify", "--members", "1"}, "--members 2 to 1000"},
		{"MembersOutsideNotify", []string{"stress", "burst", "--members", "5"}, "flag provided but not defined: -members"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, vars, tc.args...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "usage: web stress") {
				t.Fatalf("exit %d, stderr %q: want 2 with %q and the usage", code, errOut, tc.want)
			}
		})
	}
	t.Run("MixedHelpNamesPace", func(t *testing.T) {
		code, _, errOut := runCLI(t, vars, "stress", "mixed", "--help")
		if code != exitOK || !strings.Contains(errOut, "[--pace N]") || !strings.Contains(errOut, "0 is unthrottled") {
			t.Fatalf("exit %d, help %q: want --pace documented", code, errOut)
		}
	})
	t.Run("NoSecret", func(t *testing.T) {
		v := productionVars(t.TempDir() + "/ut.db")
		delete(v, "USERTASKS_JWT_HS256_SECRET")
		code, _, errOut := runCLI(t, v, "stress", "cas", "--url", "http://127.0.0.1:1")
		if code != exitUsage || !strings.Contains(errOut, "HS256 secret") {
			t.Fatalf("exit %d, stderr %q: want 2 naming the secret", code, errOut)
		}
	})
	t.Run("HelpListsModes", func(t *testing.T) {
		code, out, _ := runCLI(t, nil, "help", "stress")
		for _, c := range stressCommands() {
			if code != exitOK || !strings.Contains(out, "  "+c.name+" ") {
				t.Fatalf("help stress (%d) does not list %s:\n%s", code, c.name, out)
			}
		}
	})
}
