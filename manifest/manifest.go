// Package manifest defines the module manifest, format version 1: the
// ordered list of resources a mesh host applies in the order written.
//
// A Module is plain data. Encode writes it deterministically (the same Module
// always gives the same bytes); Decode reads a manifest back strictly.
package manifest

import (
	"fmt"
	"path"
	"strings"
	"unicode"
)

// Version is the manifest format version this package reads and writes.
const Version = 1

// Module is one module manifest.
type Module struct {
	// Header is the text of the comment line written above the document,
	// without the leading "# ". Empty means no header.
	Header string
	// Version is the format version, always 1 for now.
	Version int
	// Module is the module's name.
	Module string
	// Sources are the files the manifest was made from, with their digests.
	Sources []Source
	// Roots are the directories outside the built-in data roots in which
	// the module may own paths (its host_project_directory, its
	// VOLUME_ROOT/MODULE and the declarations' roots:), as convert found
	// them, in order; written only when there are any. The rules judge
	// owned paths by them (C2M006) and judge each root itself.
	Roots []Root
	// ConvertedWith are the settings given to convert from outside the
	// project's files (its flags); nil or zero when none was. Written
	// after roots as converted_with.
	ConvertedWith *Settings
	// Resources are the declared paths, credentials and containers, in the
	// order the host applies them.
	Resources []Resource
	// Fingerprint is what the conversion depended on beyond its sources,
	// written last; nil for a manifest made otherwise.
	Fingerprint *Fingerprint
	// Pos is where the manifest itself was read from (Decode) or made from.
	Pos Pos
}

// Source names one input file of a conversion and its content digest.
type Source struct {
	// File is the path of the file relative to the project directory,
	// slash-separated.
	File string
	// SHA256 is the lowercase hex SHA-256 of the file's bytes as read.
	SHA256 string
	Pos    Pos
}

// Root is one entry of a manifest's roots list: an absolute, clean
// directory path.
type Root struct {
	Path string
	// Pos is where the root was given: the declarations line that set it
	// (convert) or the manifest line (Decode).
	Pos Pos
}

// RootPaths returns the paths of m's roots, in order.
func (m *Module) RootPaths() []string {
	out := make([]string, len(m.Roots))
	for i, r := range m.Roots {
		out[i] = r.Path
	}
	return out
}

// Kind is the kind of a resource: the key that names it in the manifest.
type Kind string

// The resource kinds of SPEC section 3.
const (
	KindDirectory  Kind = "directory"
	KindFile       Kind = "file"
	KindHost       Kind = "host"
	KindCredential Kind = "credential"
	KindContainer  Kind = "container"
)

// Kinds lists every resource kind in the order the writer prefers.
func Kinds() []Kind {
	return []Kind{KindDirectory, KindFile, KindHost, KindCredential, KindContainer}
}

// Declares reports whether a resource of kind k declares a host path
// (directory, file or host).
func (k Kind) Declares() bool {
	return k == KindDirectory || k == KindFile || k == KindHost
}

// Intent says what the data under a declared path is (SPEC section 4).
type Intent string

// The intents, named after systemd's exec directories.
const (
	IntentState   Intent = "state"
	IntentContent Intent = "content"
	IntentConfig  Intent = "config"
	IntentLogs    Intent = "logs"
	IntentCache   Intent = "cache"
	IntentRuntime Intent = "runtime"
)

// Intents lists every valid intent.
func Intents() []Intent {
	return []Intent{IntentState, IntentContent, IntentConfig, IntentLogs, IntentCache, IntentRuntime}
}

// Valid reports whether i is one of Intents.
func (i Intent) Valid() bool {
	for _, v := range Intents() {
		if i == v {
			return true
		}
	}
	return false
}

