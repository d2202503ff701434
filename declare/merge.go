package declare

import "github.com/compose2manifest/compose2manifest/manifest"

// Merge returns the declarations of ext (from the compose file's
// x-compose2manifest) overlaid by side (the sidecar file). The sidecar
// wins where both declare a source: its entry replaces ext's whole, in
// ext's place; its other entries follow ext's. The scalars module,
// host_project_directory and volume_root come from side when set there.
// acknowledge and images are united (side's image wins for a service both
// name). Either may be nil; Merge(nil, nil) is nil. The result shares no
// slices with its inputs.
func Merge(ext, side *File) *File {
	switch {
	case ext == nil && side == nil:
		return nil
	case ext == nil:
		return clone(side)
	case side == nil:
		return clone(ext)
	}
	out := clone(ext)
	out.Name = side.Name
	out.Version = side.Version
	if side.Module != "" {
		out.Module, out.ModulePos = side.Module, side.ModulePos
	}
	if side.HostProjectDirectory != "" {
		out.HostProjectDirectory, out.HostProjectDirectoryPos = side.HostProjectDirectory, side.HostProjectDirectoryPos
	}
	// Only the sidecar file gives settings (ParseNode refuses them).
	out.ComposeFiles = append([]Setting(nil), side.ComposeFiles...)
	out.EnvFiles = append([]Setting(nil), side.EnvFiles...)
	out.Profiles = append([]Setting(nil), side.Profiles...)
	if side.VolumeRoot != "" {
		out.VolumeRoot, out.VolumeRootPos = side.VolumeRoot, side.VolumeRootPos
	}
	if side.Layout != "" {
		out.Layout, out.LayoutPos = side.Layout, side.LayoutPos
	}
	out.Binds = overlay(out.Binds, side.Binds, NormalizeBind)
	out.Volumes = overlay(out.Volumes, side.Volumes, func(s string) string { return s })
	out.Anonymous = overlay(out.Anonymous, side.Anonymous, normalizeAnonymous)
	out.Directories = overlay(out.Directories, side.Directories, func(s string) string { return s })
	for _, r := range side.Roots {
		if !out.hasRoot(r.Path) {
			out.Roots = append(out.Roots, r)
		}
	}
	for _, a := range side.Acknowledge {
		if !out.hasAck(a) {
			out.Acknowledge = append(out.Acknowledge, a)
		}
	}
	for _, im := range side.Images {
		replaced := false
		for i := range out.Images {
			if out.Images[i].Service == im.Service {
				out.Images[i] = im
				replaced = true
				break
			}
		}
		if !replaced {
			out.Images = append(out.Images, im)
		}
	}
	for _, cr := range side.Credentials {
		replaced := false
		for i := range out.Credentials {
			if out.Credentials[i].Service == cr.Service && out.Credentials[i].Variable == cr.Variable {
				out.Credentials[i] = cr
				replaced = true
				break
			}
		}
		if !replaced {
			out.Credentials = append(out.Credentials, cr)
		}
	}
	return out
}

func (f *File) hasAck(a Ack) bool {
	for _, b := range f.Acknowledge {
		if b.String() == a.String() {
			return true
		}
	}
	return false
}

func (f *File) hasRoot(p string) bool {
	for _, r := range f.Roots {
		if r.Path == p {
			return true
		}
	}
	return false
}

func overlay(base, top []Entry, norm func(string) string) []Entry {
	for _, e := range top {
		k := norm(e.Key)
		replaced := false
		for i := range base {
			if norm(base[i].Key) == k {
				base[i] = cloneEntry(e)
				replaced = true
				break
			}
		}
		if !replaced {
			base = append(base, cloneEntry(e))
		}
	}
	return base
}

func clone(f *File) *File {
	out := *f
	out.Binds = cloneEntries(f.Binds)
	out.Volumes = cloneEntries(f.Volumes)
	out.Anonymous = cloneEntries(f.Anonymous)
	out.Directories = cloneEntries(f.Directories)
	out.Mounts = cloneEntries(f.Mounts)
	out.Acknowledge = append([]Ack(nil), f.Acknowledge...)
	out.Images = append([]Image(nil), f.Images...)
	out.Credentials = append([]Credential(nil), f.Credentials...)
	out.Roots = append([]manifest.Root(nil), f.Roots...)
	out.ComposeFiles = append([]Setting(nil), f.ComposeFiles...)
	out.EnvFiles = append([]Setting(nil), f.EnvFiles...)
	out.Profiles = append([]Setting(nil), f.Profiles...)
	return &out
}

func cloneEntries(es []Entry) []Entry {
	if es == nil {
		return nil
	}
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = cloneEntry(e)
	}
	return out
}

func cloneEntry(e Entry) Entry {
	if e.Fields != nil {
		m := make(map[string]manifest.Pos, len(e.Fields))
		for k, v := range e.Fields {
			m[k] = v
		}
		e.Fields = m
	}
	return e
}
