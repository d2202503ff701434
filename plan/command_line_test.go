//go:build linux

package plan

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/shell"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// workflowCommand returns the first line of out a GitHub runner reads as
// a workflow command ("::" after the indentation, "##[" anywhere), or "".
func workflowCommand(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "##[") || strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") {
			return l
		}
	}
	return ""
}

var hostileNames = []string{"::error::pwned", "a\n::stop-commands::tok", "x\n  \t::add-mask::y", "##[error]z", "w##[group]", "###[v", "it's ##[x", "'\n::"}

// TestQuoteNoWorkflowCommand: Quote's word is the same string to sh,
// and no line of it is a workflow command.
func TestQuoteNoWorkflowCommand(t *testing.T) {
	for _, h := range hostileNames {
		q := shell.Quote(h)
		if l := workflowCommand(q); l != "" {
			t.Errorf("shell.Quote(%q) = %s: line %q is a workflow command", h, q, l)
		}
		out, err := exec.Command("sh", "-c", "printf %s "+q).Output()
		if err != nil || string(out) != h {
			t.Errorf("shell.Quote(%q) = %s: sh reads %q, %v", h, q, out, err)
		}
	}
}

// TestScriptNoWorkflowCommand: the plan script and plan --format json,
// printed in a CI log, hold no workflow command whatever the project,
// legacy paths and Docker root are named; the script stays valid sh, and
// what it prints when run (the names of untrusted files found in the
// legacy data, a target's differences) holds none either.
func TestScriptNoWorkflowCommand(t *testing.T) {
	needRsync(t)
	for _, h := range hostileNames {
		tmp := t.TempDir()
		// A legacy path holds no control character (manifest.ValidPath).
		legacy := filepath.Join(tmp, "legacy "+strings.NewReplacer("/", "_", "\n", " ", "\t", " ").Replace(h))
		writeFile(t, filepath.Join(legacy, "data", "ok"), "ok\n")
		dst := filepath.Join(tmp, "target", "data")
		p, err := Of([]*manifest.Module{bindModule(dst, nil)}, Options{LegacyProjectDirectory: legacy})
		if err != nil {
			t.Fatal(err)
		}
		p.Project, p.DockerRoot = "c2mtest"+h, "/var/lib/docker"+h
		var script, js bytes.Buffer
		if err := WriteScript(&script, p); err != nil {
			t.Fatal(err)
		}
		if l := workflowCommand(script.String()); l != "" {
			t.Errorf("%q: script line %q is a workflow command", h, l)
		}
		if out, err := exec.Command("sh", "-n", "-c", script.String()).CombinedOutput(); err != nil {
			t.Errorf("%q: the script is not valid sh: %v: %s", h, err, out)
		}
		if err := WriteJSON(&js, p); err != nil {
			t.Fatal(err)
		}
		if l := workflowCommand(js.String()); l != "" {
			t.Errorf("%q: JSON line %q is a workflow command", h, l)
		}
		if strings.Contains(h, "\n") {
			continue
		}
		p.Project = ""
		// The target differs from the source: the script lists the
		// differences, names from the data.
		writeFile(t, filepath.Join(dst, h), "other\n")
		writeFile(t, filepath.Join(legacy, "data", h), "one\n")
		out, code := runScriptWith(t, p, tmp, "")
		if code == 0 || !strings.Contains(out, "differs") {
			t.Fatalf("%q: exit %d, want a refusal listing the differences:\n%s", h, code, out)
		}
		if l := workflowCommand(out); l != "" {
			t.Errorf("%q: the script printed %q, a workflow command:\n%s", h, l, out)
		}
		if os.Getuid() != 0 {
			continue
		}
		if err := os.RemoveAll(filepath.Join(tmp, "target")); err != nil {
			t.Fatal(err)
		}
		suid := filepath.Join(legacy, "data", h+"-suid")
		writeFile(t, suid, "#!/bin/sh\n")
		if err := syscall.Chmod(suid, 0o4755); err != nil {
			t.Fatal(err)
		}
		out, code = runScriptWith(t, p, tmp, "")
		if code == 0 || !strings.Contains(out, "setuid") {
			t.Fatalf("%q: exit %d, want a refusal listing the setuid file:\n%s", h, code, out)
		}
		if l := workflowCommand(out); l != "" {
			t.Errorf("%q: the script printed %q, a workflow command:\n%s", h, l, out)
		}
	}
}
