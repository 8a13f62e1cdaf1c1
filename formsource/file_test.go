package formsource_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"usertasks/formsource"
	"usertasks/models"
)

// Two versions of a small form; the provider answers a file's bytes as they are.
const (
	formV1 = `{"type":"object","properties":{"decision":{"type":"string","enum":["approve","reject"]}}}`
	formV2 = `{"type":"object","properties":{"decision":{"type":"string","enum":["approve","reject"]},"note":{"type":"string"}}}`
)

// testForms is a form folder with two versions of "approval", a file that is no version, and
// a broken "broken".
func testForms() fstest.MapFS {
	return fstest.MapFS{
		"approval/1.json": {Data: []byte(formV1)},
		"approval/2.json": {Data: []byte(formV2)},
		"approval/notes":  {Data: []byte("not a version")},
		"broken/1.json":   {Data: []byte(`{"type":"array"}`)},
	}
}

func TestFileProvider(t *testing.T) {
	ctx := context.Background()
	p := formsource.NewFileProvider(testForms())

	t.Run("Latest", func(t *testing.T) {
		for _, v := range []string{"", "latest"} {
			f, err := p.Resolve(ctx, "t1", models.FormRef{Provider: "files", Key: "approval", Version: v})
			if err != nil {
				t.Fatal(err)
			}
			if f.Key != "approval" || f.Version != "2" || string(f.Schema) != formV2 {
				t.Errorf("version %q resolved to %s v%s, want approval v2", v, f.Key, f.Version)
			}
		}
	})

	t.Run("Explicit", func(t *testing.T) {
		f, err := p.Resolve(ctx, "t1", models.FormRef{Key: "approval", Version: "1"})
		if err != nil || f.Version != "1" || string(f.Schema) != formV1 {
			t.Fatalf("v1 = %s, %v", f.Version, err)
		}
	})

	t.Run("LatestIsNumeric", func(t *testing.T) {
		fsys := fstest.MapFS{}
		for _, v := range []string{"2", "10", "9"} {
			fsys["f/"+v+".json"] = &fstest.MapFile{Data: []byte(formV1)}
		}
		f, err := formsource.NewFileProvider(fsys).Resolve(ctx, "t1", models.FormRef{Key: "f"})
		if err != nil || f.Version != "10" {
			t.Fatalf("latest = %q, %v; want 10", f.Version, err)
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		for name, ref := range map[string]models.FormRef{
			"UnknownKey":     {Key: "nope"},
			"UnknownVersion": {Key: "approval", Version: "3"},
			"NotAVersion":    {Key: "approval", Version: "notes"},
			"ZeroVersion":    {Key: "approval", Version: "0"},
			"TraversalKey":   {Key: "../approval"},
			"DotsKey":        {Key: "a..b"},
			"NestedKey":      {Key: "approval/1.json"},
			"EmptyKey":       {Key: ""},
		} {
			if _, err := p.Resolve(ctx, "t1", ref); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("%s: err = %v, want ErrNotFound", name, err)
			}
		}
	})

	t.Run("InvalidSchema", func(t *testing.T) {
		_, err := p.Resolve(ctx, "t1", models.FormRef{Key: "broken"})
		if err == nil || errors.Is(err, models.ErrNotFound) || !strings.Contains(err.Error(), "not a valid form") {
			t.Fatalf("err = %v, want an invalid-form error", err)
		}
	})

	t.Run("Folder", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "leave"), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "leave", "3.json"), []byte(formV2), 0o600); err != nil {
			t.Fatal(err)
		}
		fp, err := formsource.OpenFileProvider(dir)
		if err != nil {
			t.Fatal(err)
		}
		f, err := fp.Resolve(ctx, "t1", models.FormRef{Key: "leave", Version: "latest"})
		if err != nil || f.Version != "3" {
			t.Fatalf("leave = %q, %v; want version 3", f.Version, err)
		}
		if _, err := formsource.OpenFileProvider(filepath.Join(dir, "missing")); err == nil {
			t.Error("a missing folder opened")
		}
		if _, err := formsource.OpenFileProvider(filepath.Join(dir, "leave", "3.json")); err == nil {
			t.Error("a file opened as a folder")
		}
	})
}
