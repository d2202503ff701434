package project

import (
	"errors"
	"reflect"
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
