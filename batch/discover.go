// Package batch converts every compose project under a folder: it finds
// them (Discover), converts them concurrently with a bounded number of
// workers (Each), runs the rules that span modules over the whole batch,
// and writes the manifests of the modules that pass, in a stable order
// whatever the scheduling (Run).
//
// Results are streamed: each converted manifest goes to a staging file as
// soon as it is made, and only what the report needs stays in memory, so
// a batch of thousands of projects runs in little memory.
package batch

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/project"
)

// skippedDirs are folder names never searched for projects.
func skippedDirs() []string { return []string{".git", "node_modules"} }

// Project is one compose project found under a root folder.
type Project struct {
	// Dir is the project's folder, absolute and clean.
	Dir string
	// Rel is Dir relative to the root, slash-separated; "." for the root
	// itself.
	Rel string
	// Size is the total size in bytes of the compose files docker compose
	// reads in the folder, override file included (project.DefaultFiles):
	// Each starts the biggest projects first.
	Size int64
	// Err is why the folder could not be read; the project is then
	// reported as failed, and the rest of the batch goes on.
	Err error
	// File, when not empty, is the one compose file (absolute) the
	// project is converted from, with -f, in its folder Dir: a file no
	// other project reads, made a project of its own by
	// Config.IncludeFiles. Empty: the folder's default files.
	File string
}

// CheckExcludes reports the first malformed pattern of excludes.
func CheckExcludes(excludes []string) error { return checkPatterns("--exclude", excludes) }

// CheckIncludeFiles reports the first malformed pattern of
// Config.IncludeFiles.
func CheckIncludeFiles(globs []string) error { return checkPatterns("--include-file", globs) }

func checkPatterns(flag string, patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(cleanPattern(p), ""); err != nil {
			return fmt.Errorf("%s %q: %w", flag, p, err)
		}
	}
	return nil
}

func cleanPattern(p string) string {
	p = filepath.ToSlash(p)
	if p == "" {
		return p
	}
	return path.Clean(p)
}

