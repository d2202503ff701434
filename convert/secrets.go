package convert

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Secrets, configs, devices and services left out: the parts of a compose
// project that become resources beside the declared paths, or reports.
//
// A compose secret becomes a credential resource, named by the secret's
// key: the mesh delivers its content, so a secret's file is named in the
// resource's comment and never read, and needs no declaration. A config
// with file: is a read-only bind of that file and is declared like any
// bind (binds: in the declarations); a config with content: or
// environment: is carried inline in the container's configs.

// secretRefs returns the container's secrets, with compose's default
// target (/run/secrets/NAME, or /run/secrets/TARGET for a relative one).
func secretRefs(svc types.ServiceConfig) []manifest.FileRef {
	var out []manifest.FileRef
	for _, s := range svc.Secrets {
		out = append(out, manifest.FileRef{Source: s.Source, Target: secretTarget(s), UID: s.UID, GID: s.GID, Mode: fileMode(s.Mode)})
	}
	return out
}

// unshadowedSecrets returns secretRefs(svc) less each secret with a
// file: at a target one of the service's mounts has too: docker compose
// mounts the volume there and not the secret (fillBindMounts), and so
// does the manifest, which says so (rules.ShadowedFile, C2M005 warning).
// A secret from environment: is copied into the container, not mounted,
// and stays.
func (c *converter) unshadowedSecrets(svc types.ServiceConfig, mounts []project.Mount) []manifest.FileRef {
	var out []manifest.FileRef
	for i, ref := range secretRefs(svc) {
		sec := c.l.Compose.Secrets[ref.Source]
		j := slices.IndexFunc(mounts, func(m project.Mount) bool { return m.Target == path.Clean(ref.Target) })
		if j < 0 || sec.File == "" || svc.Secrets[i].Source != ref.Source {
			out = append(out, ref)
			continue
		}
		pos := manifest.Pos{}
		if defs := c.l.ServiceDefs(svc.Name); len(defs) > 0 {
			pos = defs[len(defs)-1].Pos("secrets")
		}
		c.shadowed = append(c.shadowed, rules.ShadowedFile{What: "secret", Service: svc.Name, Name: ref.Source, Target: ref.Target,
			File: cmp.Or(c.l.TopLevelValue("secrets", ref.Source, "file"), c.l.Rel(sec.File)), Volume: mounts[j].Display(), Pos: pos, VolumePos: mounts[j].Pos})
	}
	return out
}

// shadowedSecret reports whether unshadowedSecrets left the secret out
// of the service's container.
func (c *converter) shadowedSecret(service, name string) bool {
	return slices.ContainsFunc(c.shadowed, func(s rules.ShadowedFile) bool {
		return s.What == "secret" && s.Service == service && s.Name == name
	})
}

// secretTarget returns where docker compose puts a secret in the
// container: its target, /run/secrets/NAME by default, and a relative
// target below /run/secrets (buildContainerSecretMounts).
func secretTarget(s types.ServiceSecretConfig) string {
	switch {
	case s.Target == "":
		return "/run/secrets/" + s.Source
	case !strings.HasPrefix(s.Target, "/"):
		return path.Join("/run/secrets", s.Target)
	}
	return s.Target
}

// configTarget returns where docker compose puts a config in the
// container: its target, /NAME by default, and a relative target below /
// (buildContainerConfigMounts for a file:, and the copy of a content: or
// environment: config, which lands at the target from /).
func configTarget(s types.ServiceConfigObjConfig) string {
	switch {
	case s.Target == "":
		return "/" + s.Source
	case !strings.HasPrefix(s.Target, "/"):
		return path.Join("/", s.Target)
	}
	return s.Target
}

func fileMode(m *types.FileMode) string {
	if m == nil {
		return ""
	}
	return fmt.Sprintf("%04o", int64(*m))
}

