package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/skeletontest"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
	"go.yaml.in/yaml/v3"
)

// corpusEnv names the environment variable that points the corpus test at
// the shared corpus of real compose projects. .ci/run sets it.
const corpusEnv = "C2M_CORPUS"

// corpusProjects returns every compose file under root that has a
// top-level services: key; each is converted as a project of its own.
func corpusProjects(t *testing.T, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			return nil
		}
		var top map[string]any
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if yaml.Unmarshal(data, &top) == nil && top["services"] != nil {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestCorpus converts every project of the shared corpus with --strict and
// every profile enabled. Each must exit 1 or 2 with a valid JSON report,
// write nothing, and name exactly the sources an independent count of the
// raw YAML finds. Then the refusal's skeleton, filled with placeholders,
// goes back in as declarations, and the manifest converted from it must
// declare every container volume source exactly.
func TestCorpus(t *testing.T) {
	root := os.Getenv(corpusEnv)
	if root == "" {
		t.Skipf("%s is not set; .ci/run sets it to the shared corpus", corpusEnv)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		t.Fatalf("%s=%s: not a directory: %v", corpusEnv, root, err)
	}
	files := corpusProjects(t, root)
	if len(files) == 0 {
		t.Fatalf("no compose files under %s", root)
	}
	var failed, refusals, converted int
	for _, file := range files {
		name, _ := filepath.Rel(root, file)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			dir := filepath.Dir(file)
			out := t.TempDir()
			code, stdout, stderr := runCLI(t, dir, "convert", "--strict", "--profile=*", "-f", file, "-o", out, "--format", "json")
			rep := decodeReport(t, stdout)
			mod := rep.Modules[0]
			if code2, stdout2, stderr2 := runCLI(t, dir, "convert", "--strict", "--profile=*", "-f", file, "-o", t.TempDir(), "--format", "json"); code2 != code || !sameReport(stdout, stdout2) || stderr2 != stderr {
				t.Errorf("a second run differs: exit %d then %d\n%s\n---\n%s", code, code2, stdout, stdout2)
			}
			if code == exitOK {
				// Only a project without a single volume converts
				// under --strict with no declarations.
				if want := rawSources(t, file); len(want) > 0 {
					t.Fatalf("exit 0, but the raw YAML has sources %v", minus(want, nil))
				}
				if mod.Status != report.Converted {
					t.Fatalf("exit 0 with status %q", mod.Status)
				}
				converted++
				return
			}
			if code != exitFindings && code != exitUsage {
				t.Fatalf("exit %d, want 1 or 2; stderr:\n%s", code, stderr)
			}
			assertEmpty(t, out)
			if code == exitUsage {
				failed++
				if mod.Status != report.Failed || len(mod.Diagnostics) == 0 || mod.Diagnostics[len(mod.Diagnostics)-1].Message == "" {
					t.Fatalf("exit 2 without an explained error: %+v", mod)
				}
				t.Logf("not loaded: %s", mod.Diagnostics[len(mod.Diagnostics)-1].Message)
				return
			}
			refusals++
			if mod.Status != report.Refused {
				t.Fatalf("status %q with exit 1", mod.Status)
			}
			want := rawSources(t, file)
			got := reportedSources(mod)
			if !equalSets(got, want) {
				t.Errorf("sources named by the report differ from the raw count:\n  only in report: %v\n  only in raw YAML: %v", minus(got, want), minus(want, got))
			}
			t.Logf("refused: %d sources named, %d counted", len(got), len(want))

			// Fill the skeleton and convert again.
			if mod.Skeleton == "" {
				return
			}
			decl := filepath.Join(t.TempDir(), "declarations.yaml")
			if err := os.WriteFile(decl, fillSkeleton(t, mod.Skeleton), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr = runCLI(t, dir, "convert", "--strict", "--profile=*", "-f", file, "--declarations", decl, "-o", out, "--format", "json")
			rep = decodeReport(t, stdout)
			mod = rep.Modules[0]
			for _, d := range mod.Diagnostics {
				switch d.Rule {
				case "C2M001", "C2M002", "C2M009", "C2M013":
					if d.Severity == rules.Error {
						t.Errorf("with the filled skeleton, still: %s", d)
					}
				}
			}
			if code != exitOK {
				if code == exitUsage {
					t.Fatalf("filled skeleton did not load: exit 2\n%s\n%s", stderr, stdout)
				}
				assertEmpty(t, out)
				return // refused for reasons no declaration can fix (C2M010, C2M012, C2M016, …)
			}
			converted++
			data, err := os.ReadFile(filepath.Join(out, mod.Module+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := manifest.Decode(mod.Module+".yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			declared := map[string]bool{}
			for _, r := range m.Declared() {
				declared[r.Path] = true
			}
			for _, c := range m.Containers() {
				for _, v := range c.Container.Volumes {
					if !declared[v.Source] {
						t.Errorf("container %s: volume source %s is not declared exactly", c.Container.Name, v.Source)
					}
				}
			}
		})
	}
	t.Logf("corpus: %d compose files; %d refused under --strict, %d failed to load; %d converted (without volumes, or with the filled skeleton)", len(files), refusals, failed, converted)
}

// runCLI runs the command in-process with dir as its working directory.
func runCLI(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("panic: %v\nstderr:\n%s", p, e.String())
		}
	}()
	code = run(&env{stdin: strings.NewReader(""), stdout: &o, stderr: &e, environ: []string{"HOME=/nonexistent"}, dir: dir}, args)
	return code, o.String(), e.String()
}

func decodeReport(t *testing.T, stdout string) report.Report {
	t.Helper()
	var rep report.Report
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("report is not valid JSON: %v\n%s", err, stdout)
	}
	if len(rep.Modules) != 1 {
		t.Fatalf("report has %d modules, want 1", len(rep.Modules))
	}
	return rep
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Fatalf("%s is not empty after a refusal: %v", dir, entries)
	}
}

