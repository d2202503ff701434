// Package archtest holds tests of the repository's shape: where rule IDs
// may be written, and which package reads compose files.
package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goFiles returns the repository's non-test Go files, slash paths
// relative to its root, with their parsed syntax.
func goFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root not found: %v", err)
	}
	out := map[string]*ast.File{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("found only %d Go files under %s", len(out), root)
	}
	return out
}

// TestRuleIDsOnlyInRules: a rule's ID, severity and judging live in its
// rules.Rule value, so no string literal starting with a rule ID appears
// in non-test Go code outside rules/.
func TestRuleIDsOnlyInRules(t *testing.T) {
	for name, f := range goFiles(t) {
		if strings.HasPrefix(name, "rules/") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && strings.HasPrefix(s, "C2M0") {
				t.Errorf("%s: rule ID literal %s outside rules/", name, lit.Value)
			}
			return true
		})
	}
}

// TestOnlyProjectReadsCompose: compose files are read once, by package
// project. Elsewhere no code imports compose-go's loading packages (cli,
// loader) or parses volume syntax, and yaml.v3 decodes only the
// project's own formats: declarations (declare, and the skeletons ask
// and the tests build), manifests (manifest) and the image table
// (images).
func TestOnlyProjectReadsCompose(t *testing.T) {
	yamlAllowed := []string{"declare/", "manifest/", "images/", "imageconfig/lock.go", "ask/skeleton.go", "internal/skeletontest/", "internal/schematest/"}
	for name, f := range goFiles(t) {
		if strings.HasPrefix(name, "project/") {
			continue
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch path {
			case "github.com/compose-spec/compose-go/v2/cli", "github.com/compose-spec/compose-go/v2/loader", "github.com/compose-spec/compose-go/v2/format":
				t.Errorf("%s imports %s: only project/ loads compose files", name, path)
			}
		}
		allowed := false
		for _, a := range yamlAllowed {
			allowed = allowed || strings.HasPrefix(name, a)
		}
		if allowed {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "yaml" {
				switch sel.Sel.Name {
				case "Unmarshal", "NewDecoder":
					t.Errorf("%s: yaml.%s outside project/ and the packages of our own formats", name, sel.Sel.Name)
				}
			}
			return true
		})
	}
}

// TestImageTableDecodedOnce: the embedded image table is decoded once per
// process (images.Default) and shared; only package images and tests
// call images.Load, which decodes it afresh.
func TestImageTableDecodedOnce(t *testing.T) {
	for name, f := range goFiles(t) {
		if strings.HasPrefix(name, "images/") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, isIdent := sel.X.(*ast.Ident); isIdent && x.Name == "images" && sel.Sel.Name == "Load" {
				t.Errorf("%s: images.Load decodes the table again: use images.Default", name)
			}
			return true
		})
	}
}

// TestCommandIsAFace: cmd/compose2manifest holds flags, formats, exit
// codes, the terminal and signals; the work is in the packages. It stays
// at most 1,100 lines of non-test Go.
func TestCommandIsAFace(t *testing.T) {
	const most = 1100
	files, err := filepath.Glob("../../cmd/compose2manifest/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no command files: %v", err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(data), "\n")
	}
	if lines > most {
		t.Errorf("cmd/compose2manifest has %d lines of non-test Go, more than %d: move the work into a package", lines, most)
	}
}
