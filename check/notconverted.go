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
