package project

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/consts"
	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose-spec/compose-go/v2/utils"
	"github.com/compose2manifest/compose2manifest/internal/suggest"
	"github.com/compose2manifest/compose2manifest/manifest"
	"go.yaml.in/yaml/v3"
)

// Options says which compose project to read and how. Names follow
// docker compose's flags.
type Options struct {
	// ConfigFiles are the compose files (-f), merged in order. Empty means
	// compose.yaml / docker-compose.yml in ProjectDirectory or the working
	// directory, with their override file, as docker compose finds them
	// (compose-go's cli.DefaultFileNames and DefaultOverrideFileNames).
	ConfigFiles []string
	// ProjectDirectory (--project-directory) is where relative paths of the
	// compose files resolve on this machine. Empty: the first file's folder.
	ProjectDirectory string
	// WorkingDirectory is the directory relative paths in ConfigFiles and
	// EnvFiles are taken from. Empty: the process's.
	WorkingDirectory string
	// EnvFiles (--env-file) replace the project's .env.
	EnvFiles []string
	// Profiles (--profile) enable services with those profiles.
	Profiles []string
	// ProjectName (-p) overrides the project name.
	ProjectName string
	// Environ is the environment used for interpolation, as KEY=VALUE
	// strings; nil means none (callers pass os.Environ()).
	Environ []string
	// AllowDirs (--allow-dir) are directories outside the project where
	// files the project refers to (an env_file, an include, a .env that is
	// a link) may lie; by default only the project directory and the
	// folders of the compose files named with -f.
	AllowDirs []string
	// Stdin is the compose file a ConfigFiles entry "-" names, as read
	// from standard input (ReadStdin: the caller reads it, bounded); a
	// "-" without it is an error. The project directory is then
	// ProjectDirectory, else the folder of the first other -f file, else
	// WorkingDirectory, as docker compose takes it.
	Stdin []byte
	// InputSize, when not nil, is called with the total bytes of the
	// compose files read (the -f files and those they include or
	// extend) before compose-go loads them.
	InputSize func(bytes int64)
	// beforeCompose, when not nil, runs after the compose files were read
	// and before compose-go reads them: a test hook for a file replaced
	// between the two reads.
	beforeCompose func()
	// everyCast, a test hook, loads with every interpolation cast
	// compose-go has (see castsFor).
	everyCast bool
	// onLoad, a test hook, runs each time compose-go is asked to load
	// the project, with the options it loads with (nil when they are
	// ProjectOptions.LoadProject's own).
	onLoad func(*loader.Options)
}

// Project is a compose project read once: compose-go's typed model, and
// every compose file read a second time with yaml.v3 for what that model
// loses (positions, short-syntax options, "~", the keys each service
// writes). It holds facts with positions, never diagnostics.
type Project struct {
	// Compose is the project as compose-go loads it, with paths resolved
	// against this machine. Nil when loading failed (see Load).
	Compose *types.Project
	// Dir is the absolute project directory on this machine.
	Dir string
	// Environment is the environment interpolation used: the process's
	// and the env files', as compose-go merged them.
	Environment map[string]string
	// ConfigFiles are the absolute paths of the -f files (or the ones
	// found by default), in order; EnvFiles those of the env files read.
	ConfigFiles, EnvFiles []string
	// FilesFrom says where the compose files were named: FilesFlag,
	// FilesEnvironment (COMPOSE_FILE) or FilesDefault.
	FilesFrom string
	// FilesPassedOver are, when the files were found by default, the
	// other default and override files beside the ones read (absolute):
	// docker-compose.yml beside compose.yaml. docker compose reads only
	// the first of each and warns "Found multiple config files".
	FilesPassedOver []string
	// NameFromEnvironment reports whether the process environment or an
	// env file sets COMPOSE_PROJECT_NAME (not empty), which overrides name:.
	NameFromEnvironment bool
	// UnsetVariables lists every use of a variable that has no value and
	// no default, in file order.
	UnsetVariables []VariableUse
	// Platform is PlatformUmbrel when the project folder holds an
	// umbrel-app.yml (a regular file; only its name is looked up), the
	// manifest of an umbrelOS app, which umbrelOS runs with variables
	// (APP_DATA_DIR, …) that docker compose run by hand leaves unset;
	// else "". (A CasaOS app says so in the compose file, x-casaos:.)
	Platform string
	raw      *rawIndex
	// stdin is the path the compose file from standard input was read
	// from (named "-"), "" when there is none.
	stdin string
	// inputs and inputData are what Inputs read, once (a Project is
	// not for concurrent use).
	inputs    []Input
	inputData map[string][]byte
	// start is when Load began, before it read anything; seen holds the
	// version of each env file as found before compose-go read it (see
	// Inputs).
	start time.Time
	seen  versions
	// envRead holds the env files Load read itself, each once, for
	// Inputs to hash.
	envRead envReads
}

// PlatformUmbrel is Project.Platform for an umbrelOS app, known by
// UmbrelAppFile in its folder.
const (
	PlatformUmbrel = "umbrelOS"
	UmbrelAppFile  = "umbrel-app.yml"
)

