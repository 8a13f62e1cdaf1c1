package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"usertasks/keyring"
	"usertasks/testfactory"
)

func TestRekeyResealsUnderTheNewKeySoTheOldOneCanGo(t *testing.T) {
	specs := map[string]string{}
	for _, kid := range []string{"old", "new", "stranger"} {
		spec, err := keyring.Generate(kid)
		if err != nil {
			t.Fatal(err)
		}
		specs[kid] = spec
	}
	old, err := keyring.Parse(specs["old"])
	if err != nil {
		t.Fatal(err)
	}
	url := testfactory.Database(t, testfactory.SQLite)
	s := testfactory.Open(t, url, &testfactory.StoreOpts{Keys: old})
	for range 3 {
		testfactory.Task(context.Background(), t, s, &testfactory.TaskOpts{Instructions: "keep this secret"})
	}
	s.Close()

	rekey := func(keys string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append([]string{"rekey"}, args...), env(map[string]string{
			"USERTASKS_DATABASE_URL": url, "USERTASKS_ENCRYPTION_KEYS": keys,
		}), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	both := specs["new"] + "," + specs["old"]

	code, out, errOut := rekey(both, "--dry-run", "--page-size", "2")
	if code != 0 || !strings.Contains(out, "dry run: 3 values would be resealed") || !strings.Contains(out, "old=3") {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = rekey(both, "--page-size", "2")
	if code != 0 || !strings.Contains(out, `every sealed value is under key "new" (3 resealed now)`) {
		t.Fatalf("rekey: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = rekey(specs["new"], "--dry-run")
	if code != 0 || !strings.Contains(out, "new=3") || strings.Contains(out, "old=") {
		t.Fatalf("after rotation, with the old key removed: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = rekey(specs["stranger"])
	if code != 1 || !strings.Contains(out, "3 values open under no configured key") || strings.Contains(out, "keep this secret") {
		t.Fatalf("unknown key: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"--page-size", "0"}, {"extra"}, {"--nope"}} {
		if code, _, _ := rekey(both, bad...); code != 2 {
			t.Errorf("rekey %v: exit %d, want 2", bad, code)
		}
	}
	if code, _, errOut := rekey(""); code != 1 || !strings.Contains(errOut, "USERTASKS_ENCRYPTION_KEYS") {
		t.Errorf("without keys: exit %d, %s", code, errOut)
	}
}
