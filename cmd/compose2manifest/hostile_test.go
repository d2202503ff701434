package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite docs/hostile.md's table of hostile inputs")

// hostileCase is one input an attacker controls, what compose2manifest
// must answer, and the row it gives the reference's table.
type hostileCase struct {
	name   string // the class of input, for the reference
	answer string // what compose2manifest does, for the reference
	// files are written into the project folder "p" (a value starting
	// with "->" makes a symbolic link to what follows; "|fifo" a FIFO).
	files map[string]string
	// args run in the work folder; "p/…" names the project's files.
	args []string
	code int
	msg  string // a regexp the output (stderr and stdout) must match
}

// hostileCases are the hostile inputs of the issue "Hostile input", each
// built in the test; nothing large is committed.
func hostileCases() []hostileCase {
	compose := "services:\n  web:\n    image: nginx:1.27\n"
	return []hostileCase{
		{name: "`.env` linked to `/dev/zero`", answer: "refused before reading: not a regular file",
			files: map[string]string{"compose.yaml": compose, ".env": "->/dev/zero"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `env file .*\.env is not a regular file`},
		{name: "`env_file: /dev/zero`", answer: "refused with the file and line that names it",
			files: map[string]string{"compose.yaml": compose + "    env_file: /dev/zero\n"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml:4: service "web": env file /dev/zero is not a regular file`},
		{name: "`env_file: /proc/self/environ`", answer: "refused: outside the project (the CI environment never reaches a manifest)",
			files: map[string]string{"compose.yaml": compose + "    env_file: /proc/self/environ\n"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml:4: service "web": env file /proc/self/environ is outside the project directory`},
		{name: "an `env_file` that is a FIFO", answer: "refused, never waited on",
			files: map[string]string{"compose.yaml": compose + "    env_file: app.env\n", "app.env": "|fifo"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml:4: service "web": env file .*app.env is not a regular file`},
		{name: "a `label_file` linked to `/etc/shadow`", answer: "refused: outside the project",
			files: map[string]string{"compose.yaml": compose + "    label_file: labels\n", "labels": "->/etc/shadow"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `service "web": label file .*labels \(/etc/shadow\) is outside the project directory`},
		{name: "an `include` outside the project", answer: "refused with its line",
			files: map[string]string{"compose.yaml": "include:\n  - ../outside.yaml\n" + compose, "../outside.yaml": compose},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml:2: include .*outside.yaml is outside the project directory`},
		{name: "an `extends.file` linked out of the project", answer: "refused with its line",
			files: map[string]string{"compose.yaml": "services:\n  web:\n    extends:\n      file: base.yaml\n      service: web\n", "base.yaml": "->/etc/hostname"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml:4: extends.file .*base.yaml \(/etc/hostname\) is outside the project directory`},
		{name: "`compose2manifest.yaml` linked to `/etc/shadow`", answer: "refused: outside the project; nothing of it printed",
			files: map[string]string{"compose.yaml": compose, "compose2manifest.yaml": "->/etc/shadow"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `declarations file .*compose2manifest.yaml \(/etc/shadow\) is outside the project directory`},
		{name: "a compose file nested 10,000 levels", answer: "refused before compose-go reads it",
			files: map[string]string{"compose.yaml": compose + "    labels:\n      l: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml: nests deeper than 64 levels`},
		{name: "aliases that expand to millions of nodes", answer: "refused before compose-go expands them",
			files: map[string]string{"compose.yaml": laughs() + compose},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml: holds more than 200000 YAML nodes`},
		{name: "a `compose.yaml` linked out of its folder", answer: "refused: the file found by name must be the project's own",
			files: map[string]string{"compose.yaml": "->../outside.yaml", "../outside.yaml": compose},
			args:  []string{"convert", "--project-directory", "p"}, code: 2, msg: `compose file .*compose.yaml \(.*outside.yaml\) is outside the project directory`},
		{name: "a shell-form `command:` of 256 KiB", answer: "refused before compose-go splits it (quadratic in its length)",
			files: map[string]string{"compose.yaml": compose + "    command: \"" + strings.Repeat("x", 256<<10) + "\"\n"},
			args:  []string{"convert", "-f", "p/compose.yaml"}, code: 2, msg: `compose.yaml:4: service "web": command is a string of 262144 bytes, more than the 8192`},
		{name: "a manifest given to `check` linked to `/dev/zero`", answer: "refused: not a regular file",
			files: map[string]string{"m.yaml": "->/dev/zero"},
			args:  []string{"check", "p/m.yaml"}, code: 2, msg: `manifest .*m.yaml is a character device`},
		{name: "a file in the output folder linked to `/dev/zero`", answer: "left alone: a link, never written through",
			files: map[string]string{"compose.yaml": compose, "out/p.yaml": "->/dev/zero"},
			args:  []string{"convert", "-f", "p/compose.yaml", "-o", "p/out"}, code: 2, msg: `p.yaml is a symbolic link \(to /dev/zero\): compose2manifest does not write through links; not replacing it`},
	}
}

// laughs returns top-level extensions whose aliases expand to 10^7 nodes.
func laughs() string {
	var b strings.Builder
	b.WriteString("x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n")
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g"} {
		fmt.Fprintf(&b, "x-%s: &%s [%s]\n", name, name, strings.TrimSuffix(strings.Repeat("*"+prev+", ", 10), ", "))
		prev = name
	}
	return b.String()
}

// setUp writes a case's files under dir/p.
func (c hostileCase) setUp(t testing.TB, dir string) {
	t.Helper()
	for name, content := range c.files {
		p := filepath.Join(dir, "p", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasPrefix(content, "->"):
			err = os.Symlink(content[2:], p)
		case content == "|fifo":
			err = syscall.Mkfifo(p, 0o644)
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Skipf("cannot set up %s: %v", name, err)
		}
	}
}

// TestHostileInputs runs every hostile input: each must end with its exit
// code and message, quickly, having written nothing.
func TestHostileInputs(t *testing.T) {
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setUp(t, dir)
			before := listTree(t, dir)
			code, stdout, stderr := runCLI(t, dir, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			if !regexp.MustCompile(c.msg).MatchString(stderr + stdout) {
				t.Errorf("output does not match %q:\n%s%s", c.msg, stderr, stdout)
			}
			if after := listTree(t, dir); after != before {
				t.Errorf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// BenchmarkHostileInputs measures each hostile input's run (time and
// allocation per run; peak memory is bounded by what is allocated).
func BenchmarkHostileInputs(b *testing.B) {
	for _, c := range hostileCases() {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			c.setUp(b, dir)
			b.ReportAllocs()
			for b.Loop() {
				runCLIb(dir, c.args...)
			}
		})
	}
}

// TestHostileTableInREADME: the reference's table of hostile inputs (docs/hostile.md) is made
// from hostileCases, so the two cannot drift (-update-readme rewrites it).
func TestHostileTableInREADME(t *testing.T) {
	var b strings.Builder
	b.WriteString("| input | answer | exit |\n|---|---|---|\n")
	for _, c := range hostileCases() {
		fmt.Fprintf(&b, "| %s | %s | %d |\n", c.name, c.answer, c.code)
	}
	const start, end = "<!-- hostile inputs: generated by TestHostileTableInREADME -->\n", "<!-- end of hostile inputs -->\n"
	readme, err := os.ReadFile("../../docs/hostile.md")
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(readme, []byte(start)), bytes.Index(readme, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("docs/hostile.md has no %q … %q block", strings.TrimSpace(start), strings.TrimSpace(end))
	}
	got := string(readme[i+len(start) : j])
	if got == b.String() {
		return
	}
	if !*updateREADME {
		t.Fatalf("docs/hostile.md's table of hostile inputs is stale; run go test ./cmd/compose2manifest -run TestHostileTableInREADME -update-readme\n got:\n%s\nwant:\n%s", got, b.String())
	}
	out := append(append(append([]byte{}, readme[:i+len(start)]...), b.String()...), readme[j:]...)
	if err := os.WriteFile("../../docs/hostile.md", out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// listTree lists the files under dir with their sizes.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(dir, p)
			fmt.Fprintf(&b, "%s %s\n", rel, fi.Mode().Type())
		}
		return nil
	})
	return b.String()
}

// runCLIb runs the command in-process for a benchmark, discarding output.
func runCLIb(dir string, args ...string) int {
	var o, e bytes.Buffer
	return run(&env{stdin: strings.NewReader(""), stdout: &o, stderr: &e, environ: []string{"HOME=/nonexistent"}, dir: dir}, args)
}
