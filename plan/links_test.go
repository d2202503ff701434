//go:build linux

package plan

import (
	"fmt"
	"math/rand"
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

func needRsync(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("rsync"); err != nil {
		t.Skip("rsync is not installed: the plan script cannot be run (.ci/run installs it)")
	}
}

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	mkdirs(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, to, at string) {
	t.Helper()
	mkdirs(t, filepath.Dir(at))
	if err := os.Symlink(to, at); err != nil {
		t.Fatal(err)
	}
}

// bindModule is a module whose directory dst holds the relative bind
// ./data, with the declared paths inside given as bind sources relative
// to the checkout ("" for a declared directory of no origin).
func bindModule(dst string, inside map[string]string) *manifest.Module {
	owner := fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	inner := owner
	if os.Getuid() == 0 {
		inner = "4242:4243"
	}
	m := &manifest.Module{Module: "m", Resources: []manifest.Resource{
		{Kind: manifest.KindDirectory, Path: dst, Owner: owner, Mode: "0750", Intent: manifest.IntentState, Origin: &manifest.Origin{Legacy: "bind ./data"}},
	}}
	for rel, legacy := range inside {
		r := manifest.Resource{Kind: manifest.KindDirectory, Path: filepath.Join(dst, rel), Owner: inner, Mode: "0770", Intent: manifest.IntentState}
		if legacy != "" {
			r.Origin = &manifest.Origin{Legacy: "bind " + legacy}
		}
		m.Resources = append(m.Resources, r)
	}
	return m
}

// TestScriptNoLinkOnTheWay: a container writing in ./data can replace
// any folder there with a link to anywhere. Wherever the link is on the
// way to a path the script would create, chown, chmod or copy into (the
// first component inside the move, a deeper one, the last one, the
// source itself below the legacy checkout), the script refuses before it
// changes anything: no target is created and no tree changes (found by
// the attack trial: /victim/uploads was chowned to 1000:1000 0770).
func TestScriptNoLinkOnTheWay(t *testing.T) {
	needRsync(t)
	cases := []struct {
		name   string
		inside map[string]string
		// links are made relative to the legacy checkout: at -> a
		// folder under victim.
		links map[string]string
	}{
		{"first component", map[string]string{"app/uploads": "./data/app/uploads"}, map[string]string{"data/app": "victim"}},
		{"deeper component", map[string]string{"app/x/uploads": "./data/app/x/uploads", "app": ""}, map[string]string{"data/app/x": "victim"}},
		{"last component", map[string]string{"app/uploads": "./data/app/uploads"}, map[string]string{"data/app/uploads": "victim/uploads"}},
		{"declared directory", map[string]string{"app": ""}, map[string]string{"data/app": "victim"}},
		{"the source", nil, map[string]string{"data": "victim"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			scratch := filepath.Join(tmp, "scratch")
			legacy, victim := filepath.Join(scratch, "legacy"), filepath.Join(scratch, "victim")
			writeFile(t, filepath.Join(victim, "uploads", "precious"), "not the module's\n")
			writeFile(t, filepath.Join(victim, "x", "uploads", "precious"), "not the module's\n")
			if c.links["data"] == "" {
				writeFile(t, filepath.Join(legacy, "data", "keep"), "data\n")
			}
			for at, to := range c.links {
				if p := filepath.Join(legacy, at); fileExists(p) {
					t.Fatalf("%s exists", p)
				}
				symlink(t, filepath.Join(scratch, to), filepath.Join(legacy, at))
			}
			dst := filepath.Join(scratch, "target", "data")
			p, err := Of([]*manifest.Module{bindModule(dst, c.inside)}, Options{LegacyProjectDirectory: legacy})
			if err != nil {
				t.Fatal(err)
			}
			before := treetest.Listing(t, scratch, true, true)
			out, code := runScriptWith(t, p, tmp, "")
			if code == 0 || !strings.Contains(out, "is a symbolic link") {
				t.Fatalf("exit %d, want a refusal naming the link:\n%s", code, out)
			}
			if strings.Contains(out, "checked: every step can run") {
				t.Errorf("the refusal came after the check:\n%s", out)
			}
			if after := treetest.Listing(t, scratch, true, true); after != before {
				t.Errorf("the script changed the tree before refusing:\n got: %s\nwant: %s", after, before)
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// TestScriptNestedDeclaredDirectory: declaring a nested bind's parent
// inside a move, as C2M011 asks, does not make the move refuse itself
// (the parent was created before the copy, and the target was then not
// empty and differed); the copy brings it and it gets its declared owner
// and mode. A second run changes nothing.
func TestScriptNestedDeclaredDirectory(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	legacy := filepath.Join(tmp, "legacy")
	writeFile(t, filepath.Join(legacy, "data", "app", "uploads", "u.jpg"), "jpg\n")
	writeFile(t, filepath.Join(legacy, "data", "top"), "top\n")
	dst := filepath.Join(tmp, "target", "data")
	p, err := Of([]*manifest.Module{bindModule(dst, map[string]string{"app": "", "app/uploads": "./data/app/uploads"})}, Options{LegacyProjectDirectory: legacy})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Directories {
		if d.Path == filepath.Join(dst, "app") {
			t.Errorf("the declared directory inside the move is made before it: %+v", p.Directories)
		}
	}
	before := treetest.Listing(t, legacy, true, true)
	if out, code := runScriptWith(t, p, tmp, ""); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(dst, "app"), &st); err != nil {
		t.Fatal(err)
	}
	if st.Mode&0o7777 != 0o770 {
		t.Errorf("app: mode %o, want the declared 0770", st.Mode&0o7777)
	}
	if out, code := runScriptWith(t, p, tmp, ""); code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("second run: exit %d, want nothing changed:\n%s", code, out)
	}
	if after := treetest.Listing(t, legacy, true, true); after != before {
		t.Errorf("the source changed:\n got: %s\nwant: %s", after, before)
	}
}

// TestScriptUntrustedFiles: a setuid or setgid file or a device node in
// a volume's data is not copied into a folder the module's uid owns: the
// script refuses before it changes anything and lists the paths, escaped.
// A setgid directory is copied.
func TestScriptUntrustedFiles(t *testing.T) {
	needRsync(t)
	if os.Getuid() != 0 {
		t.Skip("device nodes and setuid root files need root")
	}
	cases := []struct {
		name string
		make func(t *testing.T, p string) error
	}{
		{"setuid file", func(t *testing.T, p string) error { writeFile(t, p, "#!/bin/sh\n"); return syscall.Chmod(p, 0o4755) }},
		{"setgid file", func(t *testing.T, p string) error { writeFile(t, p, "#!/bin/sh\n"); return syscall.Chmod(p, 0o2755) }},
		{"character device", func(t *testing.T, p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3) }},
		{"block device", func(t *testing.T, p string) error { return syscall.Mknod(p, syscall.S_IFBLK|0o600, 7<<8) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			legacy := filepath.Join(tmp, "legacy")
			writeFile(t, filepath.Join(legacy, "data", "ok"), "ok\n")
			mkdirs(t, filepath.Join(legacy, "data", "sub"))
			bad := filepath.Join(legacy, "data", "sub", "evil\x1b[2Jname")
			if err := c.make(t, bad); err != nil {
				t.Skipf("cannot make a %s here: %v", c.name, err)
			}
			dst := filepath.Join(tmp, "target", "data")
			p, err := Of([]*manifest.Module{bindModule(dst, nil)}, Options{LegacyProjectDirectory: legacy})
			if err != nil {
				t.Fatal(err)
			}
			out, code := runScriptWith(t, p, tmp, "")
			if code == 0 || !strings.Contains(out, "sub/evil?[2Jname") || strings.Contains(out, "\x1b") {
				t.Fatalf("exit %d, want a refusal listing sub/evil?[2Jname, escaped:\n%q", code, out)
			}
			if fileExists(dst) {
				t.Errorf("the script created %s before refusing", dst)
			}
		})
	}
	t.Run("setgid directory", func(t *testing.T) {
		tmp := t.TempDir()
		legacy := filepath.Join(tmp, "legacy")
		writeFile(t, filepath.Join(legacy, "data", "shared", "f"), "f\n")
		if err := os.Chmod(filepath.Join(legacy, "data", "shared"), 0o2775|os.ModeSetgid); err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, "target", "data")
		p, err := Of([]*manifest.Module{bindModule(dst, nil)}, Options{LegacyProjectDirectory: legacy})
		if err != nil {
			t.Fatal(err)
		}
		if out, code := runScriptWith(t, p, tmp, ""); code != 0 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
}

// TestScriptLogOutsideSources: run from the legacy folder with a "."
// bind (its default log, ./compose2manifest-plan.log, would lie in the
// source), or with C2M_PLAN_LOG inside a target or a link, the script
// refuses before it writes anything, the log too.
func TestScriptLogOutsideSources(t *testing.T) {
	needRsync(t)
	for _, c := range []struct{ name, log string }{
		{"default log in the source", ""},
		{"log in the target", "target/data/plan.log"},
		{"log a link", "link.log"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			legacy := filepath.Join(tmp, "legacy")
			writeFile(t, filepath.Join(legacy, "data", "f"), "f\n")
			symlink(t, filepath.Join(tmp, "passwd"), filepath.Join(tmp, "link.log"))
			writeFile(t, filepath.Join(tmp, "passwd"), "root:x:0:0\n")
			dst := filepath.Join(tmp, "target", "data")
			p, err := Of([]*manifest.Module{bindModule(dst, nil)}, Options{LegacyProjectDirectory: legacy})
			if err != nil {
				t.Fatal(err)
			}
			var script strings.Builder
			if err := WriteScript(&script, p); err != nil {
				t.Fatal(err)
			}
			before := treetest.Listing(t, tmp, true, true)
			cmd := exec.Command("sh", "-c", script.String())
			cmd.Dir, cmd.Env = filepath.Join(legacy, "data"), []string{"PATH=" + os.Getenv("PATH")}
			if c.log != "" {
				cmd.Dir = tmp
				cmd.Env = append(cmd.Env, "C2M_PLAN_LOG="+filepath.Join(tmp, c.log))
			}
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), "C2M_PLAN_LOG") {
				t.Fatalf("%v, want a refusal naming C2M_PLAN_LOG:\n%s", err, out)
			}
			if after := treetest.Listing(t, tmp, true, true); after != before {
				t.Errorf("the script wrote before refusing:\n got: %s\nwant: %s", after, before)
			}
		})
	}
}

// TestOfVolumeNames: a Docker volume name the plan would join into a
// path under the Docker root is refused when it is none docker gives
// (a /, .., a NUL byte), before any script is written.
func TestOfVolumeNames(t *testing.T) {
	for _, name := range []string{"../../etc", "a/b", "..", "x\x00y", "-x", ".hidden", "a b"} {
		m := &manifest.Module{Module: "m", Resources: []manifest.Resource{{Kind: manifest.KindDirectory, Path: "/srv/m/data", Owner: "0:0", Mode: "0750",
			Intent: manifest.IntentState, Origin: &manifest.Origin{Legacy: "Docker volume " + name}}}}
		if _, err := Of([]*manifest.Module{m}, Options{LegacyProjectDirectory: "/legacy"}); err == nil || !strings.Contains(err.Error(), "no name docker gives a volume") {
			t.Errorf("volume %q: %v, want refused", name, err)
		}
		if _, err := Of([]*manifest.Module{{Module: "m"}}, Options{LegacyProjectDirectory: "/legacy", Volumes: map[string]string{"m_data": name}}); err != nil {
			t.Errorf("an unused rename to %q: %v", name, err)
		}
	}
	m := &manifest.Module{Module: "m", Resources: []manifest.Resource{{Kind: manifest.KindDirectory, Path: "/srv/m/data", Owner: "0:0", Mode: "0750",
		Intent: manifest.IntentState, Origin: &manifest.Origin{Legacy: "Docker volume m_data"}}}}
	if _, err := Of([]*manifest.Module{m}, Options{LegacyProjectDirectory: "/legacy", Volumes: map[string]string{"m_data": "../x"}}); err == nil {
		t.Error("a rename to ../x: no error")
	}
	for _, name := range []string{"m_data", "a.b-c_d", "0x"} {
		if !shell.ValidVolumeName(name) {
			t.Errorf("shell.ValidVolumeName(%q) = false", name)
		}
	}
}

// TestScriptNonASCIIInside: a declared path inside a move whose name is
// not ASCII (rsync itemizes it as \#ooo in the C locale) is left out of
// the comparison like any other: the second run changes nothing.
func TestScriptNonASCIIInside(t *testing.T) {
	needRsync(t)
	tmp := t.TempDir()
	legacy := filepath.Join(tmp, "legacy")
	for _, name := range []string{"café", "tab\there", `back\#slash`, `back\#123digits`, "new\nline"} {
		writeFile(t, filepath.Join(legacy, "data", name, "f"), "f\n")
	}
	dst := filepath.Join(tmp, "target", "data")
	p, err := Of([]*manifest.Module{bindModule(dst, map[string]string{"café": "", "tab\there": "", `back\#slash`: "", `back\#123digits`: "", "new\nline": ""})}, Options{LegacyProjectDirectory: legacy})
	if err != nil {
		t.Fatal(err)
	}
	if out, code := runScriptWith(t, p, tmp, ""); code != 0 {
		t.Fatalf("first run: exit %d:\n%s", code, out)
	}
	if out, code := runScriptWith(t, p, tmp, ""); code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("second run: exit %d, want nothing changed:\n%s", code, out)
	}
}

