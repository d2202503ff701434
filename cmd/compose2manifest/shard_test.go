package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// shardWorkflow is what the test reads of the reference's matrix workflow.
type shardWorkflow struct {
	Jobs map[string]struct {
		Needs    any `yaml:"needs"`
		Strategy struct {
			Matrix struct {
				Shard []int `yaml:"shard"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// referenceBlock returns the first ```yaml block of docs/check.md
// after the heading.
func referenceBlock(t *testing.T, heading string) string {
	t.Helper()
	data, err := os.ReadFile("../../docs/check.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/check.md has no %q", heading)
	}
	after, _, _ = strings.Cut(after, "\n## ")
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(after)
	if m == nil {
		t.Fatalf("docs/check.md: no yaml block under %q", heading)
	}
	return m[1]
}

// stepCommands returns each compose2manifest command line of a run: step,
// split into words as the shell would (quotes removed), with
// ${{ matrix.shard }} replaced by shard.
func stepCommands(run string, shard int) [][]string {
	var out [][]string
	for _, line := range strings.Split(run, "\n") {
		line = strings.TrimSpace(strings.ReplaceAll(line, "${{ matrix.shard }}", strconv.Itoa(shard)))
		if !strings.HasPrefix(line, "compose2manifest ") {
			continue
		}
		var words []string
		for _, w := range strings.Fields(line)[1:] {
			words = append(words, strings.Trim(w, `"'`))
		}
		out = append(out, words)
	}
	return out
}

// TestShardWorkflow: the reference's matrix workflow (under "Many
// machines") gives only flags its commands have, its matrix holds shards
// 1 to N of the --shard K/N it gives, the final job checks what the
// shard jobs upload, and its steps, run for real on two projects of one
// module name in different shards (and with the committed manifests of
// the projects), do what the reference says: each shard converts and
// checks its part, and only the final plain check reports C2M017. When
// actionlint is installed (or C2M_ACTIONLINT names it), the workflow is
// linted with it.
func TestShardWorkflow(t *testing.T) {
	block := referenceBlock(t, "### Many machines: `--shard K/N`")
	var wf shardWorkflow
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("reference workflow: %v", err)
	}
	shardJob, finalJob := wf.Jobs["shard"], wf.Jobs["across-shards"]
	if len(shardJob.Steps) == 0 || len(finalJob.Steps) == 0 || finalJob.Needs != "shard" {
		t.Fatalf("reference workflow: want jobs shard and across-shards (needs: shard), got %+v", wf)
	}
	// Flags exist: each command's --help lists every flag given.
	n := 0
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			for _, words := range stepCommands(s.Run, 1) {
				_, help, _ := runIn(t.TempDir(), words[0], "--help")
				for _, w := range words {
					flag, _, _ := strings.Cut(w, "=")
					if strings.HasPrefix(flag, "--") && !regexp.MustCompile(`(?m)^ +(-[a-zA-Z0-9], )?`+regexp.QuoteMeta(flag)+`[ =\[]`).MatchString(help) {
						t.Errorf("reference workflow: compose2manifest %s has no flag %s", words[0], flag)
					}
				}
				for _, m := range regexp.MustCompile(`--shard (\d+)/(\d+)`).FindAllStringSubmatch(strings.Join(words, " "), -1) {
					n, _ = strconv.Atoi(m[2])
				}
			}
		}
	}
	want := make([]int, n)
	for i := range want {
		want[i] = i + 1
	}
	if n == 0 || !slices.Equal(shardJob.Strategy.Matrix.Shard, want) {
		t.Fatalf("reference workflow: matrix shards %v, --shard K/%d: want %v", shardJob.Strategy.Matrix.Shard, n, want)
	}
	var upload, download map[string]string
	for _, s := range shardJob.Steps {
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
			upload = s.With
		}
	}
	for _, s := range finalJob.Steps {
		if strings.HasPrefix(s.Uses, "actions/download-artifact@") {
			download = s.With
		}
	}
	if upload == nil || download == nil || download["merge-multiple"] == "true" {
		t.Fatalf("reference workflow: want an upload in the shard job and a download in the final job, each artifact in its own folder; got %v and %v", upload, download)
	}
	artifact := func(k int) string { return strings.ReplaceAll(upload["name"], "${{ matrix.shard }}", strconv.Itoa(k)) }
	if ok, _ := filepath.Match(download["pattern"], artifact(1)); !ok {
		t.Fatalf("reference workflow: the download's pattern %q does not match the artifact %q", download["pattern"], artifact(1))
	}

	// Run it: projects a and b share a module name (they hash to
	// different shards of 4); 6 more have their own.
	dir := t.TempDir()
	files := map[string]string{}
	for i, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		module := fmt.Sprintf("m%d", i)
		if name == "a" || name == "b" {
			module = "same"
		}
		files["services/"+name+"/compose.yaml"] = "services:\n  web:\n    image: nginx:1.27\n    volumes:\n      - ./html:/usr/share/nginx/html:ro\n"
		files["services/"+name+"/html/index.html"] = "hello\n"
		files["services/"+name+"/compose2manifest.yaml"] = fmt.Sprintf("version: 1\nmodule: %s\nhost_project_directory: /opt/%s\nbinds:\n  ./html: {owner: \"0:0\", mode: \"0755\", intent: content}\n", module, name)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The committed manifests: b's same.yaml, as a repository keeps one
	// file per module.
	if code, _, stderr := runIn(dir, "convert", "--batch", "services", "-o", "manifests", "--exclude", "a"); code != 0 {
		t.Fatalf("committed manifests: exit %d\n%s", code, stderr)
	}
	shardOfA := 0
	for k := 1; k <= n; k++ {
		for _, s := range shardJob.Steps {
			for _, words := range stepCommands(s.Run, k) {
				code, stdout, stderr := runIn(dir, words...)
				stderr = stdout + stderr // check's findings are on stdout
				if words[0] == "check" {
					// The shard holding a reports the ambiguity.
					if strings.Contains(stderr, "C2M017") {
						shardOfA = k
						continue
					}
				}
				if code != 0 {
					t.Errorf("shard %d: compose2manifest %s: exit %d\n%s", k, strings.Join(words, " "), code, stderr)
				}
				if strings.Contains(stderr, "C2M017") || strings.Contains(stderr, "C2M005") {
					t.Errorf("shard %d: compose2manifest %s reports a rule across modules:\n%s", k, strings.Join(words, " "), stderr)
				}
			}
		}
		// The upload and the download: each artifact in a folder of
		// its own (a shard that wrote nothing uploads nothing).
		from := filepath.Join(dir, strings.ReplaceAll(upload["path"], "${{ matrix.shard }}", strconv.Itoa(k)))
		if _, err := os.Stat(from); err == nil {
			if err := os.MkdirAll(filepath.Join(dir, download["path"]), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(from, filepath.Join(dir, download["path"], artifact(k))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if shardOfA == 0 {
		t.Error("no shard's check --against reported that a and b convert to one module")
	}
	final := stepCommands(finalJob.Steps[len(finalJob.Steps)-1].Run, 0)
	if len(final) != 1 || final[0][0] != "check" || slices.Contains(final[0], "--against") {
		t.Fatalf("reference workflow: the final step %q is not a plain check", final)
	}
	args := []string{"check"}
	for _, a := range final[0][1:] {
		matches, _ := filepath.Glob(filepath.Join(dir, a))
		if len(matches) == 0 {
			t.Fatalf("final check: %s matches nothing", a)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(dir, m)
			args = append(args, rel)
		}
	}
	code, stdout, stderr := runIn(dir, args...)
	if strings.Count(stdout, "C2M017 error") != 2 || code != 1 {
		t.Errorf("final plain check %q: exit %d, want 1 with C2M017 at both manifests of module same:\n%s%s", args, code, stdout, stderr)
	}

	lint := os.Getenv("C2M_ACTIONLINT")
	if lint == "" {
		lint, _ = exec.LookPath("actionlint")
	}
	if lint == "" {
		t.Log("actionlint not installed (set C2M_ACTIONLINT or put it on PATH): the workflow is not linted")
		return
	}
	wfFile := filepath.Join(t.TempDir(), "manifests.yaml")
	if err := os.WriteFile(wfFile, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(lint, wfFile).CombinedOutput(); err != nil {
		t.Errorf("actionlint on the reference's matrix workflow: %v\n%s", err, out)
	}
}
