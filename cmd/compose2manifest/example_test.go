package main

import (
	"path/filepath"
	"testing"
)

// TestExampleConvertsAndChecks runs the README's first command's job on the
// example and checks the result: a freshly converted manifest passes check
// and check --against with exit 0.
func TestExampleConvertsAndChecks(t *testing.T) {
	example, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if code, _, stderr := runCLI(t, example, "convert", "-f", "mail/compose.yaml", "-o", out); code != exitOK {
		t.Fatalf("convert: exit %d\n%s", code, stderr)
	}
	// A clean check prints only its summary line.
	const clean = "compose2manifest: checked 1 manifest: 0 errors, 0 warnings\n"
	if code, _, stderr := runCLI(t, example, "check", out); code != exitOK || stderr != clean {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, example, "check", "--against", example, out); code != exitOK || stderr != clean {
		t.Fatalf("check --against: exit %d\n%s", code, stderr)
	}
}
