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
		props = append(props, "file="+escapeProperty(d.File))
		if d.Line > 0 {
			props = append(props, "line="+strconv.Itoa(d.Line))
		}
	}
	title := d.Rule
	if title == "" {
		title = "compose2manifest"
	}
	props = append(props, "title="+escapeProperty(title))
	b.WriteByte(' ')
	b.WriteString(strings.Join(props, ","))
	b.WriteString("::")
	msg := Body(d)
	if d.Fix != "" {
		msg += "\nfix: " + d.Fix
	}
	b.WriteString(escapeData(msg))
	return b.String()
}

// escapeData escapes the message of a workflow command.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value of a workflow command.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
