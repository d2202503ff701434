package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
)

// writeTree writes files (slash paths relative to root) with their content.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// project returns the files of a project in folder dir that converts:
// one service with one declared bind, at /opt/MODULE on the target host.
func projectFiles(dir, module, hostPath string) map[string]string {
	return map[string]string{
		dir + "/compose.yaml":    "services:\n  web:\n    image: nginx:1.27\n    volumes:\n      - ./html:/usr/share/nginx/html:ro\n",
		dir + "/html/index.html": "hello\n",
		dir + "/compose2manifest.yaml": fmt.Sprintf("version: 1\nmodule: %s\nhost_project_directory: %s\nbinds:\n  ./html: {owner: \"0:0\", mode: \"0755\", intent: content}\ndirectories:\n  %s: {owner: \"0:0\", mode: \"0755\", intent: config}\n",
			module, hostPath, hostPath),
	}
}

func rels(ps []Project) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Rel)
	}
	return out
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"compose.yaml":                    "services: {}\n",
		"b/docker-compose.yml":            "services: {}\n",
		"b/docker-compose.override.yml":   "services: {}\n",
		"b/nested/compose.yml":            "services: {}\n",
		"a/docker-compose.yaml":           "services: {}\n",
		"a-b/compose.yaml":                "services: {}\n",
		"c/other.yaml":                    "services: {}\n",
		"c/d/compose.yaml":                "services: {}\n",
		".git/compose.yaml":               "services: {}\n",
		"x/node_modules/pkg/compose.yaml": "services: {}\n",
		"vendor/compose.yaml":             "services: {}\n",
		"apps/legacy/compose.yaml":        "services: {}\n",
		"apps/new/compose.yaml":           "services: {}\n",
		"deep/tmp-1/compose.yaml":         "services: {}\n",
		"e/compose.yaml/keep":             "a folder named like a compose file: a project that fails, never skipped\n",
	})
	got, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".", "a", "a-b", "apps/legacy", "apps/new", "b", "b/nested", "c/d", "deep/tmp-1", "e", "vendor"}
	if !reflect.DeepEqual(rels(got), want) {
		t.Errorf("Discover:\n got %q\nwant %q", rels(got), want)
	}
	for _, p := range got {
		if wantErr := p.Rel == "e"; !filepath.IsAbs(p.Dir) || (p.Err != nil) != wantErr {
			t.Errorf("project %+v: want an absolute Dir, and an error only for e", p)
		}
	}

	got, err = Discover(root, []string{"vendor", "apps/legacy", "tmp*", "./b/nested/"})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{".", "a", "a-b", "apps/new", "b", "c/d", "e"}
	if !reflect.DeepEqual(rels(got), want) {
		t.Errorf("Discover with excludes:\n got %q\nwant %q", rels(got), want)
	}

	if _, err := Discover(root, []string{"["}); err == nil {
		t.Error("a malformed pattern: want an error")
	}
	if _, err := Discover(filepath.Join(root, "compose.yaml"), nil); err == nil {
		t.Error("a file as root: want an error")
	}
}

func TestExcluded(t *testing.T) {
	for _, c := range []struct {
		rel, pattern string
		want         bool
	}{
		{"vendor", "vendor", true},
		{"a/vendor", "vendor", true},       // base name, any depth
		{"a/vendor/b", "vendor", false},    // only the folder itself; its children are never walked
		{"apps/legacy", "apps/*", true},    // relative path
		{"x/apps/legacy", "apps/*", false}, // a path pattern is anchored at the root
		{"apps/legacy", "apps/", false},
		{"apps", "apps/", true}, // trailing slash ignored
		{"tmp-1", "tmp*", true},
		{"a/b", "*", true},
	} {
		if got := Excluded(c.rel, []string{c.pattern}); got != c.want {
			t.Errorf("Excluded(%q, %q) = %v, want %v", c.rel, c.pattern, got, c.want)
		}
	}
}

