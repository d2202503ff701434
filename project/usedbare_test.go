package project

import (
	"regexp"
	"testing"
)

// TestUsedBare checks usedBare against the regular expression it replaced
// (compiled per call before), on every way a variable can be written.
func TestUsedBare(t *testing.T) {
	names := []string{"A", "VAR", "VAR_1", "_x"}
	inputs := []string{
		"", "$", "$$", "VAR", "$VAR", "${VAR}", "$$VAR", "$${VAR}", "$$$VAR", "x$VAR", "x$$VAR",
		"$VARX", "$VAR_", "$VAR-1", "$VAR.", "${VAR:-d}", "${VAR-d}", "${VAR:?e}", "${VAR}x", "a:${VAR}:b",
		"$A$VAR", "$AB", "$A", "${A}", "$VAR_1", "${VAR_1}", "$VAR_12", "$_x", "$_xy", "$_x/y", "$VAR$",
		"é$VAR", "$VARé", "${VAR", "$ {VAR}", "$$$${VAR}", "x$$$VAR y $VAR",
	}
	for _, name := range names {
		re := regexp.MustCompile(`(^|[^$])\$(\{` + regexp.QuoteMeta(name) + `\}|` + regexp.QuoteMeta(name) + `\b)`)
		for _, s := range inputs {
			if got, want := usedBare(s, name), re.MatchString(s); got != want {
				t.Errorf("usedBare(%q, %q) = %v, the regexp says %v", s, name, got, want)
			}
		}
	}
}