// reportedSources returns the sources the report's errors name: a bind's
// source as written, a named volume's name, or SERVICE:TARGET for an
// anonymous volume.
func reportedSources(m report.Module) map[string]bool {
	out := map[string]bool{}
	for _, d := range m.Diagnostics {
		switch d.Rule {
		case "C2M001", "C2M013", "C2M010":
		default:
			continue
		}
		if d.Source == "" {
			out[d.Service+":"+path.Clean(d.Target)] = true
			continue
		}
		out[normalizeSource(d.Source)] = true
	}
	return out
}

// rawSources counts the sources of a compose file from its YAML alone:
// every service's volumes and file configs, following include and extends.file, with
// variables substituted from the folder's .env.
func rawSources(t *testing.T, file string) map[string]bool {
	t.Helper()
	env := map[string]string{}
	if vals, err := dotenv.GetEnvFromFile(map[string]string{}, envFiles(filepath.Dir(file))); err == nil {
		env = vals
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	subst := func(s string) string {
		v, err := template.SubstituteWithOptions(s, lookup, template.WithoutLogging)
		if err != nil {
			return s
		}
		return v
	}
	out := map[string]bool{}
	seen := map[string]bool{}
	var walk func(file string)
	walk = func(file string) {
		if seen[file] {
			return
		}
		seen[file] = true
		data, err := os.ReadFile(file)
		if err != nil {
			return
		}
		var doc struct {
			Include  []any                     `yaml:"include"`
			Services map[string]map[string]any `yaml:"services"`
			Volumes  map[string]any            `yaml:"volumes"`
			Configs  map[string]map[string]any `yaml:"configs"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		dir := filepath.Dir(file)
		for _, inc := range doc.Include {
			switch v := inc.(type) {
			case string:
				walk(filepath.Join(dir, v))
			case map[string]any:
				if p, ok := v["path"].(string); ok {
					walk(filepath.Join(dir, p))
				}
			}
		}
		for svc, def := range doc.Services {
			if ext, ok := def["extends"].(map[string]any); ok {
				if f, ok := ext["file"].(string); ok {
					walk(filepath.Join(dir, f))
				}
			}
			// A config with a file: is a read-only bind of that file.
			cfgs, _ := def["configs"].([]any)
			for _, c := range cfgs {
				name, _ := c.(string)
				if m, ok := c.(map[string]any); ok {
					name, _ = m["source"].(string)
				}
				if f, ok := doc.Configs[name]["file"].(string); ok && doc.Configs[name]["external"] == nil {
					out[normalizeSource(subst(f))] = true
				}
			}
			vols, _ := def["volumes"].([]any)
			for _, v := range vols {
				switch v := v.(type) {
				case string:
					s := subst(v)
					parts := strings.Split(s, ":")
					if len(parts) == 1 {
						out[svc+":"+path.Clean(parts[0])] = true
						continue
					}
					out[normalizeSource(parts[0])] = true
				case map[string]any:
					typ, _ := v["type"].(string)
					src, _ := v["source"].(string)
					target, _ := v["target"].(string)
					switch {
					case typ == "tmpfs":
					case src == "" && typ == "volume":
						out[svc+":"+path.Clean(subst(target))] = true
					default:
						out[normalizeSource(subst(src))] = true
					}
				}
			}
		}
	}
	walk(file)
	return out
}

func envFiles(dir string) []string {
	p := filepath.Join(dir, ".env")
	if _, err := os.Stat(p); err == nil {
		return []string{p}
	}
	return nil
}

// normalizeSource puts a bind source in one canonical form, the way a
// person compares them: relative paths as ./x, trailing slashes dropped.
func normalizeSource(s string) string {
	switch {
	case strings.HasPrefix(s, "/"):
		return path.Clean(s)
	case s == "~" || strings.HasPrefix(s, "~/"):
		return "~/" + strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(s, "~")), "/")
	case strings.HasPrefix(s, "."):
		c := path.Clean(s)
		if c == "." || strings.HasPrefix(c, "../") || c == ".." {
			return c
		}
		return "./" + c
	}
	return s // a volume name
}

// fillSkeleton fills a refusal's skeleton with placeholders.
func fillSkeleton(t *testing.T, skeleton string) []byte {
	t.Helper()
	out, err := skeletontest.Fill([]byte(skeleton))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalSets(a, b map[string]bool) bool {
	return len(minus(a, b)) == 0 && len(minus(b, a)) == 0
}

func minus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// sameReport reports whether two JSON reports are the same but for the
// output directory, which differs between runs.
func sameReport(a, b string) bool {
	strip := func(s string) string {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, `"output":`) {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	return strip(a) == strip(b)
}
