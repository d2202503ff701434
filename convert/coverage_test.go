package convert

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/schema"
)

// TestFieldCoverage walks compose-go's embedded compose-spec schema and
// fails when an attribute of a service (with deploy's nested attributes), a
// top-level volume, a secret or a config has no outcome in Fields, and when
// Fields lists an attribute the schema does not have. A compose-go release
// that adds an attribute fails here until someone decides its outcome.
func TestFieldCoverage(t *testing.T) {
	for _, problem := range coverage(Fields()) {
		t.Error(problem)
	}
	// The check itself: a table missing an attribute, or listing one the
	// schema lacks, fails.
	fields := Fields()
	var fewer []Field
	for _, f := range fields {
		if f.Name != "stop_signal" {
			fewer = append(fewer, f)
		}
	}
	if len(coverage(fewer)) == 0 {
		t.Error("coverage passes without stop_signal")
	}
	if len(coverage(append(fields, Field{Section: "services", Name: "no_such_field", Carried: true}))) == 0 {
		t.Error("coverage passes with a stale entry")
	}
}

// coverage returns the problems of the field table fields against the
// compose-spec schema.
func coverage(fields []Field) []string {
	var problems []string
	table := map[string]Field{}
	for _, f := range fields {
		key := f.Section + "." + f.Name
		if _, dup := table[key]; dup {
			problems = append(problems, fmt.Sprintf("Fields lists %s twice", key))
		}
		if !f.Carried && strings.TrimSpace(f.Reason) == "" {
			problems = append(problems, fmt.Sprintf("%s is not carried and has no reason", key))
		}
		if strings.Contains(f.Reason, "\n") {
			problems = append(problems, fmt.Sprintf("%s: the reason must be one line", key))
		}
		table[key] = f
	}
	inSchema := map[string]bool{}
	for _, p := range schema.AttributePaths() {
		parts := strings.Split(string(p), ".")
		if len(parts) < 3 || parts[1] != "*" {
			continue
		}
		section := parts[0]
		switch section {
		case "services", "volumes", "secrets", "configs":
		default:
			continue
		}
		rel := parts[2:]
		// The outcome is decided by the shortest listed prefix that is
		// not Partly; a Partly attribute decides each of its own
		// attributes separately.
		for i := 1; i <= len(rel); i++ {
			name := strings.Join(rel[:i], ".")
			f, ok := table[section+"."+name]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: attribute %s of the compose-spec schema is neither carried nor on the not-carried list (Fields, convert/fields.go)", p, name))
				break
			}
			inSchema[section+"."+name] = true
			if !f.Partly {
				break
			}
		}
	}
	for key := range table {
		if !inSchema[key] {
			problems = append(problems, fmt.Sprintf("Fields lists %s, which the compose-spec schema does not have (stale entry)", key))
		}
	}
	sort.Strings(problems)
	return problems
}

// TestNotCarried checks the lookups convert reports C2M007 from.
func TestNotCarried(t *testing.T) {
	for _, tc := range []struct {
		name    string
		carried bool
	}{
		{"image", true}, {"cap_add", true}, {"deploy", true}, {"deploy.replicas", true},
		{"deploy.resources.limits.memory", true}, {"container_name", false}, {"deploy.placement", false},
		{"deploy.resources.reservations.devices", false}, {"net", false}, {"build", false},
	} {
		if got := Carried(tc.name); got != tc.carried {
			t.Errorf("Carried(%q) = %v, want %v", tc.name, got, tc.carried)
		}
		reason, not := NotCarried(tc.name)
		if not == tc.carried || (not && reason == "") {
			t.Errorf("NotCarried(%q) = %q, %v", tc.name, reason, not)
		}
	}
}

// TestFieldsInREADME checks that docs/reference.md's Fields table lists every
// outcome of Fields as it is.
func TestFieldsInREADME(t *testing.T) {
	data, err := os.ReadFile("../docs/reference.md")
	if err != nil {
		t.Skip(err)
	}
	rows := map[string]bool{}
	for _, f := range Fields() {
		c := "no"
		if f.Carried {
			c = "yes"
			if f.Partly {
				c = "in part"
			}
		}
		row := fmt.Sprintf("| `%s` | %s | %s |", f.Name, c, f.Reason)
		if !strings.Contains(string(data), row) {
			t.Errorf("docs/reference.md lacks the row %s", row)
		}
		rows[row] = true
	}
	// And the other way: a row of the section that no outcome gives is
	// stale (umask stayed when compose-go v2.16.1 dropped it).
	_, section, _ := strings.Cut(string(data), "\n## Fields\n")
	section, _, _ = strings.Cut(section, "\n## ")
	for line := range strings.Lines(section) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "| `") && !rows[line] {
			t.Errorf("docs/reference.md's Fields section has the row %s, which Fields does not give", line)
		}
	}
}

// topLevelOutcomes says what becomes of each top-level section of a
// compose file. TestTopLevelCoverage keeps it in step with compose-go's
// schema, so that a section a compose-go release adds (jobs: came with
// v2.15, and was dropped without a word) fails until someone decides.
var topLevelOutcomes = map[string]string{
	"name":     "the project name, which names the module",
	"version":  "obsolete; ignored, as docker compose ignores it",
	"include":  "loaded by compose-go; the included files are sources of the manifest",
	"services": "containers (Fields)",
	"networks": "the networks services name; the module's own default network is implicit",
	"volumes":  "declared directories (Fields)",
	"secrets":  "credential resources (Fields)",
	"configs":  "inline content or declared files (Fields)",
	"models":   "used through a service's models:, which is not carried (C2M007)",
	"jobs":     "not carried: each job is a C2M007 finding naming its mounts (jobsNotCarried)",
}

// TestTopLevelCoverage fails when compose-go's schema has a top-level
// section topLevelOutcomes does not decide, or the table names one the
// schema lacks.
func TestTopLevelCoverage(t *testing.T) {
	inSchema := map[string]bool{}
	for _, p := range schema.AttributePaths() {
		section, _, _ := strings.Cut(string(p), ".")
		inSchema[section] = true
		if _, ok := topLevelOutcomes[section]; !ok {
			t.Errorf("top-level section %s of the compose-spec schema has no outcome (topLevelOutcomes)", section)
		}
	}
	for section := range topLevelOutcomes {
		if !inSchema[section] {
			t.Errorf("topLevelOutcomes decides %s, which the compose-spec schema lacks", section)
		}
	}
}
