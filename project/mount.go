package project

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/format"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"go.yaml.in/yaml/v3"
)

// MountKind classifies one volume of a service, before it is mapped.
type MountKind string

// The mount kinds. Only binds, named volumes (plain, external or a local
// bind in disguise) and anonymous volumes need a declaration; tmpfs needs
// none; the rest cannot be expressed (C2M010).
const (
	BindDirectory MountKind = "bind"            // a host path; file or directory is decided later
	NamedVolume   MountKind = "volume"          // a named volume
	NamedBind     MountKind = "volume-bind"     // a named volume with driver_opts type: none, o: bind, device: PATH
	ExternalNamed MountKind = "volume-external" // a named volume declared external: true
	Anonymous     MountKind = "anonymous"       // a volume with no source
	Tmpfs         MountKind = "tmpfs"
	Unsupported   MountKind = "unsupported" // npipe, cluster, image, other drivers
	// Unread is a bind whose compose file was not read a second time, so
	// how it writes the source (relative, "~", absolute) is unknown and
	// compose-go's resolution against this machine would be a guess.
	Unread MountKind = "unread"
)

// Mount is one volume of one service, classified: a fact with its
// position, judged by the rules (C2M010, C2M012, C2M013) and placed by
// convert.
type Mount struct {
	// Service is the service that mounts it.
	Service string
	// From is, for an anonymous volume mounted through volumes_from, the
	// service whose anonymous volume it is (docker mounts that one
	// volume, not a new one); "" otherwise.
	From string
	// Kind is how the volume is classified.
	Kind MountKind
	// Source is the source as the compose file writes it, interpolated:
	// "./data", "/etc/x", "~/x", a volume name, or "" for anonymous.
	Source string
	// Key is, for a bind (or a named bind), the source as a declaration
	// key: declare.NormalizeBind of the written source, relative to the
	// project for a relative source.
	Key string
	// Local is, for a bind inside the project, its absolute path on this
	// machine (for file evidence only; never written).
	Local string
	// Volume is the named volume's key in the top-level volumes:.
	Volume string
	// Config is, for the bind of a config's file: (ConfigMounts), the
	// config's name; "" otherwise.
	Config string
	// Target is the path in the container, cleaned.
	Target   string
	ReadOnly bool
	// Tmpfs is set for a tmpfs mount.
	Tmpfs *manifest.Tmpfs
	// Why names, for Unsupported, what cannot be expressed, as the subject
	// of a sentence: `volume type npipe`, `volume "data" with driver "nfs"`.
	Why string
	// Options are the volume options the manifest cannot carry, as
	// written: ":U", "z", "propagation: rshared", "nocopy", …
	Options []string
	// NoCreate is set when the long syntax says create_host_path: false.
	NoCreate bool
	// DecimalMode is, for a long-syntax tmpfs whose mode: is written as
	// a plain integer that reads as octal too (755, 1777), the integer
	// as written: docker compose takes it as decimal (755 is octal
	// 1363), and the author most likely meant octal. "" otherwise.
	DecimalMode string
	// Pos is the volume's entry in the compose file.
	Pos manifest.Pos
}

// rawVolume is one entry of a service's volumes: list, as written.
type rawVolume struct {
	target string
	spec   string // the short syntax, interpolated; "" for long syntax
	source string // the source as written, interpolated
	// pwd reports whether the source is written from ${PWD} (pwdRef).
	pwd bool
	// dir is the folder the file's relative paths resolve against (its
	// working directory; an extended file's own folder).
	dir     string
	pos     manifest.Pos
	options []string // options the manifest cannot carry, from the raw text
	// decimalMode is tmpfs.mode as written when it is a plain integer
	// that reads as octal too (decimalOctal).
	decimalMode string
}

// decimalOctal reports whether n is a YAML integer written in decimal
// whose digits also read as an octal number of another value: 755 (not
// 0755, 0o755 or 493, and not 7, the same either way).
func decimalOctal(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || len(n.Value) < 2 || n.Value[0] == '0' {
		return false
	}
	for _, c := range n.Value {
		if c < '0' || c > '7' {
			return false
		}
	}
	return true
}

