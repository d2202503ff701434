package ask

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/rules"
)

// bareMail copies the README example to ROOT/mail without its
// declarations, with a plaintext password in its .env that the db
// service takes: convert refuses it for the sources and for C2M015.
func bareMail(t *testing.T) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	dir = filepath.Join(root, "mail")
	if err := os.CopyFS(dir, os.DirFS("../testdata/example/mail")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "compose2manifest.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("POSTGRES_PASSWORD=hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "compose.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("      POSTGRES_USER: mail\n"), []byte("      POSTGRES_USER: mail\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n"), 1)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, dir
}

// TestRunEndsWhereCheckPasses: on the README example with its
// declarations removed and a plaintext password added, answers piped in
// settle the sources and the secret (a credential, with the suggested
// name); then convert accepts the module and check --against passes.
func TestRunEndsWhereCheckPasses(t *testing.T) {
	root, dir := bareMail(t)
	answers := []string{
		"/opt/mail", "/srv", // host_project_directory, volume_root
		"directory", "5000:5000", "0750", "state", "", "queue and mailboxes", // ./data/spool
		"directory", "", "0750", "state", "", "", // ./data/state
		"directory", "", "0750", "logs", "", "", // ./logs
		"", "0:0", "0755", "config", "", "", // ./config
		"", "0:0", "0644", "config", "", "", // ./main.cf
		"999:999", "0700", "state", "", "PostgreSQL cluster", // dbdata
		"", // the credential, as suggested
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true, Write: true,
		In: strings.NewReader(strings.Join(answers, "\n") + "\n" + strings.Repeat("-\n", 20)), Out: &out, Stdout: &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "[1/1] C2M015 at compose.yaml:29: service \"db\": environment POSTGRES_PASSWORD=******** is a literal value") || strings.Contains(out.String(), "hunter2") {
		t.Errorf("the secret not asked about, or its value shown:\n%s", out.String())
	}
	decl, err := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if err != nil || !strings.Contains(string(decl), "credentials:\n  db.POSTGRES_PASSWORD: db_postgres_password\n") {
		t.Fatalf("declarations: %v\n%s\nconversation:\n%s", err, decl, out.String())
	}

	// convert accepts it and writes the manifest; check --against passes.
	res, err := convert.Convert(context.Background(), convert.Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("convert: %v %v %v", err, res.Status, res.Diagnostics)
	}
	outDir := filepath.Join(root, "manifests")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := atomicfile.Rewrite(filepath.Join(outDir, res.Module.Module+".yaml"), res.Manifest, false); err != nil {
		t.Fatal(err)
	}
	cr, err := check.Against(context.Background(), check.Config{Dir: root, Convert: convert.Options{Environ: []string{}}, Reconvert: true}, ".", []string{"manifests"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range cr.Report.Modules {
		for _, d := range m.Diagnostics {
			if d.Severity == rules.Error {
				t.Errorf("check --against: %s:%d: %s %s", d.File, d.Line, d.Rule, d.Message)
			}
		}
	}
	if len(cr.Errors) > 0 {
		t.Errorf("check --against: %v", cr.Errors)
	}
}
