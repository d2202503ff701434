// Package convert turns a compose project into a module manifest, refusing
// every volume whose host source lacks a complete declaration.
//
// The input model is compose-go's types.Project; the output is a
// manifest.Module. Convert never writes files, prompts or prints: it
// returns the module, the diagnostics and, for a refusal, a declarations
// skeleton for exactly the missing sources.
package convert

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/compose2manifest/compose2manifest/survey"
)

// Options says which compose project to convert and how. Names follow
// docker compose's flags.
type Options struct {
	// ConfigFiles are the compose files (-f), merged in order. Empty means
	// compose.yaml / docker-compose.yml in ProjectDirectory or the working
	// directory, with their override file, as docker compose finds them.
	ConfigFiles []string
	// ProjectDirectory (--project-directory) is where relative paths of the
	// compose files resolve on this machine. Empty: the first file's folder.
	ProjectDirectory string
	// WorkingDirectory is the directory relative paths in ConfigFiles,
	// EnvFiles and DeclarationsFile are taken from. Empty: the process's.
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
	// files the project refers to may lie (project.Options.AllowDirs).
	AllowDirs []string
	// Stdin is where a ConfigFiles entry "-" reads the compose file from
	// (standard input), once and bounded (project.ReadStdin); it is not
	// read when no entry is "-".
	Stdin io.Reader
	// DeclarationsFile (--declarations) overrides the default
	// compose2manifest.yaml in the project directory.
	DeclarationsFile string
	// DefaultsFile, when set, names the declarations that hold for every
	// project under a batch's root (declare.ParseDefaults: layout,
	// volume_root, acknowledge:); the project's own win where both say
	// something. A relative path is taken from WorkingDirectory. It is
	// recorded in the manifest's sources:, so that a change to it makes
	// the manifest stale.
	DefaultsFile string
	// Declarations, when not nil, is the declarations file given in
	// memory: Convert reads it instead of the file on disk, which is then
	// not opened, whether it exists or not.
	Declarations *Declarations
	// HostProjectDirectory (--host-project-directory) is where the project
	// lives on the target host; it overrides the declarations' value.
	HostProjectDirectory string
	// VolumeRoot (--volume-root) is where named and anonymous volumes land;
	// it overrides the declarations' value.
	VolumeRoot string
	// Layout (--layout) is how a declaration without a path of its own is
	// placed: "" (volume_root, host_project_directory) or "fhs" (by its
	// intent: declare.LayoutFHS); it overrides the declarations' layout:.
	Layout string
	// Strict turns production from evidence off: only supplied
	// declarations count.
	Strict bool
	// SkeletonFile is where the caller writes the whole skeleton
	// (convert --skeleton FILE), as the person gave it: the skeleton a
	// refusal shows (Result.Inline) names it where it leaves credentials
	// out. "" names the flag instead.
	SkeletonFile string
	// ManifestDir is the folder the manifest is written to (convert -o
	// DIR, a batch's output folder, the folder check --against finds a
	// manifest in); a relative path is taken from WorkingDirectory. When
	// set, the header names the first compose file by its path from there
	// ("from ../mail/compose.yaml"), which tells two projects apart
	// wherever the checkout sits and whatever its folder is called; when
	// empty (a manifest printed), by its path in the project folder
	// ("from compose.yaml"). It is not a recorded setting: the header says
	// it.
	ManifestDir string
	// Survey is what the legacy host's survey found (compose2manifest
	// survey's script): where nothing was supplied, it settles a bind
	// source's kind, and gives owner and mode, said "survey HOST DATE".
	// Nil means SurveyFile (--survey), relative to WorkingDirectory, or
	// none when that is "".
	Survey     *survey.Survey
	SurveyFile string
	// Images is the table of well-known images that owner, mode and intent
	// may be produced from; nil means the built-in table, parsed once per
	// process and only when a conversion first needs a row of it
	// (images.Default).
	Images *images.Table
	// SkipImageLock leaves the image lock beside the declarations
	// (LockPath) unread, as if there were none: for a caller that only
	// lists the project's images to refresh that lock.
	SkipImageLock bool
	// Timeout (--project-timeout), when more than zero, bounds the
	// conversion: still running after it, Convert returns a *TimeoutError
	// and abandons the work, which stops at the next point it checks its
	// context (between stages, at each service). Convert --batch and
	// check --against bound each project themselves.
	Timeout time.Duration
	// InputSize, when not nil, is called with the total bytes of the
	// project's compose files once they are read, before compose-go
	// loads them (project.Options.InputSize): the command gives the
	// collector its defaults back for a large input (batch.Untune).
	InputSize func(bytes int64)
}

// TimeoutError is the error of a conversion still running after
// Options.Timeout: it was abandoned.
type TimeoutError struct {
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("not converted within %s (--project-timeout): abandoned", e.Timeout)
}

