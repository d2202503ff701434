package convert

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/format"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
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

// mount is one volume of one service, classified.
type mount struct {
	service string
	kind    MountKind
	// source is the source as the compose file writes it, interpolated:
	// "./data", "/etc/x", "~/x", a volume name, or "" for anonymous.
	source string
	// bindPath is, for a bind (or a named bind), the source as a
	// declaration key: declare.NormalizeBind of the written source.
	bindPath string
	// local is, for a bind inside the project, its absolute path on this
	// machine (for file evidence only; never written).
	local    string
	volume   string // the named volume's key in the top-level volumes:
	target   string
	readOnly bool
	tmpfs    *manifest.Tmpfs
	why      string // for Unsupported: what cannot be expressed
	options  []string
	// createHostPath is false when the long syntax said create_host_path: false.
	noCreate bool
	pos      manifest.Pos
}

// rawVolume is one entry of a service's volumes: list, as written.
type rawVolume struct {
	target  string
	spec    string // the short syntax, interpolated; "" for long syntax
	source  string // the source as written, interpolated
	pos     manifest.Pos
	options []string // options the manifest cannot carry, from the raw text
}

// rawVolumes returns the volumes of a service as its definitions write
// them, later files overriding earlier ones by target.
func (l *loaded) rawVolumes(service string) map[string]rawVolume {
	out := map[string]rawVolume{}
	subst := l.subst
	for _, def := range l.serviceDefs(service) {
		for _, item := range seqItems(get(def.node, "volumes")) {
			rv := rawVolume{pos: manifest.Pos{File: def.file.name, Line: item.Line}}
			switch item.Kind {
			case yaml.ScalarNode:
				rv.spec = subst(item.Value)
				parsed, err := format.ParseVolume(rv.spec)
				if err != nil {
					continue
				}
				rv.source, rv.target = parsed.Source, path.Clean(parsed.Target)
				rv.options = shortOptions(rv.spec, parsed)
			case yaml.MappingNode:
				rv.source = subst(scalar(get(item, "source")))
				rv.target = path.Clean(subst(scalar(get(item, "target"))))
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
func (l *loaded) serviceDefs(service string) []rawService {
	var out []rawService
	seen := map[*yaml.Node]bool{}
	var add func(d rawService)
	add = func(d rawService) {
		if seen[d.node] {
			return
		}
		seen[d.node] = true
		base, file := "", d.file
		switch ext := get(d.node, "extends"); {
		case ext == nil:
		case ext.Kind == yaml.ScalarNode:
			base = ext.Value
		default:
			base = scalar(get(ext, "service"))
			if f := scalar(get(ext, "file")); f != "" {
				file = l.raw.file(resolveRef(filepath.Dir(d.file.path), l.subst(f)))
			}
		}
		if base != "" && file != nil {
			if n := get(get(file.root, "services"), base); n != nil {
				add(rawService{file: file, node: n})
			}
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

// classify returns the mounts of one service, in the order of its volumes
// and then its tmpfs entries, with diagnostics for what cannot be carried.
func (l *loaded) classify(svc types.ServiceConfig) ([]mount, []rules.Diagnostic) {
	var out []mount
	var diags []rules.Diagnostic
	raws := l.rawVolumes(svc.Name)
	defPos := manifest.Pos{}
	if defs := l.serviceDefs(svc.Name); len(defs) > 0 {
		defPos = defs[len(defs)-1].pos("volumes")
	}
	for _, v := range svc.Volumes {
		m := mount{service: svc.Name, target: path.Clean(v.Target), readOnly: v.ReadOnly, pos: defPos}
		raw, haveRaw := raws[m.target]
		if haveRaw {
			m.pos = raw.pos
			m.options = append(m.options, raw.options...)
		}
		switch v.Type {
		case types.VolumeTypeBind:
			m.kind = BindDirectory
			if !haveRaw {
				m.kind, m.source = Unread, v.Source
				break
			}
			m.source, m.bindPath, m.local = l.bindSource(v.Source, raw, haveRaw)
			if v.Bind != nil {
				if v.Bind.Propagation != "" && !haveRaw {
					m.options = append(m.options, "propagation="+v.Bind.Propagation)
				}
				if v.Bind.SELinux != "" && !haveRaw {
					m.options = append(m.options, v.Bind.SELinux)
				}
				if haveRaw && raw.spec == "" {
					if v.Bind.Propagation != "" {
						m.options = append(m.options, "propagation: "+v.Bind.Propagation)
					}
					if v.Bind.SELinux != "" {
						m.options = append(m.options, "selinux: "+v.Bind.SELinux)
					}
					if v.Bind.Recursive != "" {
						m.options = append(m.options, "recursive: "+v.Bind.Recursive)
					}
					m.noCreate = !bool(v.Bind.CreateHostPath)
				}
			}
		case types.VolumeTypeVolume:
			if v.Source == "" {
				m.kind = Anonymous
			} else {
				m.volume = v.Source
				m.source = v.Source
				l.classifyNamed(&m)
			}
			if v.Volume != nil && haveRaw && raw.spec == "" {
				if v.Volume.NoCopy {
					m.options = append(m.options, "nocopy")
				}
				if v.Volume.Subpath != "" {
					m.options = append(m.options, "subpath: "+v.Volume.Subpath)
				}
			}
		case types.VolumeTypeTmpfs:
			m.kind = Tmpfs
			m.tmpfs = &manifest.Tmpfs{Target: m.target}
			if v.Tmpfs != nil {
				if v.Tmpfs.Size != 0 {
					m.tmpfs.Size = fmt.Sprint(int64(v.Tmpfs.Size))
				}
				if v.Tmpfs.Mode != 0 {
					m.tmpfs.Mode = fmt.Sprintf("%o", v.Tmpfs.Mode)
				}
			}
		default:
			m.kind = Unsupported
			m.source = v.Source
			m.why = "volume type " + v.Type
		}
		if v.Consistency != "" {
			m.options = append(m.options, "consistency: "+v.Consistency)
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
		out = append(out, mount{service: svc.Name, kind: Tmpfs, target: tm.Target, tmpfs: tm, pos: defPos})
	}
	for _, m := range out {
		if m.noCreate {
			diags = append(diags, rules.Diagnostic{
				Rule: "C2M012", Severity: rules.Warning, File: m.pos.File, Line: m.pos.Line,
				Service: m.service, Source: displaySource(m), Target: m.target,
				Message: "bind create_host_path: false wanted a failure when the source is missing; the mesh host creates every declared directory instead",
			})
		}
		for _, o := range m.options {
			diags = append(diags, rules.Diagnostic{
				Rule: "C2M012", Severity: rules.Error, File: m.pos.File, Line: m.pos.Line,
				Service: m.service, Source: displaySource(m), Target: m.target,
				Message: fmt.Sprintf("volume option %q cannot be carried by the manifest", o),
			})
		}
		if m.kind == Unread {
			diags = append(diags, rules.Diagnostic{
				Rule: "C2M013", Severity: rules.Error, File: m.pos.File, Line: m.pos.Line,
				Service: m.service, Target: m.target,
				Message: "the compose file that writes this bind was not found or not read, so whether its source is relative, in a home directory or absolute is unknown; name the file with -f",
			})
		}
		if m.kind == Unsupported {
			diags = append(diags, rules.Diagnostic{
				Rule: "C2M010", Severity: rules.Error, File: m.pos.File, Line: m.pos.Line,
				Service: m.service, Source: displaySource(m), Target: m.target,
				Message: m.why + " cannot be expressed by the mesh",
			})
		}
	}
	return out, diags
}

// classifyNamed sorts a named volume into plain, external, local bind or
// unsupported, from the project's top-level volumes.
func (l *loaded) classifyNamed(m *mount) {
	m.kind = NamedVolume
	cfg, ok := l.project.Volumes[m.volume]
	if !ok {
		return
	}
	if cfg.External {
		m.kind = ExternalNamed
		return
	}
	if cfg.Driver != "" && cfg.Driver != "local" {
		m.kind, m.why = Unsupported, fmt.Sprintf("volume %q uses driver %q", m.volume, cfg.Driver)
		return
	}
	if len(cfg.DriverOpts) == 0 {
		return
	}
	o := cfg.DriverOpts
	isBind := false
	var rest []string // mount options beyond bind, ro and rw
	for _, x := range strings.Split(o["o"], ",") {
		switch x {
		case "bind", "rbind":
			isBind = true
		case "ro":
			// A read-only bind volume is mounted read-only everywhere.
			m.readOnly = true
		case "rw", "":
		default:
			rest = append(rest, x)
		}
	}
	if o["type"] == "none" && isBind && o["device"] != "" && len(o) == 3 {
		m.kind = NamedBind
		m.source = o["device"]
		m.bindPath = declare.NormalizeBind(o["device"])
		if !strings.HasPrefix(m.bindPath, "/") {
			m.local = filepath.Join(l.dir, filepath.FromSlash(m.bindPath))
		}
		for _, x := range rest {
			m.options = append(m.options, "driver_opts o="+x)
		}
		return
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k+"="+o[k])
	}
	sort.Strings(keys)
	m.kind, m.why = Unsupported, fmt.Sprintf("volume %q has driver_opts %s (only a local bind, type=none o=bind device=PATH, can be expressed)", m.volume, strings.Join(keys, " "))
}

// bindSource returns a bind's source as written, as a declaration key, and
// as a local path inside the project ("" when outside). compose-go has
// made a relative source absolute against the folder of the file that
// writes it and expanded "~" with this machine's home; the raw text says
// what was meant.
func (l *loaded) bindSource(resolved string, raw rawVolume, haveRaw bool) (written, key, local string) {
	written = resolved
	if haveRaw && raw.source != "" {
		written = raw.source
	}
	if strings.HasPrefix(written, "~") || strings.HasPrefix(written, "/") {
		return written, declare.NormalizeBind(written), ""
	}
	// A relative source: compose-go resolved it against the folder of the
	// file that writes it (an included or extended file may live in a
	// subfolder), so the key is that path relative to the project.
	r, err := filepath.Rel(l.dir, resolved)
	if err != nil {
		return written, declare.NormalizeBind(written), ""
	}
	key = declare.NormalizeBind("./" + filepath.ToSlash(r))
	if !strings.HasPrefix(key, "../") && key != ".." {
		local = resolved
	}
	return written, key, local
}

// displaySource is the source of m as a person reads it in a report.
func displaySource(m mount) string {
	switch m.kind {
	case Anonymous, Tmpfs:
		return ""
	case NamedBind:
		return m.volume
	}
	return m.source
}
