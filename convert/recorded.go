package convert

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compose-spec/compose-go/v2/utils"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// ConversionVersion is the version of the conversion a manifest's
// fingerprint records. Raise it with every change that makes the same
// inputs convert to other bytes, so that check --against converts every
// manifest made before the change again instead of taking it as current.
const ConversionVersion = 43

// VariablesDigest returns the digest a fingerprint records of the values
// the variables names have in environ (KEY=VALUE strings, the last of a
// key winning, as compose-go reads them): a variable that is unset and
// one set to "" differ.
func VariablesDigest(names []string, environ []string) string {
	env := utils.GetAsEqualsMap(environ)
	h := sha256.New()
	for _, n := range names {
		if v, ok := env[n]; ok {
			h.Write([]byte(n + "=" + v + "\x00"))
		} else {
			h.Write([]byte(n + "\x00"))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RecordedSettings returns the settings the caller gave (opts before the
// declarations filled anything in) that change the output, as a manifest
// of the project in dir records them (converted_with): paths of this
// machine, relative ones taken from opts.WorkingDirectory, made relative
// to dir; nil when none was given. Compose files (-f) are recorded unless
// they are exactly those docker compose reads in dir without -f
// (project.FilesWithoutFlag: COMPOSE_FILE, else the default files), and a
// declarations file unless it is dir's own. check --against compares a manifest's
// record with what it would convert with through this same function.
func RecordedSettings(opts Options, dir string) *manifest.Settings {
	wd := opts.workingDir()
	abs := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if !filepath.IsAbs(p) {
				p = filepath.Join(wd, p)
			}
			out = append(out, filepath.Clean(p))
		}
		return out
	}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range abs(ps) {
			out = append(out, project.RelTo(dir, p))
		}
		return out
	}
	var files []string
	if given := abs(opts.ConfigFiles); len(given) > 0 && !slices.Equal(given, project.FilesWithoutFlag(dir, opts.Environ)) {
		// -f naming just what docker compose finds without it is no
		// choice to record.
		files = rel(opts.ConfigFiles)
	}
	s := &manifest.Settings{
		ComposeFiles:         files,
		Profiles:             append([]string(nil), opts.Profiles...),
		EnvFiles:             rel(opts.EnvFiles),
		AllowDirs:            rel(opts.AllowDirs),
		HostProjectDirectory: opts.HostProjectDirectory,
		VolumeRoot:           opts.VolumeRoot,
		Strict:               opts.Strict,
		Layout:               opts.Layout,
		ProjectName:          opts.ProjectName,
	}
	if opts.SurveyFile != "" {
		s.Survey = rel([]string{opts.SurveyFile})[0]
	}
	decl := opts.DeclarationsFile
	if opts.Declarations != nil && opts.Declarations.Path != "" {
		decl = opts.Declarations.Path // the file the data stands for
	}
	if decl != "" {
		if d := rel([]string{decl}); d[0] != DeclarationsFile {
			s.Declarations = d[0]
		}
	}
	if s.IsZero() {
		return nil
	}
	return s
}

// ImagesDigest returns the digest of the image table a conversion with
// opts reads (fingerprint: images): opts.Images's, else the embedded
// table's (images.Digest).
func ImagesDigest(opts Options) string {
	if opts.Images != nil {
		return opts.Images.Digest
	}
	return images.Digest()
}

// fingerprint returns what the conversion depended on beyond its
// sources: see manifest.Fingerprint. declFiles are the declarations files
// read, diags the conversion's findings.
func (c *converter) fingerprint(declFiles []inputFile, diags []rules.Diagnostic) (*manifest.Fingerprint, error) {
	f := &manifest.Fingerprint{Conversion: ConversionVersion, Images: ImagesDigest(c.opts), Checkout: map[string]string{}}
	var extra [][]byte
	for _, d := range declFiles {
		extra = append(extra, d.data)
	}
	names, err := c.l.Variables(extra...)
	if err != nil {
		return nil, err
	}
	f.Variables = names
	f.VariablesSHA256 = VariablesDigest(names, c.opts.Environ)
	for _, s := range c.placements {
		if s.Section == declare.SectionBinds && !strings.HasPrefix(s.Key, "/") && !strings.HasPrefix(s.Key, "~") {
			f.Checkout[s.Key] = c.evidence(s.Key).String()
		}
	}
	var probes []string
	if len(declFiles) == 0 && c.opts.DeclarationsFile == "" && c.opts.Declarations == nil {
		probes = append(probes, filepath.Join(c.l.Dir, DeclarationsFile))
	}
	for _, p := range c.l.Probes(probes...) {
		f.Checkout[p] = project.Evidence(c.l.Dir, p).String()
	}
	for _, d := range diags {
		switch {
		case rules.ReportedAgainst(d):
			f.Uncarried++
		case d.Severity == rules.Warning:
			f.Warnings++
		}
	}
	return f, nil
}

// FingerprintHolds reports whether m's fingerprint still holds for the
// project in dir converted with opts, judged without loading compose: the
// conversion version, the image table's digest, the compose file the
// header names (headerHolds, from opts.ManifestDir), the settings that change the output (RecordedSettings against
// converted_with), the digest of the
// variables the conversion used and what the checkout shows at each path
// it recorded are all as they were. A manifest with fields not carried
// (fingerprint uncarried > 0) never holds: converting again reports them.
// The recorded sources' digests are the caller's to compare (Current
// does). opts is taken as Convert would get it for dir: ProjectDirectory
// and WorkingDirectory are set to dir.
func FingerprintHolds(dir string, m *manifest.Module, opts Options) bool {
	f := m.Fingerprint
	if f == nil || f.Uncarried > 0 || f.Conversion != ConversionVersion {
		return false
	}
	if !headerHolds(dir, m, manifestDir(opts)) {
		return false // the header names another place, or the manifest was moved
	}
	opts.ProjectDirectory, opts.WorkingDirectory = dir, dir
	if f.Images != ImagesDigest(opts) || !RecordedSettings(opts, dir).Equal(m.ConvertedWith) {
		return false
	}
	if !lockHolds(dir, m, opts) {
		return false // an image lock appeared, or went
	}
	if VariablesDigest(f.Variables, opts.Environ) != f.VariablesSHA256 {
		return false
	}
	for p, was := range f.Checkout {
		if project.Evidence(dir, p).String() != was {
			return false
		}
	}
	return true
}

// Current reports whether converting the project in dir with opts would
// give data, a generated manifest (m decoded from it), byte for byte, and
// no warning (fingerprint warnings: 0), without loading compose: it
// Reproduces data. convert --batch keeps such a manifest instead of
// converting its project again.
func Current(dir string, data []byte, m *manifest.Module, opts Options) bool {
	return m.Fingerprint != nil && m.Fingerprint.Warnings == 0 && Reproduces(dir, data, m, opts)
}

// Reproduces reports whether converting the project in dir with opts
// would give data, a generated manifest (m decoded from it), byte for
// byte, without loading compose: data is unedited (its body digest
// holds), each source it records is a regular file inside dir, after
// symbolic links, of at most project.MaxInputSize bytes with the recorded
// sha256, and its fingerprint holds (FingerprintHolds). check --against
// names a project's module from the manifest it reproduces.
func Reproduces(dir string, data []byte, m *manifest.Module, opts Options) bool {
	if rec, actual, ok := manifest.BodyDigest(data); !ok || rec != actual || len(m.Sources) == 0 || m.Fingerprint == nil {
		return false
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	for _, s := range m.Sources {
		name := filepath.FromSlash(s.File)
		if !filepath.IsLocal(name) {
			return false
		}
		p := filepath.Join(dir, name)
		if real, err := filepath.EvalSymlinks(p); err != nil || !project.Within(realDir, real) {
			return false
		}
		b, err := fsread.File("source", p, project.MaxInputSize)
		if err != nil {
			return false
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != s.SHA256 {
			return false
		}
	}
	return FingerprintHolds(dir, m, opts)
}

// headerHolds reports whether the compose file m's header names is one of
// its recorded sources as converting the project in dir would name it:
// by its path from mdir, the folder the manifest is written to, when that
// is not "" ("../mail/compose.yaml"), else by its path in the project
// folder ("compose.yaml"). The folder the checkout sits in is not named,
// so a clone under another name holds; a manifest moved to another folder
// relative to its project, or a header of an earlier form, does not.
func headerHolds(dir string, m *manifest.Module, mdir string) bool {
	from := m.GeneratedFrom()
	for _, s := range m.Sources {
		want := s.File
		if mdir != "" {
			want = locatedFrom(mdir, filepath.Join(dir, filepath.FromSlash(s.File)))
		}
		if want == from {
			return true
		}
	}
	return false
}
