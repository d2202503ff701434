package ask

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
)

// askProject writes files into a project directory and runs ask on a
// terminal over it with input, writing the answers; it returns the
// outcome, the conversation and the declarations file written.
func askProject(t *testing.T, files map[string]string, input string, strict bool) (Outcome, string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, stdout bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}, Strict: strict},
		Terminal: true, Write: true,
		In: strings.NewReader(input), Out: &out, Stdout: &stdout,
	})
	decl, _ := os.ReadFile(filepath.Join(dir, declare.DefaultFile))
	return got, out.String(), string(decl)
}

// wantLines fails t for each of want not in out.
func wantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("conversation lacks %q:\n%s", w, out)
		}
	}
}

// Each answer is converted in memory with the answers so far, and one
// the rules refuse is asked again with their own findings: a kind the
// checkout contradicts (C2M004), a relocation onto a path another source
// declares (C2M005), and onto one answered above; ask judges none of
// these itself.
func TestAnswerCheckedKindAndPath(t *testing.T) {
	files := map[string]string{
		"compose.yaml":          "name: p2\nservices:\n  app:\n    image: example/app:1\n    volumes:\n      - ./main.cf:/etc/main.cf\n      - ./conf:/etc/conf\n      - /srv/p2/data:/data\n      - cache:/cache\nvolumes:\n  cache: {}\n",
		"compose2manifest.yaml": "version: 1\nhost_project_directory: /opt/p2\nvolume_root: /srv\nbinds:\n  /srv/p2/data: {owner: \"0:0\", mode: \"0750\", intent: state}\n",
		"main.cf":               "x\n",
		"conf/app.conf":         "x\n",
	}
	in := "directory\n\n0:0\n0644\n\n/srv/p2/data\n\n\n" + // ./main.cf: directory refused, file; path taken refused
		"file\n\n0:0\n0755\n\n\n\n" + // ./conf: file refused, directory
		"0:0\n0755\n\n/opt/p2/conf\n\n\n" + // cache: onto ./conf, answered above, refused
		"-\n-\n" // the parent directories skipped
	got, out, decl := askProject(t, files, in, false)
	wantLines(t, out,
		`kind directory: convert refuses it: compose2manifest.yaml:6: C2M004 error: service "app": volume "./main.cf": declared kind: directory, but ./main.cf is a regular file in the project; try again`,
		`kind file: convert refuses it: compose2manifest.yaml:7: C2M004 error: service "app": volume "./conf": declared kind: file, but ./conf is a directory in the project; try again`,
		`path /srv/p2/data: convert refuses it: compose2manifest.yaml:5: C2M005 error: service "app": volume "/srv/p2/data": /srv/p2/data is declared twice; first at compose2manifest.yaml:6; try again`,
		`path /opt/p2/conf: convert refuses it: `,
	)
	if !strings.Contains(out, "C2M005") || strings.Count(out, "; try again") != 4 {
		t.Errorf("want 4 answers refused:\n%s", out)
	}
	if got.Status != Done {
		t.Errorf("outcome %+v\n%s", got, out)
	}
	for _, want := range []string{"./main.cf: {owner: \"0:0\", mode: \"0644\", intent: config}", "./conf: {owner: \"0:0\", mode: \"0755\", intent: config}", "cache: {owner: \"0:0\", mode: \"0755\", intent: cache}"} {
		if !strings.Contains(decl, want) {
			t.Errorf("declarations lack %q:\n%s", want, decl)
		}
	}
}

