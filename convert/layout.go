package convert

import (
	"fmt"
	"path"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
)

// intentHomes are the homes of SPEC section 4's intents under layout fhs:
// the FHS 3.0 places, which systemd's StateDirectory=, CacheDirectory=,
// LogsDirectory=, RuntimeDirectory= and ConfigurationDirectory= also
// use; content is what FHS 3.17 says /srv holds.
var intentHomes = map[manifest.Intent]string{
	manifest.IntentState:   "/var/lib",
	manifest.IntentContent: "/srv",
	manifest.IntentConfig:  "/etc",
	manifest.IntentCache:   "/var/cache",
	manifest.IntentLogs:    "/var/log",
	manifest.IntentRuntime: "/run",
}

// ModuleRoot returns where layout fhs places data of intent i of module,
// or "" for an intent that has no home.
func ModuleRoot(i manifest.Intent, module string) string {
	home, ok := intentHomes[i]
	if !ok {
		return ""
	}
	return path.Join(home, module)
}

// placeByIntent is place under layout fhs, for a declaration without a
// path of its own that is not a host path, and for a source without a
// declaration whose values are produced from evidence (not an absolute or
// ~ bind): HOME/MODULE/NAME, HOME by the intent (the declaration's, else
// the image table row's) and NAME from the source (layoutName). A relative
// bind inside another relative bind of the project (./data/app/uploads in
// ./data) lands inside the outermost one's place, as docker mounts them
// as one tree. The module root must be declared under directories:, and
// no two sources may land on one path.
func (c *converter) placeByIntent(s *placement.Placement) (hostPath, legacy string, problem *placement.Unplaced) {
	first := s.First()
	switch s.Section {
	case declare.SectionBinds:
		legacy = "bind " + s.Key
	case declare.SectionVolumes:
		legacy = "Docker volume " + c.dockerVolumeName(first.Volume)
	default:
		legacy = "anonymous Docker volume of service " + first.AnonymousService()
	}
	root, p, intent, problem := c.fhsTarget(s)
	if holder := c.holdingBind(s); holder != nil {
		hp := ""
		if holder.Entry != nil && holder.Entry.Path != "" {
			hp, root = holder.Entry.Path, ""
		} else {
			var hproblem *placement.Unplaced
			root, hp, _, hproblem = c.fhsTarget(holder)
			if hproblem != nil {
				return "", "", &placement.Unplaced{Why: placement.WhyInsideUnplaced, What: describeSource(s), Holder: holder.Key, HolderWhy: hproblem}
			}
		}
		rel, _ := declare.BindWithin(holder.Key, s.Key)
		p, problem = path.Join(hp, rel), nil
	}
	if problem != nil {
		return "", "", problem
	}
	if c.laidOut == nil {
		c.laidOut = map[string]string{}
	}
	if other, ok := c.laidOut[p]; ok {
		c.needPath(s)
		return "", "", &placement.Unplaced{Why: placement.WhyCollision, What: describeSource(s), At: p, Other: other}
	}
	c.laidOut[p] = describeSource(s)
	if root != "" && !c.rootDeclared(root) {
		if c.rootDeclaredHost(root) {
			c.needPath(s)
			return "", "", &placement.Unplaced{Why: placement.WhyRootHost, What: describeSource(s), At: p, Root: root}
		}
		if c.opts.Strict {
			c.missingRoot(root, intent, p)
			return "", "", &placement.Unplaced{Why: placement.WhyRootUndeclared, What: describeSource(s), At: p, Root: root}
		}
		c.produceRoot(root, intent, p, s)
	}
	return p, legacy, nil
}

// needPath records that layout fhs cannot place s where it would land
// (another source lands there, or its module root is not the module's):
// only a path of its own places it (Missing.NeedsPath).
func (c *converter) needPath(s *placement.Placement) {
	if c.needsPath == nil {
		c.needsPath = map[*placement.Placement]bool{}
	}
	c.needsPath[s] = true
}

// Owner and mode of a module root layout fhs produces: what the host
// gives a parent directory nobody declared (C2M011), root's and
// traversable by all. The root holds nothing but the paths placed in
// it, each declared with its own owner and mode, which decide who
// reads them.
const (
	rootOwner = "0:0"
	rootMode  = "0755"
)

// produceRoot records that layout fhs placed p (source s) in root,
// which no directories: entry declares: the root is produced, at the
// first source placed in it.
func (c *converter) produceRoot(root string, intent manifest.Intent, p string, s *placement.Placement) {
	if holdRoot(&c.producedRoots, root, intent, p) {
		if c.rootPos == nil {
			c.rootPos = map[string]manifest.Pos{}
		}
		c.rootPos[root] = s.First().Pos
	}
}

// holdRoot records in roots that p lies in root, adding root when it is
// not there yet, and reports whether it added it.
func holdRoot(roots *[]MissingRoot, root string, intent manifest.Intent, p string) bool {
	for i := range *roots {
		if (*roots)[i].Path == root {
			(*roots)[i].Holds = append((*roots)[i].Holds, p)
			return false
		}
	}
	*roots = append(*roots, MissingRoot{Path: root, Intent: intent, Holds: []string{p}})
	return true
}

// rootResources are the directories of the module roots produced
// (produceRoot), each saying it was produced and what it holds.
func (c *converter) rootResources() []manifest.Resource {
	var out []manifest.Resource
	for _, r := range c.producedRoots {
		holds := fmt.Sprintf("%d paths", len(r.Holds))
		if len(r.Holds) == 1 {
			holds = r.Holds[0]
		}
		out = append(out, manifest.Resource{Kind: manifest.KindDirectory, Path: r.Path,
			Owner: rootOwner, Mode: rootMode, Intent: r.Intent, Pos: c.rootPos[r.Path],
			Comment: fmt.Sprintf("produced: module root of layout fhs, holding %s (owner %s, mode %s: as the host creates a parent; each path in it has its own)", holds, rootOwner, rootMode)})
	}
	return out
}

