package report

import (
	"fmt"

	"github.com/compose2manifest/compose2manifest/rules"
)

// Plural says how many of noun there are: "1 error", "3 errors".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// CountErrors says how many of ds are errors: "1 error", "2 errors".
func CountErrors(ds []rules.Diagnostic) string {
	n := 0
	for _, d := range ds {
		if d.Severity == rules.Error {
			n++
		}
	}
	return Plural(n, "error")
}

// FindingSum says how many errors and warnings there are, both always:
// "0 errors, 1 warning".
func FindingSum(errs, warns int) string {
	return Plural(errs, "error") + ", " + Plural(warns, "warning")
}

// FindingCount says how many errors and warnings there are, naming only
// the kinds there are: "2 errors and 1 warning", "1 warning".
func FindingCount(errs, warns int) string {
	switch {
	case warns == 0:
		return Plural(errs, "error")
	case errs == 0:
		return Plural(warns, "warning")
	}
	return Plural(errs, "error") + " and " + Plural(warns, "warning")
}
