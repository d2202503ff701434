package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

// actionStep is one step of action.yml.
type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	With             map[string]string `yaml:"with"`
}

// minimumMajors are the oldest majors of the actions action.yml and the
// reference's workflows may pin: the first of each that runs on Node 24
// (the runners dropped Node 20).
var minimumMajors = map[string]int{
	"actions/checkout":                  5,
	"actions/setup-go":                  6,
	"actions/cache":                     5,
	"actions/upload-artifact":           6,
	"actions/download-artifact":         7,
	"github/codeql-action/upload-sarif": 4,
}

// checkPin reports a uses: of a known action pinned below its minimum
// major, or not at a major (vN) at all.
func checkPin(t *testing.T, where, uses string) {
	t.Helper()
	name, ref, ok := strings.Cut(uses, "@")
	min, known := minimumMajors[name]
	if !ok || !known {
		return
	}
	major, err := strconv.Atoi(strings.TrimPrefix(ref, "v"))
	if err != nil || !strings.HasPrefix(ref, "v") || major < min {
		t.Errorf("%s: uses %s: want %s@v%d or later", where, uses, name, min)
	}
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
	// The cache restores: no key from a path outside the workspace
	// (setup-go's cache-dependency-path, hashFiles() of the action's
	// path), and the binary's cache keyed by the source step's digest.
	keyed := false
	for _, s := range a.Runs.Steps {
		checkPin(t, "action.yml", s.Uses)
		if strings.HasPrefix(s.Uses, "actions/setup-go@") && (s.With["cache-dependency-path"] != "" || s.With["cache"] != "false") {
			t.Errorf("action.yml: setup-go's cache hashes only files in the workspace, and the action's go.sum is not: want cache: false, got %v", s.With)
		}
		if strings.Contains(s.With["key"], "hashFiles(") {
			t.Errorf("action.yml: step %q keys a cache by hashFiles(), which sees only the workspace", s.Name)
		}
		if strings.HasPrefix(s.Uses, "actions/cache@") && strings.Contains(s.With["key"], "steps.source.outputs.source") && strings.Contains(s.With["path"], "c2m-bin") {
			keyed = true
		}
	}
	if !keyed {
		t.Error("action.yml: no actions/cache step keeps the binary keyed by the source's digest")
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
				checkPin(t, "docs' workflow", s.Uses)
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

// actionSteps returns action.yml's steps by id, or by name for those
// without one.
func actionSteps(t *testing.T) map[string]actionStep {
	t.Helper()
	var a action
	readYAML(t, "action.yml", &a)
	out := map[string]actionStep{}
	for _, s := range a.Runs.Steps {
		key := s.ID
		if key == "" {
			key = s.Name
		}
		out[key] = s
	}
	return out
}

// runStep runs a run: step of action.yml with bash in dir, its env: given
// as vars says (each expression replaced by its value; an env entry vars
// has no value for is left out) and extra added, and returns its output.
func runStep(t *testing.T, s actionStep, dir string, vars map[string]string, extra ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", "-c", s.Run)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extra...)
	for k, v := range s.Env {
		for expr, val := range vars {
			v = strings.ReplaceAll(v, "${{ "+expr+" }}", val)
		}
		if !strings.Contains(v, "${{") {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// outputs reads a $GITHUB_OUTPUT file.
func outputs(t *testing.T, file string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

// TestActionBuild runs the action's key and build steps for real on this
// repository, as the runner would on its copy of the action: the key is
// the sha256 of the source (the same twice, and another when a file
// changes), the ref comes from github.action_ref or else from the folder
// the runner downloaded the action to, a commit ref is stamped as the
// revision, and the binary built says the ref and the source digest in
// its version line, never (devel) alone.
func TestActionBuild(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if testing.Short() {
		t.Skip("builds compose2manifest: not with -short")
	}
	steps := actionSteps(t)
	key, build, ver := steps["source"], steps["Build compose2manifest"], steps["compose2manifest version"]
	if key.Run == "" || build.Run == "" || ver.Run == "" || key.WorkingDirectory != "${{ github.action_path }}" || build.WorkingDirectory != key.WorkingDirectory {
		t.Fatal("action.yml: want steps source, Build compose2manifest and compose2manifest version, the first two in the action's folder")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	keyRun := func(dir, ref, actionPath string) map[string]string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "output")
		if got, err := runStep(t, key, dir, map[string]string{"github.action_ref": ref}, "GITHUB_OUTPUT="+out, "GITHUB_ACTION_PATH="+actionPath); err != nil {
			t.Fatalf("key step: %v\n%s", err, got)
		}
		return outputs(t, out)
	}
	first := keyRun(root, "v9.9.9", root)
	if len(first["source"]) != 64 || len(first["go-sum"]) != 64 || first["ref"] != "v9.9.9" {
		t.Fatalf("key step outputs %v", first)
	}
	if again := keyRun(root, "", "/home/runner/work/_actions/compose2manifest/compose2manifest/v1.2.3"); again["source"] != first["source"] || again["ref"] != "v1.2.3" {
		t.Errorf("key step again, without github.action_ref: %v; want source %s and ref v1.2.3 from the action's folder", again, first["source"])
	}
	// Another source, another key: a copy of go.mod and one more file.
	other := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(other, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := keyRun(other, "main", other)
	if err := os.WriteFile(filepath.Join(other, "new.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b := keyRun(other, "main", other); a["source"] == b["source"] || a["go-sum"] != b["go-sum"] || b["ref"] != "main" {
		t.Errorf("key step: a file added gives source %s, before %s (want another), go-sum %s and %s (want the same), ref %q (want main, github.action_ref)", b["source"], a["source"], b["go-sum"], a["go-sum"], b["ref"])
	}

	// The stamps, with a stand-in for go that prints its arguments.
	stub := t.TempDir()
	if err := os.WriteFile(filepath.Join(stub, "go"), []byte("#!/bin/sh\nprintf '%s\\n' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sha := "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct{ ref, revision string }{{"v1.2.3", ""}, {sha, sha}, {"main", ""}} {
		got, err := runStep(t, build, root, map[string]string{"steps.source.outputs.ref": tc.ref, "steps.source.outputs.source": "abc"},
			"PATH="+stub+string(os.PathListSeparator)+os.Getenv("PATH"), "RUNNER_TEMP="+t.TempDir())
		want := "-X github.com/compose2manifest/compose2manifest/internal/version.stampedVersion=" + tc.ref +
			" -X github.com/compose2manifest/compose2manifest/internal/version.stampedRevision=" + tc.revision +
			" -X github.com/compose2manifest/compose2manifest/internal/version.stampedSource=abc\n"
		if err != nil || !strings.Contains(got, want) {
			t.Errorf("build step with ref %s: %v; go was given:\n%s\nwant the flag %q", tc.ref, err, got, want)
		}
	}

	// The real build, then the version step.
	temp := t.TempDir()
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	modcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	vars := map[string]string{"steps.source.outputs.ref": first["ref"], "steps.source.outputs.source": first["source"]}
	if got, err := runStep(t, build, root, vars, "RUNNER_TEMP="+temp, "GOCACHE="+strings.TrimSpace(string(gocache)), "GOMODCACHE="+strings.TrimSpace(string(modcache))); err != nil {
		t.Fatalf("build step: %v\n%s", err, got)
	}
	got, err := runStep(t, ver, temp, nil, "RUNNER_TEMP="+temp)
	if want := "compose2manifest v9.9.9 (source sha256 " + first["source"] + "), go"; err != nil || !strings.HasPrefix(got, want) {
		t.Errorf("version step: %v\n%s\nwant a line starting %q", err, got, want)
	}
}

// TestActionLint lints, with actionlint when it is installed (or
// C2M_ACTIONLINT names it), every workflow of the README and the
// reference, with the action taken from this repository (uses: ./, so that
// actionlint reads action.yml and checks the inputs given), and, with
// shellcheck when installed, every run: script of action.yml (bash, its
// expressions as a shell word).
func TestActionLint(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if sc, err := exec.LookPath("shellcheck"); err != nil {
		t.Log("shellcheck not installed: action.yml's scripts are not linted")
	} else {
		for _, s := range actionSteps(t) {
			if s.Run == "" {
				continue
			}
			script := "#!/bin/bash\n" + regexp.MustCompile(`\$\{\{[^}]*\}\}`).ReplaceAllString(s.Run, "EXPR")
			cmd := exec.Command(sc, "-s", "bash", "-")
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("shellcheck on action.yml's step %q: %v\n%s", s.Name, err, out)
			}
		}
	}
	lint := os.Getenv("C2M_ACTIONLINT")
	if lint == "" {
		lint, _ = exec.LookPath("actionlint")
	}
	if lint == "" {
		t.Skip("actionlint not installed (set C2M_ACTIONLINT or put it on PATH): the workflows are not linted")
	}
	repo := t.TempDir() // a repository to actionlint: .git and .github/workflows
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "action.yml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, block := range readmeBlocks(t) {
		if !regexp.MustCompile(`(?m)^jobs:`).MatchString(block) {
			continue
		}
		n++
		block = strings.ReplaceAll(block, "uses: compose2manifest/compose2manifest@main", "uses: ./")
		if err := os.WriteFile(filepath.Join(repo, ".github", "workflows", "w"+strconv.Itoa(n)+".yaml"), []byte(block), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n < 2 {
		t.Fatalf("found %d workflows in the README and the reference, want the Action's and the matrix one", n)
	}
	cmd := exec.Command(lint)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint on the docs' workflows (uses: ./ for the action): %v\n%s", err, out)
	}
}