// Excluded reports whether the folder at rel (slash-separated, relative to
// the root) is excluded by one of the patterns. A pattern is a path.Match
// glob matched against the whole relative path and against the folder's
// base name: "vendor" and "tmp*" exclude such folders at any depth,
// "apps/legacy" and "apps/*" only there. A leading "./" and a trailing "/"
// are ignored.
func Excluded(rel string, excludes []string) bool {
	base := path.Base(rel)
	for _, p := range excludes {
		p = cleanPattern(p)
		if ok, _ := path.Match(p, rel); ok {
			return true
		}
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

// Discover returns every compose project under root: each folder holding
// one of compose-go's default compose file names (root included), in depth-first order with the
// entries of each folder sorted by name, so a parent comes before its
// children. It does not descend into .git, node_modules, folders matching
// excludes (see Excluded), or symbolic links to folders. A folder that
// cannot be read is returned as a Project with Err set.
func Discover(root string, excludes []string) ([]Project, error) {
	t, err := discover(root, excludes, nil)
	if err != nil {
		return nil, err
	}
	return t.projects, nil
}

// tree is what discovery found under a root: the projects, and what a
// batch must account for besides them.
type tree struct {
	projects []Project
	// order gives each folder searched, by its path relative to the root,
	// its place in discovery order.
	order map[string]int
	// yamlFiles are the files named *.yml or *.yaml in the folders
	// searched (absolute), in discovery order: those no project reads and
	// that look like compose files are reported, or converted alone.
	yamlFiles []string
	// links are the symbolic links to folders met (absolute), never
	// followed, in discovery order.
	links []string
	// unsearched are the files with a default compose file name found
	// below a node_modules folder (absolute), which is never searched for
	// projects: listed as not converted, never skipped silently.
	unsearched []string
}

// maxUnsearched bounds the folders composeNamesBelow reads below one
// node_modules folder: it reads names only, but such a tree can be vast.
const maxUnsearched = 20000

// composeNamesBelow returns the files below dir, folders in name order,
// whose name is a default compose file name, reading at most max folders
// and following no link.
func composeNamesBelow(dir string, max int) []string {
	var out []string
	queue := []string{dir}
	for n := 0; len(queue) > 0 && n < max; n++ {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			switch {
			case e.IsDir():
				queue = append(queue, p)
			case e.Type().IsRegular() && project.IsDefaultFileName(e.Name()):
				out = append(out, p)
			}
		}
	}
	return out
}

// Found is what Discover finds under a root, with what a batch would list
// as not converted once it knows which files its projects read.
type Found struct {
	// Projects are Discover's.
	Projects []Project
	root     string // as given
	tree     *tree
}

// DiscoverAll is Discover, keeping what NotConverted needs.
func DiscoverAll(root string, excludes []string) (*Found, error) {
	t, err := discover(root, excludes, nil)
	if err != nil {
		return nil, err
	}
	return &Found{Projects: t.projects, root: root, tree: t}, nil
}

// NotConverted returns what convert --batch lists as not converted under
// the root, given read, the absolute paths of the files its projects
// read (beside their default files): compose files no project reads,
// those below node_modules, and symbolic links to folders. Their paths
// start with shown, the root as messages name it. read may be added to.
// Only what lies in shard (by its path relative to the root) is returned.
func (f *Found) NotConverted(shown string, read map[string]bool, shard Shard) []Skipped {
	rootAbs, err := filepath.Abs(f.root)
	if err != nil {
		return nil
	}
	_, skipped := unused(shown, rootAbs, f.tree, read, nil, shard)
	return skipped
}

// discover is Discover that also skips the absolute folders in skip, such
// as the output folder, and returns the whole tree.
func discover(root string, excludes []string, skip map[string]bool) (*tree, error) {
	if err := CheckExcludes(excludes); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", root)
	}
	t := &tree{order: map[string]int{}}
	var walk func(dir, rel string)
	walk = func(dir, rel string) {
		t.order[rel] = len(t.order)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.projects = append(t.projects, Project{Dir: dir, Rel: rel, Err: err})
			return
		}
		var subdirs []string
		found := false
		var unreadable error // a default compose file name that is no regular file
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(dir, name)
			switch {
			case project.IsDefaultFileName(name) && !isFile(p, e):
				// A FIFO, a device, a folder, a dangling link: docker
				// compose cannot read it, and nor can convert; the
				// folder is a project that fails, never a silent skip.
				if unreadable == nil {
					unreadable = fmt.Errorf("%s is not a regular file (%s)", name, fileKind(p, e))
				}
				if e.IsDir() {
					subdirs = append(subdirs, name)
				}
			case e.IsDir():
				subdirs = append(subdirs, name)
			case e.Type()&os.ModeSymlink != 0 && isDir(p):
				if childRel := path.Join(rel, name); !isSkipped(name) && !skip[p] && !Excluded(childRel, excludes) {
					t.links = append(t.links, p)
				}
			case !isFile(p, e):
			case project.IsDefaultFileName(name):
				found = true
				t.yamlFiles = append(t.yamlFiles, p)
			case name == convert.DeclarationsFile && namesComposeFiles(p):
				// A folder whose compose files have other names is a
				// project when its declarations name them.
				found = true
			case project.YAMLName(name):
				t.yamlFiles = append(t.yamlFiles, p)
			}
		}
		if unreadable != nil && !found {
			t.projects = append(t.projects, Project{Dir: dir, Rel: rel, Err: unreadable})
		}
		if found {
			var size int64
			for _, f := range project.DefaultFiles(dir) {
				size += fileSize(f)
			}
			t.projects = append(t.projects, Project{Dir: dir, Rel: rel, Size: size})
		}
		for _, name := range subdirs {
			child := filepath.Join(dir, name)
			childRel := path.Join(rel, name)
			if skip[child] || Excluded(childRel, excludes) {
				continue
			}
			if name == "node_modules" {
				t.unsearched = append(t.unsearched, composeNamesBelow(child, maxUnsearched)...)
			}
			if isSkipped(name) {
				continue
			}
			walk(child, childRel)
		}
	}
	walk(abs, ".")
	return t, nil
}

// namesComposeFiles reports whether the declarations file p (at most 1
// MiB, read only then) has a compose_files: key: its folder is a project
// without a default compose file name.
func namesComposeFiles(p string) bool {
	data, err := fsread.File("declarations", p, 1<<20)
	if err != nil {
		return false
	}
	key := []byte(declare.KeyComposeFiles + ":")
	return bytes.HasPrefix(data, key) || bytes.Contains(data, append([]byte("\n"), key...))
}

// fileKind says what p, which is no regular file, is.
func fileKind(p string, e os.DirEntry) string {
	fi, err := os.Stat(p)
	switch {
	case err != nil && e.Type()&os.ModeSymlink != 0:
		return "a symbolic link to nothing"
	case err != nil:
		return err.Error()
	case fi.IsDir():
		return "a folder"
	case fi.Mode()&os.ModeNamedPipe != 0:
		return "a named pipe"
	case fi.Mode()&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func isSkipped(name string) bool {
	for _, n := range skippedDirs() {
		if name == n {
			return true
		}
	}
	return false
}

// isFile reports whether the entry is a regular file, following a
// symbolic link.
func isFile(p string, e os.DirEntry) bool {
	if e.Type().IsRegular() {
		return true
	}
	if e.Type()&os.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// displayPath joins the root as the user wrote it with rel, slash-separated.
func displayPath(root, rel string) string {
	return path.Join(filepath.ToSlash(root), rel)
}

// within reports whether file lies at or below dir (both slash paths).
func within(file, dir string) bool {
	return dir == "." || file == dir || strings.HasPrefix(file, dir+"/")
}
