package convert

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Carried reports whether the container shape carries the compose service
// field name (a dotted name for a nested one, such as "deploy.replicas"),
// wholly or in part (Fields).
func Carried(name string) bool {
	_, not := NotCarried(name)
	return !not
}

// container maps one service to a container resource. hostPaths gives the
// declared host path of each source by section and key; a volume whose
// source has none is left out (its refusal is already reported).
func (c *converter) container(svc types.ServiceConfig, mounts []project.Mount, hostPaths map[string]string) *manifest.Resource {
	defs := c.l.ServiceDefs(svc.Name)
	pos := manifest.Pos{}
	if len(defs) > 0 {
		pos = defs[len(defs)-1].Pos("")
	}
	ct := containerShape(svc)
	if ct.Image == "" {
		if ref, ok := c.decl.ImageFor(svc.Name); ok {
			ct.Image = ref // else C2M016 refuses the module
		}
	}
	notes := c.environment(svc, ct)
	ct.Ports = containerPorts(svc.Ports)
	ct.Tmpfs, ct.Volumes = containerMounts(mounts, hostPaths)
	ct.Devices = containerDevices(svc.Devices)
	ct.Secrets = mergeSecretRefs(c.unshadowedSecrets(svc, mounts), ct.Secrets)
	ct.Configs = c.inlineConfigs(svc)
	ct.Healthcheck = containerHealthcheck(svc.HealthCheck)
	ct.DependsOn = containerDependencies(svc.DependsOn)
	if len(svc.ExtraHosts) > 0 {
		ct.ExtraHosts = svc.ExtraHosts.AsList("=")
		sort.Strings(ct.ExtraHosts)
	}
	// With no networks: written, compose's implicit default network,
	// which every service of the module shares.
	if len(svc.Networks) > 0 && writes(defs, "networks") {
		ct.Networks = containerNetworks(svc.Networks)
	}
	ct.Ulimits = containerUlimits(svc.Ulimits)
	if lg := svc.Logging; lg != nil && (lg.Driver != "" || len(lg.Options) > 0) {
		ct.Logging = &manifest.Logging{Driver: lg.Driver, Options: stringMap(lg.Options)}
	}
	ct.Deploy = deploy(svc)
	c.secretFields(svc, ct, pos)
	// build: is not carried; with no image it is refused above (C2M016),
	// and an image named in the declarations stands for it.
	c.notCarried(svc, defs, svc.Image == "" || ct.Image != svc.Image, true)
	notes = append(notes, c.disposed[svc.Name]...)
	comment := pos.String()
	if len(notes) > 0 {
		comment = strings.Join(append([]string{comment}, notes...), "; ")
	}
	return &manifest.Resource{Kind: manifest.KindContainer, Container: ct, Pos: pos, Comment: comment}
}

// containerShape returns the container fields that copy a service field
// as it is, or with a plain change of type.
func containerShape(svc types.ServiceConfig) *manifest.Container {
	return &manifest.Container{
		Name:            svc.Name,
		Image:           svc.Image,
		Platform:        svc.Platform,
		PullPolicy:      svc.PullPolicy,
		Command:         manifest.ShellCommand(svc.Command),
		Entrypoint:      manifest.ShellCommand(svc.Entrypoint),
		WorkingDir:      svc.WorkingDir,
		User:            svc.User,
		GroupAdd:        svc.GroupAdd,
		Expose:          svc.Expose,
		Restart:         svc.Restart,
		Hostname:        svc.Hostname,
		Domainname:      svc.DomainName,
		DNS:             svc.DNS,
		DNSSearch:       svc.DNSSearch,
		DNSOpt:          svc.DNSOpts,
		MacAddress:      svc.MacAddress,
		NetworkMode:     svc.NetworkMode,
		CapAdd:          svc.CapAdd,
		CapDrop:         svc.CapDrop,
		Privileged:      svc.Privileged,
		ReadOnly:        svc.ReadOnly,
		SecurityOpt:     svc.SecurityOpt,
		Ipc:             svc.Ipc,
		Pid:             svc.Pid,
		Uts:             svc.Uts,
		UsernsMode:      svc.UserNSMode,
		Cgroup:          svc.Cgroup,
		Init:            svc.Init,
		StopSignal:      svc.StopSignal,
		StopGracePeriod: dur(svc.StopGracePeriod),
		MemLimit:        int64(svc.MemLimit),
		MemReservation:  int64(svc.MemReservation),
		MemswapLimit:    int64(svc.MemSwapLimit),
		ShmSize:         int64(svc.ShmSize),
		Cpus:            cpus(svc.CPUS),
		CPUShares:       svc.CPUShares,
		Cpuset:          svc.CPUSet,
		PidsLimit:       svc.PidsLimit,
		OomKillDisable:  svc.OomKillDisable,
		OomScoreAdj:     svc.OomScoreAdj,
		Tty:             svc.Tty,
		StdinOpen:       svc.StdinOpen,
		Labels:          stringMap(svc.Labels),
		Annotations:     stringMap(svc.Annotations),
		Sysctls:         stringMap(svc.Sysctls),
	}
}