// Declarations are a declarations file given in memory, such as one ask
// is editing and has not written yet. Convert treats them exactly as a
// file at Path holding Data: the manifest, its sources: entry (Path
// relative to the project directory, and the sha256 of Data), the
// "supplied:" comments and the diagnostics are byte-identical to what
// that file on disk would give.
type Declarations struct {
	// Path is the file Data stands for: absolute, or relative to
	// WorkingDirectory. Empty means the file Convert would read otherwise:
	// DeclarationsFile, or compose2manifest.yaml in the project directory.
	// Nothing need exist there.
	Path string
	// Data is the file's content, which Convert parses (declare.Parse) as
	// it would the file's. Empty Data is an empty file, which declares
	// nothing and fails to parse as a declarations document.
	Data []byte
	// parsed is Data as declare.Parse gave it under the name parsedAs,
	// when withSettings parsed it already: declarations takes it rather
	// than parse the same bytes again.
	parsed   *declare.File
	parsedAs string
}

// Status is the outcome of converting one module.
type Status string

// Outcomes, as the JSON report names them.
const (
	Converted Status = "converted"
	Refused   Status = "refused"
	Failed    Status = "error"
)

// Result is the outcome of Convert.
type Result struct {
	// Status says whether the module was converted.
	Status Status
	// Module is the converted module when Status is Converted. When
	// refused, Candidate holds what was built, with incomplete
	// declarations, for reporting.
	Module    *manifest.Module
	Candidate *manifest.Module
	// Manifest is Module encoded (manifest.Encode), nil unless converted.
	Manifest []byte
	// Diagnostics are every finding, errors and warnings, in a stable
	// order.
	Diagnostics []rules.Diagnostic
	// UndeclaredAncestors lists the directories above declared paths that
	// nothing declares, parent-first: the host would create them as root
	// 0755 (C2M011). Declaring them under directories: clears the warning.
	UndeclaredAncestors []string
	// Missing lists the sources whose declaration is missing or
	// incomplete, with what is known of each (for ask).
	Missing []Missing
	// Sources are every source the project mounts that a declaration
	// names, declared or not, in the order found (compose2manifest
	// survey records each on the legacy host).
	Sources []Source
	// Suggestions are what the skeleton offers besides Missing: plaintext
	// secrets, fields not carried, module roots of layout fhs.
	Suggestions Suggestions
	// Skeleton is a ready-to-paste declarations file for exactly the
	// sources that are missing or incomplete and the Suggestions
	// (SkeletonFor); nil when none are.
	Skeleton []byte
	// Inline is the Skeleton as a refusal prints it: whole, or, where it
	// offers more than MaxInlineCredentials credentials (each prefilled,
	// none a decision), with its credentials: section left out and
	// Elided how many it left out. The sources are always all there.
	Inline []byte
	Elided int
	// Decisions is how many values the Skeleton leaves for a person:
	// its "" fields and empty acknowledge: items (Decisions).
	Decisions int
	// ProjectDirectory is the absolute project directory on this machine.
	ProjectDirectory string
	// ProjectName is the compose project name.
	ProjectName string
	// FolderNamed reports that the project name is the project folder's
	// (no -p, name: or COMPOSE_PROJECT_NAME gave one): docker compose
	// names it after the folder it runs in, which on the legacy host may
	// be another. FolderVolumes are then the Docker volume names made
	// from it (PROJECT_KEY: no name: written, not external), sorted.
	FolderNamed   bool
	FolderVolumes []string
	// Files are the absolute paths of the compose files the project was
	// read from (its -f files, or those found by default, then the files
	// they include or extend), also when Convert failed once they were
	// found: batch tells from them which compose files no project uses.
	Files []string
	// LeftOut names the services that profiles left out, sorted; each is
	// also a C2M019 warning among Diagnostics.
	LeftOut []string
	// VolumesLeftOut reports that a service left out by profiles mounts
	// a volume and no service that runs does: the manifest declares none
	// of the project's data.
	VolumesLeftOut bool
	// KnownModule is, when Convert failed, the module's name if what the
	// project states explicitly tells it for sure (its declarations'
	// module:, a literal name: that no COMPOSE_PROJECT_NAME overrides),
	// "" otherwise: batch takes part in the cross-project checks with it.
	KnownModule string

	// mask masks the conversion's known secrets out of a text
	// (maskResult), for what OfferShared writes again; nil: none known.
	mask func(string) string
	// skeletonFile is Options.SkeletonFile, which the inline skeleton
	// names (OfferShared writes it again).
	skeletonFile string
}

// projectOptions returns the options that say which compose project to
// read.
func (o Options) projectOptions() project.Options {
	return project.Options{
		ConfigFiles:      o.ConfigFiles,
		ProjectDirectory: o.ProjectDirectory,
		WorkingDirectory: o.WorkingDirectory,
		EnvFiles:         o.EnvFiles,
		Profiles:         o.Profiles,
		ProjectName:      o.ProjectName,
		Environ:          o.Environ,
		AllowDirs:        o.AllowDirs,
		InputSize:        o.InputSize,
	}
}

// workingDir is where the options' relative paths are taken from:
// WorkingDirectory, else the process's working directory.
func (o Options) workingDir() string {
	if o.WorkingDirectory != "" {
		return o.WorkingDirectory
	}
	wd, _ := os.Getwd()
	return wd
}

// abs is the path p names, a relative one taken from workingDir.
func (o Options) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(o.workingDir(), p)
}
