//go:build linux

package survey

import (
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/schematest"
	"github.com/compose2manifest/compose2manifest/internal/shell"
	"github.com/compose2manifest/compose2manifest/internal/treetest"
)

// The odd names plan's tests copy, as bind sources here.
const (
	spaces   = "a file with spaces"
	newline  = "new\nline"
	dash     = "-leading dash"
	shellish = "quote'd \"and\" $x `y` *"
	unicode  = "naïve ☃ 𝄞"
	badUTF8  = "bad\xff\xfe bytes"
)

// scratch is a legacy host in a folder: a project checkout with odd
// names, Docker's volumes (one mounted at a path with a newline), a home.
type scratch struct {
	dir, project, volumes, odd, home string
}

func newScratch(t *testing.T) scratch {
	t.Helper()
	root := t.TempDir()
	s := scratch{dir: root, project: filepath.Join(root, "legacy", "app"), volumes: filepath.Join(root, "docker", "volumes"),
		odd: filepath.Join(root, "docker", "odd\nvolumes", "c2m-test_odd", "_data"), home: filepath.Join(root, "home", "alice")}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(s.project, "data")
	must(os.MkdirAll(filepath.Join(data, "sub dir", "deeper"), 0o755))
	for _, name := range []string{spaces, newline, dash, shellish, unicode, badUTF8, "sub dir/deeper/secret"} {
		must(os.WriteFile(filepath.Join(data, name), []byte("inside\n"), 0o644))
	}
	must(os.Symlink("/nowhere/at all", filepath.Join(data, "dangling")))
	must(os.Chmod(data, 0o750))
	must(os.WriteFile(filepath.Join(s.project, spaces), []byte("12345"), 0o604))
	must(os.Mkdir(filepath.Join(s.project, newline), 0o2775))
	must(os.Chmod(filepath.Join(s.project, newline), 0o2775)) // past the umask
	must(os.WriteFile(filepath.Join(s.project, dash), []byte("-"), 0o600))
	must(os.Mkdir(filepath.Join(s.project, shellish), 0o700))
	must(os.Mkdir(filepath.Join(s.project, unicode), 0o755))
	must(os.WriteFile(filepath.Join(s.project, badUTF8), []byte("x"), 0o644))
	must(os.Mkdir(filepath.Join(s.project, "real"), 0o755))
	must(os.Symlink("real", filepath.Join(s.project, "current")))
	must(os.MkdirAll(filepath.Join(s.volumes, "c2m-test_db", "_data", "pg"), 0o700))
	must(os.WriteFile(filepath.Join(s.volumes, "c2m-test_db", "_data", "pg", "PG_VERSION"), []byte("16\n"), 0o600))
	must(os.MkdirAll(filepath.Join(s.volumes, "0123abcdef", "_data"), 0o755))
	must(os.MkdirAll(s.odd, 0o755))
	must(os.MkdirAll(filepath.Join(s.home, "worlds"), 0o755))
	if os.Getuid() == 0 {
		must(os.Lchown(data, 54321, 43210))
		must(os.Lchown(filepath.Join(s.volumes, "c2m-test_db", "_data"), 999, 999))
	}
	return s
}

// fakes writes, in a folder of its own, a docker that answers the
// survey's inspect and ps calls as the legacy host's would, pointing into
// s, and a getent that knows alice; each logs its arguments there.
func fakes(t *testing.T, s scratch) (bin, log string) {
	t.Helper()
	bin = t.TempDir()
	log = filepath.Join(bin, "calls.log")
	x := func(v string) string { return hex.EncodeToString([]byte(v)) }
	docker := `#!/bin/sh
printf '%s\n' "$*" >>` + shell.Quote(log) + `
for a; do last=$a; done
case "$1 $2" in
"volume inspect")
	case $last in
	c2m-test_db) printf '%s\n' ` + shell.Quote(x("local")+":"+x(filepath.Join(s.volumes, "c2m-test_db", "_data"))) + ` ;;
	c2m-test_odd) printf '%s\n' ` + shell.Quote(x("local")+":"+x(s.odd)) + ` ;;
	0123abcdef) printf '%s\n' ` + shell.Quote(x("local")+":"+x(filepath.Join(s.volumes, "0123abcdef", "_data"))) + ` ;;
	*) echo "Error: No such volume: $last" >&2; exit 1 ;;
	esac ;;
"container inspect")
	[ "$last" = feed01 ] || exit 1
	case "$*" in *'(eq .Destination "/var/lib/app")'*) printf '%s\n' ` + shell.Quote(x("0123abcdef")) + ` ;; *) echo ;; esac ;;
"image inspect")
	case $last in
	postgres:16) printf '%s\n' ` + shell.Quote(x("sha256:ab12")+":"+x("")+":"+x("/var/lib/postgresql/data")+",") + ` ;;
	example/odd:1) printf '%s\n' ` + shell.Quote(x("sha256:cd34")+":"+x("app:app")+":"+x("/data")+","+x("/new\nline")+",") + ` ;;
	*) echo "Error: No such image: $last" >&2; exit 1 ;;
	esac ;;
"ps -a")
	case "$*" in
	*" -q "*service=app) echo feed01 ;;
	*" -q "*service=twice) printf 'feed02\nfeed03\n' ;;
	*" -q "*) ;;
	*project=c2m-test" "*) printf '%s\n' ` + shell.Quote("feed01:"+x("c2m-test-app-1")+":"+x("app")+":"+x("example/odd:1")+":"+x(s.project)) + ` ;;
	*) printf '%s\n' ` + shell.Quote(x("c2m-test")) + ` ` + shell.Quote(x("other one")) + ` ` + shell.Quote(x("c2m-test")) + ` ;;
	esac ;;
*) exit 2 ;;
esac
`
	getent := `#!/bin/sh
printf 'getent %s\n' "$*" >>` + shell.Quote(log) + `
[ "$1 $2" = "passwd alice" ] || exit 2
printf 'alice:x:1000:1000:Alice:%s:/bin/sh\n' ` + shell.Quote(s.home) + `
`
	for name, text := range map[string]string{"docker": docker, "getent": getent} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin, log
}

