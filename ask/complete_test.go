package ask

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/check"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/internal/gen"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
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
		"",  // the credential, as suggested
		"*", // every parent directory as suggested: /opt/mail has no suggestion, and is skipped
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true, Write: true,
		In: strings.NewReader(strings.Join(answers, "\n") + "\n"), Out: &out, Stdout: &stdout,
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

	for _, want := range []string{"  /opt/mail/data: {owner: \"5000:5000\", mode: \"0755\", intent: state}\n", "  /srv/mail: {owner: \"999:999\", mode: \"0755\", intent: state}\n"} {
		if !strings.Contains(string(decl), want) {
			t.Errorf("declarations lack %q:\n%s", want, decl)
		}
	}
	if strings.Contains(string(decl), "/opt/mail:") {
		t.Errorf("/opt/mail declared without a suggestion:\n%s", decl)
	}
	againstPasses(t, root, dir)
}

// againstPasses converts the project in dir, writes its manifest under
// root/manifests, and fails t on any error check --against reports.
func againstPasses(t *testing.T, root, dir string) {
	t.Helper()
	res, err := convert.Convert(context.Background(), convert.Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil || res.Status != convert.Converted {
		t.Fatalf("convert: %v %v %v", err, res.Status, res.Diagnostics)
	}
	outDir := filepath.Join(root, "manifests")
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

// TestRunImagesAndAcknowledge: a service with only build: and a field
// not carried, and no volume: ask asks for the image (C2M016) and offers
// to acknowledge the field (C2M007, which check --against refuses), and
// check --against then passes.
func TestRunImagesAndAcknowledge(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := gen.WriteFiles(dir, map[string]string{
		"compose.yaml": "name: web\nservices:\n  web:\n    build: .\n    container_name: web1\n",
		"Dockerfile":   "FROM scratch\n",
		// A comment the edit keeps.
		"compose2manifest.yaml": "# the web module\nversion: 1\n",
	}); err != nil {
		t.Fatal(err)
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true, Write: true,
		In: strings.NewReader("?\n\nregistry.example.org/web:1.2\n\n"), Out: &out, Stdout: &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	for _, want := range []string{
		"C2M016 at compose.yaml:4: service \"web\": has build: and no image",
		"image for service web (the image the mesh runs",
		"an answer is needed: the reference of the image",
		"acknowledge web.container_name, to say",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("conversation lacks %q:\n%s", want, out.String())
		}
	}
	decl, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if want := "# the web module\nversion: 1\nacknowledge:\n  - web.container_name\nimages:\n  web: registry.example.org/web:1.2\n"; string(decl) != want {
		t.Errorf("declarations:\n%s\nwant:\n%s", decl, want)
	}
	againstPasses(t, root, dir)
}

// TestNewRefusals: the findings a declaration settles, each asking for
// what convert's typed suggestions say (the field not carried at the
// finding's line, the secret by its variable), never read from the
// finding's words; others are not refusals.
func TestNewRefusals(t *testing.T) {
	at := func(line int) manifest.Pos { return manifest.Pos{File: "compose.yaml", Line: line} }
	s := convert.Suggestions{
		Uncarried: []placement.Field{
			{Service: "web", Name: "deploy.placement", Pos: at(3)},
			{Service: "web", Name: "configs", Config: "app", Pos: at(4)},
			{Section: "volumes", Entry: "data", Name: "labels", Pos: at(9)},
			{Section: "volumes", Entry: "data", Name: "driver_opts", Pos: at(9)},
			{Section: "jobs", Entry: "backup", Pos: at(12)},
			{Service: "web", Name: "container_name", Acknowledged: true, Pos: at(5)},
		},
		Secrets: []convert.SecretSuggestion{{Service: "db", Variable: "API_TOKEN", Credential: "api_token", FileEnv: "db table.yaml:1"}},
	}
	ds := []rules.Diagnostic{
		{Rule: "C2M007", Severity: rules.Warning, Service: "web", File: "compose.yaml", Line: 3, Message: "words ask does not read"},
		{Rule: "C2M007", Severity: rules.Warning, Service: "web", File: "compose.yaml", Line: 4, Message: "y"},
		{Rule: "C2M007", Severity: rules.Warning, File: "compose.yaml", Line: 9, Message: "z"},
		{Rule: "C2M007", Severity: rules.Warning, File: "compose.yaml", Line: 9, Message: "z2"},
		{Rule: "C2M007", Severity: rules.Warning, File: "compose.yaml", Line: 12, Message: "the mesh runs no jobs"},
		{Rule: "C2M007", Severity: rules.Warning, Service: "web", File: "compose.yaml", Line: 7, Message: "no field of the suggestions here"},
		{Rule: "C2M015", Severity: rules.Error, Service: "db", Variable: "db.API_TOKEN", Message: "environment API_TOKEN=******** …"},
		{Rule: "C2M015", Severity: rules.Error, Service: "db", Variable: "db.OTHER", Message: "environment OTHER=******** …"},
		{Rule: "C2M015", Severity: rules.Error, Service: "db", Message: "config app: environment X=… (no variable: a config's)"},
		{Rule: "C2M015", Severity: rules.Warning, Service: "db", Variable: "db.X", Message: "acknowledged"},
		{Rule: "C2M016", Severity: rules.Error, Service: "app.v2", Message: "has build: and no image"},
		{Rule: "C2M001", Severity: rules.Error, Service: "db", Message: "no declaration"},
	}
	var got []string
	for _, r := range NewRefusals(ds, s) {
		got = append(got, fmt.Sprintf("%s %s %s %v", r.What, r.Key, r.Suggest, r.UnreadFile))
	}
	want := []string{
		"acknowledge web.deploy.placement  false",
		"acknowledge web.configs  false",
		"acknowledge volumes.data.labels  false",
		"acknowledge volumes.data.driver_opts  false",
		"acknowledge jobs.backup  false",
		"credentials db.API_TOKEN api_token false",
		"credentials db.OTHER db_other true",
		"images app.v2  false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunImageVolume: an image VOLUME nothing mounts (C2M024) is offered
// as its anonymous declaration, every value suggested from the image
// table; accepted, convert and check --against pass.
func TestRunImageVolume(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte("name: pg\nservices:\n  db:\n    image: docker.io/library/postgres:16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}, VolumeRoot: "/srv"},
		Terminal: true, Write: true,
		In: strings.NewReader("\n\n\n\n\n*\n"), Out: &out, Stdout: &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	decl, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if !strings.Contains(string(decl), "anonymous:\n  \"db:/var/lib/postgresql/data\": ") {
		t.Errorf("declarations:\n%s\nconversation:\n%s", decl, out.String())
	}
	againstPasses(t, root, dir)
}

// TestRunCredentialUnreadAndOption: a credential for an image not known
// to read VARIABLE_FILE needs only its name (the host sets the variable
// from it; before issue 21 it needed an acknowledgement too), and a :z
// volume option is offered as an acknowledgement: the file
// written then converts and check --against passes (before, ask wrote the
// file and convert still refused it).
func TestRunCredentialUnreadAndOption(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := gen.WriteFiles(dir, map[string]string{
		"compose.yaml": "name: app\nservices:\n  web:\n    image: example.org/web:1\n    environment:\n      API_TOKEN: ${TOKEN}\n    volumes:\n      - data:/data:z\nvolumes:\n  data:\n",
		".env":         "TOKEN=s3cr3t-t0ken-value\n",
		"compose2manifest.yaml": "version: 1\nvolume_root: /srv\nvolumes:\n  data: {owner: \"0:0\", mode: \"0750\", intent: state}\n" +
			"directories:\n  /srv/app: {owner: \"0:0\", mode: \"0755\", intent: state}\n",
	}); err != nil {
		t.Fatal(err)
	}
	// The credential's name as suggested; yes to dropping :z.
	answers := []string{"", "yes"}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true, Write: true,
		In: strings.NewReader(strings.Join(answers, "\n") + "\n"), Out: &out, Stdout: &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	decl, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	for _, want := range []string{"web.API_TOKEN: web_api_token", "- web.volumes./data.z"} {
		if !strings.Contains(string(decl), want) {
			t.Errorf("declarations lack %q:\n%s\nconversation:\n%s", want, decl, out.String())
		}
	}
	if strings.Contains(string(decl), "credentials.API_TOKEN") {
		t.Errorf("declarations acknowledge the credential's file:\n%s", decl)
	}
	if strings.Contains(out.String()+stdout.String(), "s3cr3t-t0ken-value") {
		t.Error("the secret's value is shown")
	}
	againstPasses(t, root, dir)
}

// TestRunUnsettled: ask names the errors no declaration settles (an unset
// variable in an image, here), which the skeleton it prints cannot fix
// (found by the twelfth fresh-eyes trial).
func TestRunUnsettled(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compose.yaml"), []byte("services:\n  app:\n    image: example/app:${TAG}\n    volumes:\n      - ./data:/data\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	got := Run(context.Background(), Config{
		Options: convert.Options{WorkingDirectory: dir, Environ: []string{}, HostProjectDirectory: "/opt/a"},
		Stdout:  &stdout,
	})
	if got.Status != Unanswered {
		t.Fatalf("outcome %+v", got)
	}
	hints := strings.Join(got.Hints, "\n")
	if !strings.Contains(hints, "no declaration settles") || !strings.Contains(hints, "variable TAG is not set") {
		t.Errorf("hints:\n%s", hints)
	}
}

// TestRunCredentialAnyName: a secret in a variable whose name is no
// identifier (sonar.jdbc.password, environment in list form) is asked
// about like any other, and ask writes its credentials: key quoted
// (sonarqube."sonar.jdbc.password"), which convert reads back: the file
// written converts and check --against passes (issue 21 item 5).
func TestRunCredentialAnyName(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := gen.WriteFiles(dir, map[string]string{
		"compose.yaml": "name: app\nservices:\n  sonarqube:\n    image: example.org/sonarqube:10\n    environment:\n      - sonar.jdbc.password=${SONAR_DB_PASSWORD}\n",
		".env":         "SONAR_DB_PASSWORD=Kq7-sonar-db-2291\n",
	}); err != nil {
		t.Fatal(err)
	}
	var stdout, out bytes.Buffer
	got := Run(context.Background(), Config{
		Options:  convert.Options{WorkingDirectory: dir, Environ: []string{}},
		Terminal: true, Write: true,
		In: strings.NewReader("\n"), Out: &out, Stdout: &stdout,
	})
	if got.Status != Done || got.Err != nil {
		t.Fatalf("outcome %+v; conversation:\n%s", got, out.String())
	}
	decl, _ := os.ReadFile(filepath.Join(dir, "compose2manifest.yaml"))
	if !strings.Contains(string(decl), `sonarqube."sonar.jdbc.password": sonarqube_sonar.jdbc.password`) {
		t.Errorf("declarations:\n%s\nconversation:\n%s", decl, out.String())
	}
	if strings.Contains(out.String()+stdout.String()+string(decl), "Kq7-sonar") {
		t.Error("the secret's value is shown")
	}
	againstPasses(t, root, dir)
}

// TestShareCredentials: ask offers convert's shared credential name (the
// declared one, with no plaintext choice; or one named after the shared
// variable), not the first user's, and the image table's word on
// VARIABLE_FILE (issue 21 item 6).
func TestShareCredentials(t *testing.T) {
	rs := []Refusal{
		{What: RefusalCredential, Key: "mariadb.MARIADB_ROOT_PASSWORD", Suggest: "mariadb_mariadb_root_password", UnreadFile: true},
		{What: RefusalCredential, Key: "web.DB_PASS", Suggest: "web_db_pass"},
		{What: RefusalCredential, Key: "other.TOKEN", Suggest: "other_token", UnreadFile: true},
		{What: RefusalAcknowledge, Key: "web.build"},
	}
	ShareCredentials(rs, []convert.SecretSuggestion{
		{Service: "mariadb", Variable: "MARIADB_ROOT_PASSWORD", Credential: "pg", FileEnv: "mariadb table.yaml:1", Existing: "db.POSTGRES_PASSWORD"},
		{Service: "web", Variable: "DB_PASS", Credential: "db_pass", Shared: []string{"api.DB_PASS"}},
	})
	if r := rs[0]; r.Suggest != "pg" || r.UnreadFile || r.Existing != "db.POSTGRES_PASSWORD" || !strings.Contains(r.suggestFrom(), "db.POSTGRES_PASSWORD") {
		t.Errorf("declared credential: %+v", r)
	}
	if r := rs[1]; r.Suggest != "db_pass" || !r.UnreadFile || r.Existing != "" || !strings.Contains(r.suggestFrom(), "api.DB_PASS") {
		t.Errorf("shared: %+v", r)
	}
	if r := rs[2]; r.Suggest != "other_token" || !r.UnreadFile || r.suggestFrom() != "the service's and the variable's names, lowercased" {
		t.Errorf("no suggestion: %+v", r)
	}
}
