//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/compose2manifest/compose2manifest/internal/skeletontest"
	"github.com/compose2manifest/compose2manifest/internal/treetest"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/plan"
)

// TestLayoutPlanInventory is issue 12's done-when, end to end through the
// command, on the README example and the corpus's mail projects
// (docker-mailserver, mailcow, mailu): converted with --layout fhs (the
// refusal's skeleton filled in until convert accepts), the manifest
// passes check; plan's script, run for real with its paths moved under a
// temporary root, copies every source (a tree written where the legacy
// host keeps it) to its declared path exactly, with the declared owner
// and mode, and a second run changes nothing; and inventory --backup
// lists exactly the state and content paths (the topmost of each nested
// run).
func TestLayoutPlanInventory(t *testing.T) {
	type project struct{ name, src, file string }
	projects := []project{{"example", "../../testdata/example/mail", "compose.yaml"}}
	if corpus := os.Getenv(corpusEnv); corpus != "" {
		projects = append(projects,
			project{"docker-mailserver", filepath.Join(corpus, "docker-mailserver"), "compose.yaml"},
			project{"mailcow", filepath.Join(corpus, "mailcow"), "docker-compose.yml"},
			project{"mailu", filepath.Join(corpus, "mailu"), "docker-compose.yml"})
	} else {
		t.Logf("%s is not set: the README example only", corpusEnv)
	}
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "legacy", "checkout")
			if err := os.CopyFS(dir, os.DirFS(p.src)); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(root, "manifests")
			convertFHS(t, dir, p.file, out)
			if code, stdout, stderr := runCLI(t, dir, "check", out); code != exitOK {
				t.Fatalf("check: exit %d\n%s\n%s", code, stdout, stderr)
			}
			mods := decodeDir(t, out)

			// inventory --backup: exactly the topmost state and content paths.
			code, stdout, stderr := runCLI(t, dir, "inventory", "--backup", out)
			if code != exitOK {
				t.Fatalf("inventory --backup: exit %d\n%s", code, stderr)
			}
			got := strings.Fields(stdout)
			if want := backupPaths(mods); !slices.Equal(got, want) {
				t.Errorf("inventory --backup:\n got %q\nwant %q", got, want)
			}

			// The plan, run for real under a temporary root.
			docker := filepath.Join(root, "legacy", "docker")
			code, stdout, stderr = runCLI(t, dir, "plan", "--layout", "fhs", "-f", p.file, "--docker-root", docker, "--format", "json")
			if code != exitOK {
				t.Fatalf("plan: exit %d\n%s", code, stderr)
			}
			var pl plan.Plan
			if err := json.Unmarshal([]byte(stdout), &pl); err != nil {
				t.Fatal(err)
			}
			if len(pl.Moves) == 0 {
				t.Fatal("the plan moves nothing")
			}
			if len(pl.Unlocated) > 0 {
				t.Errorf("the plan could not locate %+v", pl.Unlocated)
			}
			runPlanForReal(t, &pl, root)
		})
	}
}

