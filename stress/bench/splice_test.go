package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplice: the section replaces the old one, or is appended; markers out of
// order are refused and the file left alone.
func TestSplice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.md")
	section := Begin + "\nnew ü\n" + End + "\n"
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write("# B\n")
	if err := Splice(path, section); err != nil || read() != "# B\n\n"+section {
		t.Fatalf("append: %v %q", err, read())
	}
	if err := Splice(path, section); err != nil || read() != "# B\n\n"+section {
		t.Fatalf("replace twice: %v %q", err, read())
	}
	write("# B\nprose quoting " + Begin + " and " + End + "\n" + section + "tail\n")
	if err := Splice(path, strings.Replace(section, "new", "newer", 1)); err != nil ||
		read() != "# B\nprose quoting "+Begin+" and "+End+"\n"+strings.Replace(section, "new", "newer", 1)+"tail\n" {
		t.Fatalf("quoted markers: %v %q", err, read())
	}
	bad := "x\n" + End + "\ny\n" + Begin + "\nz"
	write(bad)
	if err := Splice(path, section); !errors.Is(err, ErrSplice) || read() != bad {
		t.Fatalf("out of order: %v %q", err, read())
	}
	if err := Splice(filepath.Join(t.TempDir(), "missing.md"), section); err == nil {
		t.Fatal("a missing file was created")
	}
}
