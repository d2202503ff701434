package convert

import (
	"fmt"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// checkRootSettings refuses a host_project_directory or volume_root of
// the declarations that is no place for a module's data (/, /etc, /usr,
// a home directory, …); the flags are checked by checkFlagPath. A flag
// given replaces the declarations' value, which is then not judged.
func checkRootSettings(opts Options, decl *declare.File) error {
	if decl == nil {
		return nil
	}
	if opts.HostProjectDirectory == "" && decl.HostProjectDirectory != "" {
		if why, ok := rules.Root(decl.HostProjectDirectory); !ok {
			return fmt.Errorf("%s: host_project_directory %s is no place for a module's data (%s)", decl.HostProjectDirectoryPos, decl.HostProjectDirectory, why)
		}
	}
	if opts.VolumeRoot == "" && decl.VolumeRoot != "" {
		if why, ok := rules.VolumeRoot(decl.VolumeRoot); !ok {
			return fmt.Errorf("%s: volume_root %s is no place for modules' data (%s)", decl.VolumeRootPos, decl.VolumeRoot, why)
		}
	}
	return nil
}

// roots returns the module's roots for the manifest's roots: its
// host_project_directory, its VOLUME_ROOT/MODULE and the declarations'
// roots:, in that order, each once, leaving out those below a data root
// (rules.DataRoot), where the module may own paths anyway.
func (c *converter) roots() []manifest.Root {
	var all []manifest.Root
	var hostPos, volPos manifest.Pos
	if c.decl != nil {
		if c.opts.HostProjectDirectory == "" {
			hostPos = c.decl.HostProjectDirectoryPos
		}
		if c.opts.VolumeRoot == "" {
			volPos = c.decl.VolumeRootPos
		}
	}
	if c.hostDir != "" {
		all = append(all, manifest.Root{Path: c.hostDir, Pos: hostPos})
	}
	if c.volumeRoot != "" {
		all = append(all, manifest.Root{Path: joinRoot(c.volumeRoot, c.module), Pos: volPos})
	}
	if c.decl != nil {
		all = append(all, c.decl.Roots...)
	}
	var out []manifest.Root
	seen := map[string]bool{}
	for _, r := range all {
		if seen[r.Path] || rules.DataRoot(r.Path) {
			continue
		}
		seen[r.Path] = true
		out = append(out, r)
	}
	return out
}

func joinRoot(root, module string) string {
	if root == "/" {
		return "/" + module
	}
	return root + "/" + module
}

// rootSetting judges the flag --volume-root (rules.VolumeRoot) or
// --host-project-directory (rules.Root).
func rootSetting(flag, p string) (string, bool) {
	if flag == "--volume-root" {
		return rules.VolumeRoot(p)
	}
	return rules.Root(p)
}
