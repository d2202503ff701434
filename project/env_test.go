package project

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// writeFiles writes files (slash paths relative to dir) with their content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEnvironmentAsCompose: the COMPOSE_* variables that decide which
// files, profiles, env files and name docker compose uses are read from
// the environment and from the project's .env, as docker compose reads
// them, and the flags win over them.
func TestEnvironmentAsCompose(t *testing.T) {
	base := map[string]string{
		"compose.yaml": "services:\n  web:\n    image: nginx:1\n  debug:\n    image: busybox:1\n    profiles: [debug]\n",
		"db.yaml":      "services:\n  db:\n    image: postgres:16\n    volumes: [dbdata:/var/lib/postgresql/data]\nvolumes:\n  dbdata: {}\n",
		"other.env":    "FROM_OTHER=1\n",
	}
	tests := []struct {
		name     string
		dotenv   string // the project's .env; "" for none
		environ  []string
		opts     Options
		services []string
		files    []string // base names of the compose files
		envFiles []string // base names of the env files read
		project  string
	}{
		{name: "plain", services: []string{"web"}, files: []string{"compose.yaml"}, project: "p"},
		{name: "COMPOSE_FILE in .env", dotenv: "COMPOSE_FILE=compose.yaml:db.yaml\n",
			services: []string{"db", "web"}, files: []string{"compose.yaml", "db.yaml"}, envFiles: []string{".env"}, project: "p"},
		{name: "COMPOSE_FILE in the environment", environ: []string{"COMPOSE_FILE=db.yaml"},
			services: []string{"db"}, files: []string{"db.yaml"}, project: "p"},
		{name: "COMPOSE_PATH_SEPARATOR", dotenv: "COMPOSE_PATH_SEPARATOR=,\nCOMPOSE_FILE=compose.yaml,db.yaml\n",
			services: []string{"db", "web"}, files: []string{"compose.yaml", "db.yaml"}, envFiles: []string{".env"}, project: "p"},
		{name: "-f wins over COMPOSE_FILE", dotenv: "COMPOSE_FILE=db.yaml\n", opts: Options{ConfigFiles: []string{"compose.yaml"}},
			services: []string{"web"}, files: []string{"compose.yaml"}, envFiles: []string{".env"}, project: "p"},
		{name: "COMPOSE_PROFILES in .env", dotenv: "COMPOSE_PROFILES=debug\n",
			services: []string{"debug", "web"}, files: []string{"compose.yaml"}, envFiles: []string{".env"}, project: "p"},
		{name: "--profile wins over COMPOSE_PROFILES", dotenv: "COMPOSE_PROFILES=debug\n", opts: Options{Profiles: []string{"none"}},
			services: []string{"web"}, files: []string{"compose.yaml"}, envFiles: []string{".env"}, project: "p"},
		{name: "COMPOSE_PROJECT_NAME in .env", dotenv: "COMPOSE_PROJECT_NAME=fromenv\n",
			services: []string{"web"}, files: []string{"compose.yaml"}, envFiles: []string{".env"}, project: "fromenv"},
		{name: "-p wins", dotenv: "COMPOSE_PROJECT_NAME=fromenv\n", opts: Options{ProjectName: "flag"},
			services: []string{"web"}, files: []string{"compose.yaml"}, envFiles: []string{".env"}, project: "flag"},
		{name: "COMPOSE_ENV_FILES replaces .env", dotenv: "COMPOSE_PROFILES=debug\n", environ: []string{"COMPOSE_ENV_FILES=other.env"},
			services: []string{"web"}, files: []string{"compose.yaml"}, envFiles: []string{"other.env"}, project: "p"},
		{name: "COMPOSE_DISABLE_ENV_FILE", dotenv: "COMPOSE_PROFILES=debug\n", environ: []string{"COMPOSE_DISABLE_ENV_FILE=true"},
			services: []string{"web"}, files: []string{"compose.yaml"}, project: "p"},
		{name: "--env-file wins over COMPOSE_ENV_FILES", dotenv: "COMPOSE_PROFILES=debug\n", environ: []string{"COMPOSE_ENV_FILES=other.env"},
			opts: Options{EnvFiles: []string{".env"}}, services: []string{"debug", "web"}, files: []string{"compose.yaml"}, envFiles: []string{".env"}, project: "p"},
		{name: "the environment wins over .env", dotenv: "COMPOSE_PROFILES=debug\n", environ: []string{"COMPOSE_PROFILES=none"},
			services: []string{"web"}, files: []string{"compose.yaml"}, envFiles: []string{".env"}, project: "p"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			writeFiles(t, dir, base)
			if tc.dotenv != "" {
				writeFiles(t, dir, map[string]string{".env": tc.dotenv})
			}
			opts := tc.opts
			opts.WorkingDirectory = dir
			opts.Environ = append([]string{}, tc.environ...)
			p, err := Load(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Sorted(maps.Keys(p.Compose.Services)); !reflect.DeepEqual(got, tc.services) {
				t.Errorf("services %v, want %v", got, tc.services)
			}
			if got := bases(p.ConfigFiles); !reflect.DeepEqual(got, tc.files) {
				t.Errorf("compose files %v, want %v", got, tc.files)
			}
			if got := bases(p.EnvFiles); !reflect.DeepEqual(got, tc.envFiles) {
				t.Errorf("env files %v, want %v", got, tc.envFiles)
			}
			if p.Compose.Name != tc.project {
				t.Errorf("project %q, want %q", p.Compose.Name, tc.project)
			}
		})
	}
}