// rawVolumes returns the volumes of a service as its definitions write
// them, later files overriding earlier ones by target.
func (l *Project) rawVolumes(service string) map[string]rawVolume {
	out := map[string]rawVolume{}
	for _, def := range l.serviceDefs(service) {
		subst := def.file.subst
		dir := def.file.workDir
		if def.file.extended {
			dir = filepath.Dir(def.file.path)
		}
		for _, item := range seqItems(get(def.node, "volumes")) {
			rv := rawVolume{pos: manifest.Pos{File: def.file.name, Line: item.Line}, dir: dir}
			switch item.Kind {
			case yaml.ScalarNode:
				rv.spec = subst(item.Value)
				parsed, err := format.ParseVolume(rv.spec)
				if err != nil {
					continue
				}
				rv.source, rv.target = parsed.Source, path.Clean(parsed.Target)
				rv.options = shortOptions(rv.spec, parsed)
				rv.pwd = pwdRef.MatchString(item.Value)
			case yaml.MappingNode:
				rv.source = subst(scalar(get(item, "source")))
				rv.pwd = pwdRef.MatchString(scalar(get(item, "source")))
				rv.target = path.Clean(subst(scalar(get(item, "target"))))
				if mode := get(get(item, "tmpfs"), "mode"); decimalOctal(mode) {
					rv.decimalMode = mode.Value
				}
			default:
				continue
			}
			out[rv.target] = rv
		}
	}
	return out
}

// serviceDefs returns the definitions of a service in file order, each
// preceded by the definitions it extends (from the file extends.file
// names, or its own).
func (l *Project) serviceDefs(service string) []rawService {
	var out []rawService
	seen := map[*yaml.Node]bool{}
	var add func(d rawService)
	add = func(d rawService) {
		if seen[d.node] {
			return
		}
		seen[d.node] = true
		if file, n := l.raw.base(d.file, d.node); n != nil {
			add(rawService{file: file, node: n})
		}
		out = append(out, d)
	}
	for _, d := range l.raw.service(service) {
		add(d)
	}
	return out
}

// shortOptions returns the options of a short-syntax volume that the
// manifest cannot carry: everything but ro and rw.
func shortOptions(spec string, v types.ServiceVolumeConfig) []string {
	rest := strings.TrimPrefix(spec, v.Source)
	rest = strings.TrimPrefix(rest, ":")
	rest = strings.TrimPrefix(rest, v.Target)
	rest = strings.TrimPrefix(rest, ":")
	if rest == "" {
		return nil
	}
	var out []string
	for _, o := range strings.Split(rest, ",") {
		if o != "ro" && o != "rw" && o != "" {
			out = append(out, o)
		}
	}
	return out
}

// Mounts returns the mounts of one service, in the order of its volumes,
// then its tmpfs entries, then what volumes_from brings: each volume
// (a tmpfs volume too) and bind of the services it names (theirs from
// volumes_from too), at the
// same target, read-only when the entry says ro or the mount was, unless
// the service mounts that target itself, as docker mounts them. A
// volumes_from container:NAME (a container outside the project) is an
// Unsupported mount.
func (l *Project) Mounts(svc types.ServiceConfig) []Mount {
	return l.mounts(svc, 0)
}

