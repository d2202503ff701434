package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func program() (Program, *string) {
	fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
	format := fs.String("format", "text", "output `FORMAT`")
	return Program{Name: "tool", Short: "does things", About: "Tool does *things*.\n", Commands: []Command{
		{Name: "check", Short: "check files", Synopsis: "check [flags] FILE...", About: "Check each FILE.\n\n  tool check a b\n\nflags:\n", Flags: fs, Files: true, FlagValues: map[string][]string{"format": {"text", "json"}}},
		{Name: "explain", Short: "explain an ID", Values: []string{"A1", "A2", "B1"}},
		{Name: "help", Short: "help", Help: true, Values: []string{"check", "explain"}},
	}}, format
}

// The tree's flags are the commands' own: their Values are shared, never
// copies, and their usages lose pflag's backquotes.
func TestTreeSharesFlags(t *testing.T) {
	p, format := program()
	root := Tree(p)
	c, _, err := root.Find([]string{"check"})
	if err != nil {
		t.Fatal(err)
	}
	f := c.Flags().Lookup("format")
	if f == nil {
		t.Fatal("check has no --format in the tree")
	}
	if err := f.Value.Set("json"); err != nil || *format != "json" {
		t.Errorf("setting the tree's --format: %v, the command's is %q", err, *format)
	}
	if f.Usage != "output FORMAT" || p.Commands[0].Flags.Lookup("format").Usage != "output `FORMAT`" {
		t.Errorf("usage %q; the command's %q", f.Usage, p.Commands[0].Flags.Lookup("format").Usage)
	}
}

// __complete answers with the commands, the values of an argument, and
// file completion for a command that takes files.
func TestExecuteComplete(t *testing.T) {
	p, _ := program()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", ""}, "check\tcheck files\nexplain\texplain an ID\nhelp\thelp\n:4\n"},
		{[]string{"__complete", "explain", "A"}, "A1\nA2\n:4\n"},
		{[]string{"__complete", "check", ""}, ":0\n"},
		{[]string{"__complete", "check", "--fo"}, "--format\toutput FORMAT\n:4\n"},
		{[]string{"__complete", "help", "ex"}, "explain\n:4\n"},
		{[]string{"__complete", "check", "--format", "j"}, "json\n:4\n"},
	} {
		var out, errs bytes.Buffer
		if err := Execute(Tree(p), tc.args, &out, &errs); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if out.String() != tc.want {
			t.Errorf("%q:\n%s\nwant:\n%s", tc.args, out.String(), tc.want)
		}
	}
}

func TestCompletion(t *testing.T) {
	p, _ := program()
	for _, shell := range Shells {
		var b bytes.Buffer
		if err := Completion(&b, Tree(p), shell, true); err != nil || !strings.Contains(b.String(), "tool") {
			t.Errorf("%s: %v\n%.200s", shell, err, b.String())
		}
	}
	if err := Completion(&bytes.Buffer{}, Tree(p), "tcsh", true); err == nil {
		t.Error("tcsh: no error")
	}
}

// The pages are the same for the same header; help texts are markdown
// with what would be markup escaped, the examples kept, "flags:" gone.
func TestMan(t *testing.T) {
	p, _ := program()
	h := ManHeader{Date: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Source: "tool v1"}
	var a, b bytes.Buffer
	if err := Man(&a, p, "", h); err != nil {
		t.Fatal(err)
	}
	if err := Man(&b, p, "", h); err != nil || a.String() != b.String() {
		t.Errorf("two pages differ (%v)", err)
	}
	for _, want := range []string{`.TH "TOOL" "1" "Mar 2026" "tool v1" "tool manual"`, `Tool does *things*`, `\fBcheck\fP: check files`, `\fBtool-check(1)\fP`} {
		if !strings.Contains(a.String(), want) {
			t.Errorf("root page lacks %q:\n%s", want, a.String())
		}
	}
	var c bytes.Buffer
	if err := Man(&c, p, "check", h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`.TH "TOOL-CHECK"`, "tool check a b", `\fB--format\fP="text"`, "output FORMAT"} {
		if !strings.Contains(c.String(), want) {
			t.Errorf("check page lacks %q:\n%s", want, c.String())
		}
	}
	if strings.Contains(c.String(), "flags:") {
		t.Errorf("check page keeps the help's flags: line:\n%s", c.String())
	}
	if err := Man(&c, p, "nope", h); err == nil {
		t.Error("a page for an unknown command")
	}
	if got := ManPages(p); strings.Join(got, " ") != "tool.1 tool-check.1 tool-explain.1" {
		t.Errorf("ManPages: %q", got)
	}
}

func TestManDate(t *testing.T) {
	for _, tc := range []struct {
		environ []string
		vcs     string
		want    int64
	}{
		{[]string{"SOURCE_DATE_EPOCH=1767225600"}, "2020-01-01T00:00:00Z", 1767225600},
		{nil, "2020-01-01T00:00:00Z", 1577836800},
		{[]string{"SOURCE_DATE_EPOCH=x"}, "", 0},
	} {
		if got := ManDate(tc.environ, tc.vcs).Unix(); got != tc.want {
			t.Errorf("ManDate(%q, %q) = %d, want %d", tc.environ, tc.vcs, got, tc.want)
		}
	}
}