// A kind an image table row or a trailing slash contradicts (C2M004), a
// path the module may not own (C2M006) and a mode the rules refuse
// (C2M021) are asked again with the rules' findings; what the rules
// accept is taken. (--strict, so that the row's values are asked, not
// produced.)
func TestAnswerCheckedRowSlashOwnedMode(t *testing.T) {
	files := map[string]string{
		"compose.yaml": "name: m\nservices:\n  db:\n    image: postgres:16\n    volumes:\n      - /srv/db:/var/lib/postgresql/data\n  app:\n    image: example/app:1\n    volumes:\n      - /srv/x/:/x\n      - cache:/var/cache/web\nvolumes:\n  cache: {}\n",
	}
	in := "\n" + // volume_root skipped
		"file\ndirectory\n\n\n\n\n\n" + // /srv/db: file refused (the row), the row's values taken
		"file\ndirectory\n0:0\n0640\n0750\nstate\n\n\n" + // /srv/x/: file refused (the slash); 0640 refused
		"0:0\n0755\n\n/etc/cron.d/web\n/srv/web-cache\n\n" // cache: /etc/cron.d refused
	got, out, decl := askProject(t, files, in, true)
	wantLines(t, out,
		`kind file: convert refuses it: compose2manifest.yaml:3: C2M004 error: service "db": volume "/srv/db": declared kind: file, but image postgres keeps a directory at /var/lib/postgresql/data (table.yaml:`,
		`kind file: convert refuses it: compose2manifest.yaml:4: C2M004 error: service "app": volume "/srv/x/": declared kind: file, but the compose file writes /srv/x/ with a trailing slash, a directory; try again`,
		`mode 0640: convert refuses it: compose2manifest.yaml:4: C2M021 error: `,
		`path /etc/cron.d/web: convert refuses it: `,
		`C2M006 error: `,
	)
	if got.Status != Done {
		t.Errorf("outcome %+v\n%s", got, out)
	}
	if !strings.Contains(decl, "cache: {path: /srv/web-cache, owner: \"0:0\", mode: \"0755\", intent: cache}") || !strings.Contains(decl, "/srv/x: {owner: \"0:0\", mode: \"0750\", intent: state}") {
		t.Errorf("declarations:\n%s", decl)
	}
}

// An error the declarations had before the source's answers is held
// against none of them: it is shown once the source is answered, as
// convert prints it.
func TestAnswerCheckedErrorBefore(t *testing.T) {
	files := map[string]string{
		"compose.yaml":          "name: p\nservices:\n  app:\n    image: example/app:1\n    volumes:\n      - ./data:/data\n",
		"compose2manifest.yaml": "version: 1\nhost_project_directory: /opt/p\nbinds:\n  ./data: {mode: \"0640\"}\n",
	}
	got, out, _ := askProject(t, files, "0:0\nstate\n\n\n-\n", false)
	if strings.Contains(out, "try again") {
		t.Errorf("an answer was held to an error from before:\n%s", out)
	}
	wantLines(t, out, `  convert: compose2manifest.yaml:4: C2M021 error: service "app": volume "./data": directory /opt/p/data: mode 0640 is a directory its owner cannot enter`)
	if got.Status == Done {
		t.Errorf("outcome %+v: convert still refuses the mode", got)
	}
}

// A plaintext value a declared credential already delivers (C2M015) is
// offered that credential, with no plaintext choice: the refusal comes
// from the finding's Variable and convert's suggestion, never its words.
func TestRefusalSameCredential(t *testing.T) {
	files := map[string]string{
		"compose.yaml":          "name: app\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: ${DB_PASSWORD}\n    tmpfs: [/var/lib/postgresql/data]\n  mariadb:\n    image: mariadb:11\n    environment:\n      MARIADB_ROOT_PASSWORD: ${DB_PASSWORD}\n    tmpfs: [/var/lib/mysql]\n",
		".env":                  "DB_PASSWORD=Zx9-shared-Tr0ub4dor\n",
		"compose2manifest.yaml": "version: 1\ncredentials:\n  db.POSTGRES_PASSWORD: pg_password\n",
	}
	got, out, decl := askProject(t, files, "plaintext\n\n", false)
	wantLines(t, out,
		"credential name for mariadb.MARIADB_ROOT_PASSWORD (the mesh delivers it",
		"the same value as db.POSTGRES_PASSWORD, never in plaintext",
		"suggested: pg_password — a suggestion, not evidence: the credential of credentials: db.POSTGRES_PASSWORD, which holds the same value",
		"credentials: db.POSTGRES_PASSWORD delivers the same value, and a credential's value is nowhere else in plaintext",
	)
	if !strings.Contains(decl, "mariadb.MARIADB_ROOT_PASSWORD: pg_password") || strings.Contains(out, "Zx9") {
		t.Errorf("outcome %+v; declarations:\n%s\nconversation:\n%s", got, decl, out)
	}
}
