package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Settings are the conversion settings given from outside the project's
// files (convert's flags) that change the output: a manifest records them
// as converted_with, so check --against converts it again the same way
// without repeating the flags. What the declarations say is not recorded
// here: the declarations file is a source. Paths of this machine are
// recorded relative to the project directory.
type Settings struct {
	// ComposeFiles are -f's compose files, relative to the project
	// directory, slash-separated, in order.
	ComposeFiles []string
	// Declarations is --declarations's file, relative to the project
	// directory, slash-separated; "" for the project's own
	// compose2manifest.yaml.
	Declarations string
	// Profiles are --profile's values, in order.
	Profiles []string
	// EnvFiles are --env-file's files, relative to the project
	// directory, slash-separated, in order.
	EnvFiles []string
	// AllowDirs are --allow-dir's folders, relative to the project
	// directory, slash-separated, in order.
	AllowDirs []string
	// HostProjectDirectory is --host-project-directory: a path on the
	// target host.
	HostProjectDirectory string
	// VolumeRoot is --volume-root: a path on the target host.
	VolumeRoot string
	// Strict is --strict.
	Strict bool
	// Layout is --layout ("fhs").
	Layout string
	// ProjectName is -p: the compose project name, which names the
	// module and the Docker volumes.
	ProjectName string
	// Survey is --survey's file, the legacy host's survey, relative to
	// the project directory, slash-separated.
	Survey string
	Pos    Pos
}

// IsZero reports whether s records no setting.
func (s *Settings) IsZero() bool {
	return s == nil || (len(s.ComposeFiles) == 0 && s.Declarations == "" && len(s.Profiles) == 0 && len(s.EnvFiles) == 0 && len(s.AllowDirs) == 0 &&
		s.HostProjectDirectory == "" && s.VolumeRoot == "" && !s.Strict && s.Layout == "" && s.ProjectName == "" && s.Survey == "")
}

// Equal reports whether s and t record the same settings (positions
// aside); nil is the zero Settings.
func (s *Settings) Equal(t *Settings) bool {
	if s.IsZero() || t.IsZero() {
		return s.IsZero() == t.IsZero()
	}
	return strings.Join(s.ComposeFiles, "\x00") == strings.Join(t.ComposeFiles, "\x00") && s.Declarations == t.Declarations &&
		strings.Join(s.Profiles, "\x00") == strings.Join(t.Profiles, "\x00") &&
		strings.Join(s.EnvFiles, "\x00") == strings.Join(t.EnvFiles, "\x00") &&
		strings.Join(s.AllowDirs, "\x00") == strings.Join(t.AllowDirs, "\x00") &&
		s.HostProjectDirectory == t.HostProjectDirectory && s.VolumeRoot == t.VolumeRoot && s.Strict == t.Strict &&
		s.Layout == t.Layout && s.ProjectName == t.ProjectName && s.Survey == t.Survey
}

// String formats s as convert's flags would give it: "--volume-root /srv
// --strict"; "no flags" for none.
func (s *Settings) String() string {
	if s.IsZero() {
		return "no flags"
	}
	var parts []string
	for _, f := range s.ComposeFiles {
		parts = append(parts, "-f "+f)
	}
	if s.Declarations != "" {
		parts = append(parts, "--declarations "+s.Declarations)
	}
	for _, p := range s.Profiles {
		parts = append(parts, "--profile "+p)
	}
	for _, f := range s.EnvFiles {
		parts = append(parts, "--env-file "+f)
	}
	for _, d := range s.AllowDirs {
		parts = append(parts, "--allow-dir "+d)
	}
	if s.HostProjectDirectory != "" {
		parts = append(parts, "--host-project-directory "+s.HostProjectDirectory)
	}
	if s.VolumeRoot != "" {
		parts = append(parts, "--volume-root "+s.VolumeRoot)
	}
	if s.Strict {
		parts = append(parts, "--strict")
	}
	if s.Layout != "" {
		parts = append(parts, "--layout "+s.Layout)
	}
	if s.ProjectName != "" {
		parts = append(parts, "-p "+s.ProjectName)
	}
	if s.Survey != "" {
		parts = append(parts, "--survey "+s.Survey)
	}
	return strings.Join(parts, " ")
}

