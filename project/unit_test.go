package project

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/format"
	"go.yaml.in/yaml/v3"
)

func TestShortOptions(t *testing.T) {
	tests := []struct {
		spec string
		want []string
	}{
		{"./data:/data", nil},
		{"./data:/data:ro", nil},
		{"./data:/data:rw", nil},
		{"./data:/data:z", []string{"z"}},
		{"./data:/data:ro,Z", []string{"Z"}},
		{"./test:/test:U", []string{"U"}},
		{"vol:/v:nocopy", []string{"nocopy"}},
		{"./d:/d:rshared,ro", []string{"rshared"}},
		{"/app-temp", nil},
	}
	for _, tc := range tests {
		v, err := format.ParseVolume(tc.spec)
		if err != nil {
			t.Fatalf("ParseVolume(%q): %v", tc.spec, err)
		}
		if got := shortOptions(tc.spec, v); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("shortOptions(%q) = %q, want %q", tc.spec, got, tc.want)
		}
	}
}

func TestMergeCycle(t *testing.T) {
	tests := []struct {
		yaml string
		line int
	}{
		{"x: &a {b: 1, <<: *a}\n", 1},
		{"a: &a\n  k: 1\nb: &b\n  <<: *a\nc:\n  <<: [*a, *b]\n", 0},
		{"a: &a\n  <<: *b\nb: &b\n  k: 1\n", 0},
		{"a: &a\n  k: 1\n  n:\n    <<: *a\n", 4},
		{"services:\n  s: &s\n    image: x\n    volumes: [*s]\n", 0}, // a plain alias cycle is compose-go's to report
	}
	for _, tc := range tests {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tc.yaml), &doc); err != nil {
			// yaml.v3 may reject forward aliases; such input never reaches mergeCycle.
			continue
		}
		if got := mergeCycle(doc.Content[0]); got != tc.line {
			t.Errorf("mergeCycle(%q) = %d, want %d", tc.yaml, got, tc.line)
		}
	}
}

// TestResetBesideMerge: a !reset of volumes a merge key brings in is
// found (docker compose keeps the merged volumes); a !reset of volumes the
// merge does not bring, of another key, an !override, or a plain key
// beside the merge are not.
func TestResetBesideMerge(t *testing.T) {
	base := "x-base: &base\n  image: busybox\n  volumes: [./a:/a]\n"
	tests := []struct {
		yaml string
		want string // the key found, "" for none
	}{
		{base + "services:\n  s:\n    <<: *base\n    volumes: !reset null\n", "volumes"},
		{base + "services:\n  s:\n    <<: [*base]\n    volumes: !reset []\n", "volumes"},
		{base + "services:\n  s:\n    <<: *base\n    ports: !reset []\n", ""},
		{base + "services:\n  s:\n    <<: *base\n    image: !reset null\n", ""}, // read from compose-go's model
		{base + "services:\n  s:\n    <<: *base\n    volumes: !override [./u:/u]\n", ""},
		{base + "services:\n  s:\n    <<: *base\n    volumes: [./u:/u]\n", ""},
		{"services:\n  s:\n    image: x\n    volumes: !reset []\n", ""},
	}
	for _, tc := range tests {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tc.yaml), &doc); err != nil {
			t.Fatal(err)
		}
		got := ""
		if k := resetBesideMerge(doc.Content[0]); k != nil {
			got = k.Value
		}
		if got != tc.want {
			t.Errorf("resetBesideMerge(%q) = %q, want %q", tc.yaml, got, tc.want)
		}
	}
}

func TestStableError(t *testing.T) {
	a := stableError(errors.New("decoding failed:\n'b' invalid\n'a' invalid"))
	b := stableError(errors.New("decoding failed:\n'a' invalid\n'b' invalid"))
	if a.Error() != b.Error() || a.Error() != "decoding failed:\n'a' invalid\n'b' invalid" {
		t.Errorf("stableError gives %q and %q", a, b)
	}
	// The schema validator lists names in map order.
	c := stableError(errors.New("validating compose.yaml: additional properties 'X', ')' not allowed"))
	d := stableError(errors.New("validating compose.yaml: additional properties ')', 'X' not allowed"))
	if c.Error() != d.Error() || c.Error() != "validating compose.yaml: additional properties ')', 'X' not allowed" {
		t.Errorf("stableError gives %q and %q", c, d)
	}
	e := stableError(errors.New(`additional properties 's\'7, 2X', '010Y' not allowed`))
	if e.Error() != `additional properties '010Y', 's\'7, 2X' not allowed` {
		t.Errorf("stableError gives %q", e)
	}
	if one := errors.New("one line"); stableError(one) != one {
		t.Error("a one-line error was wrapped")
	}
}

