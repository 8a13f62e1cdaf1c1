package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestArchitectureTracesNameRealCode keeps docs/architecture.md true: every function, method
// and type its request traces name in backquotes is declared in the package it names (or, when
// unqualified, somewhere in the module), so a rename that leaves the page behind fails here.
func TestArchitectureTracesNameRealCode(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	decls := declarations(t, "../..")
	name := regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)`")
	checked := 0
	for _, m := range name.FindAllStringSubmatch(string(doc), -1) {
		if strings.HasSuffix(m[1], ".go") {
			if !decls.files[m[1]] {
				t.Errorf("docs/architecture.md names the file %s, which the module does not have", m[1])
			}
			continue
		}
		parts := strings.Split(m[1], ".")
		if len(parts) == 1 && decls.packages[parts[0]] {
			continue // a package named on its own
		}
		pkg, names := "", parts
		if decls.packages[parts[0]] && len(parts) > 1 {
			pkg, names = parts[0], parts[1:]
		}
		for _, n := range names {
			if !decls.has(pkg, n) {
				t.Errorf("docs/architecture.md names `%s`, but %s is not declared in %s", m[1], n, orModule(pkg))
			}
			checked++
		}
	}
	if checked < 40 {
		t.Fatalf("checked only %d names: the traces are missing or the pattern no longer reads them", checked)
	}
}

func orModule(pkg string) string {
	if pkg == "" {
		return "the module"
	}
	return "package " + pkg
}

// moduleDecls holds the top-level names (functions, methods, types) declared by the module's
// production files, per package name, and the files' base names.
type moduleDecls struct {
	files    map[string]bool // base names of the production .go files
	packages map[string]bool
	byPkg    map[string]map[string]bool
}

func (d moduleDecls) has(pkg, name string) bool {
	if pkg != "" {
		return d.byPkg[pkg][name]
	}
	for _, names := range d.byPkg {
		if names[name] {
			return true
		}
	}
	return false
}

func declarations(t *testing.T, root string) moduleDecls {
	t.Helper()
	d := moduleDecls{files: map[string]bool{}, packages: map[string]bool{}, byPkg: map[string]map[string]bool{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" || otherModule(path)) && path != root {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		d.files[filepath.Base(path)] = true
		pkg := f.Name.Name
		d.packages[pkg] = true
		if d.byPkg[pkg] == nil {
			d.byPkg[pkg] = map[string]bool{}
		}
		for _, decl := range f.Decls {
			switch x := decl.(type) {
			case *ast.FuncDecl:
				d.byPkg[pkg][x.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range x.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						d.byPkg[pkg][ts.Name.Name] = true
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestArchitectureFloorsHold checks the floor table of docs/architecture.md against the code:
// every production import inside the module goes to a package on a lower floor, and none goes
// to a test-support package (testfactory, the …test folders). Sub-folders count with the top
// folder they sit in.
func TestArchitectureFloorsHold(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	floors := map[string]int{}
	row := regexp.MustCompile(`(?m)^\| (\d+) \| (.+?) \|`)
	pkg := regexp.MustCompile("`([a-z/]+)`")
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		for _, p := range pkg.FindAllStringSubmatch(m[2], -1) {
			floors[strings.Split(p[1], "/")[0]] = int(m[1][0] - '0')
		}
	}
	if len(floors) < 10 {
		t.Fatalf("read %d packages from the floor table", len(floors))
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir("../..", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		if e.IsDir() && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" || top == "e2e" || otherModule(path)) && rel != "." {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || !strings.Contains(rel, "/") {
			return nil
		}
		if testSupport(rel) {
			return nil // test-only helpers may stand on any floor; production never imports them (below)
		}
		from, ok := floors[top]
		if !ok {
			t.Errorf("%s: folder %s is missing from the floor table", rel, top)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if !strings.HasPrefix(p, "usertasks/") {
				continue
			}
			if testSupport(strings.TrimPrefix(p, "usertasks/")) {
				t.Errorf("%s imports the test-support package %s", rel, p)
				continue
			}
			target := strings.Split(strings.TrimPrefix(p, "usertasks/"), "/")[0]
			if target == top {
				continue
			}
			if to, ok := floors[target]; !ok || to >= from {
				t.Errorf("%s (floor %d) imports %s (floor %d): imports must go down", rel, from, p, to)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// testSupport reports whether a module path (relative to the module root) is test-only code:
// testfactory, or a folder such as storetest.
func testSupport(rel string) bool {
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(rel+"/x")), "/") {
		if dir == "testfactory" || (strings.HasSuffix(dir, "test") && dir != "test") {
			return true
		}
	}
	return false
}

// otherModule reports whether dir holds a module of its own (integrations/temporal,
// examples/temporal): not this module's packages, so not on its floors.
func otherModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}
