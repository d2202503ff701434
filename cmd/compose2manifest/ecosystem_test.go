package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.yaml.in/yaml/v3"
)

// action is what the test reads of action.yml.
type action struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// hook is one hook of .pre-commit-hooks.yaml.
type hook struct {
	ID            string   `yaml:"id"`
	Name          string   `yaml:"name"`
	Entry         string   `yaml:"entry"`
	Args          []string `yaml:"args"`
	Language      string   `yaml:"language"`
	Files         string   `yaml:"files"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	AlwaysRun     bool     `yaml:"always_run"`
}

func readYAML(t *testing.T, file string, v any) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../..", file))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(false)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return data
}

// readmeBlocks returns the fenced ```yaml blocks of the README and the docs pages.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(pages) < 10 {
		t.Fatalf("docs pages: %v, %v", pages, err)
	}
	data := readme
	for _, p := range pages {
		page, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, page...)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestAction: action.yml is a composite action; every input its steps use
// is declared; every input the README's workflows give (with:) and its
// inputs table names exists.
func TestAction(t *testing.T) {
	var a action
	data := readYAML(t, "action.yml", &a)
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 || a.Name == "" {
		t.Fatalf("action.yml: runs.using %q with %d steps", a.Runs.Using, len(a.Runs.Steps))
	}
	for _, m := range regexp.MustCompile(`inputs\.([a-z-]+)`).FindAllStringSubmatch(string(data), -1) {
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("action.yml uses inputs.%s, which it does not declare", m[1])
		}
	}
	builds := false
	for _, s := range a.Runs.Steps {
		builds = builds || strings.Contains(s.Run, "go build") && strings.Contains(s.Run, "./cmd/compose2manifest")
	}
	if !builds {
		t.Error("action.yml does not build ./cmd/compose2manifest")
	}
	if !strings.Contains(string(data), "--format github") || !strings.Contains(string(data), "--format sarif") || !strings.Contains(string(data), "upload-sarif") {
		t.Error("action.yml: want check --format github, and --format sarif with an upload")
	}
	used := 0
	for _, block := range readmeBlocks(t) {
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Uses string         `yaml:"uses"`
					With map[string]any `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if yaml.Unmarshal([]byte(block), &wf) != nil {
			continue
		}
		for _, job := range wf.Jobs {
			for _, s := range job.Steps {
				if !strings.HasPrefix(s.Uses, "compose2manifest/compose2manifest@") {
					continue
				}
				used++
				for k := range s.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("README's workflow gives the action input %q, which action.yml does not declare", k)
					}
				}
			}
		}
	}
	if used == 0 {
		t.Error("README shows no workflow that uses the action")
	}
	readme, _ := os.ReadFile("../../docs/check.md")
	_, after, _ := strings.Cut(string(readme), "### The GitHub Action")
	after, _, _ = strings.Cut(after, "\n### ")
	rows := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(after, -1)
	if len(rows) != len(a.Inputs) {
		t.Errorf("README's inputs table has %d rows, action.yml %d inputs", len(rows), len(a.Inputs))
	}
	for _, r := range rows {
		if _, ok := a.Inputs[r[1]]; !ok {
			t.Errorf("README's inputs table names %q, which action.yml does not declare", r[1])
		}
	}
}

// TestPreCommitHooks: every hook the README's .pre-commit-config.yaml
// names exists, and the hooks do what they say: check fails on a bad
// manifest, convert fails on a refused project and passes a good one,
// writing nothing.
func TestPreCommitHooks(t *testing.T) {
	var hooks []hook
	readYAML(t, ".pre-commit-hooks.yaml", &hooks)
	byID := map[string]hook{}
	for _, h := range hooks {
		if h.ID == "" || h.Entry == "" || h.Language != "golang" {
			t.Errorf("hook %+v: want id, entry and language: golang", h)
		}
		if _, err := regexp.Compile(h.Files); err != nil {
			t.Errorf("hook %s: files: %v", h.ID, err)
		}
		byID[h.ID] = h
	}
	shown := 0
	for _, block := range readmeBlocks(t) {
		var cfg struct {
			Repos []struct {
				Repo  string `yaml:"repo"`
				Hooks []struct {
					ID string `yaml:"id"`
				} `yaml:"hooks"`
			} `yaml:"repos"`
		}
		if yaml.Unmarshal([]byte(block), &cfg) != nil {
			continue
		}
		for _, r := range cfg.Repos {
			for _, h := range r.Hooks {
				shown++
				if _, ok := byID[h.ID]; !ok {
					t.Errorf("README's .pre-commit-config.yaml names hook %q, which .pre-commit-hooks.yaml does not define", h.ID)
				}
			}
		}
	}
	if shown < len(hooks) {
		t.Errorf("README shows %d hooks, want all %d", shown, len(hooks))
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the hooks with")
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good/compose.yaml", "services:\n  web:\n    image: nginx:1.27\n")
	write("bad/compose.yaml", "services:\n  db:\n    image: example/db:1\n    volumes:\n      - ./data:/var/lib/db\n")
	write("manifests/bad.yaml", "version: 1\nmodule: [\n")
	// pre-commit runs the entry, split as a shell splits it, with the
	// changed files that match files: after it.
	runHook := func(id string, files ...string) (int, string) {
		t.Helper()
		h := byID[id]
		re := regexp.MustCompile(h.Files)
		for _, f := range files {
			if !re.MatchString(f) {
				t.Errorf("hook %s: files: %q does not match %s", id, h.Files, f)
			}
		}
		cmd := exec.Command("bash", append([]string{"-c", h.Entry + ` "$@"`, "--"}, files...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := runHook("compose2manifest-convert", "good/compose.yaml"); code != 0 {
		t.Errorf("convert hook on a good project: exit %d\n%s", code, out)
	}
	if code, out := runHook("compose2manifest-convert", "good/compose.yaml", "bad/compose.yaml"); code != 1 || !strings.Contains(out, `module "bad" refused`) {
		t.Errorf("convert hook on a refused project: exit %d\n%s", code, out)
	}
	if code, out := runHook("compose2manifest-check", "manifests/bad.yaml"); code == 0 || !strings.Contains(out, "bad.yaml") {
		t.Errorf("check hook on a bad manifest: exit %d\n%s", code, out)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "*", "*.yaml")); len(entries) != 3 {
		t.Errorf("the hooks wrote files: %v", entries)
	}
	testCurrentHook(t, byID["compose2manifest-current"])
}

// testCurrentHook: the current hook, run as pre-commit runs it (entry,
// then args, no file names), passes while every manifest is current and
// fails once a compose file changed without converting again, as
// check --against does in CI.
func testCurrentHook(t *testing.T, h hook) {
	if h.ID == "" || h.PassFilenames == nil || *h.PassFilenames || !h.AlwaysRun {
		t.Fatalf("hook compose2manifest-current: want it, with pass_filenames: false and always_run: true: %+v", h)
	}
	dir := t.TempDir()
	compose := filepath.Join(dir, "app", "compose.yaml")
	if err := os.MkdirAll(filepath.Dir(compose), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(compose, []byte("services:\n  web:\n    image: nginx:1.27\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := run("compose2manifest", "convert", "--batch", ".", "-o", "manifests"); code != 0 {
		t.Fatalf("convert --batch: exit %d\n%s", code, out)
	}
	hookRun := func() (int, string) {
		return run("bash", append([]string{"-c", h.Entry + ` "$@"`, "--"}, h.Args...)...)
	}
	if code, out := hookRun(); code != 0 {
		t.Errorf("current hook on current manifests: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(compose, []byte("services:\n  web:\n    image: nginx:1.28\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := hookRun(); code != 1 {
		t.Errorf("current hook after the compose file changed: exit %d, want 1\n%s", code, out)
	}
}

// TestBackupRecipesInREADME: the README's backup recipes are the ones the
// backup_* stories run with the real clients, line for line.
func TestBackupRecipesInREADME(t *testing.T) {
	readme, err := os.ReadFile("../../docs/inventory.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, client := range []string{"restic", "tar", "borg"} {
		ar, err := txtar.ParseFile(filepath.Join("testdata/script", "backup_"+client+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range ar.Files {
			if f.Name == "recipe.sh" {
				found = true
				if !strings.Contains(string(readme), "```sh\n"+string(f.Data)+"```") {
					t.Errorf("README has no ```sh block with backup_%s.txt's recipe:\n%s", client, f.Data)
				}
			}
		}
		if !found {
			t.Errorf("backup_%s.txt has no recipe.sh", client)
		}
	}
}

