package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/compose2manifest/compose2manifest/internal/exampletest"
	"github.com/creack/pty"
)

// term runs compose2manifest ask on a pseudo-terminal, as a person would.
type term struct {
	t    *testing.T
	pty  *os.File
	cmd  *exec.Cmd
	done chan struct{}

	mu   sync.Mutex
	out  bytes.Buffer
	seen int // the screen up to here has been matched
}

// startAsk starts "compose2manifest ask ARGS..." in dir on a new
// pseudo-terminal. TestMain put compose2manifest (this test binary) on
// PATH.
func startAsk(t *testing.T, dir string, args ...string) *term {
	t.Helper()
	bin, err := exec.LookPath("compose2manifest")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"ask"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=dumb")
	p, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 60, Cols: 250})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	tm := &term{t: t, pty: p, cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(tm.done)
		buf := make([]byte, 4096)
		for {
			n, err := p.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		p.Close()
	})
	return tm
}

// screen is everything written so far, with the terminal's CRLF as LF.
func (tm *term) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return strings.ReplaceAll(tm.out.String(), "\r\n", "\n")
}

// expect waits for s to appear after what was matched before.
func (tm *term) expect(s string) {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		scr := tm.screen()
		if i := strings.Index(scr[tm.seen:], s); i >= 0 {
			tm.seen += i + len(s)
			return
		}
		select {
		case <-tm.done:
			if strings.Contains(tm.screen()[tm.seen:], s) {
				continue
			}
			tm.t.Fatalf("ask ended before %q appeared; screen:\n%s", s, tm.screen())
		default:
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for %q; screen:\n%s", s, scr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// answer waits for the prompt, then types line and Enter.
func (tm *term) answer(prompt, line string) {
	tm.t.Helper()
	tm.expect(prompt)
	if _, err := tm.pty.Write([]byte(line + "\r")); err != nil {
		tm.t.Fatal(err)
	}
}

// next waits for the next prompt (a line ending in "): " or "]: "), then
// types line and Enter.
func (tm *term) next(line string) {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		scr := tm.screen()[tm.seen:]
		i, j := strings.Index(scr, "): "), strings.Index(scr, "]: ")
		if i < 0 || (j >= 0 && j < i) {
			i = j
		}
		if i >= 0 {
			tm.seen += i + 3
			if _, err := tm.pty.Write([]byte(line + "\r")); err != nil {
				tm.t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for a prompt; screen:\n%s", tm.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// key types raw bytes, such as Ctrl-C.
func (tm *term) key(b string) {
	tm.t.Helper()
	if _, err := tm.pty.Write([]byte(b)); err != nil {
		tm.t.Fatal(err)
	}
}

// exit waits for ask to end and returns its exit code.
func (tm *term) exit() int {
	tm.t.Helper()
	err := tm.cmd.Wait()
	select {
	case <-tm.done:
	case <-time.After(5 * time.Second):
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	tm.t.Fatal(err)
	return -1
}

// mailProject copies the README example to a temporary directory, with
// its declarations file replaced by decl ("" deletes it), and ./config
// and ./main.cf mounted writable (exampletest.Writable).
func mailProject(t *testing.T, decl string) string {
	t.Helper()
	dir := exampletest.Mail(t, "../../testdata/example/mail")
	p := filepath.Join(dir, "compose2manifest.yaml")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if decl != "" {
		if err := os.WriteFile(p, []byte(decl), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// convertIn runs compose2manifest convert in dir and returns its exit
// code, stdout and stderr.
func convertIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command("compose2manifest", append([]string{"convert"}, args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatal(err)
	return -1, "", ""
}

// TestAskTerminal leads an author through the README example with its
// declarations deleted: suggestions accepted with Enter, an invalid mode
// asked again, a file, a relocation; then convert succeeds.
func TestAskTerminal(t *testing.T) {
	dir := mailProject(t, "")
	tm := startAsk(t, dir)
	tm.expect(`Module "mail": 6 sources need a declaration in compose2manifest.yaml.`)
	tm.answer("host_project_directory (such as /opt/mail; Enter skips", "/opt/mail")
	tm.answer("volume_root (such as /srv;", "/srv")

	tm.expect("[1/6] bind ./data/spool")
	tm.expect(`service "postfix" (image docker.io/example/postfix:3.8) mounts it at /var/spool/postfix   compose.yaml:13`)
	tm.answer("kind (directory, file or host) [directory]: ", "")
	tm.expect(`suggested: 5000:5000 — evidence, convert produces it: service "postfix" runs as user: 5000:5000`)
	tm.answer("owner (USER:GROUP) [5000:5000]: ", "")
	tm.answer("mode (3 or 4 octal digits): ", "750x")
	tm.expect(`mode "750x": want 3 or 4 octal digits (0-7), such as 0750; try again`)
	tm.answer("mode (3 or 4 octal digits): ", "0750")
	tm.expect("suggested: state — a suggestion, not evidence: the target /var/spool/postfix is under /var/spool")
	tm.answer("[state]: ", "")
	tm.answer("Enter keeps /opt/mail/data/spool): ", "")
	tm.answer("note (optional, free text; Enter for none): ", "queue and mailboxes")

	tm.expect("[2/6] bind ./data/state")
	for _, a := range []string{"", "", "0750", "", "", ""} {
		tm.next(a)
	}
	tm.expect("[3/6] bind ./logs")
	tm.answer("[directory]: ", "")
	tm.answer("[5000:5000]: ", "")
	tm.answer("mode (3 or 4 octal digits): ", "0750")
	tm.answer("[logs]: ", "")
	tm.answer("Enter keeps /opt/mail/logs): ", "")
	tm.answer("note", "")

	tm.expect("[4/6] bind ./config")
	// Writable here (mailProject): read-only, the checkout's directory
	// would be produced and not asked.
	tm.expect("mounts it at /etc/postfix/conf.d   compose.yaml:16")
	for _, a := range []string{"", "0:0", "0755", "", "", ""} {
		tm.next(a)
	}
	tm.expect("[5/6] bind ./main.cf")
	tm.expect("suggested: file — evidence, convert produces it: ./main.cf is a regular file in the project")
	tm.answer("kind (directory, file or host) [file]: ", "")
	tm.answer("[5000:5000]: ", "0:0")
	tm.answer("mode (3 or 4 octal digits): ", "0644")
	tm.answer("[config]: ", "")
	tm.answer("Enter keeps /opt/mail/main.cf): ", "")
	tm.answer("note", "")

	tm.expect("[6/6] named volume dbdata")
	tm.expect("data today: Docker volume mail_dbdata")
	tm.expect("image table row postgres /var/lib/postgresql/data (table.yaml:")
	tm.answer("owner (USER:GROUP) [999:999]: ", "")
	tm.answer("[0700]: ", "")
	tm.answer("[state]: ", "")
	tm.answer("Enter keeps /srv/mail/dbdata): ", "/srv/mail/db")
	tm.answer("note", "PostgreSQL cluster")

	// The parents of where the sources land, which the host would
	// otherwise create as root 0755 (C2M011).
	tm.expect("Nothing declares these 3 parent directories, so the host would create them as root 0755")
	tm.expect("[1/3] directory /opt/mail\n  declared below it:\n    /opt/mail/config      directory 0:0 0755 config\n")
	tm.expect("    /opt/mail/main.cf     file 0:0 0644 config\n  also undeclared below it (asked after it): /opt/mail/data\n")
	tm.answer("owner (USER:GROUP; Enter or - skips this directory): ", "0:0")
	tm.answer("mode (3 or 4 octal digits; - skips this directory): ", "0755")
	tm.answer("- skips this directory; ? explains): ", "config")
	tm.answer("note", "the checkout")
	tm.expect("[2/3] directory /opt/mail/data")
	tm.expect("suggested: 5000:5000 — a suggestion, not evidence: both declared paths below it are owned by 5000:5000")
	tm.answer("owner (USER:GROUP; - skips this directory) [5000:5000]: ", "")
	tm.expect("suggested: 0755 — a suggestion, not evidence: it holds only directories")
	tm.answer("mode (3 or 4 octal digits; - skips this directory) [0755]: ", "0750")
	tm.answer("[state]: ", "")
	tm.answer("note", "")
	tm.expect("[3/3] directory /srv/mail")
	tm.answer("[999:999]: ", "0:0")
	tm.answer("[0755]: ", "")
	tm.answer("[state]: ", "")
	tm.answer("note", "")

	tm.expect("  +   ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\n")
	tm.expect("  + directories:\n  +   /opt/mail: {owner: \"0:0\", mode: \"0755\", intent: config, note: the checkout}\n")
	tm.answer("Write compose2manifest.yaml? (yes or no) [yes]: ", "")
	tm.expect("wrote compose2manifest.yaml\n")
	tm.expect("convert now accepts module \"mail\". Run next:\n\n    compose2manifest convert\n")
	if code := tm.exit(); code != 0 {
		t.Fatalf("ask exited %d; screen:\n%s", code, tm.screen())
	}

	got, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := `version: 1
host_project_directory: /opt/mail
volume_root: /srv
binds:
  ./data/spool: {mode: "0750", intent: state, note: queue and mailboxes}
  ./data/state: {mode: "0750", intent: state}
  ./logs: {mode: "0750", intent: logs}
  ./config: {owner: "0:0", mode: "0755", intent: config}
  ./main.cf: {owner: "0:0", mode: "0644", intent: config}
volumes:
  dbdata: {path: /srv/mail/db, note: PostgreSQL cluster}
directories:
  /opt/mail: {owner: "0:0", mode: "0755", intent: config, note: the checkout}
  /opt/mail/data: {owner: "5000:5000", mode: "0750", intent: state}
  /srv/mail: {owner: "0:0", mode: "0755", intent: state}
`
	if string(got) != want {
		t.Errorf("compose2manifest.yaml:\n%s\nwant:\n%s", got, want)
	}
	code, stdout, stderr := convertIn(t, dir)
	if code != 0 {
		t.Fatalf("convert after ask exited %d:\n%s", code, stderr)
	}
	if strings.Contains(stderr, "C2M011") || strings.Contains(stderr, "warning") {
		t.Errorf("convert after ask warns:\n%s", stderr)
	}
	for _, s := range []string{
		"  - directory: /opt/mail/data/spool",
		`owner: "5000:5000"`,
		"  - file: /opt/mail/main.cf",
		"  - directory: /srv/mail/db",
		`mode: "0700"`,
		"  - directory: /opt/mail/data",
	} {
		if !strings.Contains(stdout, s) {
			t.Errorf("manifest lacks %q:\n%s", s, stdout)
		}
	}
}

// TestAskTerminalOnlyDirectories: every source is declared but their
// parents are not; on a terminal ask offers those, and accepting the
// suggestions where there are some clears convert's C2M011 warnings.
func TestAskTerminalOnlyDirectories(t *testing.T) {
	const decl = "version: 1\nhost_project_directory: /opt/mail\nvolume_root: /srv\nbinds:\n  ./data/spool: {mode: \"0750\", intent: state}\n  ./data/state: {mode: \"0750\", intent: state}\n  ./logs: {mode: \"0750\", intent: logs}\n  ./config: {owner: \"0:0\", mode: \"0755\", intent: config}\n  ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\nvolumes:\n  dbdata: {path: /srv/mail/db}\n"
	dir := mailProject(t, decl)
	if _, _, stderr := convertIn(t, dir); strings.Count(stderr, "C2M011 warning") != 6 {
		t.Fatalf("convert before ask, want 6 C2M011 warnings:\n%s", stderr)
	}
	tm := startAsk(t, dir, "--write")
	tm.expect("Nothing declares these 3 parent directories")
	tm.expect("[1/3] directory /opt/mail")
	tm.answer("owner (USER:GROUP; Enter or - skips this directory): ", "0:0")
	for _, a := range []string{"0755", "config", ""} {
		tm.next(a)
	}
	tm.expect("[2/3] directory /opt/mail/data")
	for _, a := range []string{"", "", "", ""} {
		tm.next(a)
	}
	tm.expect("[3/3] directory /srv/mail")
	for _, a := range []string{"", "", "", ""} {
		tm.next(a)
	}
	tm.expect("wrote compose2manifest.yaml")
	tm.expect("convert now accepts module \"mail\"")
	if code := tm.exit(); code != 0 {
		t.Fatalf("ask exited %d; screen:\n%s", code, tm.screen())
	}
	got, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := decl + `directories:
  /opt/mail: {owner: "0:0", mode: "0755", intent: config}
  /opt/mail/data: {owner: "5000:5000", mode: "0755", intent: state}
  /srv/mail: {owner: "999:999", mode: "0755", intent: state}
`
	if string(got) != want {
		t.Errorf("compose2manifest.yaml:\n%s\nwant:\n%s", got, want)
	}
	if code, _, stderr := convertIn(t, dir); code != 0 || stderr != "" {
		t.Errorf("convert after ask exited %d:\n%s", code, stderr)
	}
}

// TestAskTerminalInterrupt: Ctrl-C writes nothing and exits 1.
func TestAskTerminalInterrupt(t *testing.T) {
	dir := mailProject(t, "")
	tm := startAsk(t, dir)
	tm.answer("host_project_directory (", "/opt/mail")
	tm.answer("volume_root (", "/srv")
	tm.answer("kind (directory, file or host) [directory]: ", "")
	tm.expect("owner (USER:GROUP) [5000:5000]: ")
	tm.key("\x03")
	tm.expect("compose2manifest: error: ask: interrupted; nothing written")
	if code := tm.exit(); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "compose2manifest.yaml")); !os.IsNotExist(err) {
		t.Errorf("compose2manifest.yaml was written (%v)", err)
	}
}

// TestAskTerminalEndOfInput: Ctrl-D writes nothing and exits 1, even at
// the final confirmation.
func TestAskTerminalEndOfInput(t *testing.T) {
	const decl = "version: 1\nhost_project_directory: /opt/mail\nvolume_root: /srv\nbinds:\n  ./data/spool: {mode: \"0750\"}\n"
	dir := mailProject(t, decl)
	tm := startAsk(t, dir)
	tm.expect("[1/5] bind ./data/spool")
	tm.expect("already declared: mode 0750")
	tm.answer("[5000:5000]: ", "")
	tm.answer("[state]: ", "")
	tm.key("\x04")
	tm.expect("compose2manifest: error: ask: end of input before the last answer; nothing written")
	if code := tm.exit(); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml")); string(got) != decl {
		t.Errorf("compose2manifest.yaml changed:\n%s", got)
	}
}

// TestAskTerminalKeepsComments completes a commented declarations file
// with --write: every line of it is kept byte for byte, and only the new
// entries are added.
func TestAskTerminalKeepsComments(t *testing.T) {
	const head = `# Declarations for the mail module: who owns each host path, its mode, and
# what the data is. Only the module's author knows these.
version: 1
host_project_directory: /opt/mail # where the checkout lives on the mail host
volume_root: /srv
binds:
  # the queue: losing it loses mail
  ./data/spool: {owner: "5000:5000", mode: "0750", intent: state, note: queue and mailboxes}
  ./logs: {owner: "5000:5000", mode: "0750", intent: logs} # rotated by the host
`
	const tail = `volumes:
  dbdata: {owner: "999:999", mode: "0700", intent: state, note: PostgreSQL cluster}
# parents of the paths above
directories:
  /opt/mail: {owner: "0:0", mode: "0755", intent: config} # the checkout
`
	dir := mailProject(t, head+tail)
	tm := startAsk(t, dir, "--write")
	tm.expect(`Module "mail": 3 sources need a declaration`)
	tm.expect("[1/3] bind ./data/state")
	for _, a := range []string{"", "", "0750", "", "", ""} {
		tm.next(a)
	}
	tm.expect("[2/3] bind ./config")
	for _, a := range []string{"", "0:0", "0755", "", "", ""} {
		tm.next(a)
	}
	tm.expect("[3/3] bind ./main.cf")
	tm.expect("suggested: file — evidence, convert produces it: ./main.cf is a regular file in the project")
	for _, a := range []string{"", "0:0", "0644", "", "", "Postfix's main configuration"} {
		tm.next(a)
	}
	// /opt/mail is declared; its parents left are skipped with -.
	tm.expect("Nothing declares these 2 parent directories")
	tm.expect("[1/2] directory /opt/mail/data")
	tm.answer("owner (USER:GROUP; - skips this directory) [5000:5000]: ", "-")
	tm.expect("skipped: the host creates /opt/mail/data as root 0755 and convert keeps warning C2M011")
	tm.expect("[2/2] directory /srv/mail")
	tm.answer("[999:999]: ", "0:0")
	tm.answer("[0755]: ", "-")
	tm.expect("skipped: the host creates /srv/mail as root 0755")
	tm.expect("wrote compose2manifest.yaml")
	tm.expect("2 parent directories left undeclared (/opt/mail/data, /srv/mail): convert warns C2M011 for the paths in them.")
	if strings.Contains(tm.screen(), "Write compose2manifest.yaml?") {
		t.Errorf("--write asked for confirmation")
	}
	if code := tm.exit(); code != 0 {
		t.Fatalf("ask exited %d; screen:\n%s", code, tm.screen())
	}
	got, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := head + `  ./data/state: {mode: "0750", intent: state}
  ./config: {owner: "0:0", mode: "0755", intent: config}
  ./main.cf: {owner: "0:0", mode: "0644", intent: config, note: Postfix's main configuration}
` + tail
	if string(got) != want {
		t.Errorf("compose2manifest.yaml:\n%s\nwant:\n%s", got, want)
	}
	if code, _, stderr := convertIn(t, dir); code != 0 {
		t.Errorf("convert after ask exited %d:\n%s", code, stderr)
	}
}

// TestAskTerminalDeclined: answering no at the confirmation writes
// nothing.
func TestAskTerminalDeclined(t *testing.T) {
	dir := mailProject(t, "version: 1\nhost_project_directory: /opt/mail\nvolume_root: /srv\nbinds:\n  ./data/spool: {owner: \"5000:5000\", mode: \"0750\", intent: state}\n  ./data/state: {mode: \"0750\", intent: state}\n  ./logs: {mode: \"0750\", intent: logs}\n  ./config: {owner: \"0:0\", mode: \"0755\", intent: config}\n")
	tm := startAsk(t, dir)
	tm.expect("[1/1] bind ./main.cf")
	for _, a := range []string{"", "0:0", "0644", "", "", ""} {
		tm.next(a)
	}
	// Enter skips a directory nothing suggests an owner for.
	tm.expect("[1/3] directory /opt/mail")
	tm.next("")
	tm.expect("[2/3] directory /opt/mail/data")
	tm.next("-")
	tm.expect("[3/3] directory /srv/mail")
	tm.next("-")
	tm.answer("Write compose2manifest.yaml? (yes or no) [yes]: ", "no")
	tm.expect("compose2manifest: nothing written")
	if code := tm.exit(); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
}

// TestAskTerminalKeepsFileAttributes: the declarations file is a symbolic
// link to a shared file with CRLF line endings, mode 0640 and its own
// owner. ask writes through the link to the shared file and keeps its
// line endings, mode and (as root) owner.
func TestAskTerminalKeepsFileAttributes(t *testing.T) {
	const decl = "# shared declarations\r\nversion: 1\r\nhost_project_directory: /opt/mail\r\nvolume_root: /srv\r\nbinds:\r\n  ./data/spool: {owner: \"5000:5000\", mode: \"0750\", intent: state} # the queue\r\n  ./data/state: {mode: \"0750\", intent: state}\r\n  ./logs: {mode: \"0750\", intent: logs}\r\n  ./config: {owner: \"0:0\", mode: \"0755\", intent: config}\r\n"
	dir := mailProject(t, "")
	shared := filepath.Join(filepath.Dir(dir), "shared", "mail.yaml")
	if err := os.MkdirAll(filepath.Dir(shared), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shared, []byte(decl), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o640); err != nil {
		t.Fatal(err)
	}
	root := os.Geteuid() == 0
	if root {
		if err := os.Chown(shared, 1234, 5678); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "compose2manifest.yaml")
	if err := os.Symlink("../shared/mail.yaml", link); err != nil {
		t.Fatal(err)
	}

	// The shared file lies outside the project: name its folder, as a
	// file the project brings is read only inside it otherwise.
	tm := startAsk(t, dir, "--write", "--allow-dir", filepath.Dir(shared))
	tm.expect("[1/1] bind ./main.cf")
	for _, a := range []string{"", "0:0", "0644", "", "", ""} {
		tm.next(a)
	}
	for _, a := range []string{"", "-", "-"} {
		tm.next(a)
	}
	tm.expect("  +   ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\n")
	tm.expect("wrote compose2manifest.yaml")
	if code := tm.exit(); code != 0 {
		t.Fatalf("ask exited %d; screen:\n%s", code, tm.screen())
	}

	if l, err := os.Readlink(link); err != nil || l != "../shared/mail.yaml" {
		t.Fatalf("compose2manifest.yaml is no longer the symbolic link: %q, %v", l, err)
	}
	got, err := os.ReadFile(shared)
	if err != nil {
		t.Fatal(err)
	}
	want := decl + "  ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\r\n"
	if string(got) != want {
		t.Errorf("shared file:\n%q\nwant:\n%q", got, want)
	}
	fi, err := os.Stat(shared)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	if root {
		if uid, gid, ok := fileOwner(fi); !ok || uid != 1234 || gid != 5678 {
			t.Errorf("owner %d:%d (%v), want 1234:5678", uid, gid, ok)
		}
	}
	if code, _, stderr := convertIn(t, dir, "--allow-dir", filepath.Dir(shared)); code != 0 {
		t.Errorf("convert after ask exited %d:\n%s", code, stderr)
	}
}

// hostProject is a project whose two relative binds are declared
// {kind: host}, without host_project_directory.
func hostProject(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "nc")
	for name, data := range map[string]string{
		"compose.yaml":          "name: nc\nservices:\n  app:\n    image: example/app:1\n    volumes:\n      - ./shared:/shared\n      - ./cfg.txt:/etc/cfg.txt\n",
		"compose2manifest.yaml": "version: 1\nbinds:\n  ./shared: {kind: host}\n  ./cfg.txt: {kind: host}\n",
		"cfg.txt":               "x\n",
		"shared/.keep":          "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAskTerminalSuppliedHost: binds declared {kind: host} stay host
// paths. ask asks only where they are (host_project_directory, or each
// one's path), never owner, mode or intent.
func TestAskTerminalSuppliedHost(t *testing.T) {
	dir := hostProject(t)
	tm := startAsk(t, dir)
	tm.answer("host_project_directory (such as /opt/nc; Enter skips", "")
	tm.expect("[1/2] bind ./shared")
	tm.answer("path (required, as host_project_directory is unset: an absolute host path): ", "/srv/shared")
	tm.expect("[2/2] bind ./cfg.txt")
	tm.answer("path (required, as host_project_directory is unset: an absolute host path): ", "/srv/cfg.txt")
	tm.expect("    …\n  -   ./shared: {kind: host}\n  -   ./cfg.txt: {kind: host}\n  +   ./shared: {kind: host, path: /srv/shared}\n  +   ./cfg.txt: {kind: host, path: /srv/cfg.txt}\n")
	tm.answer("Write compose2manifest.yaml? (yes or no) [yes]: ", "")
	tm.expect("wrote compose2manifest.yaml\n")
	code := tm.exit()
	scr := tm.screen()
	for _, s := range []string{"owner (", "mode (", "intent (", "kind ("} {
		if strings.Contains(scr, s) {
			t.Errorf("ask asked %s; screen:\n%s", s, scr)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "version: 1\nbinds:\n  ./shared: {kind: host, path: /srv/shared}\n  ./cfg.txt: {kind: host, path: /srv/cfg.txt}\n"
	if string(got) != want {
		t.Errorf("compose2manifest.yaml:\n%s\nwant:\n%s", got, want)
	}
	if code != 0 {
		t.Errorf("ask exited %d; screen:\n%s", code, scr)
	}
}

// TestAskTerminalNewDeclarations: --declarations names a file that does
// not exist yet, or is empty: ask creates or fills it.
func TestAskTerminalNewDeclarations(t *testing.T) {
	for _, existing := range []string{"", "# written by hand\n"} {
		dir := filepath.Join(t.TempDir(), "one")
		if err := os.MkdirAll(filepath.Join(dir, "deploy"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte("name: one\nservices:\n  app:\n    image: example/app:1\n    volumes:\n      - /srv/one/data:/data\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		decl := filepath.Join(dir, "deploy", "one.yaml")
		if existing != "" {
			if err := os.WriteFile(decl, []byte(existing), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tm := startAsk(t, dir, "--declarations", "deploy/one.yaml", "--write")
		tm.expect(`Module "one": 1 source needs a declaration in deploy/one.yaml.`)
		tm.answer("kind (directory, file or host) [directory]: ", "")
		tm.answer("owner (USER:GROUP): ", "1000:1000")
		tm.answer("mode (3 or 4 octal digits): ", "0750")
		tm.answer("intent (", "state")
		tm.answer("Enter keeps /srv/one/data): ", "")
		tm.answer("note", "")
		tm.answer("owner (USER:GROUP; - skips this directory) [1000:1000]: ", "-")
		tm.expect("wrote deploy/one.yaml\n")
		tm.expect("Run next:\n\n    compose2manifest convert --declarations deploy/one.yaml\n")
		if code := tm.exit(); code != 0 {
			t.Fatalf("ask exited %d; screen:\n%s", code, tm.screen())
		}
		got, err := os.ReadFile(decl)
		if err != nil {
			t.Fatal(err)
		}
		want := existing + "version: 1\nbinds:\n  /srv/one/data: {owner: \"1000:1000\", mode: \"0750\", intent: state}\n"
		if string(got) != want {
			t.Errorf("deploy/one.yaml:\n%s\nwant:\n%s", got, want)
		}
	}
}

// TestAskTerminalSettingsFromFlags: --host-project-directory and
// --volume-root the declarations file does not set are written into it,
// so convert (and convert --batch, which refuses those flags) reproduces
// the conversion without them.
func TestAskTerminalSettingsFromFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	compose := "name: nc\nservices:\n  app:\n    image: example/app:1\n    volumes:\n      - ./data:/data\n      - cache:/cache\nvolumes:\n  cache: {}\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startAsk(t, dir, "--volume-root", "/srv", "--host-project-directory", "/opt/nc", "--write")
	tm.expect("[1/2] bind ./data")
	for _, a := range []string{"", "33:33", "0750", "state", "", ""} {
		tm.next(a)
	}
	tm.expect("[2/2] named volume cache")
	for _, a := range []string{"33:33", "0750", "cache", "", ""} {
		tm.next(a)
	}
	for range 2 {
		tm.answer("skips this directory) [33:33]: ", "-")
	}
	tm.expect("  + host_project_directory: /opt/nc\n  + volume_root: /srv\n")
	tm.expect("  (host_project_directory from --host-project-directory, so that convert finds it without the flag)\n")
	tm.expect("  (volume_root from --volume-root, so that convert finds it without the flag)\n")
	tm.expect("wrote compose2manifest.yaml\n")
	tm.expect("Run next:\n\n    compose2manifest convert\n")
	if code := tm.exit(); code != 0 {
		t.Fatalf("ask exited %d; screen:\n%s", code, tm.screen())
	}
	got, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "version: 1\nhost_project_directory: /opt/nc\nvolume_root: /srv\nbinds:\n  ./data: {owner: \"33:33\", mode: \"0750\", intent: state}\nvolumes:\n  cache: {owner: \"33:33\", mode: \"0750\", intent: cache}\n"
	if string(got) != want {
		t.Errorf("compose2manifest.yaml:\n%s\nwant:\n%s", got, want)
	}
	if code, _, stderr := convertIn(t, dir); code != 0 {
		t.Errorf("convert without the flags exited %d:\n%s", code, stderr)
	}
}

// TestAskTerminalPathTaken: a relocation to where a declared source
// lands is asked again (C2M005), and a kind the project contradicts too
// (C2M004): each answer is converted in memory, and the rules' own
// findings it brings are shown.
func TestAskTerminalPathTaken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p2")
	for name, data := range map[string]string{
		"compose.yaml":          "name: p2\nservices:\n  app:\n    image: example/app:1\n    volumes:\n      - ./main.cf:/etc/main.cf\n      - /srv/p2/data:/data\n",
		"compose2manifest.yaml": "version: 1\nhost_project_directory: /opt/p2\nbinds:\n  /srv/p2/data: {owner: \"0:0\", mode: \"0750\", intent: state}\n",
		"main.cf":               "x\n",
	} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tm := startAsk(t, dir)
	tm.answer("kind (directory, file or host) [file]: ", "directory")
	tm.expect(`kind directory: convert refuses it: compose2manifest.yaml:5: C2M004 error: service "app": volume "./main.cf": declared kind: directory, but ./main.cf is a regular file in the project; try again`)
	tm.answer("kind (directory, file or host) [file]: ", "")
	tm.answer("owner (USER:GROUP): ", "0:0")
	tm.answer("mode (3 or 4 octal digits): ", "0644")
	tm.answer("[config]: ", "")
	tm.answer("Enter keeps /opt/p2/main.cf): ", "/srv/p2/data")
	tm.expect(`path /srv/p2/data: convert refuses it: compose2manifest.yaml:4: C2M005 error: service "app": volume "/srv/p2/data": /srv/p2/data is declared twice; first at compose2manifest.yaml:5; try again`)
	tm.answer("Enter keeps /opt/p2/main.cf): ", "")
	tm.key("\x04")
	tm.exit()
}

// TestAskTerminalSchemaComment: with --schema-comment, the file ask writes
// starts with the yaml-language-server line, and still converts.
func TestAskTerminalSchemaComment(t *testing.T) {
	const decl = "version: 1\nhost_project_directory: /opt/mail\nvolume_root: /srv\nbinds:\n  ./data/spool: {mode: \"0750\", intent: state}\n  ./data/state: {mode: \"0750\", intent: state}\n  ./logs: {mode: \"0750\", intent: logs}\n  ./config: {owner: \"0:0\", mode: \"0755\", intent: config}\n  ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\nvolumes:\n  dbdata: {path: /srv/mail/db}\n"
	dir := mailProject(t, decl)
	tm := startAsk(t, dir, "--write", "--schema-comment", "schema/declarations.json")
	tm.expect("[1/3] directory /opt/mail")
	for _, a := range []string{"0:0", "0755", "config", ""} {
		tm.next(a)
	}
	tm.expect("[2/3] directory /opt/mail/data")
	for _, a := range []string{"", "", "", ""} {
		tm.next(a)
	}
	tm.expect("[3/3] directory /srv/mail")
	for _, a := range []string{"", "", "", ""} {
		tm.next(a)
	}
	tm.expect("wrote compose2manifest.yaml")
	if code := tm.exit(); code != 0 {
		t.Fatalf("ask exited %d; screen:\n%s", code, tm.screen())
	}
	got, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# yaml-language-server: $schema=schema/declarations.json\n" + decl; !strings.HasPrefix(string(got), want) {
		t.Errorf("compose2manifest.yaml:\n%s\nwant it to start with:\n%s", got, want)
	}
	if code, _, stderr := convertIn(t, dir); code != 0 || stderr != "" {
		t.Errorf("convert after ask exited %d:\n%s", code, stderr)
	}
}