// inlineConfigs returns the configs of svc whose content compose knows
// (content:, or environment: resolved by compose-go). A config whose
// environment: is a secret-looking variable (project.LooksLikeSecret of
// its value) is C2M015 and left out: a compose secret delivers it. (A
// content: carrying a known secret is refused with the container's other
// fields: see secretFields.)
func (c *converter) inlineConfigs(svc types.ServiceConfig) []manifest.FileRef {
	var out []manifest.FileRef
	for _, ref := range svc.Configs {
		cfg, ok := c.l.Compose.Configs[ref.Source]
		if !ok || cfg.File != "" || bool(cfg.External) {
			continue
		}
		if cfg.Content == "" && cfg.Environment != "" {
			continue // its variable is unset: C2M014
		}
		if cfg.Environment != "" && project.LooksLikeSecret(cfg.Environment, cfg.Content) {
			// A secret as a config: refused (C2M015), never carried.
			sec := rules.EnvSecret{Service: svc.Name, Variable: cfg.Environment, Config: ref.Source,
				Pos: c.topPos("configs", ref.Source)}
			if cr, ok := c.credentialOf(cfg.Environment, cfg.Content); ok {
				sec.SameAs, sec.SameAsItem, sec.SameAsPos = cr.Name, declare.CredentialKey(cr.Service, cr.Variable), cr.Pos
			}
			c.secrets = append(c.secrets, sec)
			continue
		}
		out = append(out, manifest.FileRef{Source: ref.Source, Target: configTarget(ref), UID: ref.UID, GID: ref.GID,
			Mode: fileMode(ref.Mode), Content: cfg.Content})
	}
	return out
}

// fileConfigOptions records (for C2M007) uid, gid and mode given to a file
// config: it is a bind of a declared file, whose declared owner and mode
// apply.
func (c *converter) fileConfigOptions(svc types.ServiceConfig, defs []project.ServiceDef) {
	for _, ref := range svc.Configs {
		cfg, ok := c.l.Compose.Configs[ref.Source]
		if !ok || cfg.File == "" || (ref.UID == "" && ref.GID == "" && ref.Mode == nil) {
			continue
		}
		ack := c.acknowledged(svc.Name, "configs")
		p := manifest.Pos{}
		if len(defs) > 0 {
			p = defs[len(defs)-1].Pos("configs")
		}
		c.uncarried = append(c.uncarried, placement.Field{Service: svc.Name, Name: "configs", Config: ref.Source, Acknowledged: ack, Pos: p})
	}
}

func (c *converter) topPos(section, name string) manifest.Pos {
	p, _ := c.l.TopLevel(section, name)
	return p
}

// credentials returns a credential resource for each secret a running
// service uses, sorted by name. Its target is set when every container
// expects it at the same path.
func (c *converter) credentials(names []string) []manifest.Resource {
	targets := map[string][]string{}
	for _, name := range names {
		for _, s := range c.l.Compose.Services[name].Secrets {
			if c.shadowedSecret(name, s.Source) {
				continue // a volume is mounted there instead
			}
			t := secretTarget(s)
			if !slices.Contains(targets[s.Source], t) {
				targets[s.Source] = append(targets[s.Source], t)
			}
		}
	}
	// Credentials the declarations deliver in place of a variable.
	declared := map[string][]string{}
	for name, users := range c.credUsers {
		declared[name] = users
		if _, ok := targets[name]; !ok {
			targets[name] = nil
		}
		t := "/run/secrets/" + name
		if c.credMounted[name] && !slices.Contains(targets[name], t) {
			targets[name] = append(targets[name], t)
		}
	}
	keys := make([]string, 0, len(targets))
	for k := range targets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []manifest.Resource
	for _, k := range keys {
		r := manifest.Resource{Kind: manifest.KindCredential, Name: k, Pos: c.topPos("secrets", k)}
		if len(targets[k]) == 1 {
			r.Target = targets[k][0]
		}
		cfg, composed := c.l.Compose.Secrets[k]
		if !composed {
			// Only the declarations name it.
			var vars []string
			for _, cr := range c.decl.Credentials {
				if cr.Name == k && slices.Contains(declared[k], cr.Service) {
					vars = append(vars, declare.CredentialKey(cr.Service, cr.Variable))
					if r.Pos.File == "" {
						r.Pos = cr.Pos
					}
				}
			}
			sort.Strings(vars)
			r.Comment = "supplied: credentials: " + strings.Join(vars, ", ") + " (the value is never read or written)"
			out = append(out, r)
			continue
		}
		var legacy []string
		switch {
		case bool(cfg.External):
			legacy = append(legacy, "external secret")
		case cfg.Environment != "":
			legacy = append(legacy, "environment variable "+cfg.Environment+" (not read)")
		case cfg.File != "":
			file := cfg.File
			if f := c.l.TopLevelValue("secrets", k, "file"); f != "" {
				file = f
			}
			legacy = append(legacy, "file "+file+" (not read)")
		}
		if c.l.TopLevelValue("secrets", k, "name") != "" {
			legacy = append(legacy, "Docker name "+cfg.Name)
		}
		r.Comment = "compose secret"
		if len(legacy) > 0 {
			r.Comment += "; legacy: " + strings.Join(legacy, ", ")
		}
		if len(declared[k]) > 0 {
			r.Comment += "; also delivers credentials: of " + quoteList(declared[k])
		}
		out = append(out, r)
	}
	return out
}

