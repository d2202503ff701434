package plan

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/compose2manifest/compose2manifest/internal/shell"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Directory is a declared directory above a move's target, created with
// its declared owner and mode before the data is copied in.
type Directory struct {
	Module string `json:"module"`
	Path   string `json:"path"`
	Owner  string `json:"owner"`
	Mode   string `json:"mode"`
}

// Unlocated is a declared path whose data lives somewhere the plan
// cannot name: an anonymous volume without --anonymous, a bind in the
// legacy host's home. The script refuses to copy it.
type Unlocated struct {
	Module string `json:"module"`
	To     string `json:"to"`
	Legacy string `json:"legacy"`
	// Find says how to find where the data is.
	Find string `json:"find"`
}

// Options say where the legacy host keeps what the manifest's origins
// name.
type Options struct {
	// Project is the compose project name the legacy containers carry.
	Project string
	// LegacyProjectDirectory is the project's checkout on the legacy
	// host: relocated relative binds are under it.
	LegacyProjectDirectory string
	// DockerRoot is the legacy host's Docker data root (/var/lib/docker).
	DockerRoot string
	// Volumes renames Docker volumes: the names the manifest's origins
	// give (made from this checkout's folder name) to those the legacy
	// host's project has (made from its folder's), for a project named
	// after its folder whose legacy checkout is in a folder of another
	// name. Nil for none.
	Volumes map[string]string
	// Anonymous maps "SERVICE:TARGET" to the anonymous volume's Docker ID.
	Anonymous map[string]string
	// Located maps a bind source ("~/cfg", "./data") to where the legacy
	// host's survey found its data ("/home/bob/cfg", "/opt/app/data"). Nil
	// for none: a relative bind is then under LegacyProjectDirectory, and a
	// ~ bind copied by hand.
	Located map[string]string
	// Previous are the manifests the target host applies today, when the
	// declarations changed since: a state or content path that moved
	// (rules.MovedPaths) has its data at the path declared before, and
	// the plan moves it from there, whatever the origin says; a path they
	// declare already has its data in place and is not moved.
	Previous []*manifest.Module
}

// DefaultDockerRoot is Docker's data root unless configured otherwise.
const DefaultDockerRoot = "/var/lib/docker"

// ParseAnonymous reads --anonymous SERVICE:TARGET=VOLUME_ID.
func ParseAnonymous(s string) (key, id string, err error) {
	key, id, ok := strings.Cut(s, "=")
	svc, target, ok2 := strings.Cut(key, ":")
	if !ok || !ok2 || svc == "" || !manifest.ValidPath(target) || id == "" || strings.ContainsAny(id, "/\x00") || id == "." || id == ".." {
		return "", "", fmt.Errorf("--anonymous %q: want SERVICE:TARGET=VOLUME_ID (an absolute target, a volume ID without /)", s)
	}
	return svc + ":" + target, id, nil
}