// TestScriptLinksProperty runs plans on generated legacy trees full of
// links (to folders and files outside, to each other, dangling, at every
// depth) with declared paths inside the moves, and holds that the script
// never changes anything outside its targets, nor any source: the whole
// scratch tree but the targets and the log is the same before and after.
func TestScriptLinksProperty(t *testing.T) {
	needRsync(t)
	rng := rand.New(rand.NewSource(20261202))
	names := []string{"a", "b", "app", "uploads", "x y", "ü"}
	for trial := range 40 {
		tmp := t.TempDir()
		scratch := filepath.Join(tmp, "scratch")
		legacy, victim := filepath.Join(scratch, "legacy"), filepath.Join(scratch, "victim")
		writeFile(t, filepath.Join(victim, "a", "uploads", "f"), "victim\n")
		writeFile(t, filepath.Join(victim, "file"), "victim\n")
		var dirs []string
		for range 6 {
			d := "data"
			for range 1 + rng.Intn(3) {
				d += "/" + names[rng.Intn(len(names))]
			}
			dirs = append(dirs, d)
		}
		for _, d := range dirs {
			if rng.Intn(3) == 0 {
				to := []string{victim, filepath.Join(victim, "a"), filepath.Join(victim, "file"), "../../victim", "nowhere", "."}[rng.Intn(6)]
				if !fileExists(filepath.Join(legacy, d)) && !throughLink(legacy, d) {
					symlink(t, to, filepath.Join(legacy, d))
				}
				continue
			}
			if !throughLink(legacy, d) {
				writeFile(t, filepath.Join(legacy, d, "f"), d+"\n")
			}
		}
		writeFile(t, filepath.Join(legacy, "data", "top"), "top\n")
		inside := map[string]string{}
		for _, d := range dirs[:3] {
			rel := strings.TrimPrefix(d, "data/")
			if rel == d {
				continue
			}
			if rng.Intn(2) == 0 {
				inside[rel] = "./" + d
			} else {
				inside[rel] = ""
			}
		}
		dst := filepath.Join(tmp, "target", "data")
		p, err := Of([]*manifest.Module{bindModule(dst, inside)}, Options{LegacyProjectDirectory: legacy})
		if err != nil {
			t.Fatal(err)
		}
		before := treetest.Listing(t, scratch, true, true)
		out1, code1 := runScriptWith(t, p, tmp, "")
		out2, code2 := runScriptWith(t, p, tmp, "")
		os.RemoveAll(filepath.Join(tmp, "target"))
		after := treetest.Listing(t, scratch, true, true)
		if after != before {
			t.Fatalf("trial %d (exit %d, %d): the script changed what lies outside its targets:\n got: %s\nwant: %s\nfirst run:\n%s\nsecond run:\n%s", trial, code1, code2, after, before, out1, out2)
		}
		if code1 == 0 && code2 != 0 {
			t.Errorf("trial %d: the first run passed and the second refused:\n%s", trial, out2)
		}
	}
}

// throughLink reports whether a component of rel under root is a link.
func throughLink(root, rel string) bool {
	p := root
	for _, c := range strings.Split(rel, "/") {
		p = filepath.Join(p, c)
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// TestScriptShellcheck: the scripts of plans with and without an
// anonymous volume pass shellcheck (SC2034 was reported of every plan
// without one), where shellcheck is installed.
func TestScriptShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed (.ci/run installs it)")
	}
	with, err := Of([]*manifest.Module{fhsModule()}, Options{Project: "app", LegacyProjectDirectory: "/home/ops/app"})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Of([]*manifest.Module{bindModule("/srv/m/data", map[string]string{"app": "", "app/up": "./data/app/up"})}, Options{LegacyProjectDirectory: "/legacy"})
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*Plan{"with an anonymous volume": with, "without": without} {
		var script strings.Builder
		if err := WriteScript(&script, p); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(sc, "-s", "sh", "-")
		cmd.Stdin = strings.NewReader(script.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: shellcheck: %v\n%s", name, err, out)
		}
	}
}