// scratchSpec is oddSpec in s, the odd volume and a service with two
// containers added.
func scratchSpec(s scratch) Spec {
	sp := oddSpec(s.project)
	sp.User = "alice"
	sp.Sources = append(sp.Sources,
		Target{Section: declare.SectionBinds, Key: "./" + badUTF8, Real: "./" + badUTF8},
		Target{Section: declare.SectionVolumes, Key: "odd", Volume: "c2m-test_odd"},
		Target{Section: declare.SectionAnonymous, Key: "twice:/y", Service: "twice", Target: "/y"},
		Target{Section: declare.SectionVolumes, Key: "bad", Volume: "../etc"})
	return sp
}

// TestScriptRuns runs the survey in a scratch tree with a fake docker
// and getent, under every POSIX shell installed: it changes nothing in
// the tree, prints JSON the schema and Read accept, and records each
// source's facts as the tree has them, odd names too.
func TestScriptRuns(t *testing.T) {
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	shells := 0
	for _, sh := range []string{"sh", "dash", "bash", "busybox"} {
		p, err := exec.LookPath(sh)
		if err != nil {
			continue
		}
		shells++
		t.Run(sh, func(t *testing.T) {
			s := newScratch(t)
			bin, log := fakes(t, s)
			before := treetest.Listing(t, s.dir, true, true)
			out := runSurveyWith(t, p, scratchSpec(s), bin)
			if after := treetest.Listing(t, s.dir, true, true); after != before {
				t.Errorf("the survey changed the tree:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if err := v.JSON("survey", []byte(out)); err != nil {
				t.Fatalf("schema: %v\n%s", err, out)
			}
			sv, err := Read("survey.json", []byte(out))
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			checkFacts(t, s, sv)
			calls, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range strings.Split(strings.TrimSpace(string(calls)), "\n") {
				if !strings.HasPrefix(c, "ps -a ") && !strings.Contains(c, "inspect --format ") && c != "getent passwd alice" && c != "{{range" {
					t.Errorf("a call that is neither ps nor inspect: %q", c)
				}
			}
		})
	}
	if shells == 0 {
		t.Skip("no POSIX shell")
	}
}

// runSurveyWith is runSurvey with the shell sh.
func runSurveyWith(t *testing.T, sh string, s Spec, bin string) string {
	t.Helper()
	var script strings.Builder
	if err := WriteScript(&script, s); err != nil {
		t.Fatal(err)
	}
	args := []string{"-s"}
	if filepath.Base(sh) == "busybox" {
		args = []string{"sh", "-s"}
	}
	cmd := exec.Command(sh, args...)
	cmd.Stdin = strings.NewReader(script.String())
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "USER=nobody"}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("survey: %v\n%s", err, stderr.String())
	}
	return string(out)
}

