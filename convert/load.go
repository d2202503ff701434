package convert

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/errdefs"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/rules"
	"go.yaml.in/yaml/v3"
)

// loaded is a compose project as compose-go loads it, with the raw files
// beside it.
type loaded struct {
	project  *types.Project
	raw      *rawIndex
	dir      string            // absolute project directory on this machine
	env      map[string]string // the environment interpolation used
	files    []string          // absolute paths of the -f files, in order
	envFiles []string          // absolute paths of the env files read
}

// rel returns p relative to the project directory, slash-separated, or p
// itself when it lies outside.
func (l *loaded) rel(p string) string { return relTo(l.dir, p) }

// relTo returns p relative to dir, slash-separated, with ".." for a file
// outside dir (a manifest names its sources relative to the project, never
// by this machine's absolute paths); p itself when there is no relative
// path (another volume).
func relTo(dir, p string) string {
	r, err := filepath.Rel(dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// load reads the compose project with compose-go. It returns the variables
// used without a value as diagnostics, also when loading fails.
func load(ctx context.Context, opts Options) (*loaded, []rules.Diagnostic, error) {
	wd := opts.WorkingDirectory
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil, nil, err
		}
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(wd, p)
	}
	projectDir := abs(opts.ProjectDirectory)

	files := make([]string, len(opts.ConfigFiles))
	for i, f := range opts.ConfigFiles {
		files[i] = abs(f)
	}
	if len(files) == 0 {
		search := projectDir
		if search == "" {
			search = wd
		}
		found, err := cli.NewProjectOptions(nil, cli.WithWorkingDirectory(search), cli.WithDefaultConfigPath)
		if err != nil {
			return nil, nil, err
		}
		if len(found.ConfigPaths) == 0 {
			return nil, nil, fmt.Errorf("no compose file found in %s or its parents (looked for %s)", search, strings.Join(cli.DefaultFileNames, ", "))
		}
		files = found.ConfigPaths
	}
	for _, f := range files {
		if err := checkInputFile("compose file", f); err != nil {
			return nil, nil, err
		}
	}
	if projectDir == "" {
		projectDir = filepath.Dir(files[0])
	}
	envFiles := make([]string, len(opts.EnvFiles))
	for i, f := range opts.EnvFiles {
		envFiles[i] = abs(f)
		if err := checkInputFile("env file", envFiles[i]); err != nil {
			return nil, nil, err
		}
	}

	po, err := projectOptions(files, projectDir, envFiles, opts)
	if err != nil {
		return nil, nil, err
	}
	l := &loaded{dir: projectDir, env: po.Environment, files: files, envFiles: po.EnvFiles}
	l.raw = readRaw(files, l.rel, l.subst)
	if l.raw.problem != "" {
		return nil, nil, errors.New(l.raw.problem)
	}
	vars := unsetVariables(l.raw, l.env)

	p, err := po.LoadProject(ctx)
	if err != nil && errors.Is(err, errdefs.ErrInvalid) {
		// compose-go's consistency check reports the first problem it
		// meets in map order, which varies from run to run; load again
		// without it and name every problem in a stable order.
		if problems := reloadConsistency(ctx, files, projectDir, envFiles, opts); len(problems) > 0 {
			err = fmt.Errorf("the project is not consistent:\n%s", strings.Join(problems, "\n"))
		}
	}
	if err != nil {
		if f := l.raw.parseErr; f != "" && !strings.Contains(err.Error(), f) {
			err = fmt.Errorf("%s: %w", f, err)
		}
		if names := neededVariables(vars); len(names) > 0 {
			// compose-go stops at the first symptom of an empty value,
			// and which one it meets first varies from run to run; the
			// cause is the same and stable.
			err = fmt.Errorf("the project does not load with %s unset (see the C2M014 errors): set them in .env or with --env-file", strings.Join(names, ", "))
		}
		return nil, vars, stableError(err)
	}
	l.project = p
	return l, vars, nil
}

// unsetVariables finds every ${VAR} or $VAR in the raw compose files that
// has no value in env and no default. One diagnostic per variable and place;
// an error where the value feeds a volume source or target, or an image.
func unsetVariables(ix *rawIndex, env map[string]string) []rules.Diagnostic {
	var out []rules.Diagnostic
	// Warnings are grouped per variable and file, at its first use;
	// errors are reported at each use.
	grouped := map[string]int{}
	uses := map[string][]string{}
	for _, f := range ix.files {
		walkScalars(f.root, nil, func(path []string, n *yaml.Node) {
			if !strings.Contains(n.Value, "$") {
				return
			}
			vars := template.ExtractVariables(map[string]any{"v": n.Value}, template.DefaultPattern)
			names := make([]string, 0, len(vars))
			for name := range vars {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				v := vars[name]
				if _, ok := env[name]; ok || v.Required || v.PresenceValue != "" || !usedBare(n.Value, name) {
					continue
				}
				where := strings.Join(path, ".")
				d := rules.Diagnostic{
					Rule:     "C2M014",
					Severity: rules.Warning,
					File:     f.name,
					Line:     n.Line,
					Message:  fmt.Sprintf("variable %s is not set and has no default (used in %s)", name, where),
				}
				if len(path) >= 2 && path[0] == "services" {
					d.Service = path[1]
				}
				if feedsVolumeOrImage(path) {
					d.Severity = rules.Error
					out = append(out, d)
					continue
				}
				id := f.name + "\x00" + name
				if i, ok := grouped[id]; ok {
					uses[id] = append(uses[id], where)
					out[i].Service = ""
					out[i].Message = fmt.Sprintf("variable %s is not set and has no default (used in %s and %d more)", name, uses[id][0], len(uses[id])-1)
					continue
				}
				grouped[id] = len(out)
				uses[id] = []string{where}
				out = append(out, d)
			}
		})
	}
	return out
}