// convertFHS converts the project in dir with --layout fhs into out,
// filling each refusal's skeleton in (skeletontest.Fill) and merging it
// into the declarations, until convert accepts the module.
func convertFHS(t *testing.T, dir, file, out string) {
	t.Helper()
	decl := filepath.Join(dir, "compose2manifest.yaml")
	for round := 0; ; round++ {
		code, stdout, stderr := runCLI(t, dir, "convert", "--layout", "fhs", "-f", file, "-o", out, "--format", "json")
		if code == exitOK {
			return
		}
		rep := decodeReport(t, stdout)
		mod := rep.Modules[0]
		if code != exitFindings || mod.Skeleton == "" || round == 4 {
			old, _ := os.ReadFile(decl)
			t.Fatalf("round %d: exit %d and no skeleton to fill in\n%s\n%s\ndeclarations:\n%s", round, code, stdout, stderr, old)
		}
		filled, err := skeletontest.Fill([]byte(mod.Skeleton))
		if err != nil {
			t.Fatal(err)
		}
		old, err := os.ReadFile(decl)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		merged, err := mergeDeclarations(old, filled)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(decl, merged, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mergeDeclarations adds the sections of add to the declarations old: a
// mapping's entries and a list's items are appended to the section of the
// same key, a scalar set only where old has none.
func mergeDeclarations(old, add []byte) ([]byte, error) {
	var o, a yaml.Node
	if err := yaml.Unmarshal(add, &a); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(old)) == 0 {
		return add, nil
	}
	if err := yaml.Unmarshal(old, &o); err != nil {
		return nil, err
	}
	om, am := o.Content[0], a.Content[0]
	for i := 0; i+1 < len(am.Content); i += 2 {
		k, v := am.Content[i], am.Content[i+1]
		j := slices.IndexFunc(om.Content, func(n *yaml.Node) bool { return n.Value == k.Value })
		switch {
		case j < 0 || j%2 == 1:
			om.Content = append(om.Content, k, v)
		case v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode:
			om.Content[j+1].Content = append(om.Content[j+1].Content, v.Content...)
			om.Content[j+1].Style = 0
		}
	}
	return yaml.Marshal(&o)
}

// decodeDir decodes every manifest in dir.
func decodeDir(t *testing.T, dir string) []*manifest.Module {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []*manifest.Module
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Decode(e.Name(), data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// backupPaths returns the declared state and content paths of mods that
// no other such path holds, sorted.
func backupPaths(mods []*manifest.Module) []string {
	var all []string
	for _, m := range mods {
		for _, r := range m.Declared() {
			if r.Kind != manifest.KindHost && (r.Intent == manifest.IntentState || r.Intent == manifest.IntentContent) {
				all = append(all, r.Path)
			}
		}
	}
	var out []string
	for _, p := range all {
		if !slices.ContainsFunc(all, func(q string) bool { return q != p && manifest.IsAncestor(q, p) }) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// runPlanForReal moves every path of p under root (the legacy host's
// sources under root/legacy stay as they are when already there), writes
// a source tree for each move whose source the checkout lacks, runs the
// script twice with a docker on PATH that says nothing runs, and checks
// that each target matches its source exactly with the declared owner
// and mode, that the second run changes nothing, and that no source
// changed. Without root (chown) or rsync it only checks that the script
// is written.
func runPlanForReal(t *testing.T, p *plan.Plan, root string) {
	t.Helper()
	under := func(q string) string {
		if strings.HasPrefix(q, root+"/") {
			return q
		}
		return filepath.Join(root, "target", q)
	}
	for i := range p.Directories {
		p.Directories[i].Path = under(p.Directories[i].Path)
	}
	for i := range p.Parents {
		p.Parents[i] = under(p.Parents[i])
	}
	legacy := filepath.Join(root, "legacy")
	for i := range p.Moves {
		m := &p.Moves[i]
		m.From, m.To = under(m.From), under(m.To)
		if m.Root != "" {
			m.Root = under(m.Root)
		}
		for j := range m.Within {
			m.Within[j].Path = under(m.Within[j].Path)
		}
		if _, err := os.Lstat(m.From); err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(m.From), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if m.Kind == manifest.KindFile {
			err = os.WriteFile(m.From, []byte("legacy "+m.From+"\n"), 0o640)
		} else {
			err = writeTree(m.From)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// The target host's root; the script makes the undeclared parents
	// below it (/var, /var/lib, …) as the host would.
	if err := os.MkdirAll(filepath.Join(root, "target"), 0o755); err != nil {
		t.Fatal(err)
	}
	var script bytes.Buffer
	if err := plan.WriteScript(&script, p); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("rsync"); err != nil {
		t.Skip("rsync is not installed: the plan script cannot be run (.ci/run installs it)")
	}
	if os.Getuid() != 0 {
		t.Skip("not root: the script cannot chown the targets to their declared owners")
	}
	before := treetest.Listing(t, legacy, false, true)
	run := func() string {
		t.Helper()
		bin := filepath.Join(root, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, "docker"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", script.String())
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "C2M_PLAN_LOG="+filepath.Join(root, "plan.log"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the plan script: %v\n%s\n--- script:\n%s", err, out, script.String())
		}
		return string(out)
	}
	run()
	t.Logf("the script copied %d moves into %d declared directories", len(p.Moves), len(p.Directories))
	for _, m := range p.Moves {
		if m.Kind == manifest.KindFile {
			got, err1 := os.ReadFile(m.To)
			want, err2 := os.ReadFile(m.From)
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("%s differs from its source %s: %v %v", m.To, m.From, err1, err2)
			}
		} else if got, want := treetest.Listing(t, m.To, false, false), treetest.Listing(t, m.From, false, false); got != want {
			t.Errorf("%s differs from its source %s:\n got: %s\nwant: %s", m.To, m.From, got, want)
		}
		var st syscall.Stat_t
		if err := syscall.Lstat(m.To, &st); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%d:%d %04o", st.Uid, st.Gid, st.Mode&0o7777); got != m.Owner+" "+m.Mode {
			t.Errorf("%s: %s, want %s %s", m.To, got, m.Owner, m.Mode)
		}
	}
	if second := run(); !strings.Contains(second, "nothing changed") {
		t.Errorf("a second run changed something:\n%s", second)
	}
	if after := treetest.Listing(t, legacy, false, true); after != before {
		t.Errorf("the legacy sources changed")
	}
}

// writeTree writes a small tree at dir: a file, a nested directory with
// a restrictive file, a symbolic link and a hard link.
func writeTree(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "sub dir"), 0o750); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "data file"), []byte("data of "+path.Base(dir)+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "sub dir", "secret"), []byte("kept\n"), 0o600); err != nil {
		return err
	}
	if err := os.Symlink("data file", filepath.Join(dir, "link")); err != nil {
		return err
	}
	return os.Link(filepath.Join(dir, "data file"), filepath.Join(dir, "sub dir", "hard link"))
}
