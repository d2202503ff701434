package convert

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/project"
)

// settings is the declarations file read before the compose files, for
// its compose_files, env_files and profiles.
type settings struct {
	in *inputFile // nil: no declarations file
	// applied reports whether any of its settings filled an option the
	// caller left empty.
	applied bool
	// parseErr is why the file could not be read for its settings.
	parseErr error
	// composeFiles, envFiles (absolute) and profiles are what the file
	// says, whether or not a flag won: a flag that says the same is the
	// choice the file records (C2M025 is then silent).
	composeFiles, envFiles, profiles []string
	// file is the declarations file as parsed, under the name name.
	file *declare.File
	name string
}

// withSettings returns opts with ConfigFiles, EnvFiles and Profiles
// filled from the declarations file's compose_files, env_files and
// profiles where the caller left them empty: a flag wins over the file.
// The file is the one Convert reads later (opts.DeclarationsFile, or
// compose2manifest.yaml in the project directory), found before the
// compose files are: the project directory is opts.ProjectDirectory, else
// the first -f file's folder, else the nearest folder, from the working
// directory up, that holds a default compose file, as docker compose
// finds it; else the working directory. Paths are relative to that
// directory and must name files inside it, symbolic links resolved.
func withSettings(opts Options) (Options, settings, error) {
	wd := opts.WorkingDirectory
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return opts, settings{}, err
		}
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(wd, p)
	}
	dir := ""
	switch {
	case opts.ProjectDirectory != "":
		dir = abs(opts.ProjectDirectory)
	case len(opts.ConfigFiles) > 0:
		dir = filepath.Dir(abs(opts.ConfigFiles[0]))
	default:
		dir = defaultDir(wd)
	}
	so := opts
	so.WorkingDirectory = wd // a relative --declarations is taken from it
	in, err := sidecar(dir, so)
	if err != nil || in == nil {
		return opts, settings{}, err
	}
	st := settings{in: in, name: project.RelTo(dir, in.path)}
	f, err := declare.Parse(st.name, in.data)
	if err != nil {
		// Reported once the compose files are read, as before settings
		// existed (ask fills an empty file in then), or with the load
		// error they may explain.
		return opts, settings{parseErr: err}, nil
	}
	for _, c := range f.ComposeFiles {
		st.composeFiles = append(st.composeFiles, filepath.Join(dir, filepath.FromSlash(c.Value)))
	}
	for _, e := range f.EnvFiles {
		st.envFiles = append(st.envFiles, filepath.Join(dir, filepath.FromSlash(e.Value)))
	}
	st.profiles = declare.Values(f.Profiles)
	var errs declare.Errors
	files := func(ss []declare.Setting, key string) []string {
		out := make([]string, 0, len(ss))
		for _, s := range ss {
			p := filepath.Join(dir, filepath.FromSlash(s.Value))
			if msg := insideProblem(dir, p); msg != "" {
				errs = append(errs, &declare.Error{Pos: s.Pos, Msg: fmt.Sprintf("%s: %q %s", key, s.Value, msg)})
			}
			out = append(out, p)
		}
		return out
	}
	if len(opts.ConfigFiles) == 0 && len(f.ComposeFiles) > 0 {
		opts.ConfigFiles = files(f.ComposeFiles, declare.KeyComposeFiles)
		if opts.ProjectDirectory == "" {
			opts.ProjectDirectory = dir
		}
		st.applied = true
	}
	if len(opts.EnvFiles) == 0 && len(f.EnvFiles) > 0 {
		opts.EnvFiles = files(f.EnvFiles, declare.KeyEnvFiles)
		st.applied = true
	}
	if len(opts.Profiles) == 0 && len(f.Profiles) > 0 {
		opts.Profiles = declare.Values(f.Profiles)
		st.applied = true
	}
	if len(errs) > 0 {
		return opts, settings{}, errs
	}
	st.file = f
	return opts, st, nil
}

// reuse returns opts with the declarations file already read given in
// memory, when it is the one Convert reads for the project in dir, so
// that it is read once.
func (st settings) reuse(opts Options, dir string) Options {
	if st.in == nil || st.parseErr != nil || opts.Declarations != nil {
		return opts
	}
	if opts.DeclarationsFile != "" || st.in.path == filepath.Join(dir, DeclarationsFile) {
		opts.Declarations = &Declarations{Path: st.in.path, Data: st.in.data, parsed: st.file, parsedAs: st.name}
	}
	return opts
}

// checkSettings returns an error when the project directory compose
// decided is not the one whose declarations file gave the settings, or
// when the declarations file read for the project (declFiles) gives
// settings that were not read before its compose files.
func checkSettings(st settings, dir string, declFiles []inputFile, decl *declare.File) error {
	read := ""
	if len(declFiles) > 0 {
		read = declFiles[0].path
	}
	if st.applied && read != st.in.path {
		return fmt.Errorf("the settings of %s (compose_files, env_files, profiles) were used, but the project directory is %s: name it with --project-directory", st.in.path, dir)
	}
	if decl.HasSettings() && (st.in == nil || st.parseErr != nil || read != st.in.path) {
		return &declare.Error{Pos: decl.SettingsPos(), Msg: fmt.Sprintf("compose_files, env_files and profiles are read before the compose files, from the project directory convert starts in; this file was found only after loading (the project directory is %s): run convert there or name it with --project-directory", dir)}
	}
	return nil
}

// defaultDir returns the nearest folder from wd up that holds a default
// compose file (project.DefaultFiles), as docker compose looks for one
// when no -f names any; wd when none does.
func defaultDir(wd string) string {
	for d := wd; ; {
		if project.DefaultFiles(d) != nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return wd
		}
		d = parent
	}
}

// insideProblem says why the file p, named by a setting, is not a regular
// file inside dir once symbolic links are resolved, or "" when it is.
func insideProblem(dir, p string) string {
	if err := project.CheckInputFile("file", p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "does not exist in the project directory"
		}
		return err.Error()
	}
	realDir, err1 := filepath.EvalSymlinks(dir)
	real, err2 := filepath.EvalSymlinks(p)
	if err1 != nil || err2 != nil {
		return "cannot be resolved"
	}
	if !project.Within(realDir, real) {
		return fmt.Sprintf("leads outside the project directory (to %s) through a symbolic link", real)
	}
	return ""
}

// describe fills in what res tells of the project l as read, whatever
// the outcome: the compose files read and the services profiles left
// out. res or l may be nil.
func describe(res *Result, l *project.Project) {
	if res == nil || l == nil {
		return
	}
	res.Files = l.Files()
	if l.Compose == nil {
		return
	}
	mounts := func(svc types.ServiceConfig) bool {
		for _, v := range svc.Volumes {
			if v.Type != types.VolumeTypeTmpfs {
				return true
			}
		}
		return false
	}
	if len(l.Compose.DisabledServices) > 0 {
		res.LeftOut = slices.Sorted(maps.Keys(l.Compose.DisabledServices))
	}
	left, running := false, false
	for _, svc := range l.Compose.DisabledServices {
		left = left || mounts(svc)
	}
	for _, svc := range l.Compose.Services {
		running = running || mounts(svc)
	}
	res.VolumesLeftOut = left && !running
}
