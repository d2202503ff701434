package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/rules"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"one\ntwo\r\n  three ", "one two three"},
		{"\n::error file=x::pwned", `\x3a:error file=x::pwned`},
		{"a ##[error]b", `a ##\x5berror]b`},
		{"\x1b[31mred\x07", `\x1b[31mred\x07`},
		{"\u202eexe\u0085", `\u202eexe`}, // NEL is white space: joined away
		{"x\u0085y\x9bz", `x y\x9bz`},    // a raw C1 byte is no UTF-8
		{"\xc2\x9b31m", `\u009b31m`},     // CSI as a rune
		{"a\x00b\x7fc", `a\x00b\x7fc`},
		{`C:\new`, `C:\new`},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Block("a: 1\n  ::error::x\n\x1b\n"); got != "a: 1\n  \\x3a:error::x\n\\x1b\n" {
		t.Errorf("Block = %q", got)
	}
	if got := Lines("first:\nsecond\n\n::third"); strings.Join(got, "|") != `first:|second|\x3a:third` {
		t.Errorf("Lines = %q", got)
	}
}

// Hostile text in every field of a diagnostic stays on its line in the
// text format, and in the github format is escaped as the runner reads it
// back; no raw control character gets through either.
func TestHostileFormats(t *testing.T) {
	for _, h := range []string{"\n::error file=x::pwned", "\r::warning::y", "\x1b]0;t\x07", "%0A::error::z", "a,b:c", "##[error]old"} {
		d := rules.Diagnostic{Rule: "C2M001", Severity: rules.Error, File: "f" + h + "/compose.yaml", Line: 3,
			Service: "s" + h, Source: "./d" + h, Message: "m" + h, Fix: "fix" + h}
		r := &Report{Modules: []Module{{Diagnostics: []rules.Diagnostic{d}}}}
		var text, gh, js bytes.Buffer
		if err := WriteText(&text, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteGitHub(&gh, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&js, r); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(text.String(), "\n"); n != 2 {
			t.Errorf("%q: text has %d lines, want 2:\n%s", h, n, text.String())
		}
		if n := strings.Count(gh.String(), "\n"); n != 1 || !strings.HasPrefix(gh.String(), "::error file=f") {
			t.Errorf("%q: github is not one annotation:\n%s", h, gh.String())
		}
		props, _, _ := strings.Cut(strings.TrimPrefix(gh.String(), "::error "), "::")
		if strings.ContainsAny(props, "\r\n") || strings.Count(props, ",") != 2 {
			t.Errorf("%q: properties %q not escaped", h, props)
		}
		for _, out := range []string{text.String(), gh.String(), js.String()} {
			if strings.ContainsFunc(out, func(r rune) bool { return r != '\n' && unsafeRune(r) }) {
				t.Errorf("%q: raw control character in %q", h, out)
			}
			// A line that is a workflow command is read as nothing else.
			if strings.Contains(out, "##[") && out != gh.String() {
				t.Errorf("%q: ##[ in %q", h, out)
			}
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimLeft(l, " "), "::") && out != gh.String() {
					t.Errorf("%q: line %q starts a workflow command", h, l)
				}
			}
		}
	}
	if got := GitHubData("100% a\r\nb\x1b"); got != `100%25 a%0D%0Ab\x1b` {
		t.Errorf("GitHubData = %q", got)
	}
	if got := GitHubProperty("a:b,c%\n"); got != "a%3Ab%2Cc%25%0A" {
		t.Errorf("GitHubProperty = %q", got)
	}
}
