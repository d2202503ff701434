package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/rules"
)

// write returns WriteTextWith's text for the diagnostics ds of one module.
func write(t *testing.T, opts TextOptions, ds ...rules.Diagnostic) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteTextWith(&b, &Report{Modules: []Module{{Diagnostics: ds}}}, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// unplaced is a C2M013 finding of the relative bind source src at line.
func unplaced(src string, line int) rules.Diagnostic {
	return rules.Diagnostic{Rule: "C2M013", Severity: rules.Error, File: "compose.yaml", Line: line, Service: "web", Source: src,
		Message: "relative bind source " + src + " has no location", Fix: "Set host_project_directory.",
		Cause: "relative bind sources have no location on the target host: set host_project_directory"}
}

func TestTextOneFindingPerCause(t *testing.T) {
	var ds []rules.Diagnostic
	for i := 1; i <= 5; i++ {
		ds = append(ds, unplaced(fmt.Sprintf("./d%d", i), 10+i))
	}
	got := write(t, TextOptions{}, ds...)
	want := "compose.yaml: C2M013 error: relative bind sources have no location on the target host: set host_project_directory (5):\n" +
		"    ./d1 (line 11), ./d2 (line 12), ./d3 (line 13), ./d4 (line 14), ./d5 (line 15)\n" +
		"  fix: Set host_project_directory.\n"
	if got != want {
		t.Errorf("five findings of one cause:\n%s\nwant:\n%s", got, want)
	}

	// Fewer than causeAtLeast stay one by one, each in its own words; the
	// fix is written once.
	got = write(t, TextOptions{}, ds[:2]...)
	want = "compose.yaml:11: C2M013 error: service \"web\": volume \"./d1\": relative bind source ./d1 has no location\n" +
		"  fix: Set host_project_directory.\n" +
		"compose.yaml:12: C2M013 error: service \"web\": volume \"./d2\": relative bind source ./d2 has no location\n"
	if got != want {
		t.Errorf("two findings of one cause:\n%s\nwant:\n%s", got, want)
	}
}

// A source named by the largest finding is given by its line only in the
// others, so that every source is named once.
func TestTextSourcesNamedOnce(t *testing.T) {
	var ds []rules.Diagnostic
	for i := 1; i <= 5; i++ {
		ds = append(ds, unplaced(fmt.Sprintf("./d%d", i), 10+i))
	}
	for i := 1; i <= 4; i++ {
		ds = append(ds, rules.Diagnostic{Rule: "C2M012", Severity: rules.Error, File: "compose.yaml", Line: 10 + i, Service: "web", Source: fmt.Sprintf("./d%d", i),
			Message: `volume option "z"`, Cause: `volume option "z" cannot be carried`})
	}
	ds = append(ds, rules.Diagnostic{Rule: "C2M012", Severity: rules.Error, File: "compose.yaml", Line: 30, Service: "cache", Source: "cachedata",
		Message: `volume option "z"`, Cause: `volume option "z" cannot be carried`})
	got := write(t, TextOptions{}, ds...)
	if !strings.Contains(got, "compose.yaml: C2M012 error: volume option \"z\" cannot be carried (5):\n    cachedata (line 30), and at lines 11, 12, 13, 14 (sources named in another finding)\n") {
		t.Errorf("the option's finding names again what the other named:\n%s", got)
	}
	for i := 1; i <= 5; i++ {
		if n := strings.Count(got, fmt.Sprintf("./d%d ", i)); n != 1 {
			t.Errorf("./d%d named %d times:\n%s", i, n, got)
		}
	}
}

// One YAML line shared by several services (an anchor) is one finding
// naming them all.
func TestTextSharedLine(t *testing.T) {
	var ds []rules.Diagnostic
	for _, s := range []string{"api", "worker", "cron"} {
		ds = append(ds, rules.Diagnostic{Rule: "C2M015", Severity: rules.Error, File: "compose.yaml", Line: 4, Service: s,
			Message: "environment TOKEN=******** looks like a secret", Fix: "Declare it."})
	}
	ds = append(ds, rules.Diagnostic{Rule: "C2M015", Severity: rules.Error, File: "compose.yaml", Line: 20, Service: "extra",
		Message: "environment TOKEN=******** looks like a secret", Fix: "Declare it."})
	got := write(t, TextOptions{}, ds...)
	want := "compose.yaml:4: C2M015 error: services \"api\", \"worker\", \"cron\", \"extra\": environment TOKEN=******** looks like a secret (also at line 20)\n" +
		"  fix: Declare it.\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// JSON keeps every finding.
	var js bytes.Buffer
	if err := WriteJSON(&js, &Report{Modules: []Module{{Diagnostics: ds}}}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(js.String(), `"rule": "C2M015"`); n != 4 {
		t.Errorf("JSON has %d findings, want 4", n)
	}
}

func TestTextAcknowledged(t *testing.T) {
	ack := rules.Diagnostic{Rule: "C2M015", Severity: rules.Warning, File: "compose.yaml", Line: 3, Service: "db",
		Message: "environment P=******** acknowledged", Acknowledged: true}
	other := rules.Diagnostic{Rule: "C2M014", Severity: rules.Warning, File: "compose.yaml", Line: 5, Message: "variable X is not set"}
	got := write(t, TextOptions{}, ack, other, ack)
	want := "compose.yaml:5: C2M014 warning: variable X is not set\n2 acknowledged: see --show-acknowledged\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = write(t, TextOptions{ShowAcknowledged: true}, ack, other)
	if !strings.Contains(got, "environment P=******** acknowledged") || strings.Contains(got, "see --show-acknowledged") {
		t.Errorf("with ShowAcknowledged:\n%s", got)
	}
}

// A hostile source in a grouped finding stays on its line and keeps the
// member lines' indentation.
func TestTextGroupHostile(t *testing.T) {
	var ds []rules.Diagnostic
	for i := 1; i <= 4; i++ {
		ds = append(ds, unplaced(fmt.Sprintf("./d%d\n::error::x", i), i))
	}
	got := write(t, TextOptions{}, ds...)
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "::") {
			t.Errorf("line starts a workflow command: %q", l)
		}
	}
	if !strings.Contains(got, "\n    ./d1 ::error::x (line 1)") {
		t.Errorf("member line:\n%s", got)
	}
}

// TestTextVariablesCounted: past eight, the secrets of C2M015 are counted
// (the skeleton's credentials: names each), but the unset variables of
// C2M014, which no skeleton names, are all listed (found by a review:
// they were counted as "named in the skeleton" too).
func TestTextVariablesCounted(t *testing.T) {
	group := func(rule, cause string) []rules.Diagnostic {
		var ds []rules.Diagnostic
		for i := 1; i <= 10; i++ {
			ds = append(ds, rules.Diagnostic{Rule: rule, Severity: rules.Error, File: "compose.yaml", Line: i, Service: "app",
				Variable: fmt.Sprintf("V%02d", i), Message: "m", Cause: cause})
		}
		return ds
	}
	got := write(t, TextOptions{}, group("C2M015", "literal values that look like secrets")...)
	if !strings.Contains(got, "V08 (line 8), and 2 more, each named in the skeleton") || strings.Contains(got, "V09") {
		t.Errorf("secrets past eight not counted:\n%s", got)
	}
	got = write(t, TextOptions{}, group("C2M014", "variables not set")...)
	if strings.Contains(got, "more, each named") || !strings.Contains(got, "V10 (line 10)") {
		t.Errorf("unset variables not all listed:\n%s", got)
	}
}