func (l *Project) mounts(svc types.ServiceConfig, depth int) []Mount {
	out := l.ownMounts(svc)
	if len(svc.VolumesFrom) == 0 || depth > 16 {
		return out
	}
	pos := manifest.Pos{}
	if defs := l.serviceDefs(svc.Name); len(defs) > 0 {
		pos = defs[len(defs)-1].pos("volumes_from")
	}
	have := map[string]bool{}
	for _, m := range out {
		have[m.Target] = true
	}
	for _, ref := range svc.VolumesFrom {
		if name, ok := strings.CutPrefix(ref, "container:"); ok {
			name, _, _ = strings.Cut(name, ":")
			out = append(out, Mount{Service: svc.Name, Kind: Unsupported, Pos: pos, Source: ref,
				Why: fmt.Sprintf("volumes_from container:%s (the volumes of a container outside the project)", name)})
			continue
		}
		name, mode, _ := strings.Cut(ref, ":")
		if l.Compose == nil {
			break
		}
		from, ok := l.Compose.Services[name]
		if !ok {
			continue // compose-go refuses a reference to no service
		}
		for _, m := range l.mounts(from, depth+1) {
			// A tmpfs: entry is no volume, and docker does not share it;
			// a named volume of the tmpfs driver is one, and it does.
			if (m.Kind == Tmpfs && m.Volume == "") || have[m.Target] {
				continue
			}
			have[m.Target] = true
			if m.Kind == Anonymous && m.From == "" {
				m.From = m.Service // the same volume: docker mounts app's own
			}
			m.Service, m.Pos = svc.Name, pos
			m.ReadOnly = m.ReadOnly || mode == "ro"
			out = append(out, m)
		}
	}
	return out
}

// ownMounts returns the mounts the service's own volumes and tmpfs give.
func (l *Project) ownMounts(svc types.ServiceConfig) []Mount {
	var out []Mount
	if n := len(svc.Volumes) + len(svc.Tmpfs); n > 0 {
		out = make([]Mount, 0, n)
	}
	raws := l.rawVolumes(svc.Name)
	defPos := manifest.Pos{}
	if defs := l.serviceDefs(svc.Name); len(defs) > 0 {
		defPos = defs[len(defs)-1].pos("volumes")
	}
	for _, v := range svc.Volumes {
		m := Mount{Service: svc.Name, Target: path.Clean(v.Target), ReadOnly: v.ReadOnly, Pos: defPos}
		raw, haveRaw := raws[m.Target]
		if haveRaw {
			m.Pos = raw.pos
			m.Options = append(m.Options, raw.options...)
		}
		if !path.IsAbs(v.Target) && (v.Type == types.VolumeTypeBind || v.Type == types.VolumeTypeVolume || v.Type == types.VolumeTypeTmpfs) {
			// The engine refuses it; compose-go reads "w:/data:ro", a
			// volume of a one-letter name, as the Windows path w:/data
			// mounted at "ro".
			m.Kind, m.Source = Unsupported, v.Source
			if v.Type == types.VolumeTypeBind {
				// Named as written, as every rule names a bind: not by the
				// path compose-go made absolute on this machine.
				m.Source, _, _ = l.bindSource(v.Source, raw, haveRaw)
			}
			why := "docker refuses it"
			if len(v.Source) >= 3 && v.Source[1] == ':' && (v.Source[2] == '/' || v.Source[2] == '\\') {
				why += fmt.Sprintf("; %s reads as a Windows drive path, not a volume named %q: give the volume a longer name", v.Source, v.Source[:1])
			}
			m.Why = fmt.Sprintf("a mount at %q, a target that is not an absolute path (%s),", v.Target, why)
			out = append(out, m)
			continue
		}
		switch v.Type {
		case types.VolumeTypeBind:
			m.Kind = BindDirectory
			if !haveRaw {
				m.Kind, m.Source = Unread, v.Source
				break
			}
			m.Source, m.Key, m.Local = l.bindSource(v.Source, raw, haveRaw)
			if v.Bind != nil {
				if v.Bind.Propagation != "" && !haveRaw {
					m.Options = append(m.Options, "propagation="+v.Bind.Propagation)
				}
				if v.Bind.SELinux != "" && !haveRaw {
					m.Options = append(m.Options, v.Bind.SELinux)
				}
				if haveRaw && raw.spec == "" {
					if v.Bind.Propagation != "" {
						m.Options = append(m.Options, "propagation: "+v.Bind.Propagation)
					}
					if v.Bind.SELinux != "" {
						m.Options = append(m.Options, "selinux: "+v.Bind.SELinux)
					}
					if v.Bind.Recursive != "" {
						m.Options = append(m.Options, "recursive: "+v.Bind.Recursive)
					}
					m.NoCreate = !bool(v.Bind.CreateHostPath)
				}
			}
		case types.VolumeTypeVolume:
			if v.Source == "" {
				m.Kind = Anonymous
			} else {
				m.Volume = v.Source
				m.Source = v.Source
				l.classifyNamed(&m)
			}
			if v.Volume != nil && haveRaw && raw.spec == "" {
				if v.Volume.NoCopy {
					m.Options = append(m.Options, "nocopy")
				}
				if v.Volume.Subpath != "" {
					m.Options = append(m.Options, "subpath: "+v.Volume.Subpath)
				}
				if len(v.Volume.Labels) > 0 {
					// Labels docker sets on the volume it creates for the
					// mount; a declared directory has none.
					kv := make([]string, 0, len(v.Volume.Labels))
					for k, val := range v.Volume.Labels {
						kv = append(kv, k+"="+val)
					}
					sort.Strings(kv)
					m.Options = append(m.Options, "labels: "+strings.Join(kv, ", "))
				}
			}
		case types.VolumeTypeTmpfs:
			m.Kind = Tmpfs
			m.Tmpfs = &manifest.Tmpfs{Target: m.Target}
			if v.Tmpfs != nil {
				if v.Tmpfs.Size != 0 {
					m.Tmpfs.Size = fmt.Sprint(int64(v.Tmpfs.Size))
				}
				if v.Tmpfs.Mode != 0 {
					// The mode docker compose applies: an integer is
					// decimal, 0755 and 0o755 octal.
					m.Tmpfs.Mode = fmt.Sprintf("%o", v.Tmpfs.Mode)
				}
				if haveRaw && raw.decimalMode != "" && fmt.Sprint(v.Tmpfs.Mode) == raw.decimalMode {
					m.DecimalMode = raw.decimalMode
				}
			}
		default:
			m.Kind = Unsupported
			m.Source = v.Source
			m.Why = "volume type " + v.Type
		}
		if v.Consistency != "" {
			m.Options = append(m.Options, "consistency: "+v.Consistency)
		}
		out = append(out, m)
	}
	for _, t := range svc.Tmpfs {
		target, opts, _ := strings.Cut(t, ":")
		tm := &manifest.Tmpfs{Target: path.Clean(target)}
		var rest []string
		for _, o := range strings.Split(opts, ",") {
			switch k, val, _ := strings.Cut(o, "="); k {
			case "":
			case "size":
				tm.Size = val
			case "mode":
				tm.Mode = val
			default:
				rest = append(rest, o)
			}
		}
		tm.Options = strings.Join(rest, ",")
		out = append(out, Mount{Service: svc.Name, Kind: Tmpfs, Target: tm.Target, Tmpfs: tm, Pos: defPos})
	}
	return out
}

