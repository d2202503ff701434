package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/dotenv"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/report"
	"go.yaml.in/yaml/v3"
)

// fieldCounts tallies the outcome of every service field of the corpus.
type fieldCounts struct {
	carried, unverified, acknowledged, reported, silent int
	containers, leftOut, refused, notLoaded             int
}

var notCarriedRE = regexp.MustCompile(`^field (\S+?):? `)

// TestCorpusFields converts every corpus project with every profile
// enabled (and the refusal's skeleton filled in), and accounts for every
// service and every field of the raw YAML, counted independently of the
// converter: a service is a container of the manifest or the report says
// why not; a field is in the manifest, or a C2M007 names it, or the
// declarations acknowledge it. Zero silent drops, asserted. Then each
// service that has profiles, converted without --profile, must be reported
// left out (C2M019) or named by the load error.
func TestCorpusFields(t *testing.T) {
	root := os.Getenv(corpusEnv)
	if root == "" {
		t.Skipf("%s is not set; .ci/run sets it to the shared corpus", corpusEnv)
	}
	var n fieldCounts
	for _, file := range corpusProjects(t, root) {
		name, _ := filepath.Rel(root, file)
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			accountFields(t, file, &n)
		})
	}
	t.Logf("corpus services: %d containers, %d left out by profiles and reported, %d in refused modules (report has errors), %d in projects that do not load (report has the error)",
		n.containers, n.leftOut, n.refused, n.notLoaded)
	t.Logf("corpus fields: %d carried (found in the manifest), %d carried in refused modules (not verifiable), %d acknowledged, %d reported (C2M007), %d dropped silently",
		n.carried, n.unverified, n.acknowledged, n.reported, n.silent)
	if n.silent != 0 {
		t.Errorf("%d fields dropped silently", n.silent)
	}
}