// checkFacts compares what sv says of each source with the tree.
func checkFacts(t *testing.T, s scratch, sv *Survey) {
	t.Helper()
	if sv.Project != "c2m-test" || sv.User != "alice" || sv.Home != s.home || !sv.Docker {
		t.Errorf("project %q, user %q, home %q, docker %v", sv.Project, sv.User, sv.Home, sv.Docker)
	}
	if host, _ := os.Hostname(); sv.Host != host {
		t.Errorf("host %q, want %q", sv.Host, host)
	}
	if len(sv.Containers) != 1 || sv.Containers[0] != (Container{ID: "feed01", Name: "c2m-test-app-1", Service: "app", Image: "example/odd:1", WorkingDir: s.project}) {
		t.Errorf("containers %+v", sv.Containers)
	}
	if strings.Join(sv.Projects, "|") != "c2m-test|other one" {
		t.Errorf("projects %q", sv.Projects)
	}
	path := func(rel string) string { return filepath.Join(s.project, rel) }
	for _, tc := range []struct {
		section, key string
		path         string // the facts of this path (stat), "" for none
		link, err    string
	}{
		{"binds", "./data", path("data"), "", ""},
		{"binds", "./" + spaces, path(spaces), "", ""},
		{"binds", "./" + newline, path(newline), "", ""},
		{"binds", "./" + dash, path(dash), "", ""},
		{"binds", "./" + shellish, path(shellish), "", ""},
		{"binds", "./" + unicode, path(unicode), "", ""},
		{"binds", "./current", path("current"), "real", ""},
		{"binds", "./config.yml", path("config.yml"), "", ""},
		{"binds", "~/worlds", filepath.Join(s.home, "worlds"), "", ""},
		{"volumes", "db", filepath.Join(s.volumes, "c2m-test_db", "_data"), "", ""},
		{"volumes", "odd", s.odd, "", ""},
		{"volumes", "gone", "", "", "docker knows no volume c2m-test_gone"},
		{"volumes", "bad", "", "", "is none docker gives"},
		{"anonymous", "app:/var/lib/app", filepath.Join(s.volumes, "0123abcdef", "_data"), "", ""},
		{"anonymous", "down:/x", "", "", "no container of service down is left"},
		{"anonymous", "twice:/y", "", "", "more than one container of service twice"},
	} {
		src := sv.Source(tc.section, tc.key)
		if src == nil {
			t.Errorf("%s %q: not in the survey", tc.section, tc.key)
			continue
		}
		if tc.err != "" {
			if !strings.Contains(src.Error, tc.err) || src.Path != "" {
				t.Errorf("%s %q: error %q, path %q; want an error with %q", tc.section, tc.key, src.Error, src.Path, tc.err)
			}
			continue
		}
		if src.Error != "" || src.Path != tc.path || src.Link != tc.link {
			t.Errorf("%s %q: path %q, link %q, error %q; want %q, %q", tc.section, tc.key, src.Path, src.Link, src.Error, tc.path, tc.link)
		}
		if got, want := describeFacts(src), statFacts(t, tc.path); got != want {
			t.Errorf("%s %q: facts %s, want %s", tc.section, tc.key, got, want)
		}
	}
	// A name that is not UTF-8 reads U+FFFD a byte, in the key the
	// generator wrote and in the path the script found alike.
	if src := sv.Source("binds", "./bad\ufffd\ufffd bytes"); src == nil || src.Path != path("bad\ufffd\ufffd bytes") || !src.Exists || src.Type != File {
		t.Errorf("the source that is not UTF-8: %+v", src)
	}
	if src := sv.Source("anonymous", "app:/var/lib/app"); src == nil || src.Volume != "0123abcdef" || src.Container != "feed01" || src.Driver != "local" {
		t.Errorf("the anonymous volume: %+v", src)
	}
	pg, odd, gone := sv.Image("postgres:16"), sv.Image("example/odd:1"), sv.Image("gone:1")
	if pg == nil || !pg.Found || pg.ID != "sha256:ab12" || pg.User != "" || strings.Join(pg.Volumes, "|") != "/var/lib/postgresql/data" {
		t.Errorf("postgres:16: %+v", pg)
	}
	if odd == nil || odd.User != "app:app" || strings.Join(odd.Volumes, "|") != "/data|/new\nline" {
		t.Errorf("example/odd:1: %+v", odd)
	}
	if gone == nil || gone.Found {
		t.Errorf("gone:1: %+v", gone)
	}
}

// describeFacts is what src says of its path, in statFacts' words.
func describeFacts(src *Source) string {
	if !src.Exists {
		return "absent"
	}
	f := fmt.Sprintf("%s %s %s", src.Type, src.Owner, src.Mode)
	switch {
	case src.Bytes != nil:
		f += fmt.Sprintf(" %d bytes", *src.Bytes)
	case src.Files != nil && src.UsageKiB != nil && src.Complete != nil:
		f += fmt.Sprintf(" %d files complete=%v", *src.Files, *src.Complete)
	}
	return f
}

// statFacts is what p is, read with Go: through a link, a directory's
// entries that are not directories counted.
func statFacts(t *testing.T, p string) string {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		return "absent"
	}
	mode := fmt.Sprintf("%o", st.Mode&0o7777)
	if len(mode) < 3 {
		mode = strings.Repeat("0", 3-len(mode)) + mode
	}
	f := fmt.Sprintf("%d:%d %s", st.Uid, st.Gid, mode)
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return fmt.Sprintf("file %s %d bytes", f, st.Size)
	case syscall.S_IFDIR:
		n := 0
		err := filepath.WalkDir(p+"/", func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return err
		})
		return fmt.Sprintf("directory %s %d files complete=%v", f, n, err == nil)
	}
	return "other " + f
}
