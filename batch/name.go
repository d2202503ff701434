package batch

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"go.yaml.in/yaml/v3"
)

// failedModule returns the module name of a project that failed to load
// or convert, when it can still be told for sure from what its folder
// says explicitly; "" when it cannot. In the order convert decides it:
// module: in compose2manifest.yaml, else module: under the compose
// files' x-compose2manifest, else the compose project name convert got
// (res.ProjectName, when compose loaded), else a literal name: in the
// compose files, unless COMPOSE_PROJECT_NAME (in environ or .env) would
// override it. A file that cannot be parsed on the way makes the name
// unknown, and so does a project named after its folder by default:
// that is the folder's base name, which the orphan check treats apart.
func failedModule(p Project, res *convert.Result, environ []string) string {
	var decl struct {
		Module string `yaml:"module"`
	}
	switch data, err := os.ReadFile(filepath.Join(p.Dir, convert.DeclarationsFile)); {
	case err == nil:
		if yaml.Unmarshal(data, &decl) != nil {
			return ""
		}
		if decl.Module != "" {
			return decl.Module
		}
	case !os.IsNotExist(err):
		return ""
	}
	var name, extModule string
	for _, f := range composeFiles(p.Dir) {
		data, err := os.ReadFile(f)
		if err != nil {
			return ""
		}
		var top struct {
			Name string `yaml:"name"`
			Ext  struct {
				Module string `yaml:"module"`
			} `yaml:"x-compose2manifest"`
		}
		if yaml.Unmarshal(data, &top) != nil {
			return ""
		}
		if top.Name != "" {
			name = top.Name
		}
		if top.Ext.Module != "" {
			extModule = top.Ext.Module
		}
	}
	switch {
	case extModule != "":
		if strings.Contains(extModule, "$") {
			return ""
		}
		return extModule
	case res != nil && res.ProjectName != "":
		return res.ProjectName
	case name == "" || strings.Contains(name, "$") || setsProjectName(environ, filepath.Join(p.Dir, ".env")):
		return ""
	}
	return name
}

// composeFiles returns the compose files docker compose reads in dir: the
// first of ComposeFileNames there, and its override file if any.
func composeFiles(dir string) []string {
	for _, n := range ComposeFileNames() {
		p := filepath.Join(dir, n)
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		ext := filepath.Ext(n)
		out := []string{p}
		if o := filepath.Join(dir, strings.TrimSuffix(n, ext)+".override"+ext); fileSize(o) > 0 {
			out = append(out, o)
		}
		return out
	}
	return nil
}

// setsProjectName reports whether environ or the env file sets
// COMPOSE_PROJECT_NAME, which overrides the compose file's name:.
func setsProjectName(environ []string, envFile string) bool {
	const key = "COMPOSE_PROJECT_NAME"
	if hasKey(environ, key) {
		return true
	}
	f, err := os.Open(envFile)
	if err != nil {
		return false
	}
	defer f.Close()
	var lines []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "export ")
		lines = append(lines, strings.TrimSpace(line))
	}
	return hasKey(lines, key)
}

func hasKey(kvs []string, key string) bool {
	for _, kv := range kvs {
		if k, _, _ := strings.Cut(kv, "="); strings.TrimSpace(k) == key {
			return true
		}
	}
	return false
}