// A COMPOSE_FILE entry that names no file is an error naming the entry
// and COMPOSE_FILE, not a silent fallback to the default file.
func TestComposeFileMissing(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"compose.yaml": "services:\n  web:\n    image: nginx:1\n", ".env": "COMPOSE_FILE=compose.yaml:nope.yaml\n"})
	_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err == nil || !strings.Contains(err.Error(), `"nope.yaml" set by COMPOSE_FILE`) {
		t.Fatalf("err = %v, want one naming nope.yaml and COMPOSE_FILE", err)
	}
}

func bases(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.Base(p))
	}
	sort.Strings(out)
	return out
}

// An unset variable inside an env_file is a use like one in a compose
// file (docker compose warns of it); a key without a value is not.
func TestEnvFileUnset(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml": "services:\n  app:\n    image: alpine:3\n    env_file: app.env\n    environment:\n      SET_HERE: x\n",
		"app.env":      "# comment\nLONE=c$d\nBARE\nOK=${SET_HERE}\nRAW='$e'\n",
	})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	got := unsetUses(p, func(u VariableUse) string { return fmt.Sprintf("%s %s %s", u.Name, u.Pos, u.Service) })
	if want := []string{"d app.env:2 app"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unset variables %q, want %q", got, want)
	}
}

// An unset variable in a value of the env file interpolation reads (.env,
// or --env-file's) is a use too: dotenv makes it empty, and docker
// compose warns of it, whether or not the compose file uses the value.
// An earlier variable of the file, the process environment and PWD set
// one; a default, a single-quoted value and a later variable do not
// count as uses or settings.
func TestDotEnvUnset(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml": "services:\n  app:\n    image: alpine:3\n    environment:\n      X: ${A}\n",
		".env":         "A=x${B}y\nC=$D\nE=${F:-d}\nG=${A}\nH=${PWD}/h\nI='$J'\nL=${K}\nM=${N}\nN=1\nexport O=${P}\n",
		"other.env":    "Q=${R}\n",
	})
	uses := func(p *Project) []string {
		return unsetUses(p, func(u VariableUse) string { return fmt.Sprintf("%s %s %s", u.Name, u.Pos, strings.Join(u.Path, ".")) })
	}
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{"K=1"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"B .env:1 A", "D .env:2 C", "N .env:8 M", "P .env:10 O"}; !reflect.DeepEqual(uses(p), want) {
		t.Errorf("unset variables %q, want %q", uses(p), want)
	}
	if v := p.Compose.Services["app"].Environment["X"]; v == nil || *v != "xy" {
		t.Errorf("X = %v, want xy", v)
	}
	p, err = Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}, EnvFiles: []string{filepath.Join(dir, "other.env")}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"A compose.yaml:5 services.app.environment.X", "R other.env:1 Q"}; !reflect.DeepEqual(uses(p), want) {
		t.Errorf("with --env-file other.env: unset variables %q, want %q", uses(p), want)
	}
}

