package check

import (
	"fmt"
	"io"
	"strings"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/report"
)

// WriteNotConverted writes one line for each of r.NotConverted, as
// convert --batch does: "PATH: not converted: REASON", made safe.
func WriteNotConverted(w io.Writer, r *Result) error {
	var b strings.Builder
	for _, sk := range r.NotConverted {
		fmt.Fprintf(&b, "%s\n", report.Line(sk.Path+": not converted: "+sk.Reason))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// NotConvertedSum returns what the summary line adds for r.NotConverted,
// counted as convert --batch counts them ("; 1 compose file no project
// reads, not converted; 1 symbolic link to a folder not followed"), or
// "" for none.
func NotConvertedSum(r *Result) string {
	files, links := 0, 0
	for _, sk := range r.NotConverted {
		if sk.Kind == batch.SkippedLink {
			links++
		} else {
			files++
		}
	}
	out := ""
	if files > 0 {
		out += fmt.Sprintf("; %s no project reads, not converted", report.Plural(files, "compose file"))
	}
	if links > 0 {
		out += fmt.Sprintf("; %s not followed", report.Plural(links, "symbolic link to a folder"))
	}
	return out
}

// Verdict is how a check ends: its exit status and, for the text
// format, the last line that sums it up and a hint after it.
type Verdict struct {
	// Code is 0 (clean, warnings allowed), 1 (findings) or 2 (a
	// manifest not read).
	Code int
	// Line sums the check up: "checked 2 manifests: no findings" when
	// Code is 0, else what failed ("check: 1 error in 1 manifest").
	Line string
	// Hint, when not empty, says why warnings failed the check.
	Hint string
}

// Verdict returns how r ends, warnings counting as errors when
// warningsAsErrors (check --warnings-as-errors).
func (r *Result) Verdict(warningsAsErrors bool) Verdict {
	errs, warns := r.Count()
	unread := len(r.Errors)
	for _, m := range r.Report.Modules {
		if m.Status == report.Failed {
			unread++
		}
	}
	checked := report.Plural(len(r.Report.Modules)-r.Unmanifested, "manifest")
	if r.Unmanifested > 0 {
		checked += " and " + report.Plural(r.Unmanifested, "project") + " without one"
	}
	switch {
	case r.Unreadable():
		return Verdict{Code: 2, Line: fmt.Sprintf("check: %s not read; %s in the others", report.Plural(unread, "manifest"), report.FindingSum(errs, warns))}
	case errs > 0 || (warningsAsErrors && (warns > 0 || len(r.NotConverted) > 0)):
		v := Verdict{Code: 1, Line: fmt.Sprintf("check: %s in %s%s", report.FindingCount(errs, warns), checked, NotConvertedSum(r))}
		if errs == 0 {
			v.Hint = "warnings count as errors because of --warnings-as-errors"
		}
		return v
	}
	return Verdict{Line: fmt.Sprintf("checked %s: %s%s", checked, report.FindingSum(errs, warns), NotConvertedSum(r))}
}