// deviceHosts returns a host resource for each device node the running
// services use that no resource declares yet: the module uses the node and
// never creates or owns it. A CDI device name is not a path and needs none.
func (c *converter) deviceHosts(names []string, have []manifest.Resource) []manifest.Resource {
	declared := map[string]bool{}
	for _, r := range have {
		if r.Kind.Declares() {
			declared[r.Path] = true
		}
	}
	users := map[string][]string{}
	var paths []string
	for _, name := range names {
		for _, d := range c.l.Compose.Services[name].Devices {
			p := path.Clean(d.Source)
			if !strings.HasPrefix(d.Source, "/") || !manifest.ValidPath(p) || declared[p] {
				continue
			}
			if _, ok := users[p]; !ok {
				paths = append(paths, p)
			}
			if !slices.Contains(users[p], name) {
				users[p] = append(users[p], name)
			}
		}
	}
	var out []manifest.Resource
	for _, p := range paths {
		pos := manifest.Pos{}
		if defs := c.l.ServiceDefs(users[p][0]); len(defs) > 0 {
			pos = defs[len(defs)-1].Pos("devices")
		}
		out = append(out, manifest.Resource{Kind: manifest.KindHost, Path: p, Pos: pos,
			Comment: fmt.Sprintf("produced: device of service %s", quoteList(users[p])),
			Origin:  &manifest.Origin{Source: p, Services: users[p]}})
	}
	return out
}

// leftOut marks the acknowledgements that match fields of the services
// left out by profiles as used: a key for them is not a typo. C2M019
// reports the services themselves.
func (c *converter) leftOut() {
	p := c.l.Compose
	for _, name := range slices.Sorted(maps.Keys(p.DisabledServices)) {
		c.notCarried(p.DisabledServices[name], c.l.ServiceDefs(name), true, false)
	}
}

// jobsNotCarried reports C2M007 for each job (compose's top-level jobs:,
// containers docker compose runs to completion when triggered), unless
// acknowledged as jobs.NAME: the mesh runs no jobs, and a job's mounts are
// declared nowhere. A job left out by profiles is not reported, but an
// acknowledgement of it is not a typo either.
func (c *converter) jobsNotCarried() {
	p := c.l.Compose
	for _, name := range slices.Sorted(maps.Keys(p.DisabledJobs)) {
		c.acknowledged("jobs", name)
	}
	for _, name := range slices.Sorted(maps.Keys(p.Jobs)) {
		job := p.Jobs[name]
		reason := "the mesh runs no jobs (containers docker compose runs to completion when triggered)"
		var mounts []string
		for _, v := range job.Volumes {
			mounts = append(mounts, c.describeMount(v))
		}
		if len(mounts) > 0 {
			reason += "; nothing declares what it mounts (" + strings.Join(mounts, ", ") + "), whose data stays where docker compose keeps it"
		}
		pos, _ := c.l.TopLevel("jobs", name)
		c.uncarried = append(c.uncarried, placement.Field{Section: "jobs", Entry: name, Reason: reason,
			Acknowledged: c.acknowledged("jobs", name), Pos: pos})
	}
}

// topLevelNotCarried reports C2M007 for each attribute of a top-level
// volume, network, secret or config that the manifest does not carry,
// unless acknowledged as SECTION.NAME.FIELD.
func (c *converter) topLevelNotCarried() {
	for _, section := range []string{"volumes", "networks", "secrets", "configs"} {
		seen := map[string]bool{}
		for _, u := range c.l.TopLevelFields(section) {
			name, k := u.Entry, u.Name
			id := name + "\x00" + k
			if seen[id] {
				continue
			}
			seen[id] = true
			fd, known := c.fields.lookup(section, k)
			if known && fd.Carried {
				continue
			}
			reason := fd.Reason
			if !known {
				reason = unknownAttribute
			}
			if section == "networks" {
				if n, ok := c.l.Compose.Networks[name]; ok && bool(n.External) {
					if k == "name" {
						// The name of an external network is which
						// outside network it is: one fact with external,
						// settled by external's item (an item for name
						// alone still counts as used).
						c.acknowledged(section+"."+name, k)
						continue
					}
					if k == "external" && n.Name != "" && n.Name != name {
						reason = fmt.Sprintf("a network made outside the project (%q, shared with other projects, such as a proxy's); the manifest's networks are the module's own, named only", n.Name)
					}
				}
			}
			c.uncarried = append(c.uncarried, placement.Field{Section: section, Entry: name, Name: k, Reason: reason,
				Acknowledged: c.acknowledged(section+"."+name, k), Pos: u.Pos})
		}
	}
}