// Of is the plan of the modules: every declared directory or file whose
// origin says its data lives elsewhere today, in the manifests' order
// (parent first), with the declared directories above each target.
func Of(mods []*manifest.Module, o Options) (*Plan, error) {
	if o.DockerRoot == "" {
		o.DockerRoot = DefaultDockerRoot
	}
	if !manifest.ValidPath(o.DockerRoot) || !manifest.ValidPath(o.LegacyProjectDirectory) {
		return nil, fmt.Errorf("the docker root and the legacy project directory must be absolute, clean paths")
	}
	p := &Plan{Version: Version, Project: o.Project, DockerRoot: o.DockerRoot, Moves: []Move{}}
	used := map[string]bool{}
	for _, m := range mods {
		seen := map[string]bool{}
		before := map[string]string{}
		already := map[string]bool{} // declared before too: its data is there
		for _, old := range o.Previous {
			if old != nil && old.Module == m.Module {
				for _, mv := range rules.MovedPaths(old, m) {
					before[mv.To] = mv.From
				}
				for _, r := range old.Declared() {
					already[r.Path] = true
				}
				break
			}
		}
		for _, r := range m.Resources {
			if r.Kind != manifest.KindDirectory && r.Kind != manifest.KindFile {
				continue
			}
			var from, find, legacy string
			switch {
			case before[r.Path] != "":
				// Moved here: its data is where the old manifest
				// declares it, even when that one declared this path too
				// (a state path moved to its parent).
				from = before[r.Path]
				legacy = "declared path " + from + " of the previous manifest"
			case already[r.Path]:
				continue
			case r.Origin != nil && r.Origin.Legacy != "":
				legacy = o.renamed(r.Origin.Legacy)
				if name, ok := strings.CutPrefix(legacy, "Docker volume "); ok && !shell.ValidVolumeName(name) {
					return nil, fmt.Errorf("%s: the origin of %s names Docker volume %q, which is no name docker gives a volume ([a-zA-Z0-9][a-zA-Z0-9_.-]+): a path built from it could lead out of the Docker root", m.Module, r.Path, name)
				}
				from, find = o.legacyPath(m, r, used)
			default:
				continue
			}
			if from == r.Path {
				continue
			}
			for _, d := range m.Resources {
				if d.Kind == manifest.KindDirectory && manifest.IsAncestor(d.Path, r.Path) && !seen[d.Path] {
					seen[d.Path] = true
					p.Directories = append(p.Directories, Directory{Module: m.Module, Path: d.Path, Owner: d.Owner, Mode: d.Mode})
				}
			}
			if from == "" {
				if a := o.anonymous(m, r); a != nil {
					p.Moves = append(p.Moves, Move{Module: m.Module, To: r.Path, Kind: r.Kind,
						Owner: r.Owner, Mode: r.Mode, Intent: r.Intent, Legacy: r.Origin.Legacy, Anonymous: a})
					continue
				}
				p.Unlocated = append(p.Unlocated, Unlocated{Module: m.Module, To: r.Path, Legacy: legacy, Find: find})
				continue
			}
			if manifest.IsAncestor(from, r.Path) || manifest.IsAncestor(r.Path, from) {
				return nil, fmt.Errorf("%s would be copied into itself: %s and %s are one inside the other; declare another path", legacy, from, r.Path)
			}
			p.Moves = append(p.Moves, Move{Module: m.Module, From: from, To: r.Path, Kind: r.Kind,
				Owner: r.Owner, Mode: r.Mode, Intent: r.Intent, Legacy: legacy})
		}
	}
	p.Moves = uncovered(p.Moves)
	for i := range p.Moves {
		p.Moves[i].Within = within(mods, p.Moves[i])
		p.Moves[i].Root = o.sourceRoot(p.Moves, p.Moves[i])
	}
	// A declared directory at or inside a move's target is the copy's
	// (a Within path): made before it, it would make the target non-empty
	// and the copy refuse itself.
	p.Directories = slices.DeleteFunc(p.Directories, func(d Directory) bool {
		return slices.ContainsFunc(p.Moves, func(m Move) bool {
			return m.Kind == manifest.KindDirectory && m.Module == d.Module && (m.To == d.Path || manifest.IsAncestor(m.To, d.Path))
		})
	})
	// Parents first across modules too.
	sort.SliceStable(p.Directories, func(i, j int) bool { return p.Directories[i].Path < p.Directories[j].Path })
	p.Parents = undeclaredParents(mods, p)
	var unused []string
	for k := range o.Anonymous {
		if !used[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		sort.Strings(unused)
		return nil, fmt.Errorf("--anonymous %s: no anonymous volume of the project is mounted there", strings.Join(unused, ", "))
	}
	return p, nil
}

// sourceRoot is the folder below which the script refuses a link on the
// way to mv.From (Move.Root): the legacy host's own folder that holds it
// (the legacy project directory, the Docker root's volumes folder), or
// for another source the outermost source of the plan that holds it, the
// part of the tree a container could have written.
func (o Options) sourceRoot(moves []Move, mv Move) string {
	if mv.Anonymous != nil {
		return ""
	}
	if !strings.HasPrefix(mv.Legacy, "declared path ") && !absoluteBind(mv.Legacy) {
		for _, root := range []string{o.LegacyProjectDirectory, path.Join(o.DockerRoot, "volumes")} {
			if manifest.IsAncestor(root, mv.From) {
				return root
			}
		}
	}
	root := mv.From
	for _, m := range moves {
		if m.Anonymous == nil && manifest.IsAncestor(m.From, root) {
			root = m.From
		}
	}
	return root
}

// absoluteBind reports whether legacy names a bind of an absolute path.
func absoluteBind(legacy string) bool {
	src, ok := strings.CutPrefix(legacy, "bind ")
	return ok && path.IsAbs(src)
}

// renamed returns a legacy origin with its Docker volume renamed as
// o.Volumes says ("Docker volume mail_dbdata" to "Docker volume
// mailserver_dbdata").
func (o Options) renamed(legacy string) string {
	if name, ok := strings.CutPrefix(legacy, "Docker volume "); ok {
		if to, ok := o.Volumes[name]; ok {
			return "Docker volume " + to
		}
	}
	return legacy
}

// legacyPath is where r's data lives on the legacy host, or "" and how
// to find it.
func (o Options) legacyPath(m *manifest.Module, r manifest.Resource, used map[string]bool) (from, find string) {
	legacy := o.renamed(r.Origin.Legacy)
	switch {
	case strings.HasPrefix(legacy, "Docker volume "):
		return path.Join(o.DockerRoot, "volumes", strings.TrimPrefix(legacy, "Docker volume "), "_data"), ""
	case strings.HasPrefix(legacy, "bind "):
		src := strings.TrimPrefix(legacy, "bind ")
		switch {
		case !path.IsAbs(src) && o.Located[src] != "":
			return o.Located[src], ""
		case strings.HasPrefix(src, "~"):
			return "", "the bind source is relative to the legacy host's home (~): copy it by hand, or give plan the legacy host's survey (--survey), which finds it"
		case path.IsAbs(src):
			return path.Clean(src), ""
		case r.Origin.Resolved != "":
			// A link in the checkout: docker mounts where it leads,
			// and the script copies no link.
			src = r.Origin.Resolved
		}
		return path.Join(o.LegacyProjectDirectory, src), ""
	case strings.HasPrefix(legacy, "anonymous Docker volume of service "):
		service := strings.TrimPrefix(legacy, "anonymous Docker volume of service ")
		target := mountTarget(m, service, r.Path)
		key := service + ":" + target
		if id, ok := o.Anonymous[key]; ok && target != "" {
			used[key] = true
			return path.Join(o.DockerRoot, "volumes", id, "_data"), ""
		}
		return "", fmt.Sprintf("find it with docker container inspect (the Mounts entry with Destination %s of the %s container of project %s), then give --anonymous %s=VOLUME_ID", target, service, o.Project, key)
	}
	return "", "compose2manifest does not know where " + legacy + " is"
}

// uncovered returns moves without those another move carries: a move
// whose source and target lie at the same place inside another move's
// source and target (./data/app/uploads inside ./data, laid out inside
// it): that copy brings its data, and copying it again into the copied
// tree would find the target non-empty and refuse.
func uncovered(moves []Move) []Move {
	out := []Move{} // "moves": [] in the JSON, never null
	for _, m := range moves {
		covered := slices.ContainsFunc(moves, func(o Move) bool {
			if o.Anonymous != nil || m.Anonymous != nil || !manifest.IsAncestor(o.To, m.To) || !manifest.IsAncestor(o.From, m.From) {
				return false
			}
			return strings.TrimPrefix(m.To, o.To) == strings.TrimPrefix(m.From, o.From)
		})
		if !covered {
			out = append(out, m)
		}
	}
	return out
}

// within returns the declared directories and files of mv's module
// strictly inside its target, parent first: a move inside it that the
// copy carries (uncovered), or a directory declared there. Without them
// the copy would leave each with its source's owner and mode.
func within(mods []*manifest.Module, mv Move) []Inside {
	if mv.Kind != manifest.KindDirectory {
		return nil
	}
	var out []Inside
	for _, m := range mods {
		if m.Module != mv.Module {
			continue
		}
		for _, r := range m.Declared() {
			if (r.Kind == manifest.KindDirectory || r.Kind == manifest.KindFile) && manifest.IsAncestor(mv.To, r.Path) && r.Path != mv.To {
				out = append(out, Inside{Path: r.Path, Kind: r.Kind, Owner: r.Owner, Mode: r.Mode})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return manifest.ComparePaths(out[i].Path, out[j].Path) < 0 })
	return out
}

// undeclaredParents returns the directories above p's targets and
// directories that no module of mods declares, sorted (parents first),
// "/" left out.
func undeclaredParents(mods []*manifest.Module, p *Plan) []string {
	declared := map[string]bool{}
	for _, m := range mods {
		for _, r := range m.Declared() {
			declared[r.Path] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	add := func(q string) {
		for d := path.Dir(q); d != "/" && d != "."; d = path.Dir(d) {
			if declared[d] || seen[d] {
				continue
			}
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, d := range p.Directories {
		add(d.Path)
	}
	for _, m := range p.Moves {
		add(m.To)
	}
	sort.Strings(out)
	return out
}

// anonymous is the anonymous volume r's data lives in, for the script to
// find with docker container inspect when it runs; nil when r is no
// anonymous volume's, or the plan knows no project name or mount target
// to find it by.
func (o Options) anonymous(m *manifest.Module, r manifest.Resource) *Anonymous {
	service, ok := strings.CutPrefix(r.Origin.Legacy, "anonymous Docker volume of service ")
	if !ok || o.Project == "" || r.Kind != manifest.KindDirectory {
		return nil
	}
	target := mountTarget(m, service, r.Path)
	if target == "" {
		return nil
	}
	return &Anonymous{Service: service, Target: target}
}

// mountTarget is where service mounts p in its container.
func mountTarget(m *manifest.Module, service, p string) string {
	for _, r := range m.Resources {
		if r.Kind == manifest.KindContainer && r.Container != nil && r.Container.Name == service {
			for _, v := range r.Container.Volumes {
				if v.Source == p {
					return v.Target
				}
			}
		}
	}
	return ""
}
