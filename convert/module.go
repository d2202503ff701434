package convert

import (
	"bytes"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/utils"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
)

// QuickModule returns the module name the project whose compose files
// are found by default in dir converts (or is refused) to, when that can
// be told without loading the compose files, and ok; ok is false when it
// cannot, and only Convert tells. It decides as Convert does: module: in
// the declarations file, else the project's name, which is the folder's
// name normalised as compose normalises it, unless a compose file may
// name it (a top-level name: or x-compose2manifest:, or a document
// written in a way the quick look cannot read: flow style, merge keys,
// several documents) or the environment may (COMPOSE_PROJECT_NAME,
// COMPOSE_FILE or COMPOSE_ENV_FILES in opts.Environ, a COMPOSE_ variable
// in .env but a literal COMPOSE_PROJECT_NAME, which names it, and
// COMPOSE_PROFILES, env files named by opts or the declarations). A
// file that cannot be read, or declarations that may name the module or
// the files and do not parse, also give ok false; declarations that do
// not name them are not parsed (converting reports their errors). check --against matches manifests to projects with it,
// converting only the projects it cannot name and those manifests name.
func QuickModule(dir string, opts Options) (name string, ok bool) {
	env := utils.GetAsEqualsMap(opts.Environ)
	for _, k := range []string{"COMPOSE_PROJECT_NAME", "COMPOSE_FILE", "COMPOSE_ENV_FILES"} {
		if _, set := env[k]; set {
			return "", false
		}
	}
	if opts.ProjectName != "" || len(opts.EnvFiles) > 0 || len(opts.ConfigFiles) > 0 || opts.DeclarationsFile != "" || opts.Declarations != nil {
		return "", false
	}
	files := project.DefaultFiles(dir)
	in, err := sidecar(dir, Options{WorkingDirectory: dir, AllowDirs: opts.AllowDirs})
	if err != nil {
		return "", false
	}
	if in != nil && mayName(in.data) {
		f, err := declare.Parse(DeclarationsFile, in.data)
		switch {
		case err != nil || len(f.EnvFiles) > 0:
			return "", false
		case f.Module != "":
			return f.Module, manifest.ValidModule(f.Module)
		case len(f.ComposeFiles) > 0:
			files = nil
			for _, s := range f.ComposeFiles {
				files = append(files, filepath.Join(dir, filepath.FromSlash(s.Value)))
			}
		}
	}
	if len(files) == 0 {
		return "", false
	}
	fromEnv, ok := project.DotEnvName(dir)
	if !ok {
		return "", false
	}
	named, ok := project.LiteralName(files)
	if !ok {
		return "", false
	}
	switch {
	case fromEnv != "" && project.NormalizeName(fromEnv) != fromEnv:
		// compose-go refuses a COMPOSE_PROJECT_NAME it would have to
		// change: the project does not load, and has no name.
		return "", false
	case fromEnv != "":
		named = fromEnv // COMPOSE_PROJECT_NAME wins over name:
	case named == "":
		named = filepath.Base(dir)
	}
	name = project.NormalizeName(named)
	return name, name != "" && manifest.ValidModule(name)
}

// mayName reports whether a declarations file may give module:,
// compose_files: or env_files:: a top-level line starting so, or one not
// in plain block style.
func mayName(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '\r' {
			continue
		}
		c := line[0]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
			return true
		}
		for _, key := range []string{"module", "compose_files", "env_files", "x-", "<<"} {
			if bytes.HasPrefix(line, []byte(key)) {
				return true
			}
		}
	}
	return false
}
