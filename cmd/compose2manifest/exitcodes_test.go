package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEExitCodes: README's table of exit codes says what the code
// does. Warnings are not findings for the exit code: convert with only a
// warning writes its manifest and exits 0, check with only a warning
// exits 0, and with --warnings-as-errors 1; the table's rows say each of
// these, and list every code the command exits with.
func TestREADMEExitCodes(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\| ([0-9, ]+) \| (.+) \|$`).FindAllStringSubmatch(string(data), -1) {
		rows[m[1]] = m[2]
	}
	for _, code := range []string{"0", "1", "2", "3", "130, 143"} {
		if rows[code] == "" {
			t.Errorf("README's exit codes have no row for %s", code)
		}
	}
	for code, words := range map[string][]string{
		"0": {"Warnings are not findings for the exit code", "convert prints them and writes the manifest", "check prints them and exits 0", "unless given `--warnings-as-errors`"},
		"1": {"convert found an error", "check found an error", "with `--warnings-as-errors`, a warning"},
		"2": {"for check, a manifest it could not read"},
	} {
		for _, w := range words {
			if !strings.Contains(rows[code], w) {
				t.Errorf("README's row for exit %s lacks %q: %s", code, w, rows[code])
			}
		}
	}

	// What the rows say: a project whose one finding is a warning (C2M011,
	// the parent /srv/app of its volume undeclared).
	dir := t.TempDir()
	for name, content := range map[string]string{
		"compose.yaml":          "services:\n  app:\n    image: example.org/app:1\n    volumes: [data:/data]\nvolumes:\n  data:\n",
		"compose2manifest.yaml": "version: 1\nvolume_root: /srv\nvolumes:\n  data: {owner: \"1000:1000\", mode: \"0750\", intent: state}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runIn(dir, "convert", "-p", "app", "-o", "out")
	if code != 0 || !strings.Contains(stderr, "C2M011 warning") {
		t.Fatalf("convert with a warning: exit %d, want 0 with the warning printed:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "app.yaml")); err != nil {
		t.Fatalf("convert with a warning wrote no manifest: %v", err)
	}
	if code, stdout, _ := runIn(dir, "check", "out"); code != 0 || !strings.Contains(stdout, "C2M011 warning") {
		t.Errorf("check with a warning: exit %d, want 0 with the warning printed:\n%s", code, stdout)
	}
	if code, _, _ := runIn(dir, "check", "--warnings-as-errors", "out"); code != 1 {
		t.Errorf("check --warnings-as-errors with a warning: exit %d, want 1", code)
	}
}
