//go:build linux

package plan

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/shell"
	"github.com/compose2manifest/compose2manifest/internal/treetest"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// legacyTree writes a source tree with what a copy tends to lose: odd
// names, links, a sparse file, restrictive modes, owners that exist
// nowhere (as root), an xattr (with setfattr).
func legacyTree(t *testing.T, dir string) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub dir", "deeper"), 0o755))
	files := map[string]string{
		"a file with spaces":       "spaces\n",
		"new\nline":                "newline\n",
		"bad\xff\xfe bytes":        "not UTF-8\n",
		"quote'd \"and\" $x `y` *": "shell\n",
		"sub dir/deeper/secret":    "secret\n",
		"-leading dash":            "dash\n",
	}
	for name, content := range files {
		must(os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	must(os.Chmod(filepath.Join(dir, "sub dir/deeper/secret"), 0o600))
	must(os.Chmod(filepath.Join(dir, "sub dir", "deeper"), 0o700))
	must(os.Chmod(filepath.Join(dir, "bad\xff\xfe bytes"), 0o400))
	must(os.Symlink("a file with spaces", filepath.Join(dir, "link")))
	must(os.Symlink("/nowhere/at all", filepath.Join(dir, "dangling")))
	must(os.Link(filepath.Join(dir, "a file with spaces"), filepath.Join(dir, "sub dir", "hard link")))
	f, err := os.Create(filepath.Join(dir, "sparse"))
	must(err)
	_, err = f.WriteAt([]byte("end"), 64<<20)
	must(err)
	must(f.Close())
	if os.Getuid() == 0 {
		must(os.Lchown(filepath.Join(dir, "sub dir/deeper/secret"), 54321, 43210))
		must(os.Lchown(filepath.Join(dir, "link"), 54322, 43211))
		must(os.Lchown(filepath.Join(dir, "sub dir"), 54323, 43212))
	}
	if _, err := exec.LookPath("setfattr"); err == nil {
		if out, err := exec.Command("setfattr", "-n", "user.c2m", "-v", "kept", filepath.Join(dir, "a file with spaces")).CombinedOutput(); err != nil {
			t.Logf("no xattr in this tree: setfattr: %v: %s", err, out)
		}
	}
}

// runScript writes p as a script and runs it with sh, with a docker on
// PATH that prints running, and returns its output and exit status.
func runScript(t *testing.T, p *Plan, dir, running string) (string, int) {
	t.Helper()
	fake := "#!/bin/sh\n[ \"$1 $2 $3\" = 'ps --filter label=com.docker.compose.project=c2mtest' ] || exit 2\nprintf '%s' " + shell.Quote(running) + "\n"
	return runScriptWith(t, p, dir, fake)
}

// runScriptWith is runScript with fake as the docker on PATH.
func runScriptWith(t *testing.T, p *Plan, dir, fake string) (string, int) {
	t.Helper()
	var script bytes.Buffer
	if err := WriteScript(&script, p); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "docker"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "C2M_PLAN_LOG="+filepath.Join(dir, "plan.log"))
	out, err := cmd.CombinedOutput()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// TestScriptCopies runs a plan's script for real: the copy matches the
// source, a second run changes nothing, a different non-empty target is
// refused, running containers stop it, and the source never changes.
func TestScriptCopies(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	legacy := filepath.Join(tmp, "legacy host\n'docker'")
	src := filepath.Join(legacy, "volumes", "c2mtest_data", "_data")
	if err := os.MkdirAll(src, 0o711); err != nil {
		t.Fatal(err)
	}
	legacyTree(t, src)
	cf := filepath.Join(legacy, "main.cf")
	if err := os.WriteFile(cf, []byte("myhostname = x\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	moved := owner
	if os.Getuid() == 0 {
		moved = "4242:4243"
	}
	target := filepath.Join(tmp, "target host's $HOME")
	p := &Plan{Version: Version, Project: "c2mtest",
		Directories: []Directory{{Module: "m", Path: target, Owner: owner, Mode: "0755"}},
		Moves: []Move{
			{Module: "m", From: src, To: filepath.Join(target, "data"), Kind: manifest.KindDirectory, Owner: moved, Mode: "0750", Intent: manifest.IntentState},
			{Module: "m", From: cf, To: filepath.Join(target, "main.cf"), Kind: manifest.KindFile, Owner: owner, Mode: "0644", Intent: manifest.IntentConfig},
		}}
	before := treetest.Listing(t, legacy, true, true)

	out, code := runScript(t, p, tmp, "0123abcd\n")
	if code == 0 || !strings.Contains(out, "docker compose -p c2mtest stop") {
		t.Fatalf("running containers: exit %d, want a refusal naming docker compose -p c2mtest stop:\n%s", code, out)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatalf("running containers: the script created %s", target)
	}

	out, code = runScript(t, p, tmp, "")
	if code != 0 {
		t.Fatalf("first run: exit %d:\n%s", code, out)
	}
	t.Logf("first run:\n%s", out)
	dst := filepath.Join(target, "data")
	if got, want := treetest.Listing(t, dst, false, false), treetest.Listing(t, src, false, false); got != want {
		t.Errorf("the copy differs from the source:\n got: %s\nwant: %s", got, want)
	}
	for path, want := range map[string]string{target: "0755 " + owner, dst: "0750 " + moved, filepath.Join(target, "main.cf"): "0644 " + owner} {
		var st syscall.Stat_t
		if err := syscall.Lstat(path, &st); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%04o %d:%d", st.Mode&0o7777, st.Uid, st.Gid); got != want {
			t.Errorf("%q: %s, want the declared %s", path, got, want)
		}
	}
	if data, err := os.ReadFile(filepath.Join(target, "main.cf")); err != nil || string(data) != "myhostname = x\n" {
		t.Errorf("main.cf: %q, %v", data, err)
	}
	if log, err := os.ReadFile(filepath.Join(tmp, "plan.log")); err != nil || !bytes.Contains(log, []byte("copied and verified")) {
		t.Errorf("the log says nothing of the copy: %q, %v", log, err)
	}

	after := treetest.Listing(t, target, true, true)
	out, code = runScript(t, p, tmp, "")
	if code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("second run: exit %d, want 0 and nothing changed:\n%s", code, out)
	}
	if got := treetest.Listing(t, target, true, true); got != after {
		t.Errorf("the second run changed the target:\n got: %s\nwant: %s", got, after)
	}

	other := filepath.Join(tmp, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "a file with spaces"), []byte("different\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(other, 0o711); err != nil {
		t.Fatal(err)
	}
	untouched := treetest.Listing(t, other, true, true)
	q := &Plan{Version: Version, Project: "c2mtest", Moves: []Move{{Module: "m", From: src, To: other, Kind: manifest.KindDirectory, Owner: owner, Mode: "0755"}}}
	out, code = runScript(t, q, tmp, "")
	if code == 0 || !strings.Contains(out, "refused") {
		t.Errorf("a different non-empty target: exit %d, want a refusal:\n%s", code, out)
	}
	// Not even its mode is changed (the times show a chmod too).
	if got := treetest.Listing(t, other, true, true); got != untouched {
		t.Errorf("the refused target was changed:\n got: %s\nwant: %s", got, untouched)
	}
	if data, _ := os.ReadFile(filepath.Join(other, "a file with spaces")); string(data) != "different\n" {
		t.Errorf("the refused target was written: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(other, "link")); err == nil {
		t.Errorf("the refused target was copied into")
	}

	// Data the plan could not locate: the rest is done, then the script
	// fails saying what was not copied.
	u := *p
	u.Unlocated = []Unlocated{{Module: "m", To: filepath.Join(target, "cache"), Legacy: "anonymous Docker volume of service web", Find: "find it with docker container inspect"}}
	out, code = runScript(t, &u, tmp, "")
	if code == 0 || !strings.Contains(out, "not copied: anonymous Docker volume of service web") || !strings.Contains(out, "already matches") {
		t.Errorf("an unlocated volume: exit %d, want the others checked and a refusal:\n%s", code, out)
	}

	// Where docker is not installed, the script says it skips the check.
	bare := filepath.Join(tmp, "bare")
	if err := os.Mkdir(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"rsync", "stat", "date", "ls", "grep", "head", "mkdir", "chown", "chmod", "find", "tr", "readlink"} {
		if p, err := exec.LookPath(tool); err == nil {
			if err := os.Symlink(p, filepath.Join(bare, tool)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var script bytes.Buffer
	if err := WriteScript(&script, p); err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, "-c", script.String())
	cmd.Dir, cmd.Env = tmp, []string{"PATH=" + bare, "C2M_PLAN_LOG=" + filepath.Join(tmp, "plan.log")}
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "docker is not installed here: not checking") {
		t.Errorf("without docker: %v, want the check skipped, saying so:\n%s", err, out)
	}

	if got := treetest.Listing(t, legacy, true, true); got != before {
		t.Errorf("the source changed:\n got: %s\nwant: %s", got, before)
	}
}

// TestScriptExtraInTarget: a target holding everything of the source
// plus a file the source lacks (a stale postmaster.pid) does not match:
// it is refused, and nothing in it is deleted.
func TestScriptExtraInTarget(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	if err := os.MkdirAll(filepath.Join(src, "base"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "PG_VERSION"), []byte("16\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	dst := filepath.Join(tmp, "dst")
	p := &Plan{Version: Version, Project: "c2mtest", Moves: []Move{{Module: "m", From: src, To: dst, Kind: manifest.KindDirectory, Owner: owner, Mode: "0700", Intent: manifest.IntentState}}}
	if out, code := runScript(t, p, tmp, ""); code != 0 {
		t.Fatalf("first run: exit %d:\n%s", code, out)
	}
	base, err := os.Stat(filepath.Join(dst, "base"))
	if err != nil {
		t.Fatal(err)
	}
	// keep base's time as copied, so the extra file is the only difference
	restore := func() {
		t.Helper()
		if err := os.Chtimes(filepath.Join(dst, "base"), base.ModTime(), base.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	for _, extra := range []string{"postmaster.pid", "base/stale"} {
		if err := os.WriteFile(filepath.Join(dst, extra), []byte("4242\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		restore()
		out, code := runScript(t, p, tmp, "")
		if code == 0 || !strings.Contains(out, "refused") || !strings.Contains(out, "deleting") || strings.Contains(out, "already matches") {
			t.Errorf("a target with an extra %s: exit %d, want a refusal listing it:\n%s", extra, code, out)
		}
		if data, err := os.ReadFile(filepath.Join(dst, extra)); err != nil || string(data) != "4242\n" {
			t.Errorf("the refused target's %s was changed: %q, %v", extra, data, err)
		}
		if err := os.Remove(filepath.Join(dst, extra)); err != nil {
			t.Fatal(err)
		}
		restore()
	}
	if out, code := runScript(t, p, tmp, ""); code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("the extra files removed: exit %d, want nothing changed:\n%s", code, out)
	}
}

// TestScriptEmptySource: an empty source is copied once; the second run
// says nothing changed.
func TestScriptEmptySource(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	dst := filepath.Join(tmp, "dst")
	p := &Plan{Version: Version, Project: "c2mtest", Moves: []Move{{Module: "m", From: src, To: dst, Kind: manifest.KindDirectory, Owner: owner, Mode: "0700", Intent: manifest.IntentState}}}
	if out, code := runScript(t, p, tmp, ""); code != 0 {
		t.Fatalf("first run: exit %d:\n%s", code, out)
	}
	after := treetest.Listing(t, dst, true, true)
	out, code := runScript(t, p, tmp, "")
	if code != 0 || !strings.Contains(out, "nothing changed") || strings.Contains(out, "copied and verified") || strings.Contains(out, "copying") {
		t.Errorf("second run on an empty source: exit %d, want nothing changed:\n%s", code, out)
	}
	if got := treetest.Listing(t, dst, true, true); got != after {
		t.Errorf("the second run changed the target:\n got: %s\nwant: %s", got, after)
	}
}

// TestScriptAnonymousVolume runs a plan whose anonymous volume is found
// when the script runs: docker ps names the one stopped container of the
// service, docker container inspect the volume it mounts at the target,
// and the volume's data is copied and verified. No container, or two, and
// the script refuses without copying.
func TestScriptAnonymousVolume(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	root := filepath.Join(tmp, "docker root")
	src := filepath.Join(root, "volumes", "0f1e2d3c", "_data")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	legacyTree(t, src)
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	target := filepath.Join(tmp, "target")
	p := &Plan{Version: Version, Project: "c2mtest", DockerRoot: root,
		Directories: []Directory{{Module: "m", Path: target, Owner: owner, Mode: "0755"}},
		Moves: []Move{{Module: "m", To: filepath.Join(target, "cache"), Kind: manifest.KindDirectory, Owner: owner, Mode: "0750",
			Intent: manifest.IntentCache, Legacy: "anonymous Docker volume of service web", Anonymous: &Anonymous{Service: "web", Target: "/var/cache/we'b \"x\""}}}}
	before := treetest.Listing(t, root, false, true)
	// The fake docker: no container runs; ps -a names CONTAINERS for the
	// service; inspect prints the volume name when the template asks for
	// the mount at the target, written as a Go string literal.
	fake := func(containers string) string {
		return "#!/bin/sh\n" +
			"case \"$*\" in\n" +
			"'ps --filter label=com.docker.compose.project=c2mtest -q') exit 0 ;;\n" +
			"'ps -a -q --no-trunc --filter label=com.docker.compose.project=c2mtest --filter label=com.docker.compose.service=web') printf '%s' " + shell.Quote(containers) + " ;;\n" +
			"'container inspect --format '*) case \"$4\" in *'(eq .Destination \"/var/cache/we'\\''b \\\"x\\\"\")'*) [ \"$5\" = c0ffee ] && echo 0f1e2d3c ;; *) exit 3 ;; esac ;;\n" +
			"*) exit 2 ;;\n" +
			"esac\n"
	}
	out, code := runScriptWith(t, p, tmp, fake(""))
	if code == 0 || !strings.Contains(out, "no container of service web is left to inspect") {
		t.Fatalf("no container: exit %d, want a refusal:\n%s", code, out)
	}
	out, code = runScriptWith(t, p, tmp, fake("c0ffee\nbeef\n"))
	if code == 0 || !strings.Contains(out, "more than one container of service web") {
		t.Fatalf("two containers: exit %d, want a refusal:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(target, "cache")); err == nil {
		t.Fatal("a refused run created the target")
	}
	out, code = runScriptWith(t, p, tmp, fake("c0ffee\n"))
	if code != 0 || !strings.Contains(out, "the anonymous volume of service web is 0f1e2d3c") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if got, want := treetest.Listing(t, filepath.Join(target, "cache"), false, false), treetest.Listing(t, src, false, false); got != want {
		t.Errorf("the copy differs from the volume:\n got: %s\nwant: %s", got, want)
	}
	out, code = runScriptWith(t, p, tmp, fake("c0ffee\n"))
	if code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("second run: exit %d:\n%s", code, out)
	}
	if after := treetest.Listing(t, root, false, true); after != before {
		t.Errorf("the volume changed:\n%s\nwant:\n%s", after, before)
	}
}

// TestScriptVolumeDriver: a named Docker volume whose data is not its
// _data folder (another driver, or the local driver with options: NFS,
// CIFS, a bind), as docker volume inspect tells at run time, is refused
// before anything is copied (its _data is an empty mount point while the
// containers are stopped: the copy would be empty and "verified"); the
// local driver without options is copied (found by the twelfth
// fresh-eyes trial).
func TestScriptVolumeDriver(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	root := filepath.Join(tmp, "docker")
	src := filepath.Join(root, "volumes", "app_data", "_data")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	legacyTree(t, src)
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	target := filepath.Join(tmp, "target")
	p := &Plan{Version: Version, DockerRoot: root,
		Directories: []Directory{{Module: "m", Path: target, Owner: owner, Mode: "0755"}},
		Moves: []Move{{Module: "m", From: src, To: filepath.Join(target, "data"), Kind: manifest.KindDirectory, Owner: owner, Mode: "0750",
			Intent: manifest.IntentState, Legacy: "Docker volume app_data"}}}
	fakeAt := func(how, at string) string {
		return "#!/bin/sh\n" +
			"case \"$*\" in\n" +
			"'volume inspect --format {{.Driver}} {{len .Options}} app_data') [ -n " + shell.Quote(how) + " ] || exit 1; echo " + shell.Quote(how) + " ;;\n" +
			"'volume inspect --format {{.Mountpoint}} app_data') echo " + shell.Quote(at) + " ;;\n" +
			"*) exit 2 ;;\n" +
			"esac\n"
	}
	fake := func(how string) string { return fakeAt(how, src) }
	for _, tc := range []struct{ docker, want string }{
		{fake("local 3"), "Docker volume app_data has driver and options 'local 3'"},
		{fake("nfs 0"), "Docker volume app_data has driver and options 'nfs 0'"},
		{fake(""), "docker knows no volume app_data"},
		{fakeAt("local 0", "/elsewhere/volumes/app_data/_data"), "docker keeps volume app_data at /elsewhere/volumes/app_data/_data, not under the Docker root"},
	} {
		out, code := runScriptWith(t, p, tmp, tc.docker)
		if code == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("exit %d, want a refusal saying %q:\n%s", code, tc.want, out)
		}
		if _, err := os.Stat(filepath.Join(target, "data")); err == nil {
			t.Fatalf("%q: a refused run created the target", tc.want)
		}
	}
	out, code := runScriptWith(t, p, tmp, fake("local 0"))
	if code != 0 || !strings.Contains(out, "every move copied and verified") {
		t.Fatalf("local 0: exit %d:\n%s", code, out)
	}
}

// TestScriptWithin: the declared paths inside a move's target (a covered
// move, a directory declared there, a declared file) get their declared
// owner and mode after the copy, the comparison leaves those out, a
// second run changes nothing, and a declared path the copy does not hold
// is left for the host (they kept the source's, root 0755; found by the
// ninth fresh-eyes trial).
func TestScriptWithin(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	for _, d := range []string{"sub [x]", "sub [x]/deeper"} {
		if err := os.MkdirAll(filepath.Join(src, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "sub [x]", "s.txt"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "conf.ini"), []byte("c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	inner := owner
	if os.Getuid() == 0 {
		inner = "4242:4243"
	}
	dst := filepath.Join(tmp, "dst")
	mod := &manifest.Module{Module: "m", Resources: []manifest.Resource{
		{Kind: manifest.KindDirectory, Path: dst, Owner: owner, Mode: "0750", Intent: manifest.IntentState},
		{Kind: manifest.KindFile, Path: filepath.Join(dst, "conf.ini"), Owner: inner, Mode: "0600", Intent: manifest.IntentConfig},
		{Kind: manifest.KindDirectory, Path: filepath.Join(dst, "missing"), Owner: inner, Mode: "0700", Intent: manifest.IntentState},
		{Kind: manifest.KindDirectory, Path: filepath.Join(dst, "sub [x]"), Owner: inner, Mode: "0700", Intent: manifest.IntentState},
		{Kind: manifest.KindDirectory, Path: filepath.Join(dst, "sub [x]", "deeper"), Owner: inner, Mode: "0710", Intent: manifest.IntentState},
	}}
	mv := Move{Module: "m", From: src, To: dst, Kind: manifest.KindDirectory, Owner: owner, Mode: "0750", Intent: manifest.IntentState}
	mv.Within = within([]*manifest.Module{mod}, mv)
	if len(mv.Within) != 4 {
		t.Fatalf("within: %+v, want the 4 declared paths inside", mv.Within)
	}
	p := &Plan{Version: Version, Project: "c2mtest", Moves: []Move{mv}}
	if out, code := runScript(t, p, tmp, ""); code != 0 {
		t.Fatalf("first run: exit %d:\n%s", code, out)
	}
	for _, c := range []struct {
		path string
		mode os.FileMode
	}{{"conf.ini", 0o600}, {"sub [x]", 0o700}, {"sub [x]/deeper", 0o710}} {
		fi, err := os.Stat(filepath.Join(dst, c.path))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != c.mode {
			t.Errorf("%s: mode %o, want %o", c.path, fi.Mode().Perm(), c.mode)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "missing")); err == nil {
		t.Error("the script created a declared directory the copy does not hold")
	}
	after := treetest.Listing(t, dst, true, true)
	out, code := runScript(t, p, tmp, "")
	if code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("second run: exit %d, want nothing changed:\n%s", code, out)
	}
	if got := treetest.Listing(t, dst, true, true); got != after {
		t.Errorf("the second run changed the target:\n got: %s\nwant: %s", got, after)
	}
}

// TestScriptApartThroughLinks: a move whose target lies inside its
// source once the legacy host's links are followed (the legacy checkout
// a link to the target's folder) is refused before anything is written
// (found by the thirteenth fresh-eyes trial: the copy wrote into its
// source).
func TestScriptApartThroughLinks(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	data := filepath.Join(tmp, "app", "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	legacyTree(t, data)
	if err := os.Symlink(filepath.Join(tmp, "app"), filepath.Join(tmp, "old")); err != nil {
		t.Fatal(err)
	}
	before := treetest.Listing(t, data, true, true)
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	// The target's declared folder is the source's, through the link:
	// the script must not give it the declared owner and mode before it
	// refuses (it did, found by the attack trial).
	p := &Plan{Version: Version, DockerRoot: "/var/lib/docker",
		Directories: []Directory{{Module: "m", Path: data, Owner: owner, Mode: "0700"}},
		Moves: []Move{{Module: "m", From: filepath.Join(tmp, "old", "data"), To: filepath.Join(data, "v2"), Kind: manifest.KindDirectory,
			Owner: owner, Mode: "0750", Intent: manifest.IntentState, Legacy: "bind ./data"}}}
	out, code := runScriptWith(t, p, tmp, "")
	if code == 0 || !strings.Contains(out, "lies inside the source") {
		t.Fatalf("exit %d, want a refusal:\n%s", code, out)
	}
	if after := treetest.Listing(t, data, true, true); after != before {
		t.Errorf("the source changed:\n%s\nwant:\n%s", after, before)
	}
}
