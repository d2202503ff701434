package convert

import (
	"fmt"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// carried lists the service fields the container shape carries, under
// their compose-spec names. extends and profiles are carried by the loader
// (extends is resolved; profiles decide whether a service runs);
// env_file is resolved into environment.
var carriedFields = []string{
	"image", "command", "entrypoint", "working_dir", "user", "hostname",
	"environment", "env_file", "labels", "ports", "volumes", "tmpfs",
	"restart", "healthcheck", "depends_on", "extends", "profiles",
}

// Carried reports whether the container shape carries the compose service
// field name.
func Carried(name string) bool {
	for _, f := range carriedFields {
		if f == name {
			return true
		}
	}
	return false
}

// container maps one service to a container resource. hostPaths gives the
// declared host path of each source by section and key; a volume whose
// source has none is left out (its refusal is already reported).
func (c *converter) container(svc types.ServiceConfig, mounts []mount, hostPaths map[string]string) *manifest.Resource {
	defs := c.l.serviceDefs(svc.Name)
	pos := manifest.Pos{}
	if len(defs) > 0 {
		pos = defs[len(defs)-1].pos("")
	}
	ct := &manifest.Container{
		Name:       svc.Name,
		Image:      svc.Image,
		Command:    svc.Command,
		Entrypoint: svc.Entrypoint,
		WorkingDir: svc.WorkingDir,
		User:       svc.User,
		Hostname:   svc.Hostname,
		Restart:    svc.Restart,
	}
	if ct.Image == "" {
		if ref, ok := c.decl.ImageFor(svc.Name); ok {
			ct.Image = ref
		} else {
			msg := "has no image"
			if svc.Build != nil {
				msg = "has build: and no image; the mesh runs images, it does not build them"
			}
			c.report(rules.Diagnostic{Rule: "C2M016", Severity: rules.Error, File: pos.File, Line: pos.Line,
				Service: svc.Name, Message: msg})
		}
	}
	var unset []string
	for _, k := range sortedEnvKeys(svc.Environment) {
		v := svc.Environment[k]
		if v == nil {
			unset = append(unset, k)
			continue
		}
		if ct.Environment == nil {
			ct.Environment = map[string]string{}
		}
		ct.Environment[k] = *v
	}
	if len(unset) > 0 {
		p := pos
		if len(defs) > 0 {
			p = defs[len(defs)-1].pos("environment")
		}
		c.report(rules.Diagnostic{Rule: "C2M014", Severity: rules.Warning, File: p.File, Line: p.Line, Service: svc.Name,
			Message: fmt.Sprintf("environment %s: no value in the compose file or the environment; left out", abbreviate(unset, 5))})
	}
	if len(svc.Labels) > 0 {
		ct.Labels = map[string]string(svc.Labels)
	}
	for _, p := range svc.Ports {
		ct.Ports = append(ct.Ports, manifest.Port{Name: p.Name, HostIP: p.HostIP, Published: p.Published,
			Target: p.Target, Protocol: p.Protocol, AppProto: p.AppProtocol})
	}
	for _, m := range mounts {
		if m.kind == Tmpfs {
			ct.Tmpfs = append(ct.Tmpfs, *m.tmpfs)
			continue
		}
		section, key, ok := sourceKey(m)
		if !ok {
			continue
		}
		hp, ok := hostPaths[section+"\x00"+key]
		if !ok {
			continue
		}
		ct.Volumes = append(ct.Volumes, manifest.Volume{Source: hp, Target: m.target, ReadOnly: m.readOnly})
	}
	if h := svc.HealthCheck; h != nil {
		ct.Healthcheck = &manifest.Healthcheck{Test: h.Test, Retries: h.Retries, Disable: h.Disable,
			Interval: dur(h.Interval), Timeout: dur(h.Timeout), StartPeriod: dur(h.StartPeriod), StartInterval: dur(h.StartInterval)}
	}
	deps := make([]string, 0, len(svc.DependsOn))
	for name := range svc.DependsOn {
		deps = append(deps, name)
	}
	sort.Strings(deps)
	for _, name := range deps {
		d := svc.DependsOn[name]
		dep := manifest.Dependency{Service: name, Condition: d.Condition, Restart: d.Restart}
		if !d.Required {
			f := false
			dep.Required = &f
		}
		ct.DependsOn = append(ct.DependsOn, dep)
	}
	// build: is not carried; with no image it is refused above (C2M016),
	// and an image named in the declarations stands for it.
	c.notCarried(svc.Name, defs, svc.Image == "" || ct.Image != svc.Image)
	return &manifest.Resource{Kind: manifest.KindContainer, Container: ct, Pos: pos, Comment: pos.String()}
}

func dur(d *types.Duration) string {
	if d == nil {
		return ""
	}
	return d.String()
}

func sortedEnvKeys(m types.MappingWithEquals) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// notCarried reports C2M007 for every field the service's definitions
// write that the container shape does not carry, unless acknowledged.
func (c *converter) notCarried(service string, defs []rawService, buildCovered bool) {
	seen := map[string]bool{}
	for i := len(defs) - 1; i >= 0; i-- {
		def := defs[i]
		for _, k := range keys(def.node) {
			if seen[k] || Carried(k) || strings.HasPrefix(k, "x-") || (k == "build" && buildCovered) {
				continue
			}
			seen[k] = true
			if c.acknowledged(service, k) {
				continue
			}
			p := def.pos(k)
			c.report(rules.Diagnostic{Rule: "C2M007", Severity: rules.Warning, File: p.File, Line: p.Line, Service: service,
				Message: fmt.Sprintf("field %s is not carried by the manifest", k)})
		}
	}
}

// acknowledged reports whether the declarations acknowledge field of
// service, and records the acknowledgement as used.
func (c *converter) acknowledged(service, field string) bool {
	if c.decl == nil {
		return false
	}
	found := false
	for i, a := range c.decl.Acknowledge {
		if a.Matches(service, field) {
			if c.usedAcks == nil {
				c.usedAcks = map[int]bool{}
			}
			c.usedAcks[i] = true
			found = true
		}
	}
	return found
}

// unusedAcks reports C2M009 for each acknowledge item that matched no
// field present in the input.
func (c *converter) unusedAcks() []rules.Diagnostic {
	if c.decl == nil {
		return nil
	}
	var out []rules.Diagnostic
	for i, a := range c.decl.Acknowledge {
		if c.usedAcks[i] {
			continue
		}
		out = append(out, rules.Diagnostic{Rule: "C2M009", Severity: rules.Error, File: a.Pos.File, Line: a.Pos.Line,
			Message: fmt.Sprintf("acknowledge %s matches no field the compose project writes and the manifest does not carry", a)})
	}
	for _, im := range c.decl.Images {
		svc, ok := c.l.project.Services[im.Service]
		if !ok {
			svc, ok = c.l.project.DisabledServices[im.Service]
		}
		if !ok || svc.Image != "" {
			out = append(out, rules.Diagnostic{Rule: "C2M009", Severity: rules.Error, File: im.Pos.File, Line: im.Pos.Line, Service: im.Service,
				Message: fmt.Sprintf("images: %s names no service that lacks an image", im.Service)})
		}
	}
	return out
}

var _ = declare.SectionBinds

// abbreviate joins the first n items of list and counts the rest.
func abbreviate(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(list[:n], ", "), len(list)-n)
}