// rootDeclaredHost reports whether the declarations' directories: say
// root is kind host: another module, or the host, owns it.
func (c *converter) rootDeclaredHost(root string) bool {
	e := c.rootEntry(root)
	return e != nil && e.Kind == declare.KindHost
}

// fhsTarget returns where layout fhs names s's place by its own intent
// and name: its module root, the path, the intent; or why it cannot.
func (c *converter) fhsTarget(s *placement.Placement) (root, p string, intent manifest.Intent, problem *placement.Unplaced) {
	if s.Entry != nil {
		intent = manifest.Intent(s.Entry.Intent)
	}
	if !intent.Valid() && !c.opts.Strict {
		if row, ok, _ := c.imageRow(s); ok && row.Intent.Valid() {
			intent = row.Intent
		} else if s.Section == declare.SectionBinds && !strings.HasPrefix(s.Key, "/") && !strings.HasPrefix(s.Key, "~") && checkoutConfig(s, c.evidence(s.Key)) {
			// A read-only file of the checkout: config, as checkoutValues
			// produces it once placed.
			intent = manifest.IntentConfig
		}
	}
	if !intent.Valid() {
		return "", "", "", &placement.Unplaced{Why: placement.WhyNoIntent, What: describeSource(s)}
	}
	name := layoutName(s)
	if name == "" || name == "." || name == ".." {
		return "", "", "", &placement.Unplaced{Why: placement.WhyNoName, What: describeSource(s)}
	}
	root = ModuleRoot(intent, c.module)
	return root, path.Join(root, name), intent, nil
}

// missingRoot records that layout fhs placed p in root, which no
// directories: entry declares, for the skeleton.
func (c *converter) missingRoot(root string, intent manifest.Intent, p string) {
	holdRoot(&c.missingRoots, root, intent, p)
}

// holdingBind returns the outermost other bind of the project whose
// source holds s's (./data holds ./data/app/uploads, /srv/pool holds
// /srv/pool/x; relative ones relative ones, absolute ones absolute ones),
// nil when none does: named from its own source, s would be split from
// what docker mounts as one tree.
func (c *converter) holdingBind(s *placement.Placement) *placement.Placement {
	if s.Section != declare.SectionBinds || strings.HasPrefix(s.Key, "~") {
		return nil
	}
	if c.bindKeys == nil {
		// Each bind's key cleaned once, indexed: the holders of a key
		// are among its own prefixes, looked up rather than compared
		// with every other bind (a project of thousands of binds).
		c.bindKeys = map[string]*placement.Placement{}
		for _, o := range c.placements {
			if o.Section != declare.SectionBinds || strings.HasPrefix(o.Key, "~") {
				continue
			}
			if k := path.Clean(o.Key); c.bindKeys[k] == nil {
				c.bindKeys[k] = o
			}
		}
	}
	in := path.Clean(s.Key)
	// The prefixes of in, outermost first: "/" or "." (not for ../),
	// then each folder above in.
	var prefixes []string
	switch {
	case strings.HasPrefix(in, "/"):
		prefixes = append(prefixes, "/")
	case in != ".." && !strings.HasPrefix(in, "../") && in != ".":
		prefixes = append(prefixes, ".")
	}
	for i := 1; i < len(in); i++ {
		if in[i] == '/' {
			prefixes = append(prefixes, in[:i])
		}
	}
	for _, k := range prefixes {
		if o := c.bindKeys[k]; o != nil && o != s && !c.host(o) {
			if _, ok := declare.BindWithinClean(k, in); ok {
				return o
			}
		}
	}
	return nil
}

// rootDeclared reports whether the declarations' directories: own root.
func (c *converter) rootDeclared(root string) bool {
	e := c.rootEntry(root)
	return e != nil && e.Kind != declare.KindHost
}

// rootEntry returns the directories: entry of root, nil for none (a key
// is given once: the declarations refuse a second).
func (c *converter) rootEntry(root string) *declare.Entry {
	if c.decl == nil {
		return nil
	}
	for i := range c.decl.Directories {
		if c.decl.Directories[i].Key == root {
			return &c.decl.Directories[i]
		}
	}
	return nil
}

// layoutName is the name a source gets under layout fhs, one path
// element, the same for the same source in every conversion: a named
// volume's key; SERVICE-TARGET for an anonymous volume (targetName); a
// bind's path with its leading "./", "~/" or "/" dropped and slashes
// turned into dashes ("./data/spool" -> "data-spool").
func layoutName(s *placement.Placement) string {
	first := s.First()
	switch s.Section {
	case declare.SectionVolumes:
		if strings.Contains(first.Volume, "/") {
			return ""
		}
		return first.Volume
	case declare.SectionAnonymous:
		return first.AnonymousService() + "-" + targetName(first.Target)
	}
	k := strings.TrimSuffix(s.Key, "/")
	for _, prefix := range []string{"./", "~/", "~", "/"} {
		if strings.HasPrefix(k, prefix) {
			k = strings.TrimPrefix(k, prefix)
			break
		}
	}
	return strings.ReplaceAll(k, "/", "-")
}

// describeSource names s as messages do.
func describeSource(s *placement.Placement) string {
	first := s.First()
	switch s.Section {
	case declare.SectionVolumes:
		return fmt.Sprintf("named volume %q", first.Volume)
	case declare.SectionAnonymous:
		return fmt.Sprintf("anonymous volume %s of service %q", first.Target, first.Service)
	}
	return "bind " + first.Source
}
