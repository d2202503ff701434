package ask

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
)

// TestRunRepeatAndAcceptAll: eight .sql files answered once and then
// with "=" (the previous source's answer), and "*" at the first parent
// directory accepting every suggestion from there on.
func TestRunRepeatAndAcceptAll(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sql")
	if err := os.MkdirAll(filepath.Join(dir, "init"), 0o755); err != nil {
		t.Fatal(err)
	}
	var compose strings.Builder
	compose.WriteString("name: sql\nservices:\n  db:\n    image: example.org/sqlrunner:1\n    user: \"70:70\"\n    volumes:\n")
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("%02d.sql", i)
		// Writable: a read-only file of the checkout would be produced.
		fmt.Fprintf(&compose, "      - ./init/%s:/docker-entrypoint-initdb.d/%s\n", name, name)
		if err := os.WriteFile(filepath.Join(dir, "init", name), []byte("select 1;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// kind, owner, mode, intent, path, note
	answers := []string{"", "0:0", "0644", "config", "", "init script"}
	for i := 2; i <= 8; i++ {
		answers = append(answers, "", "=", "=", "=", "", "=")
	}
	answers = append(answers, "*")
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}, HostProjectDirectory: "/opt/sql"},
		Terminal: true, Write: true,
		In: strings.NewReader(strings.Join(answers, "\n") + "\n"), Out: &out, Stdout: &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	decl, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	for i := 1; i <= 8; i++ {
		want := fmt.Sprintf("  ./init/%02d.sql: {owner: \"0:0\", mode: \"0644\", intent: config, note: init script}\n", i)
		if !strings.Contains(string(decl), want) {
			t.Errorf("declarations lack %q:\n%s\nconversation:\n%s", want, decl, out.String())
		}
	}
	if !strings.Contains(out.String(), "  = 0644 (as for the previous source)\n") || !strings.Contains(out.String(), "accepting every suggestion from here on") {
		t.Errorf("conversation:\n%s", out.String())
	}
	// After *, both parents are answered without reading input: each has
	// an owner suggestion but no mode one, so each is skipped whole, not
	// written half-declared.
	for _, p := range []string{"/opt/sql", "/opt/sql/init"} {
		if !strings.Contains(out.String(), "  skipped: the host creates "+p+" as root 0755 and convert keeps warning C2M011\n") {
			t.Errorf("* did not settle %s; conversation:\n%s", p, out.String())
		}
	}
	if strings.Contains(string(decl), "directories:") {
		t.Errorf("a parent without a mode suggestion was written:\n%s", decl)
	}
}

// TestRunOwnerFromVariables: an owner convert produces from user:
// ${MYUID}:${MYGID} is written out, with a note, as CI may not have the
// variables; a literal user:'s owner is left to convert (TestRunAnswers).
func TestRunOwnerFromVariables(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	compose := "name: web\nservices:\n  web:\n    image: example.org/web:1\n    user: ${MYUID}:${MYGID}\n    volumes:\n      - ./data:/var/lib/web\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{"MYUID=1000", "MYGID=1000"}, HostProjectDirectory: "/opt/web"},
		Terminal: true, Write: true,
		In: strings.NewReader("\n\n0750\n\n\n\n-\n"), Out: &out, Stdout: &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "note: the owner comes from variables in user:, which CI may not have; ask writes it out") {
		t.Errorf("no note:\n%s", out.String())
	}
	decl, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if !strings.Contains(string(decl), "  ./data: {owner: \"1000:1000\", mode: \"0750\", intent: state}\n") {
		t.Errorf("declarations:\n%s\nconversation:\n%s", decl, out.String())
	}
}