// TestServiceShape: what compose-go's extends step rejects in map order
// is named in file order, the first one, with its line.
func TestServiceShape(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"services:\n  a:\n    image: x\n", ""},
		{"services:\n  a:\n", ""},
		{"services:\n  B: 0\n  A: 1\n", "c.yaml:2: services.B must be a mapping"},
		{"services:\n  ok:\n    image: x\n  bad: [1]\n", "c.yaml:4: services.bad must be a mapping"},
		{"services: 5\n", "c.yaml:1: services must be a mapping"},
		{"volumes: {}\n", ""},
		{"- a\n- b\n", "c.yaml:1: a compose file must be a mapping (services:, volumes:, …) at its top level"},
	}
	for _, tc := range tests {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tc.yaml), &doc); err != nil {
			t.Fatal(err)
		}
		if got := serviceShape(&rawFile{name: "c.yaml", root: doc.Content[0]}); got != tc.want {
			t.Errorf("serviceShape(%q) = %q, want %q", tc.yaml, got, tc.want)
		}
	}
}

// TestSyntaxError: YAML syntax errors name the compose file and the true
// line; the library's parser counts lines from 0, its scanner from 1.
func TestSyntaxError(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"services:\n  web:\n    image: x\n   ports: []\n", "compose.yaml:4: yaml: column 4: did not find expected key (while parsing a block mapping at line 2)"},
		{"services:\n  web:\n    image: \"x\n    ports: []\n", "compose.yaml:5: yaml: found unexpected end of stream (while scanning a quoted scalar at line 3)"},
		{"a:\n  - b\n  c: d\n", "compose.yaml:3: yaml: column 3: did not find expected '-' indicator (while parsing a block collection at line 2)"},
		{"services:\n  web:\n    image: nginx:1\n\tports: []\n", "compose.yaml:4: yaml: found a tab character that violates indentation (while scanning a plain scalar at line 3)"},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"compose.yaml": tc.yaml})
		_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.yaml, err, tc.want)
		}
	}
}

// TestSchemaErrorStable: of several schema violations, the same one is
// named on every run, with the compose file's line; compose-go names one
// in map order, by this machine's path.
func TestSchemaErrorStable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"compose.yaml": "services:\n  web:\n    image: nginx:1\n    ports: 5\n  db:\n    image: x:1\n    hostname: [a]\n  e:\n    Y: 1\n  b:\n    X: 2\n"})
	want := "compose.yaml:7: services.db.hostname must be a string"
	for range 20 {
		_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
		if err == nil || err.Error() != want {
			t.Fatalf("got %v, want %s", err, want)
		}
	}
}

// TestShapeLimits: a file nested deeper than MaxDepth, or whose aliases
// expand past MaxNodes, is refused before compose-go sees it, quickly.
func TestShapeLimits(t *testing.T) {
	deep := "services:\n  a:\n    image: x\n    labels:\n      l: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"
	laughs := "x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
	prev := "a"
	for i, name := range []string{"b", "c", "d", "e", "f", "g"} {
		laughs += fmt.Sprintf("x-%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
		_ = i
	}
	laughs += "services:\n  a:\n    image: x\n"
	for name, tc := range map[string]struct{ yaml, want string }{
		"deep":   {deep, "compose.yaml: nests deeper than 64 levels"},
		"laughs": {laughs, "compose.yaml: holds more than 200000 YAML nodes with its aliases expanded"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"compose.yaml": tc.yaml})
			_, err := Load(context.Background(), Options{WorkingDirectory: dir, Environ: []string{}})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %s…", err, tc.want)
			}
		})
	}
}
