package ask

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/exampletest"
)

// TestChangedLines: the preview shows a replaced entry as its old line
// removed and its new line added, and ignores a line yaml.v3 only
// reflowed (the blanks before a comment).
func TestChangedLines(t *testing.T) {
	old := "version: 1\nhost_project_directory: /opt/dms   # prod host\nbinds:\n  ./shared: {kind: host}\n  ./x: {mode: \"0750\"}\n"
	data := "version: 1\nhost_project_directory: /opt/dms # prod host\nvolume_root: /srv\nbinds:\n  ./shared: {kind: host, path: /srv/shared}\n  ./x: {mode: \"0750\"}\n"
	want := "    …\n  + volume_root: /srv\n    …\n  -   ./shared: {kind: host}\n  +   ./shared: {kind: host, path: /srv/shared}\n    …\n"
	if got := changedLines([]byte(old), []byte(data)); got != want {
		t.Errorf("changedLines:\n%s\nwant:\n%s", got, want)
	}
	if got, want := changedLines(nil, []byte("version: 1\n")), "  + version: 1\n"; got != want {
		t.Errorf("changedLines of a new file = %q, want %q", got, want)
	}
}

// mailProject copies the example mail project to a temporary directory
// with its declarations' main.cf entry deleted, and ./config and
// ./main.cf mounted writable (exampletest.Writable).
func mailProject(t *testing.T) string {
	t.Helper()
	dir := exampletest.Mail(t, "../testdata/example/mail")
	p := filepath.Join(dir, "compose2manifest.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.Contains(l, "./main.cf:") {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(p, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunNotTerminal: off a terminal, Run prints the skeleton for the one
// missing source and writes nothing.
func TestRunNotTerminal(t *testing.T) {
	dir := mailProject(t)
	before, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options: convert.Options{WorkingDirectory: dir, Environ: []string{}},
		In:      strings.NewReader(""), Out: &out, Stdout: &stdout,
	})
	if got.Status != Unanswered || got.Err == nil || !strings.Contains(got.Err.Error(), "not a terminal") {
		t.Errorf("outcome %+v", got)
	}
	if !strings.Contains(stdout.String(), "./main.cf:") {
		t.Errorf("skeleton without ./main.cf:\n%s", stdout.String())
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml")); !bytes.Equal(after, before) {
		t.Errorf("declarations changed:\n%s", after)
	}
}

// TestRunNotTerminalSecretsOnly: off a terminal, a project whose only
// refusals are a plaintext secret and a field not carried still gets the
// skeleton: its credentials: item and the acknowledge: items beside it
// (before, ask said nothing was left to ask and exited 0).
func TestRunNotTerminalSecretsOnly(t *testing.T) {
	dir := t.TempDir()
	compose := "name: app\nservices:\n  web:\n    image: example/web:1\n    container_name: web1\n    environment:\n      WEB_TOKEN: ${TOKEN}\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=s3cr3t-t0ken-value\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options: convert.Options{WorkingDirectory: dir, Environ: []string{}},
		In:      strings.NewReader(""), Out: &out, Stdout: &stdout,
	})
	if got.Status != Unanswered || got.Err == nil || !strings.Contains(got.Err.Error(), "1 plaintext secret needs a credential") {
		t.Errorf("outcome %+v", got)
	}
	for _, want := range []string{"credentials:\n  web.WEB_TOKEN: web_web_token", `the host sets WEB_TOKEN from the credential`, `choose: web.container_name`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("skeleton lacks %q:\n%s", want, stdout.String())
		}
	}
	if strings.Contains(stdout.String()+out.String(), "s3cr3t-t0ken-value") {
		t.Error("the secret's value is shown")
	}
	if _, err := os.Stat(filepath.Join(dir, "compose2manifest.yaml")); err == nil {
		t.Error("a declarations file was written")
	}
}

// TestRunAnswers: answers read from a pipe are written into the
// declarations file, convert then accepts the module, and no temporary
// declarations file is made on the way (answers are converted in
// memory).
func TestRunAnswers(t *testing.T) {
	dir := mailProject(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true,
		Write:    true,
		In:       strings.NewReader("\n0:0\n0644\n\n\n\n"),
		Out:      &out,
		Stdout:   &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	for _, want := range []string{"  +   ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\n", "wrote compose2manifest.yaml\n", "convert now accepts module \"mail\". Run next:\n\n    compose2manifest convert\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("conversation lacks %q:\n%s", want, out.String())
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil || !strings.Contains(string(data), "  ./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}\n") {
		t.Errorf("declarations: %v\n%s", err, data)
	}
	if des, _ := os.ReadDir(tmp); len(des) > 0 {
		t.Errorf("temporary files made: %v", des)
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
}

// TestRunInterrupted: a done context stops the conversation and nothing
// is written.
func TestRunInterrupted(t *testing.T) {
	dir := mailProject(t)
	before, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe() // no answer ever comes
	defer pw.Close()
	var out bytes.Buffer
	cancelled := make(chan Outcome, 1)
	go func() {
		cancelled <- Run(ctx, Config{
			Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
			Terminal: true, In: pr, Out: &syncWriter{w: &out}, Stdout: io.Discard,
		})
	}()
	cancel()
	got := <-cancelled
	if got.Status != Unanswered || got.Err == nil || got.Err.Error() != "ask: interrupted; nothing written" {
		t.Errorf("outcome %+v", got)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml")); !bytes.Equal(after, before) {
		t.Errorf("declarations changed:\n%s", after)
	}
}

// syncWriter serialises writes: an abandoned session may still write.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// editingReader appends line to the file at path on its first Read: a
// person editing the declarations while ask runs.
type editingReader struct {
	r          io.Reader
	path, line string
	done       bool
}

func (e *editingReader) Read(p []byte) (int, error) {
	if !e.done {
		e.done = true
		f, err := os.OpenFile(e.path, os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			f.WriteString(e.line)
			f.Close()
		}
	}
	return e.r.Read(p)
}

// TestRunFileChanged: a declarations file changed while ask ran is not
// overwritten (the change would be lost); the answers are printed on
// stdout instead (found by a fresh-eyes trial).
func TestRunFileChanged(t *testing.T) {
	dir := mailProject(t)
	p := filepath.Join(dir, "compose2manifest.yaml")
	const line = "# added by a person meanwhile\n"
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true,
		Write:    true,
		In:       &editingReader{r: strings.NewReader("\n0:0\n0644\n\n\n\n"), path: p, line: line},
		Out:      &out,
		Stdout:   &stdout,
	})
	if got.Status != Failed || got.Err == nil || !strings.Contains(got.Err.Error(), "changed since ask read it") {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	data, _ := os.ReadFile(p)
	if !strings.HasSuffix(string(data), line) || strings.Contains(string(data), "./main.cf:") {
		t.Errorf("the person's change was not kept as they left it:\n%s", data)
	}
	if !strings.Contains(stdout.String(), "./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}") {
		t.Errorf("the answers are not on stdout: %q", stdout.String())
	}
}