// A variable of .env whose value refers to an unset one and that feeds a
// volume or an image of a service feeds it through: the use is the
// error a use in the compose file would be (FeedsMount, with the
// service); one used elsewhere stays a warning.
func TestDotEnvUnsetFeedsMount(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml": "services:\n  app:\n    image: alpine:${TAG}\n    environment:\n      X: ${PLAIN}\n  db:\n    image: postgres:16\n    volumes:\n      - ${DATA}:/var/lib/postgresql/data\n",
		".env":         "TAG=3.${MINOR}\nPLAIN=${NOBODY}\nDATA=${BASE}/db\n",
	})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	got := unsetUses(p, func(u VariableUse) string { return fmt.Sprintf("%s %s %s %v", u.Name, u.Pos, u.Service, u.FeedsMount) })
	if want := []string{"MINOR .env:1 app true", "NOBODY .env:2  false", "BASE .env:3 db true"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unset variables %q, want %q", got, want)
	}
}

// A project the raw check refuses before compose-go loads it (services
// written as a list) still has its unset variables, of the compose file
// and of .env, as docker compose warns of them before it refuses: Load
// returns the error and the Project, without Compose.
func TestRawRefusedUnset(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml": "x-key: $NOBODY_SETS_THIS\nservices:\n  - name: web\n    image: nginx:1\n",
		".env":         "A=${ALSO_UNSET}\n",
	})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err == nil || !strings.Contains(err.Error(), "services must be a mapping") {
		t.Fatalf("err = %v, want the raw check's refusal", err)
	}
	if p == nil || p.Compose != nil {
		t.Fatalf("project %+v, want one without Compose", p)
	}
	got := unsetUses(p, func(u VariableUse) string { return fmt.Sprintf("%s %s", u.Name, u.Pos) })
	if want := []string{"NOBODY_SETS_THIS compose.yaml:1", "ALSO_UNSET .env:1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("unset variables %q, want %q", got, want)
	}
}

// unsetUses returns p's unset variables, each as f writes it.
func unsetUses(p *Project, f func(VariableUse) string) []string {
	var got []string
	for _, u := range p.UnsetVariables {
		got = append(got, f(u))
	}
	return got
}

// COMPOSE_PROJECT_NAME is defined for interpolation as compose defines
// it, from the folder's name here: it is never an unset variable.
func TestProjectNameDefined(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "myproj")
	writeFiles(t, dir, map[string]string{"compose.yaml": "services:\n  web:\n    image: nginx:1\n    volumes:\n      - ./${COMPOSE_PROJECT_NAME}-data:/data\n    environment:\n      P: ${COMPOSE_PROJECT_NAME}\n"})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.UnsetVariables) != 0 {
		t.Errorf("unset variables %+v, want none", p.UnsetVariables)
	}
	if v := p.Compose.Services["web"].Environment["P"]; v == nil || *v != "myproj" {
		t.Errorf("P = %v, want myproj", v)
	}
}

// Included files interpolate with their own environment, as compose-go's
// include does: the included folder's .env, or the entry's env_file
// (relative to the including project); variables set there are not unset,
// and the raw reading substitutes them as compose-go did.
func TestIncludeEnvironment(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml":       "include:\n  - db/compose.yaml\n  - path: cache/compose.yaml\n    env_file: cache.env\nservices:\n  web:\n    image: nginx:${WEB_TAG:-1}\n",
		"db/compose.yaml":    "services:\n  db:\n    image: postgres:${DB_TAG}\n    volumes:\n      - ./${DB_DIR}:/var/lib/postgresql/data\n",
		"db/.env":            "DB_TAG=16\nDB_DIR=pgdata\n",
		"cache/compose.yaml": "services:\n  cache:\n    image: redis:${CACHE_TAG}\n    volumes:\n      - ./${CACHE_DIR}:/data\n",
		"cache.env":          "CACHE_TAG=7\nCACHE_DIR=rdata\n",
	})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.UnsetVariables) != 0 {
		t.Errorf("unset variables %+v, want none", p.UnsetVariables)
	}
	var sources []string
	for _, name := range []string{"cache", "db"} {
		for _, m := range p.Mounts(p.Compose.Services[name]) {
			sources = append(sources, m.Service+" "+m.Source+" "+m.Key)
		}
	}
	want := []string{"cache ./rdata ./cache/rdata", "db ./pgdata ./db/pgdata"}
	if !reflect.DeepEqual(sources, want) {
		t.Errorf("mounts %q, want %q", sources, want)
	}
	if img := p.Compose.Services["db"].Image; img != "postgres:16" {
		t.Errorf("db image %q", img)
	}
	inputs, err := p.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range inputs {
		names = append(names, p.Rel(in.Path))
	}
	for _, f := range []string{"db/.env", "cache.env"} {
		if !slices.Contains(names, f) {
			t.Errorf("inputs %q lack %s, which the conversion read", names, f)
		}
	}
}