// classifyNamed sorts a named volume into plain, external, local bind or
// unsupported, from the project's top-level volumes.
func (l *Project) classifyNamed(m *Mount) {
	m.Kind = NamedVolume
	cfg, ok := l.Compose.Volumes[m.Volume]
	if !ok {
		return
	}
	if cfg.External {
		m.Kind = ExternalNamed
		return
	}
	if cfg.Driver != "" && cfg.Driver != "local" {
		m.Kind, m.Why = Unsupported, fmt.Sprintf("volume %q with driver %q", m.Volume, cfg.Driver)
		return
	}
	if len(cfg.DriverOpts) == 0 {
		return
	}
	o := cfg.DriverOpts
	if isTmpfsVolume(cfg) {
		l.tmpfsVolume(m, o)
		return
	}
	isBind := false
	var rest []string // mount options beyond bind, ro and rw
	for _, x := range strings.Split(o["o"], ",") {
		switch x {
		case "bind", "rbind":
			isBind = true
		case "ro":
			// A read-only bind volume is mounted read-only everywhere.
			m.ReadOnly = true
		case "rw", "":
		default:
			rest = append(rest, x)
		}
	}
	if o["type"] == "none" && isBind && o["device"] != "" && len(o) == 3 {
		m.Kind = NamedBind
		m.Source, m.Key, m.Local = l.deviceSource(m.Volume, o["device"])
		for _, x := range rest {
			m.Options = append(m.Options, "driver_opts o="+x)
		}
		return
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k+"="+o[k])
	}
	sort.Strings(keys)
	m.Kind, m.Why = Unsupported, fmt.Sprintf("volume %q with driver_opts %s, not a local bind (type=none o=bind device=PATH),", m.Volume, strings.Join(keys, " "))
}