// Fingerprint is what a conversion depended on beyond its recorded
// sources, so that check --against can tell, without loading the compose
// files, that converting again would give the same manifest: the tool's
// conversion version, the image table, the variables of the environment
// the compose files may use, what the checkout showed at each bind source
// and at each file that would feed the conversion if it existed, and a
// digest of the manifest's own bytes.
type Fingerprint struct {
	// Conversion is the converter's version (convert.ConversionVersion):
	// it changes whenever the same inputs convert differently.
	Conversion int
	// Images is the sha256 of the image table the conversion used.
	Images string
	// Variables are the names of the variables the project's files may
	// use, sorted, and VariablesSHA256 the digest of their values in the
	// conversion's environment (see convert.VariablesDigest).
	Variables       []string
	VariablesSHA256 string
	// Checkout maps a path relative to the project directory ("./data",
	// "./.env") to what the checkout showed there (project.Evidence, as
	// SourceEvidence.String gives it): each relative bind source, and
	// each file that would feed the conversion had it existed.
	Checkout map[string]string
	// Uncarried counts the conversion's findings check --against reports
	// again (rules.ReportedAgainst): compose fields not carried and not
	// acknowledged (C2M007 warnings) and files left out (C2M025), as
	// errors, and services left out by their profiles (C2M019): it must
	// convert again to name them.
	Uncarried int
	// Warnings counts the conversion's other warnings (an unset
	// variable, a service left out by profiles, …): convert --batch keeps
	// an unchanged manifest instead of converting again only when there
	// are none to report.
	Warnings int
	// Body is the sha256 of the manifest's bytes as written, without the
	// line that records it (BodyDigest). Encode computes it; the value
	// held here is ignored when encoding.
	Body string
	Pos  Pos
}

// BodyDigest returns, for the bytes of a manifest, the body digest it
// records and the digest of the bytes without that line; ok is false when
// the manifest does not end with the line Encode writes (
// "  body: HEX" under fingerprint:). When the two digests are equal the
// bytes are exactly what a conversion wrote.
func BodyDigest(data []byte) (recorded, actual string, ok bool) {
	const prefix = "\n  body: "
	n := len(prefix) + 64 + 1
	if len(data) < n || data[len(data)-1] != '\n' || string(data[len(data)-n:len(data)-64-1]) != prefix {
		return "", "", false
	}
	hexPart := data[len(data)-65 : len(data)-1]
	if !hexDigestRE.Match(hexPart) {
		return "", "", false
	}
	sum := sha256.Sum256(data[:len(data)-n+1])
	return string(hexPart), hex.EncodeToString(sum[:]), true
}

// encodeSettings adds converted_with to root.
func encodeSettings(root *yaml.Node, s *Settings) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	list := func(key string, vs []string) {
		if len(vs) == 0 {
			return
		}
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, v := range vs {
			seq.Content = append(seq.Content, str(v))
		}
		n.Content = append(n.Content, str(key), seq)
	}
	list("compose_files", s.ComposeFiles)
	if s.Declarations != "" {
		addScalar(n, "declarations", s.Declarations, "!!str")
	}
	list("profiles", s.Profiles)
	list("env_files", s.EnvFiles)
	list("allow_dirs", s.AllowDirs)
	if s.HostProjectDirectory != "" {
		addScalar(n, "host_project_directory", s.HostProjectDirectory, "!!str")
	}
	if s.VolumeRoot != "" {
		addScalar(n, "volume_root", s.VolumeRoot, "!!str")
	}
	if s.Strict {
		addScalar(n, "strict", "true", "!!bool")
	}
	if s.Layout != "" {
		addScalar(n, "layout", s.Layout, "!!str")
	}
	if s.ProjectName != "" {
		addScalar(n, "project_name", s.ProjectName, "!!str")
	}
	if s.Survey != "" {
		addScalar(n, "survey", s.Survey, "!!str")
	}
	root.Content = append(root.Content, str("converted_with"), n)
}