func accountFields(t *testing.T, file string, n *fieldCounts) {
	dir := filepath.Dir(file)
	out := t.TempDir()
	args := []string{"convert", "--profile=*", "-f", file, "-o", out, "--format", "json"}
	code, stdout, _ := runCLI(t, dir, args...)
	mod := decodeReport(t, stdout).Modules[0]
	raw := rawServiceFields(t, file)
	if code == exitUsage {
		if len(mod.Diagnostics) == 0 {
			t.Fatalf("exit 2 without an explained error")
		}
		n.notLoaded += len(raw)
		return
	}
	var decl *declare.File
	declPath := filepath.Join(dir, convert.DeclarationsFile)
	if mod.Status == report.Refused && mod.Skeleton != "" {
		declPath = filepath.Join(t.TempDir(), "declarations.yaml")
		if err := os.WriteFile(declPath, fillSkeleton(t, mod.Skeleton), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, _ = runCLI(t, dir, append(args, "--declarations", declPath)...)
		mod = decodeReport(t, stdout).Modules[0]
	}
	if data, err := os.ReadFile(declPath); err == nil {
		decl, _ = declare.Parse(declPath, data)
	}

	reported := map[string]bool{}
	unsetEnv := map[string]bool{}
	errors := 0
	for _, d := range mod.Diagnostics {
		switch d.Rule {
		case "C2M007":
			if m := notCarriedRE.FindStringSubmatch(d.Message); m != nil {
				reported[d.Service+"\x00"+m[1]] = true
			}
		case "C2M014":
			unsetEnv[d.Service] = true
		case "C2M016":
			// build: without an image, refused: the report says why.
			reported[d.Service+"\x00build"] = true
		}
		if d.Severity == "error" {
			errors++
		}
	}
	containers := map[string]map[string]any{}
	if code == exitOK {
		data, err := os.ReadFile(filepath.Join(out, mod.Module+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Resources []map[string]any `yaml:"resources"`
		}
		if err := yaml.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Resources {
			if name, ok := r["container"].(string); ok {
				containers[name] = r
			}
		}
	} else if errors == 0 {
		t.Fatalf("exit %d without an error in the report", code)
	}

	for _, svc := range sortedMapKeys(raw) {
		fields := raw[svc]
		ct, ok := containers[svc]
		switch {
		case ok:
			n.containers++
		case code != exitOK:
			n.refused++
		default:
			t.Errorf("service %s: no container in the manifest and no word why", svc)
		}
		var check func(path []string, v any)
		check = func(path []string, v any) {
			name := strings.Join(path, ".")
			switch {
			case reported[svc+"\x00"+name]:
				n.reported++
			case decl.Acknowledged(svc, name) || decl.Acknowledged("*", name):
				n.acknowledged++
			case !convert.Carried(name):
				n.silent++
				t.Errorf("service %s: field %s is not carried and no C2M007 names it", svc, name)
			case partly(name):
				sub, _ := v.(map[string]any)
				for _, k := range sortedMapKeys(sub) {
					if !strings.HasPrefix(k, "x-") {
						check(append(path, k), sub[k])
					}
				}
			case !ok:
				n.unverified++
			case inContainer(ct, path, v) || (name == "environment" && unsetEnv[svc]):
				n.carried++
			default:
				n.silent++
				t.Errorf("service %s: field %s = %v is carried, yet the container lacks it", svc, name, v)
			}
		}
		for _, k := range sortedMapKeys(fields) {
			if !strings.HasPrefix(k, "x-") {
				check([]string{k}, fields[k])
			}
		}
	}

	// Services with profiles, converted with no profile enabled.
	var withProfiles []string
	for svc, f := range raw {
		if p, ok := f["profiles"].([]any); ok && len(p) > 0 {
			withProfiles = append(withProfiles, svc)
		}
	}
	if len(withProfiles) == 0 {
		return
	}
	// A profile no service has: the flag wins over a COMPOSE_PROFILES the
	// project's .env sets (sentry-self-hosted's does), so no profile is
	// enabled.
	args = []string{"convert", "-f", file, "-o", t.TempDir(), "--format", "json", "--profile", "c2m-no-such-profile"}
	if _, err := os.Stat(declPath); err == nil {
		args = append(args, "--declarations", declPath)
	}
	code, stdout, _ = runCLI(t, dir, args...)
	mod = decodeReport(t, stdout).Modules[0]
	for _, svc := range withProfiles {
		found := false
		for _, d := range mod.Diagnostics {
			if (d.Rule == "C2M019" && d.Service == svc) || (code == exitUsage && strings.Contains(d.Message, svc)) {
				found = true
			}
		}
		if !found {
			t.Errorf("service %s has profiles and is not reported left out with none enabled", svc)
			continue
		}
		n.leftOut++
	}
}

// partly reports whether the service field name is carried in part, so
// that its own fields are accounted one by one.
func partly(name string) bool {
	for _, f := range convert.Fields() {
		if f.Section == "services" && f.Name == name {
			return f.Partly
		}
	}
	return false
}

// manifestKeys says under which container keys a compose field lands,
// where that is not its own name.
var manifestKeys = map[string][]string{
	"env_file":   {"environment"},
	"label_file": {"labels"},
	"scale":      {"deploy"},
	"configs":    {"configs", "volumes"},
	"volumes":    {"volumes", "tmpfs"},
}

// inContainer reports whether the container carries the field at path, or
// the raw value is one a manifest leaves out (false, 0, empty).
func inContainer(ct map[string]any, path []string, raw any) bool {
	switch path[0] {
	case "extends", "profiles", "build", "image":
		// resolved by the loader; build stands behind image (C2M016
		// refuses a service without one).
		if path[0] != "image" {
			return true
		}
	}
	if zeroLike(raw) {
		return true
	}
	keys := manifestKeys[path[0]]
	if keys == nil {
		keys = []string{path[0]}
	}
	for _, k := range keys {
		var v any = ct[k]
		for _, p := range path[1:] {
			m, _ := v.(map[string]any)
			v = m[p]
		}
		if v != nil {
			return true
		}
	}
	return false
}

func zeroLike(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case int:
		return v == 0
	case float64:
		return v == 0
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f == 0
		}
		return v == "" || v == "false"
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// rawServiceFields reads every service of a compose file from its YAML
// alone, following include, and extends (a base service's fields count as
// the extending service's): the fields each writes, with strings
// interpolated from the folder's .env. A field written by several
// definitions keeps the last one.
func rawServiceFields(t *testing.T, file string) map[string]map[string]any {
	t.Helper()
	env := map[string]string{}
	if vals, err := dotenv.GetEnvFromFile(map[string]string{}, envFiles(filepath.Dir(file))); err == nil {
		env = vals
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var subst func(v any) any
	subst = func(v any) any {
		switch v := v.(type) {
		case string:
			s, err := template.SubstituteWithOptions(v, lookup, template.WithoutLogging)
			if err != nil {
				return v
			}
			return s
		case map[string]any:
			for k, x := range v {
				v[k] = subst(x)
			}
		case []any:
			for i, x := range v {
				v[i] = subst(x)
			}
		}
		return v
	}
	type composeDoc struct {
		Include  []any                     `yaml:"include"`
		Services map[string]map[string]any `yaml:"services"`
	}
	read := func(file string) *composeDoc {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil
		}
		var doc composeDoc
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return &doc
	}
	// fields returns the fields of service svc of file with those of the
	// service it extends beneath them.
	var fields func(file, svc string, depth int) map[string]any
	fields = func(file, svc string, depth int) map[string]any {
		out := map[string]any{}
		doc := read(file)
		if doc == nil || depth > 10 {
			return out
		}
		def := doc.Services[svc]
		var base map[string]any
		switch ext := def["extends"].(type) {
		case string:
			base = fields(file, ext, depth+1)
		case map[string]any:
			bf := file
			if f, ok := ext["file"].(string); ok {
				bf = filepath.Join(filepath.Dir(file), f)
			}
			if name, ok := ext["service"].(string); ok {
				base = fields(bf, name, depth+1)
			}
		}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range def {
			out[k] = subst(v)
		}
		return out
	}
	out := map[string]map[string]any{}
	seen := map[string]bool{}
	var walk func(file string)
	walk = func(file string) {
		if seen[file] {
			return
		}
		seen[file] = true
		doc := read(file)
		if doc == nil {
			return
		}
		dir := filepath.Dir(file)
		for _, inc := range doc.Include {
			switch v := inc.(type) {
			case string:
				walk(filepath.Join(dir, v))
			case map[string]any:
				if p, ok := v["path"].(string); ok {
					walk(filepath.Join(dir, p))
				}
			}
		}
		for svc := range doc.Services {
			if out[svc] == nil {
				out[svc] = map[string]any{}
			}
			for k, v := range fields(file, svc, 0) {
				out[svc][k] = v
			}
		}
	}
	walk(file)
	return out
}

func sortedMapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