// isTmpfsVolume reports whether a top-level volume is one the local
// driver makes a tmpfs: driver local (or none), driver_opts type: tmpfs
// with nothing but device and o beside it.
func isTmpfsVolume(cfg types.VolumeConfig) bool {
	if cfg.External || (cfg.Driver != "" && cfg.Driver != "local") || cfg.DriverOpts["type"] != "tmpfs" {
		return false
	}
	for k := range cfg.DriverOpts {
		if k != "type" && k != "device" && k != "o" {
			return false
		}
	}
	return true
}

// TmpfsVolume reports whether the top-level volume name is a tmpfs (local
// driver, driver_opts type: tmpfs): each mount of it is a tmpfs, which
// needs no declaration.
func (l *Project) TmpfsVolume(name string) bool {
	if l.Compose == nil {
		return false
	}
	cfg, ok := l.Compose.Volumes[name]
	return ok && isTmpfsVolume(cfg)
}

// BindVolume returns, for a top-level volume whose driver_opts make it
// a local bind (type: none, o: bind, device: PATH), its device as the
// compose file writes it and as its key under binds:, where it is
// declared; ok is false for any other volume.
func (l *Project) BindVolume(name string) (device, key string, ok bool) {
	if l.Compose == nil {
		return "", "", false
	}
	if _, ok := l.Compose.Volumes[name]; !ok {
		return "", "", false
	}
	m := Mount{Volume: name}
	l.classifyNamed(&m)
	if m.Kind != NamedBind {
		return "", "", false
	}
	return m.Source, m.Key, true
}

// tmpfsVolume makes m, a mount of a named volume the local driver makes a
// tmpfs, the tmpfs it is: the size and mode of driver_opts o, its other
// mount options (uid=, gid=, nr_inodes=, …) as written, and ro when the
// mount or o says so. The device is a name the kernel ignores for tmpfs.
func (l *Project) tmpfsVolume(m *Mount, o map[string]string) {
	m.Kind = Tmpfs
	tm := &manifest.Tmpfs{Target: m.Target}
	var rest []string
	for _, x := range strings.Split(o["o"], ",") {
		switch k, val, _ := strings.Cut(x, "="); k {
		case "":
		case "size":
			tm.Size = val
		case "mode":
			tm.Mode = val
		case "ro":
			m.ReadOnly = true
		case "rw":
		default:
			rest = append(rest, x)
		}
	}
	if m.ReadOnly {
		rest = append(rest, "ro")
	}
	tm.Options = strings.Join(rest, ",")
	m.Tmpfs = tm
}

// bindSource returns a bind's source as written, as a declaration key, and
// as a local path inside the project ("" when outside). compose-go has
// made a relative source absolute against the folder of the file that
// writes it and expanded "~" with this machine's home; the raw text says
// what was meant.
func (l *Project) bindSource(resolved string, raw rawVolume, haveRaw bool) (written, key, local string) {
	written = resolved
	if haveRaw && raw.source != "" {
		written = raw.source
	}
	if haveRaw && raw.pwd {
		written = l.fromPWD(written)
	}
	if strings.HasPrefix(written, "~") || strings.HasPrefix(written, "/") {
		return written, declare.NormalizeBind(written), ""
	}
	// A relative source: compose-go resolved it against the folder of the
	// file that writes it (an included or extended file may live in a
	// subfolder), so the key is that path relative to the project, as
	// written (lexicalKey) when that folder is known and gives compose-go's
	// path.
	if haveRaw && raw.dir != "" && filepath.Join(raw.dir, filepath.FromSlash(written)) == resolved {
		if key, ok := l.lexicalKey(raw.dir, written); ok {
			if !strings.HasPrefix(key, "../") && key != ".." {
				local = resolved
			}
			return written, key, local
		}
	}
	r, err := filepath.Rel(l.Dir, resolved)
	if err != nil {
		return written, declare.NormalizeBind(written), ""
	}
	key = declare.NormalizeBind("./" + filepath.ToSlash(r))
	if !strings.HasPrefix(key, "../") && key != ".." {
		local = resolved
	}
	return written, key, local
}