// bodyPlaceholder stands for the body digest while the rest is encoded.
const bodyPlaceholder = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"

// encodeFingerprint adds fingerprint to root, with a placeholder for the
// body digest that setBody replaces.
func encodeFingerprint(root *yaml.Node, f *Fingerprint) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	addScalar(n, "conversion", strconv.Itoa(f.Conversion), "!!int")
	addScalar(n, "images", f.Images, "!!str")
	v := &yaml.Node{Kind: yaml.MappingNode}
	if len(f.Variables) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, name := range f.Variables {
			seq.Content = append(seq.Content, str(name))
		}
		v.Content = append(v.Content, str("names"), seq)
	}
	addScalar(v, "sha256", f.VariablesSHA256, "!!str")
	n.Content = append(n.Content, str("variables"), v)
	if len(f.Checkout) > 0 {
		c := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range slices.Sorted(maps.Keys(f.Checkout)) {
			addScalar(c, k, f.Checkout[k], "!!str")
		}
		n.Content = append(n.Content, str("checkout"), c)
	}
	if f.Uncarried > 0 {
		addScalar(n, "uncarried", strconv.Itoa(f.Uncarried), "!!int")
	}
	if f.Warnings > 0 {
		addScalar(n, "warnings", strconv.Itoa(f.Warnings), "!!int")
	}
	addScalar(n, "body", bodyPlaceholder, "!!str")
	root.Content = append(root.Content, str("fingerprint"), n)
}

// setBody replaces the placeholder of the last line of data with the
// digest of the rest.
func setBody(data []byte) ([]byte, error) {
	line := []byte("\n  body: " + bodyPlaceholder + "\n")
	if !bytes.HasSuffix(data, line) {
		return nil, fmt.Errorf("manifest: the fingerprint's body line is not last")
	}
	sum := sha256.Sum256(data[:len(data)-len(line)+1])
	copy(data[len(data)-len(line)+len("\n  body: "):], hex.EncodeToString(sum[:]))
	return data, nil
}

// settings reads converted_with.
func (d *decoder) settings(n *yaml.Node) *Settings {
	s := &Settings{Pos: d.pos(n)}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "converted_with must be a mapping of convert's settings; found %s", describe(n))
		return nil
	}
	list := func(v *yaml.Node, what string) []string {
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			d.errorf(v, "%s must be a non-empty list; found %s", what, describe(v))
			return nil
		}
		var out []string
		for _, item := range v.Content {
			if x, ok := d.str(item, what+" item"); ok {
				switch {
				case x == "":
					d.errorf(item, "%s item must not be empty", what)
				case what != "profiles" && strings.HasPrefix(x, "/"):
					d.errorf(item, "%s item %q must be a path relative to the project directory", what, x)
				}
				out = append(out, x)
			}
		}
		return out
	}
	for _, kv := range d.pairs(n) {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "compose_files":
			s.ComposeFiles = list(v, "compose_files")
		case "declarations":
			if x, ok := d.str(v, "declarations"); ok {
				if x == "" || strings.HasPrefix(x, "/") {
					d.errorf(v, "declarations %q must be a path relative to the project directory", x)
				}
				s.Declarations = x
			}
		case "profiles":
			s.Profiles = list(v, "profiles")
		case "env_files":
			s.EnvFiles = list(v, "env_files")
		case "allow_dirs":
			s.AllowDirs = list(v, "allow_dirs")
		case "host_project_directory", "volume_root":
			x, ok := d.str(v, k.Value)
			switch {
			case !ok:
			case PathLengthProblem(x) != "":
				d.errorf(v, "%s %s", k.Value, PathLengthProblem(x))
			case !ValidPath(x):
				d.errorf(v, "%s %q must be an absolute, clean path", k.Value, x)
			}
			if k.Value == "volume_root" {
				s.VolumeRoot = x
			} else {
				s.HostProjectDirectory = x
			}
		case "strict":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Value != "true" {
				d.errorf(v, "strict must be true (left out when not strict); found %s", describe(v))
			}
			s.Strict = true
		case "layout":
			if x, ok := d.str(v, "layout"); ok {
				if x != "fhs" {
					d.errorf(v, "layout %q: want fhs", x)
				}
				s.Layout = x
			}
		case "project_name":
			if x, ok := d.str(v, "project_name"); ok {
				if !ValidModule(x) {
					d.errorf(v, "project_name %q is not a compose project name", x)
				}
				s.ProjectName = x
			}
		case "survey":
			if x, ok := d.str(v, "survey"); ok {
				if x == "" || strings.HasPrefix(x, "/") {
					d.errorf(v, "survey %q must be a path relative to the project directory", x)
				}
				s.Survey = x
			}
		default:
			d.errorf(k, "unknown key %q in converted_with (want compose_files, declarations, profiles, env_files, allow_dirs, host_project_directory, volume_root, strict, layout, project_name or survey)", k.Value)
		}
	}
	return s
}

var hexDigestRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// fingerprint reads fingerprint.
func (d *decoder) fingerprint(n *yaml.Node) *Fingerprint {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "fingerprint must be a mapping; found %s", describe(n))
		return nil
	}
	f := &Fingerprint{Pos: d.pos(n)}
	digest := func(v *yaml.Node, what string) string {
		x, ok := d.str(v, what)
		if ok && !hexDigestRE.MatchString(x) {
			d.errorf(v, "%s must be a lowercase hex sha256; found %s", what, describe(v))
		}
		return x
	}
	integer := func(v *yaml.Node, what string) int {
		i, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil || i < 0 {
			d.errorf(v, "%s must be a whole number; found %s", what, describe(v))
		}
		return i
	}
	var sawBody bool
	for _, kv := range d.pairs(n) {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "conversion":
			f.Conversion = integer(v, "fingerprint conversion")
		case "images":
			f.Images = digest(v, "fingerprint images")
		case "variables":
			if v.Kind != yaml.MappingNode {
				d.errorf(v, "fingerprint variables must be a mapping of names and sha256; found %s", describe(v))
				continue
			}
			for _, kv := range d.pairs(v) {
				switch kv[0].Value {
				case "names":
					if kv[1].Kind != yaml.SequenceNode {
						d.errorf(kv[1], "fingerprint variables names must be a list; found %s", describe(kv[1]))
						continue
					}
					for _, item := range kv[1].Content {
						if x, ok := d.str(item, "variable name"); ok {
							f.Variables = append(f.Variables, x)
						}
					}
				case "sha256":
					f.VariablesSHA256 = digest(kv[1], "fingerprint variables sha256")
				default:
					d.errorf(kv[0], "unknown key %q in fingerprint variables (want names or sha256)", kv[0].Value)
				}
			}
		case "checkout":
			if v.Kind != yaml.MappingNode {
				d.errorf(v, "fingerprint checkout must be a mapping of paths to what the checkout showed; found %s", describe(v))
				continue
			}
			f.Checkout = map[string]string{}
			for _, kv := range d.pairs(v) {
				if x, ok := d.str(kv[1], "checkout "+kv[0].Value); ok {
					f.Checkout[kv[0].Value] = x
				}
			}
		case "uncarried":
			f.Uncarried = integer(v, "fingerprint uncarried")
		case "warnings":
			f.Warnings = integer(v, "fingerprint warnings")
		case "body":
			sawBody = true
			f.Body = digest(v, "fingerprint body")
		default:
			d.errorf(k, "unknown key %q in fingerprint (want conversion, images, variables, checkout, uncarried, warnings or body)", k.Value)
		}
	}
	if !sawBody {
		d.errorf(n, "fingerprint lacks body, the digest of the manifest")
	}
	return f
}