// TestActionReconvert runs the action's check step with a stand-in for
// compose2manifest on each event: it converts every project again
// (--reconvert) wherever the manifests may be edited with their digests
// recomputed, the merge queue's run of a pull request's files included
// (merge_group, which it did not), and trusts fingerprints only on a push
// or schedule run of the default branch.
func TestActionReconvert(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	var a action
	readYAML(t, "action.yml", &a)
	run := ""
	for _, s := range a.Runs.Steps {
		if strings.Contains(s.Run, "--format github") {
			run = s.Run
		}
	}
	if run == "" {
		t.Fatal("action.yml: no step runs check")
	}
	cases := []struct {
		reconvert, event, ref, defaultBranch string
		want                                 bool
	}{
		{"untrusted", "pull_request", "refs/pull/7/merge", "main", true},
		{"untrusted", "pull_request_target", "refs/heads/main", "main", true},
		{"untrusted", "merge_group", "refs/heads/gh-readonly-queue/main/pr-7-abc", "main", true},
		{"untrusted", "push", "refs/heads/feature", "main", true},
		{"untrusted", "push", "refs/tags/v1", "main", true},
		{"untrusted", "workflow_dispatch", "refs/heads/main", "main", true},
		{"untrusted", "workflow_run", "refs/heads/main", "main", true},
		{"untrusted", "schedule", "refs/heads/main", "", true}, // default branch unknown
		{"untrusted", "push", "refs/heads/main", "main", false},
		{"untrusted", "schedule", "refs/heads/main", "main", false},
		{"pull_request", "merge_group", "refs/heads/gh-readonly-queue/main/pr-7-abc", "main", true},
		{"pull_request", "push", "refs/heads/main", "main", false},
		{"true", "push", "refs/heads/main", "main", true},
		{"false", "merge_group", "refs/heads/x", "main", false},
	}
	for _, c := range cases {
		tmp := t.TempDir()
		bin := filepath.Join(tmp, "c2m-bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		args := filepath.Join(tmp, "args")
		if err := os.WriteFile(filepath.Join(bin, "compose2manifest"), []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" >"+args+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "-c", run)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "RUNNER_TEMP="+tmp, "GITHUB_OUTPUT="+filepath.Join(tmp, "out"),
			"C2M_MANIFESTS=manifests", "C2M_AGAINST=.", "C2M_ARGS=", "C2M_SARIF=false",
			"C2M_RECONVERT="+c.reconvert, "C2M_EVENT="+c.event, "C2M_REF="+c.ref, "C2M_DEFAULT_BRANCH="+c.defaultBranch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%+v: %v: %s", c, err, out)
		}
		data, err := os.ReadFile(args)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(data), "--reconvert\n"); got != c.want {
			t.Errorf("reconvert %s on %s of %s (default branch %q): --reconvert %v, want %v; args:\n%s", c.reconvert, c.event, c.ref, c.defaultBranch, got, c.want, data)
		}
	}
}
