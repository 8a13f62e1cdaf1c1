package main

import (
	"os"
	"strings"
	"testing"
)

// The repository carries the Apache License 2.0 in full and the README says so and why.
func TestLicenseFileAndREADME(t *testing.T) {
	license, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatalf("LICENSE: %v", err)
	}
	text := string(license)
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "9. Accepting Warranty or Additional Liability.", "END OF TERMS AND CONDITIONS"} {
		if !strings.Contains(text, want) {
			t.Errorf("LICENSE lacks %q: not the full standard text", want)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "## License") || !strings.Contains(string(readme), "[LICENSE](LICENSE)") {
		t.Error("README.md has no License section linking LICENSE")
	}
}
