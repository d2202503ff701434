package rules

import (
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/project"
)

// ProjectPass is what a rule's CheckProject receives: a compose project
// as project.Load read it, and what convert built of it. Report fills in
// Rule, and Severity as Rule.Also says.
type ProjectPass struct {
	// Project is the one reading of the compose files. Its Compose model
	// is nil when compose-go could not load it; the facts of the raw
	// reading (UnsetVariables) are there all the same.
	Project *project.Project
	// Mounts are the mounts of the services convert converts, services in
	// name order, each service's volumes, tmpfs and file configs in order.
	Mounts []project.Mount
	Report func(Diagnostic)
}

// RunProject runs every rule of list with a CheckProject over p and
// returns the diagnostics in rule order, then in report order.
func RunProject(list []*Rule, p *ProjectPass) []Diagnostic {
	var out []Diagnostic
	for _, r := range list {
		if r.CheckProject == nil {
			continue
		}
		pass := *p
		pass.Report = reporter(r, "", &out)
		r.CheckProject(&pass)
	}
	return out
}

// mountDiag builds a diagnostic at a mount's position, naming its service,
// source and target.
func mountDiag(m project.Mount, format string, args ...any) Diagnostic {
	return Diagnostic{File: m.Pos.File, Line: m.Pos.Line, Service: m.Service, Source: m.Display(), Target: m.Target,
		Message: fmt.Sprintf(format, args...)}
}

// checkUnsupportedMount is C2M010: npipe, cluster and image volumes, other
// drivers, driver_opts other than a local bind.
func checkUnsupportedMount(p *ProjectPass) {
	for _, m := range p.Mounts {
		if m.Kind == project.Unsupported {
			p.Report(mountDiag(m, "%s cannot be expressed by the mesh", m.Why))
		}
	}
}

// checkMountOptions is C2M012: volume options the manifest cannot carry,
// and, as a warning, create_host_path: false.
func checkMountOptions(p *ProjectPass) {
	for _, m := range p.Mounts {
		if m.NoCreate {
			d := mountDiag(m, "bind create_host_path: false wanted a failure when the source is missing; the mesh host creates every declared directory instead")
			d.Severity = Warning
			p.Report(d)
		}
		for _, o := range m.Options {
			p.Report(mountDiag(m, "volume option %q cannot be carried by the manifest", o))
		}
	}
}

// checkUnreadBind is C2M013 for a bind whose compose file was not read a
// second time: where its source is cannot be told.
func checkUnreadBind(p *ProjectPass) {
	for _, m := range p.Mounts {
		if m.Kind == project.Unread {
			d := mountDiag(m, "the compose file that writes this bind was not found or not read, so whether its source is relative, in a home directory or absolute is unknown; name the file with -f")
			d.Source = ""
			p.Report(d)
		}
	}
}

// checkUnsetVariables is C2M014 for the compose files' variables: an
// error at each use that feeds a volume or an image; elsewhere one warning
// per variable and file, at its first use.
func checkUnsetVariables(p *ProjectPass) {
	if p.Project == nil {
		return
	}
	var out []Diagnostic
	grouped := map[string]int{}
	uses := map[string][]string{}
	for _, u := range p.Project.UnsetVariables {
		where := strings.Join(u.Path, ".")
		d := Diagnostic{File: u.Pos.File, Line: u.Pos.Line, Service: u.Service,
			Message: fmt.Sprintf("variable %s is not set and has no default (used in %s)", u.Name, where)}
		if u.FeedsMount {
			d.Severity = Error
			out = append(out, d)
			continue
		}
		id := u.Pos.File + "\x00" + u.Name
		if i, ok := grouped[id]; ok {
			uses[id] = append(uses[id], where)
			out[i].Service = ""
			out[i].Message = fmt.Sprintf("variable %s is not set and has no default (used in %s and %d more)", u.Name, uses[id][0], len(uses[id])-1)
			continue
		}
		grouped[id] = len(out)
		uses[id] = []string{where}
		out = append(out, d)
	}
	for _, d := range out {
		p.Report(d)
	}
}

// checkNoLocation is C2M013: a source with no location on the target
// host.
func checkNoLocation(p *ProjectPass) {
	checkUnreadBind(p)
}
