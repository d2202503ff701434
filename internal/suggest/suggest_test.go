package suggest

import (
	"io"
	"testing"

	"github.com/spf13/pflag"
)

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		word       string
		candidates []string
		want       string
	}{
		{"dbdata", []string{"db-data", "other"}, "db-data"},
		{"--volum-root", []string{"--volume-root", "--verbose"}, "--volume-root"},
		{"covnert", []string{"check", "convert", "ask"}, "convert"}, // a transposition
		{"conert", []string{"convert", "check"}, "convert"},
		{"-o", []string{"-f", "-p"}, ""},                 // one letter away, but all of it
		{"data", []string{"cache", "logs"}, ""},          // nothing near
		{"convert", []string{"convert", "converts"}, ""}, // itself
		{"web", []string{"wen", "wbe"}, "wen"},           // a tie: the first
		{"postgresdata", []string{"postgres-data"}, "postgres-data"},
		{"xyzzy", nil, ""},
	} {
		if got := Nearest(tc.word, tc.candidates); got != tc.want {
			t.Errorf("Nearest(%q, %q) = %q, want %q", tc.word, tc.candidates, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"dbdata", "db-data", 1}, {"é", "e", 1},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestFlag(t *testing.T) {
	flags := func() *pflag.FlagSet {
		fs := pflag.NewFlagSet("convert", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("volume-root", "", "")
		fs.StringP("output", "o", "", "")
		fs.String("format", "", "")
		fs.Bool("hidden-one", false, "")
		_ = fs.MarkHidden("hidden-one")
		return fs
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--volum-root", "/srv"}, "--volume-root"},
		{[]string{"--fromat=json"}, "--format"},
		{[]string{"-volume-root", "/srv"}, "--volume-root"}, // one dash
		{[]string{"-x"}, ""},
		{[]string{"--hiden-one"}, ""}, // hidden flags are not offered
		{[]string{"--zzzzzzzz"}, ""},
		{[]string{"--format", "json"}, ""}, // no error
	} {
		fs := flags()
		got := Flag(fs, fs.Parse(tc.args))
		if got != tc.want {
			t.Errorf("%q: Flag = %q, want %q", tc.args, got, tc.want)
		}
	}
}