// run runs a batch over root into out and fails the test on error.
func run(t *testing.T, root, out string, jobs int) *Report {
	t.Helper()
	rep, err := Run(context.Background(), Config{Root: root, Out: out, Jobs: jobs, Convert: convert.Options{Environ: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestRunOrderAndOutputIndependentOfJobs(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"broken/compose.yaml": "services: [\n"}
	for i := range 12 {
		for k, v := range projectFiles(fmt.Sprintf("p%02d", 11-i), fmt.Sprintf("m%02d", i), fmt.Sprintf("/opt/m%02d", i)) {
			files[k] = v
		}
	}
	writeTree(t, root, files)
	var outs [2]string
	var reps [2]*Report
	for k, jobs := range []int{1, 8} {
		outs[k] = filepath.Join(t.TempDir(), "out")
		reps[k] = run(t, root, outs[k], jobs)
	}
	for _, r := range reps {
		for i := range r.Entries {
			r.Entries[i].Output = filepath.Base(r.Entries[i].Output)
		}
	}
	if !reflect.DeepEqual(reps[0], reps[1]) {
		t.Fatalf("reports differ between --jobs 1 and 8:\n%+v\n%+v", reps[0], reps[1])
	}
	var got []string
	for _, e := range reps[0].Entries {
		got = append(got, strings.TrimPrefix(e.Project, root+"/")+":"+string(e.Status))
	}
	want := []string{"broken:error"}
	for i := range 12 {
		want = append(want, fmt.Sprintf("p%02d:converted", i))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries:\n got %q\nwant %q", got, want)
	}
	for i := range 12 {
		name := fmt.Sprintf("m%02d.yaml", i)
		a, err := os.ReadFile(filepath.Join(outs[0], name))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(outs[1], name))
		if string(a) != string(b) {
			t.Errorf("%s differs between --jobs 1 and 8", name)
		}
	}
	s := reps[0].Summary()
	if s.Projects != 13 || s.Converted != 12 || s.Written != 12 || s.LoadFailed != 1 {
		t.Errorf("summary %+v", s)
	}
	// A second run writes nothing and leaves no staging folder.
	s = run(t, root, outs[0], 2).Summary()
	if s.Unchanged != 12 || s.Written != 0 {
		t.Errorf("second run: summary %+v, want 12 unchanged", s)
	}
	entries, _ := os.ReadDir(outs[0])
	if len(entries) != 12 {
		t.Errorf("out holds %d entries, want the 12 manifests", len(entries))
	}
}

func TestRunCrossProject(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for _, p := range []map[string]string{
		projectFiles("one", "same", "/opt/one"),
		projectFiles("two", "same", "/opt/two"),
		projectFiles("three", "three", "/opt/shared"),
		projectFiles("four", "four", "/opt/shared"),
		projectFiles("five", "five", "/opt/five"),
	} {
		for k, v := range p {
			files[k] = v
		}
	}
	writeTree(t, root, files)
	out := t.TempDir()
	rep := run(t, root, out, 2)
	status := map[string]*Entry{}
	for i, e := range rep.Entries {
		status[filepath.Base(e.Project)] = &rep.Entries[i]
	}
	for _, c := range []struct {
		project, other string
	}{{"one", "two"}, {"two", "one"}} {
		e := status[c.project]
		if e.Status != convert.Refused {
			t.Errorf("%s: status %s, want refused", c.project, e.Status)
		}
		if !hasDiag(e, "C2M017", filepath.Join(root, c.other)) {
			t.Errorf("%s: no C2M017 naming %s: %+v", c.project, c.other, e.Diagnostics)
		}
	}
	// three comes after four in discovery order: the second owner of
	// /opt/shared is refused, naming the first.
	if e := status["three"]; e.Status != convert.Refused || !hasDiag(e, "C2M005", filepath.Join(root, "four")) {
		t.Errorf("three: %s %+v", e.Status, e.Diagnostics)
	}
	if e := status["four"]; e.Status != convert.Converted {
		t.Errorf("four: %s %+v", e.Status, e.Diagnostics)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, de := range entries {
		names = append(names, de.Name())
	}
	if want := []string{"five.yaml", "four.yaml"}; !reflect.DeepEqual(names, want) {
		t.Errorf("out holds %q, want %q", names, want)
	}
}

func hasDiag(e *Entry, rule, mention string) bool {
	for _, d := range e.Diagnostics {
		if d.Rule == rule && strings.Contains(d.Message, mention) {
			return true
		}
	}
	return false
}

func TestRunForeignAndOrphan(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, projectFiles("a", "a", "/opt/a"))
	out := t.TempDir()
	writeTree(t, out, map[string]string{
		"a.yaml":     "hand-written\n",
		"notes.yaml": "hand-written\n",
		"gone.yaml":  GeneratedMarker + " from gone/compose.yaml — edit the declarations, not this file.\nversion: 1\nmodule: gone\n",
	})
	rep := run(t, root, out, 1)
	if e := rep.Entries[0]; e.Status != convert.Failed || e.LoadFailed || !strings.Contains(e.Diagnostics[len(e.Diagnostics)-1].Message, "not generated by compose2manifest") {
		t.Errorf("a: %s %+v", e.Status, e.Diagnostics)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "a.yaml")); string(data) != "hand-written\n" {
		t.Errorf("a foreign file was overwritten: %q", data)
	}
	want := []Orphan{{File: filepath.ToSlash(filepath.Join(out, "gone.yaml")), Module: "gone", From: "gone/compose.yaml"}}
	if !reflect.DeepEqual(rep.Orphans, want) {
		t.Errorf("orphans %+v, want %+v", rep.Orphans, want)
	}
	if _, err := os.Stat(filepath.Join(out, "gone.yaml")); err != nil {
		t.Errorf("the orphan was removed: %v", err)
	}

	rep, err := Run(context.Background(), Config{Root: root, Out: out, Force: true, Convert: convert.Options{Environ: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if e := rep.Entries[0]; e.Status != convert.Converted || e.Write != Written {
		t.Errorf("with Force: %s %s %+v", e.Status, e.Write, e.Diagnostics)
	}
}

// The output folder is created only when there is something to write.
func TestRunCreatesOutOnlyToWrite(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"no project":        {"readme.txt": "nothing here\n"},
		"every one failing": {"a/compose.yaml": "services: [\n", "b/compose.yaml": "services: {}\n"},
		"every one refused": {"a/compose.yaml": "services:\n  db:\n    image: example/db:1\n    volumes:\n      - ./data:/var/lib/db\n"},
		// Both convert, then C2M017 refuses both: the folder made for
		// staging is removed again.
		"refused across projects": func() map[string]string {
			m := projectFiles("one", "same", "/opt/one")
			for k, v := range projectFiles("two", "same", "/opt/two") {
				m[k] = v
			}
			return m
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, files)
			top := filepath.Join(t.TempDir(), "new")
			out := filepath.Join(top, "out")
			rep := run(t, root, out, 2)
			if s := rep.Summary(); s.Written != 0 {
				t.Fatalf("summary %+v, want nothing written", s)
			}
			if _, err := os.Stat(top); !os.IsNotExist(err) {
				t.Errorf("%s: %v, want it not created", top, err)
			}
		})
	}
	// Something to write: created, with its parents.
	root := t.TempDir()
	writeTree(t, root, projectFiles("a", "a", "/opt/a"))
	out := filepath.Join(t.TempDir(), "new", "out")
	run(t, root, out, 1)
	if _, err := os.Stat(filepath.Join(out, "a.yaml")); err != nil {
		t.Error(err)
	}
}

// A project that fails to load still takes part in C2M017 when its module
// name is known: the project with the same name that converts is refused,
// naming it, rather than written.
func TestRunDuplicateOfFailed(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		// name: known from the compose file, whose schema is wrong.
		"bad1/compose.yaml": "name: dup1\nservices:\n  web:\n    image: nginx:1.27\n    ports: 5\n",
		// module: known from the declarations; the compose file is not
		// even YAML.
		"bad2/compose.yaml":          "services: [\n",
		"bad2/compose2manifest.yaml": "version: 1\nmodule: dup2\n",
		// no services: convert gives the project name.
		"bad3/compose.yaml": "name: dup3\nservices: {}\n",
		// nothing says its name: the folder's, by default, is not taken
		// for sure (COMPOSE_PROJECT_NAME could change it), but it may be.
		"dup4/compose.yaml": "services: [\n",
	}
	for i, dir := range []string{"ok1", "ok2", "ok3", "ok4"} {
		for k, v := range projectFiles(dir, fmt.Sprintf("dup%d", i+1), "/opt/"+dir) {
			files[k] = v
		}
	}
	writeTree(t, root, files)
	out := t.TempDir()
	rep := run(t, root, out, 2)
	byDir := map[string]*Entry{}
	for i, e := range rep.Entries {
		byDir[filepath.Base(e.Project)] = &rep.Entries[i]
	}
	for i := 1; i <= 3; i++ {
		bad, ok := byDir[fmt.Sprintf("bad%d", i)], byDir[fmt.Sprintf("ok%d", i)]
		module := fmt.Sprintf("dup%d", i)
		if ok.Status != convert.Refused || !hasDiag(ok, "C2M017", bad.Project) {
			t.Errorf("ok%d: %s %+v, want refused by C2M017 naming %s", i, ok.Status, ok.Diagnostics, bad.Project)
		}
		if bad.Status != convert.Failed || bad.Module != module || !hasDiag(bad, "C2M017", ok.Project) {
			t.Errorf("bad%d: %s module %q %+v, want failed, %s, C2M017", i, bad.Status, bad.Module, bad.Diagnostics, module)
		}
		if last := bad.Diagnostics[len(bad.Diagnostics)-1]; last.Rule != "" {
			t.Errorf("bad%d: the load error is not last: %+v", i, bad.Diagnostics)
		}
		if _, err := os.Stat(filepath.Join(out, module+".yaml")); err == nil {
			t.Errorf("%s.yaml was written", module)
		}
	}
	// dup4's name is not known for sure, but docker compose would name
	// it by its folder, as ok4 names its module: ok4 is refused rather
	// than written over what may be dup4's manifest. The report does not
	// claim the name for dup4.
	if e := byDir["ok4"]; e.Status != convert.Refused || !hasDiag(e, "C2M017", byDir["dup4"].Project) {
		t.Errorf("ok4: %s %+v, want refused by C2M017 naming dup4", e.Status, e.Diagnostics)
	}
	if e := byDir["dup4"]; e.Module != "" {
		t.Errorf("dup4: module %q, want unknown", e.Module)
	}
	if _, err := os.Stat(filepath.Join(out, "dup4.yaml")); err == nil {
		t.Error("dup4.yaml was written")
	}
}