// portMode returns the mode of a port the manifest writes: the mode
// compose gives, but not ingress, its default (every short-syntax port
// has it), so that only mode: host is written.
func portMode(mode string) string {
	if mode == "ingress" {
		return ""
	}
	return mode
}

// containerPorts maps the service's ports.
func containerPorts(ports []types.ServicePortConfig) []manifest.Port {
	var out []manifest.Port
	for _, p := range ports {
		out = append(out, manifest.Port{Name: p.Name, HostIP: p.HostIP, Published: p.Published,
			Target: p.Target, Protocol: p.Protocol, AppProto: p.AppProtocol, Mode: portMode(p.Mode)})
	}
	return out
}

// containerMounts returns the tmpfs mounts and the volumes of mounts. A
// volume is mapped to the declared host path of its source (hostPaths,
// by section and key), and left out when its source has none.
func containerMounts(mounts []project.Mount, hostPaths map[string]string) (tmpfs []manifest.Tmpfs, volumes []manifest.Volume) {
	for _, m := range mounts {
		if m.Kind == project.Tmpfs {
			tmpfs = append(tmpfs, *m.Tmpfs)
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
		volumes = append(volumes, manifest.Volume{Source: hp, Target: m.Target, ReadOnly: m.ReadOnly})
	}
	return tmpfs, volumes
}

// containerDevices maps the service's devices.
func containerDevices(devices []types.DeviceMapping) []manifest.Device {
	var out []manifest.Device
	for _, d := range devices {
		out = append(out, manifest.Device{Source: d.Source, Target: d.Target, Permissions: d.Permissions})
	}
	return out
}

// containerHealthcheck maps the service's healthcheck; nil for none.
func containerHealthcheck(h *types.HealthCheckConfig) *manifest.Healthcheck {
	if h == nil {
		return nil
	}
	return &manifest.Healthcheck{Test: h.Test, Retries: h.Retries, Disable: h.Disable,
		Interval: dur(h.Interval), Timeout: dur(h.Timeout), StartPeriod: dur(h.StartPeriod), StartInterval: dur(h.StartInterval)}
}

// containerDependencies maps depends_on, sorted by service name. Only a
// dependency that is not required says so (required: false).
func containerDependencies(dependsOn types.DependsOnConfig) []manifest.Dependency {
	deps := make([]string, 0, len(dependsOn))
	for name := range dependsOn {
		deps = append(deps, name)
	}
	sort.Strings(deps)
	var out []manifest.Dependency
	for _, name := range deps {
		d := dependsOn[name]
		dep := manifest.Dependency{Service: name, Condition: d.Condition, Restart: d.Restart}
		if !d.Required {
			f := false
			dep.Required = &f
		}
		out = append(out, dep)
	}
	return out
}

// containerNetworks maps the networks a service names; a network with
// no settings maps to an empty one.
func containerNetworks(networks map[string]*types.ServiceNetworkConfig) map[string]manifest.Network {
	out := map[string]manifest.Network{}
	for name, n := range networks {
		var net manifest.Network
		if n != nil {
			net = manifest.Network{Aliases: n.Aliases, Ipv4Address: n.Ipv4Address, Ipv6Address: n.Ipv6Address,
				LinkLocalIPs: n.LinkLocalIPs, MacAddress: n.MacAddress, InterfaceName: n.InterfaceName,
				Priority: int64(n.Priority), GwPriority: int64(n.GatewayPriority), DriverOpts: stringMap(n.DriverOpts)}
		}
		out[name] = net
	}
	return out
}

// containerUlimits maps the service's ulimits, a single value as both
// soft and hard; nil for none.
func containerUlimits(ulimits map[string]*types.UlimitsConfig) map[string]manifest.Ulimit {
	var out map[string]manifest.Ulimit
	for name, u := range ulimits {
		if u == nil {
			continue
		}
		if out == nil {
			out = map[string]manifest.Ulimit{}
		}
		l := manifest.Ulimit{Soft: int64(u.Soft), Hard: int64(u.Hard)}
		if u.Single != 0 {
			l = manifest.Ulimit{Soft: int64(u.Single), Hard: int64(u.Single)}
		}
		out[name] = l
	}
	return out
}

// environment sets the container's environment: env_file and environment
// resolved by compose-go. A variable with no value is left out (C2M014
// says so). A variable credentials: delivers as a credential is never
// carried: the credential is mounted at /run/secrets/NAME and, where the
// image table says the image reads VARIABLE_FILE (or acknowledge names
// SERVICE.credentials.VARIABLE), VARIABLE_FILE names it. A literal value
// of a secret-looking name, or one that is the whole of a value known to
// be a secret (DBROOT holding MYSQL_ROOT_PASSWORD's value), is carried only when acknowledge names
// SERVICE.environment.VARIABLE and no credential delivers the same secret
// (deliveredBy); otherwise it is left out and C2M015 refuses the module. It returns the acknowledgements to note in the
// container's comment.
func (c *converter) environment(svc types.ServiceConfig, ct *manifest.Container) []string {
	var notes []string
	set := func(k, v string) {
		if ct.Environment == nil {
			ct.Environment = map[string]string{}
		}
		ct.Environment[k] = v
	}
	for _, k := range sortedEnvKeys(svc.Environment) {
		v := svc.Environment[k]
		if v == nil {
			continue
		}
		if cr, ok := c.credentialFor(svc.Name, k); ok {
			sec := rules.EnvSecret{Service: svc.Name, Variable: k, Credential: cr.Name, Image: ct.Image, CredentialPos: cr.Pos}
			if other, ok := c.credentialDiffers(cr, *v); ok {
				sec.Differs, sec.DiffersPos = declare.CredentialKey(other.Service, other.Variable), other.Pos
			}
			if row, ok := c.facts.FileEnv(ct.Image, k); ok {
				sec.FileEnv = fmt.Sprintf("%s:%d", images.TableFile, row.Line)
			} else {
				sec.Acknowledged = c.acknowledgedVariable(declare.AckCredentials, svc.Name, k)
			}
			if sec.Acknowledged {
				notes = append(notes, rules.AckCredentialNote(k))
			}
			if sec.FileEnv != "" || sec.Acknowledged {
				c.mountCredential(ct, k, cr.Name)
			} else {
				// Not known to read VARIABLE_FILE: the host sets the
				// variable itself from the credential.
				if ct.EnvCredentials == nil {
					ct.EnvCredentials = map[string]string{}
				}
				ct.EnvCredentials[k] = cr.Name
				sec.AsEnvironment = true
			}
			if !slices.Contains(c.credUsers[cr.Name], svc.Name) {
				if c.credUsers == nil {
					c.credUsers = map[string][]string{}
				}
				c.credUsers[cr.Name] = append(c.credUsers[cr.Name], svc.Name)
			}
			c.secrets = append(c.secrets, sec)
			continue
		}
		if of, ok := c.envSecret(k, *v); ok {
			sec := rules.EnvSecret{Service: svc.Name, Variable: k, Image: ct.Image, Of: of,
				Acknowledged: c.acknowledgedVariable(declare.AckEnvironment, svc.Name, k)}
			if row, ok := c.facts.FileEnv(ct.Image, k); ok {
				sec.FileEnv = fmt.Sprintf("%s:%d", images.TableFile, row.Line)
			}
			if cr, ok := c.deliveredBy(svc.Name, k); ok {
				// A credential's value, acknowledged or not: refused.
				sec.SameAs, sec.SameAsItem, sec.SameAsPos = cr.Name, declare.CredentialKey(cr.Service, cr.Variable), cr.Pos
			}
			c.secrets = append(c.secrets, sec)
			if !sec.Acknowledged || sec.SameAs != "" {
				continue // refused (C2M015); never in a candidate either
			}
			notes = append(notes, rules.AckPlaintextNote(k))
		}
		set(k, *v)
	}
	return notes
}

// mountCredential mounts credential name at /run/secrets/NAME in ct (once)
// and sets VARIABLE_FILE to that path.
func (c *converter) mountCredential(ct *manifest.Container, variable, name string) {
	target := "/run/secrets/" + name
	if ct.Environment == nil {
		ct.Environment = map[string]string{}
	}
	ct.Environment[variable+"_FILE"] = target
	if !slices.ContainsFunc(ct.Secrets, func(s manifest.FileRef) bool { return s.Source == name && s.Target == target }) {
		ct.Secrets = append(ct.Secrets, manifest.FileRef{Source: name, Target: target})
	}
	if c.credMounted == nil {
		c.credMounted = map[string]bool{}
	}
	c.credMounted[name] = true
}

// credentialFor returns the credential declared for variable of service
// and records the item as used.
func (c *converter) credentialFor(service, variable string) (declare.Credential, bool) {
	if c.decl == nil {
		return declare.Credential{}, false
	}
	for i, cr := range c.decl.Credentials {
		if cr.Service == service && cr.Variable == variable {
			if c.usedCreds == nil {
				c.usedCreds = map[int]bool{}
			}
			c.usedCreds[i] = true
			return cr, true
		}
	}
	return declare.Credential{}, false
}

// credentialDiffers returns an earlier credentials: item that gives the
// credential of cr to a variable whose value is not value, the value of
// cr's variable: one credential holds one value, so the host could not
// deliver both. The tool compares values the same way to offer one
// credential for variables of equal values (sameSecret); a variable with
// no value, or of a service that does not run, tells nothing.
func (c *converter) credentialDiffers(cr declare.Credential, value string) (declare.Credential, bool) {
	if c.decl == nil || c.l.Compose == nil {
		return declare.Credential{}, false
	}
	for _, o := range c.decl.Credentials {
		if o == cr {
			break // only earlier items: the pair is reported once, at the later one
		}
		if o.Name != cr.Name || (o.Service == cr.Service && o.Variable == cr.Variable) {
			continue
		}
		svc, ok := c.l.Compose.Services[o.Service]
		if v := svc.Environment[o.Variable]; ok && v != nil && *v != value {
			return o, true
		}
	}
	return declare.Credential{}, false
}

// acknowledgedVariable reports whether acknowledge names
// SERVICE.KIND.VARIABLE (or *.KIND.VARIABLE), and records it as used.
func (c *converter) acknowledgedVariable(kind, service, variable string) bool {
	if c.decl == nil {
		return false
	}
	found := false
	for j, a := range c.decl.Acknowledge {
		if a.MatchesVariable(kind, service, variable) {
			if c.usedAcks == nil {
				c.usedAcks = map[int]bool{}
			}
			c.usedAcks[j] = true
			found = true
		}
	}
	return found
}

// unusedCredentials returns each credentials: item that names no variable
// of a service (left-out services count: a key for them is not a typo).
func (c *converter) unusedCredentials() []placement.Unmatched {
	if c.decl == nil {
		return nil
	}
	var out []placement.Unmatched
	for i, cr := range c.decl.Credentials {
		if c.usedCreds[i] {
			continue
		}
		if svc, ok := c.l.Compose.DisabledServices[cr.Service]; ok {
			if _, has := svc.Environment[cr.Variable]; has {
				continue
			}
		}
		out = append(out, placement.Unmatched{What: placement.UnmatchedKey, Section: declare.KeyCredentials, Item: declare.CredentialKey(cr.Service, cr.Variable), Pos: cr.Pos})
	}
	return out
}

// writes reports whether any definition of a service writes key.
func writes(defs []project.ServiceDef, key string) bool {
	for _, d := range defs {
		if d.Writes(key) {
			return true
		}
	}
	return false
}

// deploy carries replicas (or scale), resources and the restart policy.
func deploy(svc types.ServiceConfig) *manifest.Deploy {
	out := &manifest.Deploy{}
	if svc.Scale != nil && *svc.Scale >= 0 {
		n := uint64(*svc.Scale)
		out.Replicas = &n
	}
	if d := svc.Deploy; d != nil {
		if d.Replicas != nil && *d.Replicas >= 0 {
			n := uint64(*d.Replicas)
			out.Replicas = &n
		}
		limits, reservations := resourceLimit(d.Resources.Limits), resourceLimit(d.Resources.Reservations)
		if limits != nil || reservations != nil {
			out.Resources = &manifest.Resources{Limits: limits, Reservations: reservations}
		}
		if p := d.RestartPolicy; p != nil {
			out.RestartPolicy = &manifest.RestartPolicy{Condition: p.Condition, Delay: dur(p.Delay),
				MaxAttempts: p.MaxAttempts, Window: dur(p.Window)}
		}
	}
	if *out == (manifest.Deploy{}) {
		return nil
	}
	return out
}

func resourceLimit(r *types.Resource) *manifest.ResourceLimit {
	if r == nil {
		return nil
	}
	out := &manifest.ResourceLimit{Cpus: cpus(float32(r.NanoCPUs)), Memory: int64(r.MemoryBytes), Pids: r.Pids}
	if *out == (manifest.ResourceLimit{}) {
		return nil
	}
	return out
}

// cpus writes a CPU count as the shortest decimal that reads back as the
// same float32, or "" for none.
func cpus(f float32) string {
	if f == 0 {
		return ""
	}
	return strconv.FormatFloat(float64(f), 'f', -1, 32)
}

func stringMap[M ~map[string]string](m M) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
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

// hookMounts names, as "; nothing declares what its hooks alone mount
// (…)", the mounts of the service's pre_start hooks that the service does
// not mount itself (a hook inherits the service's volumes and may add its
// own); "" when there are none.
func (c *converter) hookMounts(svc types.ServiceConfig) string {
	// What the service mounts itself is declared with it, at whatever
	// target the hook mounts it; an anonymous volume is the hook's own.
	own := map[string]bool{}
	for _, v := range svc.Volumes {
		if v.Source != "" {
			own[v.Type+"\x00"+v.Source] = true
		}
	}
	var mounts []string
	for _, h := range svc.PreStart {
		for _, v := range h.Volumes {
			if v.Source != "" && own[v.Type+"\x00"+v.Source] {
				continue
			}
			mounts = append(mounts, c.describeMount(v))
		}
	}
	if len(mounts) == 0 {
		return ""
	}
	return "; nothing declares what its hooks alone mount (" + strings.Join(slices.Compact(mounts), ", ") + "), whose data stays where docker compose keeps it"
}

// resolvedBindKey returns a bind source compose-go resolved (a job's or
// a hook's, which the raw reading does not index) as a binds: key: ./PATH
// inside the project directory, else relative to it (../PATH).
func (c *converter) resolvedBindKey(src string) string {
	rel := c.l.Rel(src)
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "../") || rel == ".." {
		return declare.NormalizeBind(rel)
	}
	return declare.NormalizeBind("./" + rel)
}

