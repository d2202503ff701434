package convert

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleSecretsNeverInManifest converts the README example with
// passwords in its .env: refused while they would be plaintext (and no
// report, skeleton or candidate shows them), converted once they are
// declared as credentials, and then no value of the .env appears in the
// manifest.
func TestExampleSecretsNeverInManifest(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/example/mail")); err != nil {
		t.Fatal(err)
	}
	compose := filepath.Join(dir, "compose.yaml")
	data, err := os.ReadFile(compose)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), "      POSTGRES_USER: mail\n", "      POSTGRES_USER: mail\n      POSTGRES_PASSWORD: ${DB_PASSWORD}\n", 1)
	s = strings.Replace(s, "      MYHOSTNAME: ${MAIL_HOSTNAME:-mail.example.org}\n", "      MYHOSTNAME: ${MAIL_HOSTNAME:-mail.example.org}\n      RELAY_PASSWORD: ${RELAY_PASSWORD}\n", 1)
	if s == string(data) {
		t.Fatal("the example's compose file changed; adapt the test")
	}
	writeFile(t, compose, s)
	writeFile(t, filepath.Join(dir, ".env"), "DB_PASSWORD=Tr0ub4dor&3-db\nRELAY_PASSWORD=correct-horse-relay\n")
	values := envValues(t, filepath.Join(dir, ".env"))

	opts := Options{ConfigFiles: []string{compose}, Environ: []string{}}
	res, err := Convert(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Refused {
		t.Fatalf("status %s, want refused: plaintext passwords", res.Status)
	}
	report, _ := json.Marshal(struct {
		D any
		S string
		C any
	}{res.Diagnostics, string(res.Skeleton), res.Candidate})
	for _, v := range values {
		if strings.Contains(string(report), v) {
			t.Errorf("the refusal shows the value %q", v)
		}
	}
	for _, want := range []string{"db.POSTGRES_PASSWORD: db_postgres_password", "postfix.RELAY_PASSWORD: postfix_relay_password", "acknowledge: [db.environment.POSTGRES_PASSWORD]"} {
		if !strings.Contains(string(res.Skeleton), want) {
			t.Errorf("skeleton lacks %q:\n%s", want, res.Skeleton)
		}
	}

	decl := filepath.Join(dir, DeclarationsFile)
	orig, err := os.ReadFile(decl)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, decl, string(orig)+"credentials:\n  db.POSTGRES_PASSWORD: mail_db_password\n  postfix.RELAY_PASSWORD: mail_relay_password\nacknowledge:\n  - postfix.credentials.RELAY_PASSWORD\n")
	res, err = Convert(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Converted {
		t.Fatalf("status %s: %v", res.Status, res.Diagnostics)
	}
	for _, v := range values {
		if strings.Contains(string(res.Manifest), v) {
			t.Errorf("the manifest carries the .env value %q:\n%s", v, res.Manifest)
		}
	}
	for _, want := range []string{
		"- credential: mail_db_password",
		"POSTGRES_PASSWORD_FILE: /run/secrets/mail_db_password",
		"RELAY_PASSWORD_FILE: /run/secrets/mail_relay_password",
		"- source: mail_db_password\n        target: /run/secrets/mail_db_password",
	} {
		if !strings.Contains(string(res.Manifest), want) {
			t.Errorf("manifest lacks %q:\n%s", want, res.Manifest)
		}
	}
	if strings.Contains(string(res.Manifest), "POSTGRES_PASSWORD:") {
		t.Errorf("manifest still sets POSTGRES_PASSWORD:\n%s", res.Manifest)
	}
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// envValues returns the values of an env file's KEY=VALUE lines.
func envValues(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if _, v, ok := strings.Cut(sc.Text(), "="); ok && v != "" {
			out = append(out, v)
		}
	}
	return out
}

// TestSkeletonCommentsEscaped: a volume name: holding a line break (or a
// terminal control) is escaped in the skeleton's comment, which would
// otherwise end and start a line of its own (found by the twelfth
// fresh-eyes trial).
func TestSkeletonCommentsEscaped(t *testing.T) {
	dir := t.TempDir()
	compose := "services:\n  app:\n    image: nginx:1\n    volumes:\n      - vol:/data\nvolumes:\n  vol:\n    name: \"weird name\\nx\\u001b[2J\"\n"
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte(compose), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := Convert(context.Background(), Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}, VolumeRoot: "/srv"})
	sk := string(res.Skeleton)
	if !strings.Contains(sk, `legacy Docker volume weird name\nx\x1b[2J`) {
		t.Errorf("the comment does not name the volume escaped:\n%s", sk)
	}
	for _, line := range strings.Split(sk, "\n") {
		if strings.TrimSpace(line) == "x" || strings.Contains(line, "\x1b") || strings.HasPrefix(strings.TrimSpace(line), "# x") {
			t.Errorf("a line of the name's own: %q", line)
		}
	}
}

// TestOutsideProjectComment: a bind source outside the project (../x),
// which convert never looks into, is not said to be absent from the
// checkout (found by the twelfth fresh-eyes trial).
func TestOutsideProjectComment(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"compose.yaml":          "services:\n  app:\n    image: nginx:1\n    volumes:\n      - ../shared:/shared\n",
		"compose2manifest.yaml": "version: 1\nhost_project_directory: /opt/p\nbinds:\n  ../shared: {owner: \"0:0\", mode: \"0750\", intent: state, path: /srv/shared}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Convert(context.Background(), Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}})
	if err != nil || res.Status != Converted {
		t.Fatalf("%v %v %v", res.Status, err, res.Diagnostics)
	}
	m := string(res.Manifest)
	if strings.Contains(m, "absent from the checkout") || !strings.Contains(m, "kind directory: ../shared lies outside the project, which is not looked into") {
		t.Errorf("the comment:\n%s", m)
	}
}
