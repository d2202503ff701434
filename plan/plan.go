// Package plan is the migration plan: for every declared path whose data
// lives elsewhere today (a relocated bind, a Docker volume), where it is
// and where it goes, with the owner and mode the target is created with.
//
// A Plan is plain data. compose2manifest plan prints it as JSON or as a
// shell script a person reviews and runs; check --plan reads the JSON
// back to accept the moves it makes.
package plan

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// Version is the plan format's version.
const Version = 1

// Plan is every move of one run.
type Plan struct {
	Version int `json:"version"`
	// Project is the compose project name the legacy containers carry.
	Project string `json:"project,omitempty"`
	// DockerRoot is the legacy host's Docker data root, where a Docker
	// volume's data lives (DOCKER_ROOT/volumes/NAME/_data).
	DockerRoot string `json:"docker_root,omitempty"`
	// Parents are the directories above the targets and Directories that
	// nothing declares, parent first: the script creates each that is
	// missing as the host would (root, 0755; C2M011 warns of them) and
	// leaves each that exists as it is.
	Parents []string `json:"parents,omitempty"`
	// Directories are the declared directories above the targets, parent
	// first, created before the moves.
	Directories []Directory `json:"directories,omitempty"`
	Moves       []Move      `json:"moves"`
	// Unlocated are the declared paths whose data the plan cannot find.
	Unlocated []Unlocated `json:"unlocated,omitempty"`
}

// Move is the data of one declared path: copied from From to To.
type Move struct {
	Module string `json:"module"`
	// From is where the data lives today, To the declared path.
	From string `json:"from"`
	To   string `json:"to"`
	// Kind is directory or file; Owner, Mode and Intent are the
	// declaration's.
	Kind   manifest.Kind   `json:"kind"`
	Owner  string          `json:"owner"`
	Mode   string          `json:"mode"`
	Intent manifest.Intent `json:"intent"`
	// Legacy says what From is: "Docker volume mail_dbdata", "bind
	// ./data", "anonymous volume of postfix:/var/lib/postfix".
	Legacy string `json:"legacy,omitempty"`
	// Root is the folder of the legacy host that From lies in and that
	// no container wrote: the legacy project directory for a relative
	// bind, DOCKER_ROOT/volumes for a volume, the outermost source above
	// From for an absolute bind. The script refuses From when a component
	// below Root is a symbolic link. "" is From itself.
	Root string `json:"root,omitempty"`
	// Anonymous, when set, is the anonymous volume whose data moves, to be
	// found when the script runs: the volume that the one container of the
	// service in the legacy project mounts at the target, named by docker
	// container inspect. From is then "".
	Anonymous *Anonymous `json:"anonymous,omitempty"`
	// Within are the module's declared directories and files inside To,
	// parent first: the copy brings their data, and the script then gives
	// each that the copy holds its declared owner and mode, which the
	// comparison with the source leaves out.
	Within []Inside `json:"within,omitempty"`
}

// Inside is a declared directory or file inside a move's target.
type Inside struct {
	Path  string        `json:"path"`
	Kind  manifest.Kind `json:"kind"`
	Owner string        `json:"owner"`
	Mode  string        `json:"mode"`
}

// Anonymous names an anonymous volume by what mounts it: a service of the
// legacy project and the container path.
type Anonymous struct {
	Service string `json:"service"`
	Target  string `json:"target"`
}

// Planned reports whether p moves the data of from to to.
func (p *Plan) Planned(from, to string) bool {
	for _, m := range p.Moves {
		if m.From == from && m.To == to {
			return true
		}
	}
	return false
}

// Read reads a plan as Plan's JSON, a regular file of at most
// manifest.MaxSize bytes, strictly (unknown fields are errors).
func Read(path string) (*Plan, error) {
	data, err := fsread.File("plan", path, manifest.MaxSize)
	if err != nil {
		return nil, err
	}
	var p Plan
	if err := strictJSON(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if p.Version != Version {
		return nil, fmt.Errorf("%s: plan version %d, want %d", path, p.Version, Version)
	}
	for i, m := range p.Moves {
		switch {
		case m.Anonymous != nil && (m.From != "" || m.Anonymous.Service == "" || !manifest.ValidPath(m.Anonymous.Target) || p.Project == "" || !manifest.ValidPath(p.DockerRoot)):
			return nil, fmt.Errorf("%s: move %d: an anonymous volume found at run time has no from, a service, an absolute target, and the plan's project and docker_root", path, i+1)
		case m.Anonymous == nil && !manifest.ValidPath(m.From), !manifest.ValidPath(m.To):
			return nil, fmt.Errorf("%s: move %d: from and to must be absolute, clean paths", path, i+1)
		}
	}
	for i, d := range p.Directories {
		if !manifest.ValidPath(d.Path) {
			return nil, fmt.Errorf("%s: directory %d: the path must be absolute and clean", path, i+1)
		}
	}
	for i, d := range p.Parents {
		if !manifest.ValidPath(d) {
			return nil, fmt.Errorf("%s: parent %d: the path must be absolute and clean", path, i+1)
		}
	}
	return &p, nil
}

// strictJSON decodes one JSON value into v, refusing unknown fields and
// anything after the value.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}
