package manifest

import (
	"strings"
	"testing"
)

// An empty command clears the image's; it must survive Encode and Decode
// and stay distinct from an absent one.
func TestShellCommandClearedRoundTrip(t *testing.T) {
	m := &Module{Version: 1, Module: "m", Resources: []Resource{
		{Kind: KindContainer, Container: &Container{Name: "a", Image: "x", Command: ShellCommand{}}},
		{Kind: KindContainer, Container: &Container{Name: "b", Image: "y"}},
	}}
	data, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode("m.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	a, b := got.Resources[0].Container, got.Resources[1].Container
	if a.Command == nil || len(a.Command) != 0 {
		t.Errorf("cleared command decoded as %#v, want an empty list", a.Command)
	}
	if b.Command != nil {
		t.Errorf("absent command decoded as %#v, want nil", b.Command)
	}
}

func TestValidPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/srv/mail": true, "/": true, "/srv/mail/": false, "srv": false, "/srv/../etc": false,
		"/srv/./x": false, "/srv/x\ny": false, "/srv/v\tq": false, "/srv/caf\u00e9": true,
		// NAME_MAX and PATH_MAX: what the host's mkdir takes.
		"/srv/" + strings.Repeat("a", 255): true, "/srv/" + strings.Repeat("a", 256) + "/b": false,
		"/" + strings.Repeat("a/", 2046) + "bc": true, "/" + strings.Repeat("a/", 2046) + "bcd": false,
	} {
		if got := ValidPath(p); got != want {
			t.Errorf("ValidPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestIsAncestor(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"/srv", "/srv/a", true},
		{"/srv", "/srv/a/b", true},
		{"/", "/srv", true},
		{"/srv", "/srv", false},
		{"/srv", "/srvx", false},
		{"/srv", "/sr", false},
		{"/srv/a", "/srv", false},
		{"/", "/", false},
	} {
		if got := IsAncestor(tc.a, tc.b); got != tc.want {
			t.Errorf("IsAncestor(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestEncodeCommentEscaped: a provenance comment naming a path with a
// bidirectional control or a line break is written escaped, on one line
// (a raw U+202E reorders what a reviewer reads).
func TestEncodeCommentEscaped(t *testing.T) {
	m := &Module{Version: 1, Module: "m", Resources: []Resource{
		{Kind: KindDirectory, Path: "/srv/m", Owner: "0:0", Mode: "0750", Intent: IntentState, Comment: "kind directory: ./ü\u202eevil\nnext absent"},
	}}
	data, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(string(data), '\u202e') || !strings.Contains(string(data), `# kind directory: ./ü\u202eevil\nnext absent`) {
		t.Errorf("comment not escaped:\n%s", data)
	}
}

// TestEncodeNoWorkflowCommand: a manifest printed in a CI log (convert -o
// -) holds no line a GitHub runner reads as a workflow command, whatever
// names and values the compose file gave it, and decodes to the same
// module.
func TestEncodeNoWorkflowCommand(t *testing.T) {
	hostile := []string{
		"::error::pwned",
		"  ::add-mask::x",
		"a\n::stop-commands::tok",
		"a\n\t  ::set-output name=x::y\nb",
		"##[error]pwned",
		"x ##[group]y",
		"###[z",
		`\##[w`,
		"a\r::warning::cr",
	}
	for _, h := range hostile {
		m := &Module{Version: 1, Module: "m", Header: "from " + h, Resources: []Resource{
			{Kind: KindDirectory, Path: "/srv/m", Owner: "0:0", Mode: "0750", Intent: IntentState, Note: h, Comment: "supplied: " + h},
			{Kind: KindContainer, Container: &Container{Name: "c", Image: "img" + h,
				Environment: map[string]string{h: h, "K": h},
				Labels:      map[string]string{h: "v"},
				Command:     ShellCommand{h, "x"}}},
		}}
		data, err := Encode(m)
		if err != nil {
			t.Fatalf("%q: %v", h, err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "##[") || strings.HasPrefix(strings.TrimLeft(l, " \t-"), "::") {
				t.Errorf("%q: line %q reads as a workflow command:\n%s", h, l, data)
			}
		}
		got, err := Decode("m.yaml", data)
		if err != nil {
			t.Fatalf("%q: %v\n%s", h, err, data)
		}
		c := got.Resources[1].Container
		if got.Resources[0].Note != h || c.Image != "img"+h || c.Environment[h] != h || c.Environment["K"] != h || c.Labels[h] != "v" || c.Command[0] != h {
			t.Errorf("%q: decoded differently:\n%s", h, data)
		}
	}
}

// TestLegacy: a resource's legacy origin is convert's (Origin) or, read
// from a manifest, the "legacy: " item of its comment, wherever the item
// stands among the others; a container's or a credential's comment names
// none a path could share.
func TestLegacy(t *testing.T) {
	for _, c := range []struct {
		r    Resource
		want string
	}{
		{Resource{Kind: KindDirectory, Comment: "supplied: compose2manifest.yaml; legacy: bind /mnt/shared"}, "bind /mnt/shared"},
		{Resource{Kind: KindDirectory, Comment: "produced: x; legacy: Docker volume a_b; kind directory: ./x absent from the checkout"}, "Docker volume a_b"},
		{Resource{Kind: KindFile, Comment: "legacy: bind ./main.cf"}, "bind ./main.cf"},
		{Resource{Kind: KindDirectory, Comment: "supplied: compose2manifest.yaml"}, ""},
		{Resource{Kind: KindDirectory, Comment: "supplied: a.yaml; legacy: bind /x", Origin: &Origin{Legacy: "bind /y"}}, "bind /y"},
		{Resource{Kind: KindCredential, Comment: "compose secret; legacy: external secret"}, ""},
		{Resource{Kind: KindHost, Comment: "legacy: bind /x"}, ""},
	} {
		if got := c.r.Legacy(); got != c.want {
			t.Errorf("%q: Legacy() = %q, want %q", c.r.Comment, got, c.want)
		}
	}
}