// usedBare reports whether name appears in s as ${name} or $name, with no
// default or other modifier.
func usedBare(s, name string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || (i > 0 && s[i-1] == '$') {
			continue
		}
		rest := s[i+1:]
		if strings.HasPrefix(rest, "{"+name+"}") {
			return true
		}
		if strings.HasPrefix(rest, name) && (len(rest) == len(name) || !isWordByte(rest[len(name)])) {
			return true
		}
	}
	return false
}

// isWordByte reports whether c is an ASCII word character, as \b sees it.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func feedsVolumeOrImage(path []string) bool {
	if len(path) >= 3 && path[0] == "services" {
		switch path[2] {
		case "volumes", "image", "tmpfs":
			return true
		}
	}
	return len(path) >= 1 && path[0] == "volumes"
}

// walkScalars calls fn for every scalar under n with its key path; list
// items appear as "[i]". Aliases are followed once where they are used.
func walkScalars(n *yaml.Node, path []string, fn func([]string, *yaml.Node)) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		fn(path, n)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if k == "<<" {
				continue // merged content is walked where its anchor is defined
			}
			walkScalars(n.Content[i+1], append(append([]string(nil), path...), k), fn)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkScalars(c, append(append([]string(nil), path...), fmt.Sprintf("[%d]", i)), fn)
		}
	}
}

// MaxInputSize is the largest compose, env or declarations file read, in
// bytes. Real compose files are tens of kilobytes; the limit keeps a
// device or a runaway file from exhausting memory.
const MaxInputSize = 16 << 20

// checkInputFile returns an error unless path is a regular file (after
// symbolic links) of at most MaxInputSize bytes. what names the file's
// role in the error.
func checkInputFile(what, path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", what, err)
	case fi.IsDir():
		return fmt.Errorf("%s %s is a directory", what, path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s %s is not a regular file", what, path)
	case fi.Size() > MaxInputSize:
		return fmt.Errorf("%s %s is %d bytes, more than the %d a %s may have", what, path, fi.Size(), MaxInputSize, what)
	}
	return nil
}

// stableError returns err with the lines of a multi-line message after its
// first sorted: compose-go lists some errors in map order, and the same
// input must give the same report.
func stableError(err error) error {
	msg := err.Error()
	first, rest, ok := strings.Cut(msg, "\n")
	if !ok {
		return err
	}
	lines := strings.Split(rest, "\n")
	sort.Strings(lines)
	return &stableErr{msg: first + "\n" + strings.Join(lines, "\n"), err: err}
}

type stableErr struct {
	msg string
	err error
}

func (e *stableErr) Error() string { return e.msg }
func (e *stableErr) Unwrap() error { return e.err }

// neededVariables returns the names of the unset variables that feed a
// volume or an image (C2M014 errors), sorted and unique.
func neededVariables(vars []rules.Diagnostic) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range vars {
		if d.Severity != rules.Error {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "variable "), " ")
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// reloadConsistency loads the project again without compose-go's
// consistency check and returns the problems that check looks for, service
// by service in name order: no image and no build, and references to
// undefined networks, volumes, secrets, configs or services. Nil when the
// project does not load or none is found.
func reloadConsistency(ctx context.Context, files []string, dir string, envFiles []string, opts Options) []string {
	po, err := projectOptions(files, dir, envFiles, opts, cli.WithConsistency(false))
	if err != nil {
		return nil
	}
	p, err := po.LoadProject(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for _, name := range sortedKeys(p.Services) {
		s := p.Services[name]
		if s.Build == nil && s.Image == "" && s.Provider == nil {
			out = append(out, fmt.Sprintf("service %q has neither an image nor a build context", name))
		}
		for _, n := range sortedKeys(s.Networks) {
			if _, ok := p.Networks[n]; !ok {
				out = append(out, fmt.Sprintf("service %q refers to undefined network %s", name, n))
			}
		}
		for _, d := range sortedKeys(s.DependsOn) {
			_, enabled := p.Services[d]
			_, disabled := p.DisabledServices[d]
			if !enabled && !disabled {
				out = append(out, fmt.Sprintf("service %q depends on undefined service %q", name, d))
			}
		}
		for _, v := range s.Volumes {
			if v.Type == types.VolumeTypeVolume && v.Source != "" {
				if _, ok := p.Volumes[v.Source]; !ok {
					out = append(out, fmt.Sprintf("service %q refers to undefined volume %s", name, v.Source))
				}
			}
		}
		for _, sec := range s.Secrets {
			if _, ok := p.Secrets[sec.Source]; !ok {
				out = append(out, fmt.Sprintf("service %q refers to undefined secret %s", name, sec.Source))
			}
		}
		for _, c := range s.Configs {
			if _, ok := p.Configs[c.Source]; !ok {
				out = append(out, fmt.Sprintf("service %q refers to undefined config %s", name, c.Source))
			}
		}
	}
	return out
}

// projectOptions returns compose-go's options for loading files as a
// project in dir, with opts' environment, env files, name and profiles,
// and more options after those.
func projectOptions(files []string, dir string, envFiles []string, opts Options, more ...cli.ProjectOptionsFn) (*cli.ProjectOptions, error) {
	return cli.NewProjectOptions(files, append([]cli.ProjectOptionsFn{
		cli.WithEnv(opts.Environ),
		cli.WithWorkingDirectory(dir),
		cli.WithEnvFiles(envFiles...),
		cli.WithDotEnv,
		cli.WithName(opts.ProjectName),
		cli.WithProfiles(opts.Profiles),
		cli.WithResolvedPaths(true),
	}, more...)...)
}