// A manifest is orphaned when its module was not produced, even when a
// project of this run sits in a folder of the name its header records
// (the module was renamed); it is not reported when a project that failed
// to load, of unknown module name, has that folder name.
func TestRunOrphanRenamedModule(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, projectFiles("ok1", "ok1b", "/opt/ok1"))
	writeTree(t, root, map[string]string{
		"broken/compose.yaml": "services: [\n",                                                          // no name known
		"named/compose.yaml":  "name: named2\nservices:\n  web:\n    image: nginx:1.27\n    ports: 5\n", // schema error
	})
	out := t.TempDir()
	gen := func(from, module string) string {
		return GeneratedMarker + " from " + from + " — edit the declarations, not this file.\nversion: 1\nmodule: " + module + "\n"
	}
	writeTree(t, out, map[string]string{
		"ok1.yaml":    gen("ok1/compose.yaml", "ok1"),
		"broken.yaml": gen("broken/compose.yaml", "broken"),
		"named.yaml":  gen("named/compose.yaml", "named"),  // its project now says named2
		"named2.yaml": gen("named/compose.yaml", "named2"), // produced: its name is known
	})
	rep := run(t, root, out, 2)
	o := func(file, module, from string) Orphan {
		return Orphan{File: filepath.ToSlash(filepath.Join(out, file)), Module: module, From: from}
	}
	want := []Orphan{o("named.yaml", "named", "named/compose.yaml"), o("ok1.yaml", "ok1", "ok1/compose.yaml")}
	if !reflect.DeepEqual(rep.Orphans, want) {
		t.Errorf("orphans:\n got %+v\nwant %+v", rep.Orphans, want)
	}
}

func TestTunable(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want bool
	}{
		{nil, true},
		{[]string{"HOME=/h", "GOGCX=1"}, true},
		{[]string{"GOGC=100"}, false},
		{[]string{"GOMEMLIMIT=1GiB"}, false},
		{[]string{"GOGC="}, false},
	} {
		if got := Tunable(tc.env); got != tc.want {
			t.Errorf("Tunable(%q) = %v, want %v", tc.env, got, tc.want)
		}
	}
}