// A ${VAR:?message} variable that is unset is a use like any other, marked
// required: compose refuses to load the project without it, and the
// report names it.
func TestRequiredVariable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"compose.yaml": "services:\n  a:\n    image: alpine\n    environment:\n      K: ${SECRET_KEY:?secret key required}\n"})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	// docker compose prints the author's message; so does the error, with
	// the file and line.
	if want := "compose.yaml:5: required variable SECRET_KEY is missing a value: secret key required"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want one saying %q", err, want)
	}
	if p == nil || len(p.UnsetVariables) != 1 || !p.UnsetVariables[0].Required || p.UnsetVariables[0].Name != "SECRET_KEY" {
		t.Fatalf("unset variables %+v, want SECRET_KEY, required", p)
	}
	if u := p.UnsetVariables[0]; u.Message != "secret key required" || u.Sep != ":?" || u.Empty {
		t.Errorf("use %+v, want the message \"secret key required\", :?, not empty", u)
	}
}

// The author's message of a required variable is what compose-go's
// template reads: up to the closing brace, nested references
// interpolated; ${VAR:?} fails on an empty value too, ${VAR?} only when
// unset; $${VAR:?x} is no reference.
func TestRequiredMessages(t *testing.T) {
	for _, tc := range []struct {
		value, env string
		want       []VariableUse // Name, Sep, Message, Empty
	}{
		{"${A:?set A to the ${B} host}", "B=db", []VariableUse{{Name: "A", Sep: ":?", Message: "set A to the db host"}}},
		{"${A?A is needed}", "", []VariableUse{{Name: "A", Sep: "?", Message: "A is needed"}}},
		{"${A?A is needed}", "A=", nil},
		{"${A:?}", "A=", []VariableUse{{Name: "A", Sep: ":?", Empty: true}}},
		{"$${A:?no reference}", "", nil},
		{"x-${A:-d}-${C:?C: {braces} kept}", "", []VariableUse{{Name: "C", Sep: ":?", Message: "C: {braces} kept"}}},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"compose.yaml": "services:\n  a:\n    image: alpine\n    environment:\n      K: '" + tc.value + "'\n"})
		environ := []string{}
		if tc.env != "" {
			environ = append(environ, tc.env)
		}
		p, _ := Load(context.Background(), Options{WorkingDirectory: dir, Environ: environ})
		if p == nil {
			t.Fatalf("%s: no project", tc.value)
		}
		var got []VariableUse
		for _, u := range p.UnsetVariables {
			if u.Required {
				got = append(got, VariableUse{Name: u.Name, Sep: u.Sep, Message: u.Message, Empty: u.Empty})
			}
		}
		if !slices.EqualFunc(got, tc.want, func(a, b VariableUse) bool {
			return a.Name == b.Name && a.Sep == b.Sep && a.Message == b.Message && a.Empty == b.Empty
		}) {
			t.Errorf("%s with %q: required uses %+v, want %+v", tc.value, tc.env, got, tc.want)
		}
	}
}

// TestUnsetVariablePaths: each use of an unset variable keeps its own key
// path, the same value written in several places included (unsetRefs
// looks at a value once), and a list item past the 64 whose keys are
// made in advance is "[N]" too.
func TestUnsetVariablePaths(t *testing.T) {
	dir := t.TempDir()
	var long strings.Builder
	for i := range 70 {
		fmt.Fprintf(&long, "      - L%d=x\n", i)
	}
	long.WriteString("      - LAST=${GONE}\n")
	writeFiles(t, dir, map[string]string{
		"compose.yaml": "services:\n  a:\n    image: alpine:${TAG}\n    labels: [\"x=${TAG}\", \"y=${TAG}\"]\n  b:\n    image: alpine:${TAG}\n    environment:\n" + long.String(),
	})
	p, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range p.UnsetVariables {
		got = append(got, fmt.Sprintf("%s %s %s %v", u.Name, u.Pos, strings.Join(u.Path, "."), u.FeedsMount))
	}
	want := []string{
		"TAG compose.yaml:3 services.a.image true",
		"TAG compose.yaml:4 services.a.labels.[0] false",
		"TAG compose.yaml:4 services.a.labels.[1] false",
		"TAG compose.yaml:6 services.b.image true",
		"GONE compose.yaml:78 services.b.environment.[70] false",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unset variables\n%q, want\n%q", got, want)
	}
}