// Resource is one entry of a manifest's resources list. Kind says which of
// the other fields apply: Path, Owner, Mode, Intent, Note and ContentFrom for
// a directory or file; Path and Note for a host path; Name and Note for a
// credential; Container for a container.
type Resource struct {
	Kind Kind
	// Path is the absolute, clean host path of a directory, file or host
	// resource.
	Path string
	// Name is the name of a credential.
	Name string
	// Owner is "USER:GROUP", names or numeric ids.
	Owner string
	// Mode is 3 or 4 octal digits, such as "0750".
	Mode string
	// Intent is what the data is.
	Intent Intent
	// Note is free text from the author.
	Note string
	// ContentFrom names a file the module ships as the file's content.
	ContentFrom string
	// Target is where a credential is delivered inside its container.
	Target string
	// Container holds the fields of a container resource.
	Container *Container
	// Comment is the provenance comment written on the resource's first
	// line: "supplied: FILE", "produced: …".
	Comment string
	// Pos is where the resource came from: the compose file and line that
	// caused it (convert) or the manifest line (Decode).
	Pos Pos
	// Origin records, for a resource made by convert, the compose volume
	// that needed it. It is not written.
	Origin *Origin
	// VolumePos holds, for a container Decode read, the manifest line of
	// each of its volumes, in order (VolumeAt). It is not written.
	VolumePos []Pos
}

// VolumeAt returns where the container's i-th volume is written: its own
// line when Decode read it, else the resource's.
func (r *Resource) VolumeAt(i int) Pos {
	if i >= 0 && i < len(r.VolumePos) {
		return r.VolumePos[i]
	}
	return r.Pos
}

// Origin describes the compose source a declared resource was made for.
type Origin struct {
	// Source is the volume's source as the compose file writes it
	// (after interpolation), or the volume name.
	Source string
	// Services lists the services mounting it.
	Services []string
	// Legacy is where the data lives under Docker today: the Docker volume
	// name (PROJECT_NAME) for a named volume, the legacy host path for a
	// relocated bind.
	Legacy string
}

// Pos is a position in a file; Line is 1-based, 0 when unknown.
type Pos struct {
	File string
	Line int
}

// String formats p as FILE:LINE, FILE, or "".
func (p Pos) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line > 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	default:
		return p.File
	}
}

// Key returns the text that identifies r among a module's resources: the
// path of a declared path, the name of a credential or container.
func (r *Resource) Key() string {
	switch r.Kind {
	case KindCredential:
		return r.Name
	case KindContainer:
		if r.Container != nil {
			return r.Container.Name
		}
		return ""
	default:
		return r.Path
	}
}

// Declared returns the resources of m that declare host paths, in order.
func (m *Module) Declared() []*Resource {
	var out []*Resource
	for i := range m.Resources {
		if m.Resources[i].Kind.Declares() {
			out = append(out, &m.Resources[i])
		}
	}
	return out
}

// Containers returns the container resources of m, in order.
func (m *Module) Containers() []*Resource {
	var out []*Resource
	for i := range m.Resources {
		if m.Resources[i].Kind == KindContainer && m.Resources[i].Container != nil {
			out = append(out, &m.Resources[i])
		}
	}
	return out
}

// IsAncestor reports whether the slash path a is a proper ancestor of b.
// Both must be clean and absolute.
func IsAncestor(a, b string) bool {
	if a == b {
		return false
	}
	if a == "/" {
		return strings.HasPrefix(b, "/")
	}
	// b has a as a prefix followed by a slash, without building a+"/":
	// the rules ask this of every declared path against every system
	// subtree.
	return len(b) > len(a) && b[len(a)] == '/' && strings.HasPrefix(b, a)
}

// ValidPath reports whether p is an absolute, clean slash path with no ".."
// element, no trailing slash (other than "/" itself) and no control
// character (a newline or a tab in a host path is a mistake or an attack).
func ValidPath(p string) bool {
	if !strings.HasPrefix(p, "/") || path.Clean(p) != p || strings.Contains(p, "/../") {
		return false
	}
	for _, r := range p {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// ComparePaths orders slash paths component by component, so that every
// path sorts right after its ancestors: "/a" < "/a/b" < "/a-b".
func ComparePaths(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := strings.Compare(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}