// lexicalKey returns the declaration key of a relative source written in
// a file whose relative paths resolve against dir: the source relative to
// the project directory, its ".." kept as written. compose-go resolves
// it on this machine, where a source climbing above the root stops there
// (../../../../../../../var/lib/x is /var/lib/x, whose path relative to
// the checkout, ../../../var/lib/x, depends on how deep the checkout
// lies); the target host resolves it against host_project_directory. So
// the key is the same wherever the checkout lies. ok is false when dir
// cannot be made relative to the project directory.
func (l *Project) lexicalKey(dir, written string) (key string, ok bool) {
	rel, err := filepath.Rel(l.Dir, dir)
	if err != nil {
		return "", false
	}
	return declare.NormalizeBind("./" + path.Join(filepath.ToSlash(rel), filepath.ToSlash(written))), true
}

// pwdRef matches a source written from the variable PWD: $PWD, ${PWD},
// ${PWD:-…}, ${PWD-…}, ${PWD:?…} or ${PWD?…}, alone or followed by "/".
// docker compose sets PWD to its working directory when the environment
// lacks it, and a project is run from its own directory, so such a
// source is the project directory or a path inside it (Load sets PWD to
// the project directory).
var pwdRef = regexp.MustCompile(`^\$(PWD|\{PWD(:?[-?][^}]*)?\})(/|$|:)`)

// fromPWD returns a source written from ${PWD} and interpolated (an
// absolute path inside the project directory) as the relative source it
// stands for: "./data" for ${PWD}/data, "." for ${PWD} alone. A source
// outside the project directory (PWD replaced by a default or by the
// environment) is returned as it is.
func (l *Project) fromPWD(written string) string {
	r, err := filepath.Rel(l.Dir, filepath.FromSlash(written))
	if err != nil || !filepath.IsAbs(written) || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return written
	}
	return "./" + filepath.ToSlash(r)
}

// AnonymousService returns the service whose anonymous volume m is: From
// when volumes_from brought it, else its own Service.
func (m Mount) AnonymousService() string {
	if m.From != "" {
		return m.From
	}
	return m.Service
}

// Display returns the source of m as a person reads it in a report.
func (m Mount) Display() string {
	switch m.Kind {
	case Anonymous:
		return ""
	case Tmpfs:
		return m.Volume // "" for a tmpfs mount, the name for a tmpfs volume
	case NamedBind:
		return m.Volume
	}
	return m.Source
}

// deviceSource returns the device of a local-bind named volume as the
// compose file writes it, as a declaration key, and as a local path inside
// the project ("" when outside). compose-go makes a relative device
// absolute against this machine's checkout when the volume says driver:
// local, and leaves it as written otherwise; the raw text says what was
// meant, and a relative device resolves like a relative bind: against the
// directory of the project that writes it, onto host_project_directory.
func (l *Project) deviceSource(volume, resolved string) (written, key, local string) {
	written = resolved
	dir := l.Dir
	if n, f := l.raw.topLevelNode("volumes", volume); n != nil {
		if d := scalar(get(get(n, "driver_opts"), "device")); d != "" {
			written, dir = f.subst(d), f.workDir
			if pwdRef.MatchString(d) {
				written, dir = l.fromPWD(written), l.Dir
			}
		}
	}
	if strings.HasPrefix(written, "~") || strings.HasPrefix(written, "/") {
		return written, declare.NormalizeBind(written), ""
	}
	abs := filepath.Join(dir, filepath.FromSlash(written))
	key, ok := l.lexicalKey(dir, written)
	if !ok {
		return written, declare.NormalizeBind(written), ""
	}
	if !strings.HasPrefix(key, "../") && key != ".." {
		local = abs
	}
	return written, key, local
}
