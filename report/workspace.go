package report

import (
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/rules"
)

// Workspace returns the directory that GitHub resolves the file names of
// workflow annotations and code scanning results against: the
// repository's root, $GITHUB_WORKSPACE in environ (KEY=VALUE), when the
// absolute directory dir lies inside it; else dir itself.
func Workspace(dir string, environ []string) string {
	ws := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GITHUB_WORKSPACE="); ok {
			ws = v
		}
	}
	if ws == "" || !filepath.IsAbs(ws) || !filepath.IsAbs(dir) {
		return dir
	}
	if _, ok := below(filepath.Clean(ws), filepath.Clean(dir)); !ok {
		return dir
	}
	return filepath.Clean(ws)
}

// Rebase returns a copy of r whose relative file names, taken from the
// absolute directory dir, are relative to base instead, which holds dir
// (see Workspace): a check run in a folder of the repository names its
// files as GitHub finds them from the repository's root. Absolute names
// and names leading out of base are kept. r is not changed.
func Rebase(r *Report, dir, base string) *Report {
	prefix, ok := below(filepath.Clean(base), filepath.Clean(dir))
	if !ok || prefix == "." {
		return r
	}
	move := func(name string) string {
		if name == "" || filepath.IsAbs(name) {
			return name
		}
		joined := filepath.Join(prefix, name)
		if !filepath.IsLocal(joined) {
			return name
		}
		return filepath.ToSlash(joined)
	}
	out := *r
	out.Modules = make([]Module, len(r.Modules))
	for i, m := range r.Modules {
		m.File, m.Output = move(m.File), move(m.Output)
		ds := make([]rules.Diagnostic, len(m.Diagnostics))
		for j, d := range m.Diagnostics {
			d.File = move(d.File)
			if len(d.Related) > 0 {
				rel := make([]rules.Related, len(d.Related))
				for k, x := range d.Related {
					x.File = move(x.File)
					rel[k] = x
				}
				d.Related = rel
			}
			ds[j] = d
		}
		m.Diagnostics = ds
		out.Modules[i] = m
	}
	return &out
}

// below returns dir relative to base, and whether it lies at or below it.
func below(base, dir string) (string, bool) {
	rel, err := filepath.Rel(base, dir)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", false
	}
	return rel, true
}