// describeMount names a mount as "TYPE SOURCE at TARGET", a bind source
// relative to the project directory as ./PATH.
func (c *converter) describeMount(v types.ServiceVolumeConfig) string {
	src := v.Source
	if v.Type == types.VolumeTypeBind {
		src = c.resolvedBindKey(src)
	}
	if src == "" {
		return "anonymous volume at " + v.Target
	}
	return fmt.Sprintf("%s %s at %s", v.Type, src, v.Target)
}

// notCarried reports C2M007 for every field the service's definitions
// write that the container shape does not carry, with the reason, unless
// acknowledged. Fields carried in part (deploy) are looked into. With
// report false (a service left out by profiles) it only marks the
// acknowledgements that match as used.
func (c *converter) notCarried(svc types.ServiceConfig, defs []project.ServiceDef, buildCovered, report bool) {
	seen := map[string]bool{}
	descend := func(name string) bool {
		f, known := c.fields.lookup("services", name)
		return known && f.Partly
	}
	for i := len(defs) - 1; i >= 0; i-- {
		for _, u := range defs[i].Fields(descend) {
			if seen[u.Name] || (u.Name == "build" && buildCovered) {
				continue
			}
			seen[u.Name] = true
			f, known := c.fields.lookup("services", u.Name)
			if known && f.Carried {
				continue
			}
			reason := f.Reason
			if !known {
				reason = unknownAttribute
			}
			if u.Name == "pre_start" {
				reason += c.hookMounts(svc)
			}
			ack := c.acknowledged(svc.Name, u.Name)
			if report {
				c.uncarried = append(c.uncarried, placement.Field{Service: svc.Name, Name: u.Name, Reason: reason, Acknowledged: ack, Pos: u.Pos})
			}
		}
	}
	if report {
		c.fileConfigOptions(svc, defs)
	}
}

