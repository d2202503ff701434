package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/rules"
)

// WriteGitHub writes every diagnostic of r as a GitHub Actions workflow
// command, which GitHub shows as an annotation on the file and line:
//
//	::error file=mail/mail.yaml,line=14,title=C2M001::service "postfix": …%0Afix: …
//
// Warnings are written as ::warning. Values are escaped as GitHub's runner
// requires: %, CR and LF everywhere, and also : and , in properties.
func WriteGitHub(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, m := range r.Modules {
		for _, d := range m.Diagnostics {
			b.WriteString(githubCommand(d))
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func githubCommand(d rules.Diagnostic) string {
	var b strings.Builder
	b.WriteString("::")
	if d.Severity == rules.Warning {
		b.WriteString("warning")
	} else {
		b.WriteString("error")
	}
	var props []string
	if d.File != "" {
		props = append(props, "file="+GitHubProperty(d.File))
		if d.Line > 0 {
			props = append(props, "line="+strconv.Itoa(d.Line))
		}
	}
	title := d.Rule
	if title == "" {
		title = "compose2manifest"
	}
	props = append(props, "title="+GitHubProperty(title))
	b.WriteByte(' ')
	b.WriteString(strings.Join(props, ","))
	b.WriteString("::")
	msg := Body(d)
	if d.Fix != "" {
		msg += "\nfix: " + d.Fix
	}
	b.WriteString(GitHubData(msg))
	return b.String()
}

// GitHubData escapes the message of a workflow command as GitHub's runner
// reads it back: % as %25, CR as %0D, LF as %0A. Other control characters
// are shown escaped (Escape), so none reaches the log raw.
func GitHubData(s string) string {
	// "##[" anywhere in a log line is the runner's older command form:
	// written as the text report writes it.
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", "##[", `##\x5b`).Replace(Escape(s, true))
}

// GitHubProperty escapes a property value of a workflow command (file=,
// title=): as GitHubData, and also : as %3A and , as %2C.
func GitHubProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(GitHubData(s))
}