// Rel returns p relative to the project directory, slash-separated, with
// ".." for a file outside it (a manifest names its sources relative to
// the project, never by this machine's absolute paths); p itself when
// there is no relative path (another volume).
func (p *Project) Rel(path string) string {
	if path == p.stdin && path != "" {
		return StdinName
	}
	return RelTo(p.Dir, path)
}

// RelTo returns p relative to dir, slash-separated, or p itself (slash
// separated) when there is no relative path.
func RelTo(dir, p string) string {
	r, err := filepath.Rel(dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// Load reads the compose project opts names with compose-go, then reads
// the same compose files (and the files they include or extend) once more
// with yaml.v3. A non-nil error means the project could not be read: a
// missing or unreadable file, a YAML or schema error, an inconsistent
// project, or input compose-go would mishandle (a second YAML document,
// a merge key that merges a mapping into itself, a file that is not
// regular or is over MaxInputSize bytes). When the compose files could be
// read but compose-go failed, the Project is still returned, with Compose
// nil and UnsetVariables filled, so the unset variables behind a failure
// can be reported; otherwise it is nil.
//
// No error's message holds the value of a secret-looking variable (see
// maskError).
func Load(ctx context.Context, opts Options) (*Project, error) {
	stdin, remove, err := stdinFile(opts)
	if err != nil {
		return nil, err
	}
	defer remove() // read once, by load: the Project keeps its bytes
	var in *inputs
	l, err := load(ctx, opts, stdin, &in)
	return l, maskError(stdinNamed(err, stdin), opts, in, l)
}

func load(ctx context.Context, opts Options, stdin string, inp **inputs) (*Project, error) {
	registerRawEnv()
	start := time.Now()
	in, err := resolveInputs(opts, stdin)
	*inp = in
	if err != nil {
		return nil, err
	}
	files, projectDir := in.files, in.dir
	po, err := in.projectOptions(opts)
	if err != nil {
		return nil, err
	}
	l := &Project{Dir: projectDir, Environment: po.Environment, ConfigFiles: files, EnvFiles: in.read, FilesFrom: in.filesFrom, FilesPassedOver: in.passedOver, start: start, seen: in.seen, stdin: in.stdin}
	if fi, err := os.Lstat(filepath.Join(projectDir, UmbrelAppFile)); err == nil && fi.Mode().IsRegular() {
		l.Platform = PlatformUmbrel
	}
	// compose-go defines COMPOSE_PROJECT_NAME in Environment as it loads;
	// whether the environment or an env file set it is known only now.
	// Empty is unset, as docker compose takes it.
	l.NameFromEnvironment = po.Environment["COMPOSE_PROJECT_NAME"] != ""
	l.raw = readRaw(files, l.Rel, l.Environment, projectDir, in.roots, in.reads)
	l.envRead = in.reads
	l.UnsetVariables = unsetVariables(l.raw)
	// The env files' own references, as compose-go expanded them from
	// the process environment (and the project directory as PWD).
	current := utils.GetAsEqualsMap(opts.Environ)
	current["PWD"] = projectDir
	l.UnsetVariables = append(l.UnsetVariables, feedsThrough(in.reads.unset(current, in.envFiles, l.Rel), l.raw)...)
	if l.raw.problem != "" {
		// Refused before compose-go loads it; the unset variables are
		// still reported, as docker compose warns of them before it
		// refuses (a Project without Compose, as a failed load gives).
		return l, errors.New(l.raw.problem)
	}
	for path, id := range l.raw.seen {
		if _, ok := l.seen[path]; !ok {
			l.seen[path] = id
		}
	}
	if opts.InputSize != nil {
		var n int64
		for _, data := range l.raw.read {
			n += int64(len(data))
		}
		opts.InputSize(n)
	}
	if opts.beforeCompose != nil {
		opts.beforeCompose()
	}
	if err := ctx.Err(); err != nil {
		return nil, err // abandoned: compose-go's loading is not begun
	}

	var casts []func(*loader.Options)
	if !opts.everyCast {
		casts = append(casts, castsFor(l.raw))
	}
	p, problems, err := l.loadCompose(ctx, in, opts, po, casts...)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil && len(problems) > 0 {
		err = &stableErr{msg: "the project is not consistent:\n" + strings.Join(problems, "\n"), err: err}
	}
	if err != nil && (strings.HasPrefix(err.Error(), "validating ") || strings.Contains(err.Error(), "is missing a mount target")) {
		// compose-go names one schema violation of several in map order,
		// and names the file by this machine's path without a line. A
		// target that is not a string (target: true) fails its merge
		// before the schema is checked, as a target that is missing.
		if serr := schemaError(l.raw); serr != nil {
			err = serr
		}
	}
	if cycle, ok := strings.CutPrefix(errMessage(err), "dependency cycle detected: "); ok {
		// compose-go names the cycle in name order; say what makes one
		// service wait for another, since only depends_on says so plainly.
		err = fmt.Errorf("services wait for each other in a cycle (%s), which docker compose refuses to start: depends_on, links, volumes_from and network_mode, ipc, pid, uts or cgroup service:NAME each make a service start after the one it names", cycle)
	}
	if err != nil {
		if f := l.raw.parseErr; f != "" && !strings.Contains(err.Error(), f) {
			err = syntaxError(f, l.raw.parseData, err)
		}
		var missing *template.MissingRequiredError
		if reqs := l.requiredErrors(); len(reqs) > 0 && errors.As(err, &missing) {
			// docker compose prints the author's message of the first it
			// meets; every one, in file order, says it all at once.
			msg := reqs[0] + " (set it in .env or with --env-file)"
			if len(reqs) > 1 {
				msg = "the project does not load without its required variables (set them in .env or with --env-file):\n" + strings.Join(reqs, "\n")
			}
			err = &stableErr{msg: msg, err: err}
		} else if names := l.neededVariables(); len(names) > 0 {
			// compose-go stops at the first symptom of an empty value,
			// and which one it meets first varies from run to run; the
			// cause is the same and stable.
			err = fmt.Errorf("the project does not load with %s unset (see the C2M014 errors): set them in .env or with --env-file", strings.Join(names, ", "))
		} else if names := l.unsetNames(); len(names) > 0 {
			// An empty value broke a field that is not a volume or an
			// image (a port, a boolean): the unset variables are the
			// likely cause.
			err = fmt.Errorf("%w (%s unset, see the C2M014 warnings: set them in .env or with --env-file)", stableError(err), strings.Join(names, ", "))
		}
		err = relativeError(l.locate(stableError(err)), projectDir)
		err = namedError(err, l.ConfigFiles, l.Rel)
		if ex := envExample(in); ex != "" {
			err = &stableErr{msg: err.Error() + fmt.Sprintf("\n.env is missing, and %s is beside the compose file: copy it to .env and fill it in, or name it with --env-file %s", ex, ex), err: err}
		}
		return l, err
	}
	l.Compose = p
	l.UnsetVariables = append(l.UnsetVariables, l.envFileUnset()...)
	return l, nil
}

// errMessage returns err's message, "" for nil.
func errMessage(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// VariableUse is one use, in a compose file, of a variable that has no
// value and no default.
type VariableUse struct {
	// Name is the variable's name.
	Name string
	// Pos is the scalar that uses it.
	Pos manifest.Pos
	// Path is the key path of that scalar: "services", "db", "volumes",
	// "[0]".
	Path []string
	// Service is the service whose definition uses it, "" outside
	// services.
	Service string
	// FeedsMount reports whether the value feeds a volume source or target,
	// a tmpfs or an image: an empty value there changes what is mounted or
	// run.
	FeedsMount bool
	// Required is set for ${VAR:?message} or ${VAR?message}: compose
	// refuses to load the project while the variable is unset (or, for
	// ${VAR:?message}, empty).
	Required bool
	// Sep is, for a required variable, how it is written: ":?" or "?".
	Sep string
	// Message is, for a required variable, the author's message,
	// interpolated as compose does; "" when there is none.
	Message string
	// Empty is set for a required ${VAR:?message} whose variable is set
	// but empty.
	Empty bool
}

// unsetVariables finds every ${VAR} or $VAR in the raw compose files that
// has no value in env and no default, in file order.
func unsetVariables(ix *rawIndex) []VariableUse {
	var out []VariableUse
	for _, f := range ix.files {
		env := f.env
		// What a value's references are depends on the value and the
		// file's environment alone: a value written again (a compose file
		// repeats the same ${VAR} in many services) is looked at once.
		seen := map[string][]unsetRef{}
		walkScalars(f.root, nil, func(path []string, n *yaml.Node) {
			if !strings.Contains(n.Value, "$") {
				return
			}
			refs, ok := seen[n.Value]
			if !ok {
				refs = unsetRefs(n.Value, env)
				seen[n.Value] = refs
			}
			for _, r := range refs {
				u := VariableUse{Name: r.name, Pos: manifest.Pos{File: f.name, Line: n.Line}, Path: slices.Clone(path), FeedsMount: feedsVolumeOrImage(path), Required: r.required}
				if r.required {
					u.Sep, u.Message, u.Empty = r.sep, r.message, r.empty
				}
				if len(path) >= 2 && path[0] == "services" {
					u.Service = path[1]
				}
				out = append(out, u)
			}
		})
	}
	return out
}

// feedsThrough marks each use in an env file (its Path the variable the
// line sets) whose variable a compose file uses in a volume source or
// target, a tmpfs or an image of a service (as unsetVariables judges its
// own uses): the empty value reaches what is mounted or run through it,
// the first such service is its Service. It returns uses.
func feedsThrough(uses []VariableUse, ix *rawIndex) []VariableUse {
	if len(uses) == 0 {
		return uses
	}
	for _, f := range ix.files {
		walkScalars(f.root, nil, func(path []string, n *yaml.Node) {
			if !strings.Contains(n.Value, "$") || !feedsVolumeOrImage(path) {
				return
			}
			vars := template.ExtractVariables(map[string]any{"v": n.Value}, template.DefaultPattern)
			for i := range uses {
				if _, ok := vars[uses[i].Path[0]]; ok && !uses[i].FeedsMount {
					uses[i].FeedsMount, uses[i].Service = true, path[1]
				}
			}
		})
	}
	return uses
}

// unsetRef is a variable that a compose value uses with no value in the
// environment and no default (see unsetRefs).
type unsetRef struct {
	name     string
	required bool
	// sep, message and empty are a required variable's VariableUse.Sep,
	// Message (interpolated) and Empty.
	sep, message string
	empty        bool
}

// unsetRefs returns the variables value uses that have no value in env
// and no default, or that are required and missing, in name order.
func unsetRefs(value string, env map[string]string) []unsetRef {
	vars := template.ExtractVariables(map[string]any{"v": value}, template.DefaultPattern)
	names := make([]string, 0, len(vars))
	for name := range vars {
		if name != "" { // "x${FOO": an invalid template, compose-go's error
			names = append(names, name)
		}
	}
	sort.Strings(names)
	// The first reference of each variable that fails, as compose-go
	// meets them.
	failing := map[string]requiredRef{}
	for _, r := range requiredRefs(value) {
		if _, ok := failing[r.Name]; !ok && r.missing(env) {
			failing[r.Name] = r
		}
	}
	var out []unsetRef
	for _, name := range names {
		v := vars[name]
		// Compose defines COMPOSE_PROJECT_NAME for interpolation
		// whenever the project has a name, and it always has one (from
		// -p, the environment, name: or the folder).
		_, set := env[name]
		ref, required := failing[name]
		required = required && name != "COMPOSE_PROJECT_NAME"
		if !required && (set || name == "COMPOSE_PROJECT_NAME" || v.Required || v.PresenceValue != "" || !usedBare(value, name)) {
			continue
		}
		r := unsetRef{name: name, required: required}
		if required {
			r.sep, r.message, r.empty = ref.Sep, substitute(ref.Message, env), set
		}
		out = append(out, r)
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
// The path fn is given is valid during the call only: fn clones what it
// keeps.
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
			walkScalars(n.Content[i+1], append(path, k), fn)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkScalars(c, append(path, itemKey(i)), fn)
		}
	}
}

// itemKeys are the path keys of the first list items.
var itemKeys = func() [64]string {
	var keys [64]string
	for i := range keys {
		keys[i] = "[" + strconv.Itoa(i) + "]"
	}
	return keys
}()

// itemKey returns the path key of list item i: "[i]".
func itemKey(i int) string {
	if i < len(itemKeys) {
		return itemKeys[i]
	}
	return "[" + strconv.Itoa(i) + "]"
}

// MaxInputSize is the largest compose, env or declarations file read, in
// bytes: 4 MiB. Real compose files are tens of kilobytes (the largest of
// the shared corpus is 30 KB); the limit keeps a device or a runaway file
// from exhausting memory.
const MaxInputSize = 4 << 20

// CheckInputFile returns an error unless path is a regular file (after
// symbolic links) of at most MaxInputSize bytes. what names the file's
// role in the error.
func CheckInputFile(what, path string) error {
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
// input must give the same report. An error made here (a *stableErr) is
// in a stable order already: file order, or service by service.
func stableError(err error) error {
	if _, ours := err.(*stableErr); ours {
		return err // made here, in an order of its own
	}
	msg := sortLists(err.Error())
	first, rest, ok := strings.Cut(msg, "\n")
	if !ok {
		if msg == err.Error() {
			return err
		}
		return &stableErr{msg: msg, err: err}
	}
	lines := strings.Split(rest, "\n")
	sort.Strings(lines)
	return &stableErr{msg: first + "\n" + strings.Join(lines, "\n"), err: err}
}

// propertyList matches the JSON Schema validator's list of names, which
// it gives in map order: "additional properties 'b', 'a' not allowed".
var propertyList = regexp.MustCompile(`properties ('(?:[^'\\]|\\.)*'(?:, '(?:[^'\\]|\\.)*')+) not allowed`)

// quotedName matches one name of such a list, with its escapes.
var quotedName = regexp.MustCompile(`'(?:[^'\\]|\\.)*'`)

// sortLists sorts the names of each such list in msg.
func sortLists(msg string) string {
	return propertyList.ReplaceAllStringFunc(msg, func(m string) string {
		list := propertyList.FindStringSubmatch(m)[1]
		names := quotedName.FindAllString(list, -1)
		sort.Strings(names)
		return strings.Replace(m, list, strings.Join(names, ", "), 1)
	})
}

type stableErr struct {
	msg string
	err error
}

func (e *stableErr) Error() string { return e.msg }
func (e *stableErr) Unwrap() error { return e.err }

// requiredErrors returns, for each required variable without a value,
// once, in file order, "FILE:LINE: " and the error docker compose prints
// for it (VariableUse.RequiredError).
func (p *Project) requiredErrors() []string {
	var out []string
	seen := map[string]bool{}
	for _, u := range p.UnsetVariables {
		if u.Required && !seen[u.Name] {
			seen[u.Name] = true
			out = append(out, fmt.Sprintf("%s:%d: %s", u.Pos.File, u.Pos.Line, u.RequiredError()))
		}
	}
	return out
}

// unsetNames returns the names of every unset variable used, sorted and
// unique.
func (p *Project) unsetNames() []string {
	return p.unsetWhere(func(VariableUse) bool { return true })
}

// neededVariables returns the names of the unset variables that feed a
// volume or an image, sorted and unique.
func (p *Project) neededVariables() []string {
	return p.unsetWhere(func(u VariableUse) bool { return u.FeedsMount })
}

// unsetWhere returns the names of the unset variables keep keeps, sorted
// and unique.
func (p *Project) unsetWhere(keep func(VariableUse) bool) []string {
	var out []string
	for _, u := range p.UnsetVariables {
		if keep(u) {
			out = append(out, u.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// consistency returns the problems compose-go's consistency check looks
// for in p, bound without that check, service by service in name order,
// each with the position that writes it: no image and no build, and
// references to undefined networks, volumes, secrets, configs or
// services, with the defined name nearest to a typo.
func (l *Project) consistency(p *types.Project) []string {
	var out []string
	add := func(service string, pos manifest.Pos, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if pos.File != "" {
			msg = pos.String() + ": " + msg
		}
		out = append(out, msg)
	}
	undefined := func(service, key, what, name string, defined []string) {
		msg := fmt.Sprintf("service %q refers to undefined %s %s", service, what, name)
		if key == "depends_on" {
			msg = fmt.Sprintf("service %q depends on undefined service %q", service, name)
		}
		if near := suggest.Nearest(name, defined); near != "" {
			msg += fmt.Sprintf("; did you mean %s?", near)
		}
		add(service, l.namePos(service, key, name), "%s", msg)
	}
	for _, name := range slices.Sorted(maps.Keys(p.Services)) {
		s := p.Services[name]
		if s.Build == nil && s.Image == "" && s.Provider == nil {
			add(name, l.namePos(name, "", ""), "service %q has neither an image nor a build context", name)
		}
		for _, n := range slices.Sorted(maps.Keys(s.Networks)) {
			if _, ok := p.Networks[n]; !ok {
				undefined(name, "networks", "network", n, slices.Sorted(maps.Keys(p.Networks)))
			}
		}
		for _, d := range slices.Sorted(maps.Keys(s.DependsOn)) {
			_, enabled := p.Services[d]
			_, disabled := p.DisabledServices[d]
			if !enabled && !disabled {
				undefined(name, "depends_on", "service", d, append(slices.Sorted(maps.Keys(p.Services)), slices.Sorted(maps.Keys(p.DisabledServices))...))
			}
		}
		for _, v := range s.Volumes {
			if v.Type == types.VolumeTypeVolume && v.Source != "" {
				if _, ok := p.Volumes[v.Source]; !ok {
					undefined(name, "volumes", "volume", v.Source, slices.Sorted(maps.Keys(p.Volumes)))
				}
			}
		}
		for _, sec := range s.Secrets {
			if _, ok := p.Secrets[sec.Source]; !ok {
				undefined(name, "secrets", "secret", sec.Source, slices.Sorted(maps.Keys(p.Secrets)))
			}
		}
		for _, c := range s.Configs {
			if _, ok := p.Configs[c.Source]; !ok {
				undefined(name, "configs", "config", c.Source, slices.Sorted(maps.Keys(p.Configs)))
			}
		}
	}
	return out
}

// inputs are what docker compose decides before it reads a compose file:
// which files, which project directory, which environment.
type inputs struct {
	files     []string // the compose files, absolute, in order
	filesFrom string   // FilesFlag, FilesEnvironment or FilesDefault
	dir       string   // the project directory, absolute
	environ   []string // the process environment and the first env files' values
	envFiles  []string // the env files compose-go reads once the directory is known
	// firstFiles are the env files the first pass read (resolveInputs):
	// when they are envFiles, environ holds every variable of theirs
	// already, and they are not read again.
	firstFiles []string
	read       []string // every env file read, both passes, in order
	seen       versions // the env files' versions, as found before any read
	roots      []string // where files the project refers to may lie
	// reads holds the env files read, each once (see envReads).
	reads envReads
	// envDisabled is COMPOSE_DISABLE_ENV_FILE: no .env is read.
	envDisabled bool
	// passedOver are the default and override files found beside the
	// ones read, which docker compose passes over with a warning.
	passedOver []string
	// stdin is the file the compose file from standard input was written
	// to (stdinFile), "" when there is none.
	stdin string
}

// composeEnvFiles is the variable docker compose takes its --env-file
// default from (cmd/compose.ComposeEnvFiles): env files, comma-separated.
const composeEnvFiles = "COMPOSE_ENV_FILES"

// Where the compose files of a project were named.
const (
	FilesFlag        = "-f"           // the caller named them (ConfigFiles)
	FilesEnvironment = "COMPOSE_FILE" // COMPOSE_FILE, from the environment or the first env file
	FilesDefault     = "default"      // found by name (compose.yaml, …) and override
)

// resolveInputs decides the compose files, the project directory and the
// env files as docker compose v5 does (cmd/compose's toProjectOptions:
// environment, env files, COMPOSE_FILE, default files, env files again,
// COMPOSE_PROFILES, the name), with two differences that make it
// independent of the converting process: the environment is
// opts.Environ, never os.Environ, and "the current directory" is
// opts.WorkingDirectory. So COMPOSE_ENV_FILES (docker compose's default
// for --env-file) and COMPOSE_DISABLE_ENV_FILE are read from opts.Environ;
// COMPOSE_FILE and COMPOSE_PATH_SEPARATOR from it and from the first env
// file; relative COMPOSE_FILE entries resolve against the working
// directory. Every file named is checked with CheckInputFile. stdin is
// the file -f - was written to (stdinFile), "" when there is none.
func resolveInputs(opts Options, stdin string) (*inputs, error) {
	wd := opts.WorkingDirectory
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(wd, p)
	}
	env := utils.GetAsEqualsMap(opts.Environ)
	_, filesByProcess := env[consts.ComposeFilePath]
	explicit := make([]string, 0, len(opts.EnvFiles))
	for _, f := range opts.EnvFiles {
		explicit = append(explicit, abs(f))
	}
	if len(explicit) == 0 {
		for _, f := range strings.Split(env[composeEnvFiles], ",") {
			if f = strings.TrimSpace(f); f != "" {
				explicit = append(explicit, abs(f))
			}
		}
	}
	disabled := false
	if v, ok := env[consts.ComposeDisableDefaultEnvFile]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: want true or false", consts.ComposeDisableDefaultEnvFile, v)
		}
		disabled = b
	}
	in := &inputs{envDisabled: disabled, seen: versions{}, stdin: stdin, reads: envReads{}}
	var err error
	// envFilesIn returns the env files docker compose reads with dir as
	// its working directory: the explicit ones, else dir/.env.
	envFilesIn := func(dir string) ([]string, error) {
		if len(explicit) > 0 {
			for _, f := range explicit {
				if err := CheckInputFile("env file", f); err != nil {
					return nil, err
				}
				in.seen.add(f)
			}
			return explicit, nil
		}
		dot := filepath.Join(dir, ".env")
		if disabled {
			return nil, nil
		}
		if fi, err := os.Stat(dot); err != nil || fi.IsDir() {
			return nil, nil
		}
		if err := CheckInputFile("env file", dot); err != nil {
			return nil, err
		}
		if err := CheckContained("env file", dot, append([]string{dir}, opts.AllowDirs...)...); err != nil {
			return nil, err
		}
		in.seen.add(dot)
		return []string{dot}, nil
	}
	addRead := func(files []string) {
		for _, f := range files {
			if !slices.Contains(in.read, f) {
				in.read = append(in.read, f)
			}
		}
	}

	// First pass: the working directory is --project-directory, else the
	// first -f file's folder, else the current one.
	first := abs(opts.ProjectDirectory)
	if opts.ProjectDirectory == "" {
		first = cmp.Or(firstFileDir(opts.ConfigFiles, abs), wd)
	}
	firstFiles, err := envFilesIn(first)
	if err != nil {
		return nil, err
	}
	if len(firstFiles) > 0 {
		vals, err := in.reads.getEnv(env, firstFiles)
		if err != nil {
			return nil, err
		}
		for k, v := range vals {
			if _, set := env[k]; !set {
				env[k] = v
			}
		}
		addRead(firstFiles)
		in.firstFiles = firstFiles
	}

	for _, f := range opts.ConfigFiles {
		if f == StdinName {
			f = in.stdin
		}
		in.files = append(in.files, abs(f))
	}
	in.filesFrom = FilesFlag
	if len(in.files) == 0 {
		if list, ok := env[consts.ComposeFilePath]; ok {
			in.filesFrom = FilesEnvironment
			sep := env[consts.ComposePathSeparator]
			if sep == "" {
				sep = string(os.PathListSeparator)
			}
			for _, entry := range strings.Split(list, sep) {
				if entry == "" {
					continue
				}
				f := abs(entry)
				if !filesByProcess {
					if err := envFileContained(entry, f, in.firstFiles, append([]string{first}, opts.AllowDirs...)); err != nil {
						return nil, err
					}
				}
				if err := CheckInputFile("compose file "+strconv.Quote(entry)+" set by COMPOSE_FILE", f); err != nil {
					return nil, err
				}
				in.files = append(in.files, f)
			}
		}
	}
	if len(in.files) == 0 {
		in.filesFrom = FilesDefault
		found, err := cli.NewProjectOptions(nil, cli.WithWorkingDirectory(first), cli.WithDefaultConfigPath)
		if err != nil {
			return nil, err
		}
		if len(found.ConfigPaths) == 0 {
			return nil, fmt.Errorf("no compose file found in %s or its parents (looked for %s)", first, strings.Join(cli.DefaultFileNames, ", "))
		}
		in.files = found.ConfigPaths
		// docker compose takes the first default file and the first
		// override of the folder, and warns of the others.
		d := filepath.Dir(in.files[0])
		for _, names := range [][]string{cli.DefaultFileNames, cli.DefaultOverrideFileNames} {
			for _, n := range names {
				if f := filepath.Join(d, n); !slices.Contains(in.files, f) && exists(f) {
					in.passedOver = append(in.passedOver, f)
				}
			}
		}
		// Files found by name are the project's own: a compose.yaml that
		// links out of its folder would bring another file's content
		// (its environment, its secrets) into the manifest.
		for _, f := range in.files {
			if err := CheckContained("compose file", f, append([]string{filepath.Dir(f)}, opts.AllowDirs...)...); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range in.files {
		if err := CheckInputFile("compose file", f); err != nil {
			return nil, err
		}
	}
	in.dir = abs(opts.ProjectDirectory)
	if opts.ProjectDirectory == "" {
		in.dir = filepath.Dir(in.files[0])
		if in.stdin != "" {
			in.dir = cmp.Or(firstFileDir(opts.ConfigFiles, abs), wd)
		}
	}
	in.roots = append(in.roots, in.dir)
	for _, f := range in.files {
		if d := filepath.Dir(f); f != in.stdin && !slices.Contains(in.roots, d) {
			in.roots = append(in.roots, d)
		}
	}
	for _, d := range opts.AllowDirs {
		in.roots = append(in.roots, abs(d))
	}
	// docker compose sets PWD to its working directory when the
	// environment lacks it (cmd/compose's toProjectOptions); a project
	// runs on its host from its own directory, never from the converting
	// machine's, so ${PWD} is the project directory.
	env["PWD"] = in.dir
	// Second pass, in the project directory.
	if in.envFiles, err = envFilesIn(in.dir); err != nil {
		return nil, err
	}
	addRead(in.envFiles)
	in.environ = make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		in.environ = append(in.environ, k+"="+env[k])
	}
	return in, nil
}

// envFileContained returns an error unless the compose file f, named
// entry by a COMPOSE_FILE that an env file of the project (one of
// envFiles) sets, lies inside one of roots, lexically and after symbolic
// links; the error names the env file's line. -f, compose_files:, include
// and extends are held to the project the same way: a project's own .env
// must not bring in a compose file from elsewhere on the converting
// machine. A COMPOSE_FILE of the process environment is the caller's
// choice, like -f, and is not checked.
func envFileContained(entry, f string, envFiles, roots []string) error {
	inside := slices.ContainsFunc(roots, func(r string) bool { return Within(filepath.Clean(r), f) })
	err := CheckContained("compose file "+strconv.Quote(entry)+" set by COMPOSE_FILE", f, roots...)
	if inside && err == nil {
		return nil
	}
	if err == nil {
		err = fmt.Errorf("compose file %q set by COMPOSE_FILE is outside the project directory; a file the project refers to is read only inside it (name another directory with --allow-dir)", entry)
	}
	file, line := settingLine(envFiles, consts.ComposeFilePath)
	if file == "" {
		return err
	}
	if len(roots) > 0 {
		if r, rerr := filepath.Rel(roots[0], file); rerr == nil && !strings.HasPrefix(r, "..") {
			file = r
		}
	}
	return fmt.Errorf("%s:%d: %w", file, line, err)
}

// settingLine returns the env file of files and the line in it that sets
// key last (KEY=, export KEY=), as dotenv reads them: a later file and a
// later line win. "" when none does.
func settingLine(files []string, key string) (string, int) {
	for i := len(files) - 1; i >= 0; i-- {
		data, err := os.ReadFile(files[i])
		if err != nil {
			continue
		}
		last := 0
		for n, l := range strings.Split(string(data), "\n") {
			l = strings.TrimSpace(l)
			l = strings.TrimSpace(strings.TrimPrefix(l, "export "))
			if k, _, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) == key {
				last = n + 1
			}
		}
		if last > 0 {
			return files[i], last
		}
	}
	return "", 0
}

// projectOptions returns compose-go's options for loading the project as
// in says, with opts' profiles (else COMPOSE_PROFILES) and name, and more
// options after those.
func (in *inputs) projectOptions(opts Options, more ...cli.ProjectOptionsFn) (*cli.ProjectOptions, error) {
	envFiles := func(o *cli.ProjectOptions) error {
		o.EnvFiles = in.envFiles
		return nil
	}
	// cli.WithDotEnv, reading each file once (in.reads).
	dotEnv := func(o *cli.ProjectOptions) error {
		vals, err := in.reads.getEnv(o.Environment, o.EnvFiles)
		if err != nil {
			return err
		}
		o.Environment.Merge(vals)
		return nil
	}
	if slices.Equal(in.envFiles, in.firstFiles) {
		// The first pass read these files and set each of their
		// variables that the environment did not: cli.WithDotEnv would
		// read them again to set none (types.Mapping.Merge keeps what is
		// set).
		dotEnv = func(*cli.ProjectOptions) error { return nil }
	}
	return cli.NewProjectOptions(in.files, append([]cli.ProjectOptionsFn{
		cli.WithEnv(in.environ),
		cli.WithWorkingDirectory(in.dir),
		envFiles,
		dotEnv,
		cli.WithDefaultProfiles(opts.Profiles...),
		cli.WithName(opts.ProjectName),
		cli.WithResolvedPaths(true),
	}, more...)...)
}

// yamlError matches the message of a YAML syntax error as compose-go's
// YAML library (go.yaml.in/yaml/v4) words it: "yaml: [CONTEXT at line L,
// column C: ]line L[, column C]: PROBLEM".
var yamlError = regexp.MustCompile(`yaml: (?:(while (parsing|scanning) [^:]*?) at (?:line (\d+)(?:, column \d+)?|<unknown position>): )?(?:line (\d+)(?:, column (\d+))?|<unknown position>): (.*)$`)

// syntaxError returns a YAML syntax error of file as "FILE:LINE: yaml:
// PROBLEM (CONTEXT at line N)". The library counts the lines of its
// parser's errors from 0 and those of its scanner from 1 (a parser error
// on line 4 says "line 3", one on the first line "<unknown position>"),
// so a parser error's lines are moved on by one. An error the pattern
// does not match is returned as "FILE: ERROR".
func syntaxError(file string, data []byte, err error) error {
	m := yamlError.FindStringSubmatch(err.Error())
	if m == nil {
		// An error of the YAML reader names a byte offset, or no place
		// (bytes that are not UTF-8): the line of that byte.
		if line, msg := manifest.YAMLErrorAt(data, yamlReaderError(err)); line > 0 {
			return &stableErr{msg: fmt.Sprintf("%s:%d: yaml: %s", file, line, msg), err: err}
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	context, kind, contextLine, line, column, problem := m[1], m[2], m[3], m[4], m[5], m[6]
	parser := kind == "parsing" || (kind == "" && (strings.HasPrefix(problem, "did not find expected") || strings.HasPrefix(problem, "expected")))
	fix := func(s string) int {
		n, _ := strconv.Atoi(s) // "" (unknown position) is 0
		if parser || n == 0 {
			n++
		}
		return n
	}
	msg := fmt.Sprintf("%s:%d: yaml: %s", file, fix(line), problem)
	if column != "" {
		msg = fmt.Sprintf("%s:%d: yaml: column %s: %s", file, fix(line), column, problem)
	}
	if context != "" {
		msg += fmt.Sprintf(" (%s at line %d)", context, fix(contextLine))
	}
	return &stableErr{msg: msg, err: err}
}

// yamlReaderError returns err's "yaml: …" part: compose-go may wrap the
// YAML library's error in words of its own.
func yamlReaderError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "yaml: "); i > 0 {
		return errors.New(msg[i:])
	}
	return err
}

// envExample returns the name of an example env file beside the project's
// compose files (.env.example, .env.sample, .env.dist, env.example) when
// the project read no env file at all, "" otherwise: a project that does
// not load for want of its variables usually wants that file copied.
func envExample(in *inputs) string {
	if len(in.read) > 0 {
		return ""
	}
	for _, name := range []string{".env.example", ".env.sample", ".env.dist", "env.example"} {
		if regular(filepath.Join(in.dir, name)) {
			return name
		}
	}
	return ""
}

// relativeError returns err with the project directory's absolute path
// taken out of its message: compose-go names files by this machine's
// paths, and a report must read the same wherever the checkout lies.
// constructError matches yaml.v3's error for a key written twice, as
// compose-go wraps it: the file, the line of the second key, the problem.
var constructError = regexp.MustCompile(`^failed to parse (\S+): yaml: construct errors:\s+line \d+: line (\d+): (.*)$`)

// namedError makes a load error name the file it is about: a key written
// twice becomes FILE:LINE: yaml: …, and a message that names none of the
// compose files nor any other file (compose-go's "Invalid containerPort:
// def") is prefixed with them, since nothing else says where to look.
func namedError(err error, files []string, rel func(string) string) error {
	msg := err.Error()
	if m := constructError.FindStringSubmatch(msg); m != nil {
		return &stableErr{msg: fmt.Sprintf("%s:%s: yaml: %s", m[1], m[2], m[3]), err: err}
	}
	for _, other := range []string{"/", ".yml", ".yaml", ".env", "env file", "env_file"} {
		if strings.Contains(msg, other) {
			return err // it names a file already, maybe not a compose file
		}
	}
	var names []string
	for _, f := range files {
		names = append(names, rel(f))
		if strings.Contains("\n"+msg, "\n"+rel(f)+":") {
			return err // a line names it already ("-:4: …" from standard input)
		}
	}
	if len(names) == 0 {
		return err
	}
	return &stableErr{msg: strings.Join(names, ", ") + ": " + msg, err: err}
}

func relativeError(err error, dir string) error {
	msg := err.Error()
	rel := strings.ReplaceAll(msg, dir+string(filepath.Separator), "")
	rel = strings.ReplaceAll(rel, dir, ".")
	if rel == msg {
		return err
	}
	return &stableErr{msg: rel, err: err}
}