// acknowledged reports whether the declarations acknowledge field (dotted
// for a nested field) of service, and records the acknowledgement as used.
// The item is written SERVICE.FIELD, *.FIELD, or for a nested field
// SERVICE.deploy.FIELD; a top-level attribute, SECTION.NAME.FIELD.
func (c *converter) acknowledged(service, field string) bool {
	if c.decl == nil {
		return false
	}
	full := service + "." + field
	i := strings.LastIndexByte(full, '.')
	owner, last := full[:i], full[i+1:]
	found := false
	for j, a := range c.decl.Acknowledge {
		if a.Matches(owner, last) {
			if c.usedAcks == nil {
				c.usedAcks = map[int]bool{}
			}
			c.usedAcks[j] = true
			found = true
		}
	}
	return found
}

// unusedAcks returns each acknowledge item that matched no field present
// in the input, and each images: entry for a service that has an image or
// none of that name.
func (c *converter) unusedAcks() []placement.Unmatched {
	if c.decl == nil {
		return nil
	}
	var out []placement.Unmatched
	for i, a := range c.decl.Acknowledge {
		if c.usedAcks[i] || a.Default {
			continue // a default holds for many projects, not all
		}
		out = append(out, placement.Unmatched{What: placement.UnmatchedAcknowledge, Item: a.String(), Pos: a.Pos})
	}
	for _, im := range c.decl.Images {
		svc, ok := c.l.Compose.Services[im.Service]
		if !ok {
			svc, ok = c.l.Compose.DisabledServices[im.Service]
		}
		if !ok || svc.Image != "" {
			out = append(out, placement.Unmatched{What: placement.UnmatchedImage, Item: im.Service, Pos: im.Pos})
		}
	}
	return out
}

// mergeSecretRefs returns the compose secrets, then each credential of
// declared not already mounted at its target.
func mergeSecretRefs(compose, declared []manifest.FileRef) []manifest.FileRef {
	out := compose
	for _, d := range declared {
		dup := false
		for _, s := range compose {
			dup = dup || (s.Source == d.Source && s.Target == d.Target)
		}
		if !dup {
			out = append(out, d)
		}
	}
	return out
}
