package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Within reports whether path lies in dir or is dir; both are cleaned
// and compared as they are (resolve symbolic links first).
func Within(dir, path string) bool {
	r, err := filepath.Rel(dir, path)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// CheckContained returns an error unless path, after symbolic links,
// lies inside one of roots (themselves taken after symbolic links). A
// file a project refers to (its .env, an env_file, an include) is read
// only inside the project: env_file: /proc/self/environ would copy the
// converting machine's environment into a manifest. A path that does not
// exist is not checked here.
func CheckContained(what, path string, roots ...string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil // missing: whoever reads it reports that
	}
	for _, r := range roots {
		if rr, err := filepath.EvalSymlinks(r); err == nil && Within(rr, real) {
			return nil
		}
	}
	// Name where a link inside the project points; a path outside is
	// named as written (what /proc/self resolves to changes every run).
	shown := path
	for _, r := range roots {
		if real != path && Within(r, path) {
			shown = path + " (" + real + ")"
			break
		}
	}
	return fmt.Errorf("%s %s is outside the project directory; a file the project refers to is read only inside it (name another directory with --allow-dir)", what, shown)
}

// checkReference returns an error unless a file the project refers to is
// a regular file of at most MaxInputSize bytes inside the project's
// roots; missing files are left to compose-go.
func (ix *rawIndex) checkReference(what, path string) error {
	if !exists(path) {
		return nil
	}
	if err := CheckInputFile(what, path); err != nil {
		return err
	}
	return CheckContained(what, path, ix.roots...)
}

// checkServiceFiles checks every env_file and label_file the services of
// f refer to (see checkReference), and returns the first problem as
// "FILE:LINE: service S: …", or "".
func (ix *rawIndex) checkServiceFiles(f *rawFile) string {
	base := f.workDir
	if f.extended {
		base = filepath.Dir(f.path)
	}
	for _, p := range pairs(get(f.root, "services")) {
		svc := resolve(p[1])
		for _, key := range []string{"env_file", "label_file"} {
			for _, ref := range fileRefs(get(svc, key)) {
				path := resolveRef(base, f.subst(ref.Value))
				if err := ix.checkReference(strings.ReplaceAll(key, "_", " "), path); err != nil {
					return fmt.Sprintf("%s:%d: service %q: %v", f.name, ref.Line, p[0].Value, err)
				}
			}
		}
	}
	return ""
}

// fileRefs returns the scalars naming files in an env_file or label_file
// value: a string, a list of strings, or a list of {path: …} mappings.
func fileRefs(n *yaml.Node) []*yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		return []*yaml.Node{n}
	}
	var out []*yaml.Node
	for _, item := range seqItems(n) {
		switch {
		case item == nil:
		case item.Kind == yaml.ScalarNode:
			out = append(out, item)
		default:
			if p := get(item, "path"); p != nil && p.Kind == yaml.ScalarNode {
				out = append(out, p)
			}
		}
	}
	return out
}

// exists reports whether something is at p (a link counts, even broken).
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
