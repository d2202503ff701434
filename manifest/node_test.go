package manifest

import (
	"bytes"
	"reflect"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// referenceEncode encodes a container the way yaml.v3 itself does
// (Node.Encode), for comparison with valueNode.
func referenceEncode(t testing.TB, c *Container) []byte {
	var n yaml.Node
	if err := n.Encode(c); err != nil {
		t.Fatal(err)
	}
	styleContainer(&n)
	return emit(t, &n)
}

func emit(t testing.TB, n *yaml.Node) []byte {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		t.Fatal(err)
	}
	enc.Close()
	return buf.Bytes()
}

func containerWith(s string) *Container {
	r := uint64(3)
	f := false
	return &Container{
		Name: "web", Image: s, Command: ShellCommand{s, "x"}, Entrypoint: ShellCommand{},
		User: s, Environment: map[string]string{"A": s, "B": "x", "C": s}, Labels: map[string]string{s: s},
		Ports:       []Port{{HostIP: s, Published: "80", Target: 80, Protocol: "tcp"}},
		Volumes:     []Volume{{Source: "/srv/" + s, Target: "/d", ReadOnly: true}},
		Healthcheck: &Healthcheck{Test: []string{"CMD", s}, Retries: &r, Interval: "30s"},
		DependsOn:   []Dependency{{Service: s, Condition: "service_started", Required: &f}},
	}
}

var trickyStrings = []string{
	"plain", "yes", "no", "on", "off", "Y", "n", "true", "False", "null", "~", "", " lead", "trail ",
	"1:30", "-1:30:00.5", "0750", "750", "1e3", "0x1F", ".inf", "-.NaN", "a: b", "#x", "x #y", "- x",
	"? x", "multi\nline", "multi\nline\n", "tab\tx", "caf\u00e9", "@x", "`x", "%x", "!x", "&x", "*x",
	"[x", "{x", "x, y", "123", "-5", "2026-11-29", "'q'", `"dq"`, "\\", "$5 a month", "<<",
}

// TestValueNodeMatchesYAML checks that the hand-built nodes encode to the
// same bytes as yaml.v3's own encoding, for strings YAML treats specially.
func TestValueNodeMatchesYAML(t *testing.T) {
	for _, s := range trickyStrings {
		c := containerWith(s)
		n := valueNode(reflect.ValueOf(c))
		styleContainer(n)
		got, want := emit(t, n), referenceEncode(t, c)
		if !bytes.Equal(got, want) {
			t.Errorf("string %q:\n--- valueNode\n%s--- yaml.v3\n%s", s, got, want)
		}
	}
}

// FuzzValueNode checks the same for any string: the bytes match yaml.v3's,
// or at least read back as the same value.
func FuzzValueNode(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			// yaml.v3 refuses to write it as a string; Encode returns
			// that error (the manifest is refused, never mangled).
			if _, err := Encode(&Module{Version: 1, Module: "m", Resources: []Resource{{Kind: KindContainer, Container: &Container{Name: s}}}}); err == nil {
				t.Fatalf("%q: Encode accepted invalid UTF-8", s)
			}
			return
		}
		c := &Container{Name: "web", Environment: map[string]string{"A": s}, Command: ShellCommand{s}}
		n := valueNode(reflect.ValueOf(c))
		got := emit(t, n)
		var back Container
		if err := yaml.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q: output does not parse: %v\n%s", s, err, got)
		}
		if back.Environment["A"] != s || len(back.Command) != 1 || back.Command[0] != s {
			t.Fatalf("%q read back as %q / %q\n%s", s, back.Environment["A"], back.Command, got)
		}
	})
}

// Map keys are sorted bytewise ("B10" before "B2"), unlike yaml.v3's
// natural order; either is deterministic.
func TestValueNodeKeyOrder(t *testing.T) {
	n := valueNode(reflect.ValueOf(map[string]string{"B2": "x", "B10": "y", "A": "z"}))
	var keys []string
	for i := 0; i < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
	}
	if !reflect.DeepEqual(keys, []string{"A", "B10", "B2"}) {
		t.Errorf("keys = %q", keys)
	}
}
