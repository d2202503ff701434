package ask

import (
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
)

// countDirectories counts n directories: "1 parent directory", "2
// parent directories".
func countDirectories(n int) string {
	if n == 1 {
		return "1 parent directory"
	}
	return fmt.Sprintf("%d parent directories", n)
}

// changedLines shows how data differs from old, line by line: a line
// removed or replaced is prefixed "- ", a line added "+ ", and the
// unchanged lines between them are elided. Lines that differ only in
// blanks (yaml.v3 writes one space before a line comment whatever the
// file had) count as unchanged: the preview shows what ask changed, not
// how the YAML library reflowed the rest.
func changedLines(old, data []byte) string {
	split := func(b []byte) []string {
		s := strings.TrimSuffix(string(b), "\n")
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	a, b := split(old), split(data)
	norm := func(l string) string { return strings.Join(strings.Fields(l), " ") }
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if norm(a[i]) == norm(b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	elided := false
	same := func() {
		if !elided {
			out.WriteString("    …\n")
			elided = true
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && norm(a[i]) == norm(b[j]):
			same()
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] > lcs[i+1][j]):
			out.WriteString("  + " + b[j] + "\n")
			elided = false
			j++
		default:
			out.WriteString("  - " + a[i] + "\n")
			elided = false
			i++
		}
	}
	return out.String()
}

// nextCommand is the convert command with the flags that give o.
func nextCommand(o convert.Options) string {
	args := []string{"compose2manifest", "convert"}
	for _, f := range o.ConfigFiles {
		args = append(args, "-f", shellQuote(f))
	}
	add := func(flag, v string) {
		if v != "" {
			args = append(args, flag, shellQuote(v))
		}
	}
	add("--project-directory", o.ProjectDirectory)
	for _, f := range o.EnvFiles {
		add("--env-file", f)
	}
	for _, p := range o.Profiles {
		add("--profile", p)
	}
	add("-p", o.ProjectName)
	add("--declarations", o.DeclarationsFile)
	add("--host-project-directory", o.HostProjectDirectory)
	add("--volume-root", o.VolumeRoot)
	if o.Strict {
		args = append(args, "--strict")
	}
	return strings.Join(args, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// lacking says how many of the plan's sources lack a declaration (an
// entry in the skeleton) and how many more only their location (a
// setting in the skeleton): "2 sources lack a declaration; 1 more only
// needs host_project_directory".
func lacking(p *Plan) string {
	what := lackingSources(p)
	if n := len(p.Suggestions.Roots); n > 0 {
		roots := "1 module root of layout fhs needs a declaration"
		if n > 1 {
			roots = fmt.Sprintf("%d module roots of layout fhs need a declaration", n)
		}
		if what != "" {
			roots = what + "; " + roots
		}
		what = roots
	}
	if n := len(p.Suggestions.Secrets); n > 0 {
		secrets := "1 plaintext secret needs a credential"
		if n > 1 {
			secrets = fmt.Sprintf("%d plaintext secrets need a credential", n)
		}
		if what == "" {
			return secrets
		}
		what += "; " + secrets
	}
	if what == "" {
		return "fields not carried need an acknowledgement"
	}
	return what
}

// lackingSources is lacking for the plan's sources; "" when it has none.
func lackingSources(p *Plan) string {
	if len(p.Items) == 0 {
		return ""
	}
	decl, loc := 0, 0
	var hostDir, volRoot bool
	for i := range p.Items {
		it := &p.Items[i]
		if !it.OnlyLocation() {
			decl++
			continue
		}
		loc++
		hostDir = hostDir || it.Missing.NeedsHostProjectDirectory
		volRoot = volRoot || it.Missing.NeedsVolumeRoot
	}
	setting := "its location"
	switch {
	case hostDir && volRoot:
		setting = "host_project_directory or volume_root"
	case hostDir:
		setting = "host_project_directory"
	case volRoot:
		setting = "volume_root"
	}
	switch {
	case loc == 0:
		return countSources(decl, "lacks", "lack") + " a declaration or a location"
	case decl == 0 && loc == 1:
		return "1 source only needs " + setting
	case decl == 0:
		return fmt.Sprintf("%d sources only need %s", loc, setting)
	}
	return fmt.Sprintf("%s a declaration; %d more only need%s %s", countSources(decl, "lacks", "lack"), loc, singularS(loc), setting)
}

// countSources counts n sources with the verb that agrees: "1 source
// lacks", "2 sources lack".
func countSources(n int, singular, plural string) string {
	if n == 1 {
		return "1 source " + singular
	}
	return fmt.Sprintf("%d sources %s", n, plural)
}
