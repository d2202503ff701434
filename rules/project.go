package rules

import (
	"fmt"
	"iter"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
)

// ProjectPass is what a rule's CheckProject receives: a compose project
// as project.Load read it, and what convert built of it. Report fills in
// Rule, and Severity as Rule.Also says.
type ProjectPass struct {
	// Project is the one reading of the compose files. Its Compose model
	// is nil when compose-go could not load it; the facts of the raw
	// reading (UnsetVariables) are there all the same.
	Project *project.Project
	// Mounts are the mounts of the services convert converts, services in
	// name order, each service's volumes, tmpfs and file configs in order.
	Mounts []project.Mount
	// Declarations are the declarations convert used, merged from the
	// sidecar file and x-compose2manifest; nil when there are none.
	Declarations *declare.File
	// Unapplied are declarations written where they take no effect: a
	// setting of x-compose2manifest the sidecar file gives otherwise, an
	// x-compose2manifest of an included compose file.
	Unapplied []Unapplied
	// Placements are the sources that need a declaration, in the order
	// convert found them.
	Placements []placement.Placement
	// NotCarried are the compose fields the manifest does not carry.
	NotCarried []placement.Field
	// ProfilesLeftOut are the services that the profiles docker compose
	// enables in the project directory without --profile
	// (DefaultProfiles, COMPOSE_PROFILES) bring in, and that the profiles
	// convert was given leave out; nil when convert was given none.
	ProfilesLeftOut, DefaultProfiles []string
	// EnvDisabled reports that docker compose reads no env file in the
	// project directory without --env-file (COMPOSE_DISABLE_ENV_FILE),
	// while convert was given some.
	EnvDisabled bool
	// FilesReordered reports that convert was given -f naming the files
	// docker compose reads without it, in another order.
	FilesReordered bool
	// DefaultEnvFiles are the env files docker compose reads in the
	// project directory without --env-file, absolute, when convert was
	// given others; nil otherwise.
	DefaultEnvFiles []string
	// FilesRead are the compose files docker compose reads in the project
	// directory without -f (project.ReadWithoutFlags), absolute, and
	// FilesLeftOut those the files convert was given with -f leave out
	// (project.Project.FilesAgainst); nil when convert was not given -f.
	FilesRead, FilesLeftOut []string
	// FilesBy says what chose the compose files converted: "-f", or
	// "compose_files: in the declarations" (judged as -f is).
	FilesBy string
	// Unmatched are the declaration items that match nothing.
	Unmatched []placement.Unmatched
	// Secrets are the environment variables of the converted services
	// that look like plaintext secrets or that credentials: delivers, in
	// service and variable order.
	Secrets []EnvSecret
	// ImageVolumes are the VOLUME paths the services' images declare
	// (the image table's volumes: rows) that no mount of the service
	// covers and no declaration or acknowledgement settles, in service
	// order.
	ImageVolumes []ImageVolume
	// ShadowedFiles are the file configs and secrets a volume of their
	// service mounts over, in service order.
	ShadowedFiles []ShadowedFile
	Report        func(Diagnostic)
}

// ShadowedFile is a config or secret with a file: whose target a volume
// of the same service mounts too: docker compose mounts the volume and
// not the config or secret, and so does the manifest (C2M005, a
// warning).
type ShadowedFile struct {
	// What is "config" or "secret"; Name its name.
	What, Service, Name, Target string
	// File is its file as written; Volume the volume's source as the
	// compose file writes it.
	File, Volume string
	// Pos is the service's configs: or secrets:, VolumePos the volume's
	// entry.
	Pos, VolumePos manifest.Pos
}

// checkShadowedFiles is C2M005's warning for a config or secret a volume
// mounts over (ShadowedFile).
func checkShadowedFiles(p *ProjectPass) {
	for _, s := range p.ShadowedFiles {
		d := Diagnostic{File: s.Pos.File, Line: s.Pos.Line, Service: s.Service, Target: s.Target, Severity: Warning,
			Message: fmt.Sprintf("%s %q (%s) and volume %q are both mounted at %s: docker compose mounts the volume there and not the %s (a volume wins over a config or secret at its target), and so does the manifest; remove the %s, or give it another target", s.What, s.Name, s.File, s.Volume, s.Target, s.What, s.What)}
		d.relate(s.VolumePos, "the volume mounted at "+s.Target)
		p.Report(d)
	}
}

// ImageVolume is a VOLUME path of a service's image that nothing mounts:
// the runtime would create an anonymous volume there (C2M024).
type ImageVolume struct {
	Service, Image, Path string
	// Row names the image table row ("postgres table.yaml:895") and
	// Source its source URL.
	Row, Source string
	// Pos is the service's image: (or the service's definition).
	Pos manifest.Pos
	// Unversioned is set when the image's tag names no major version and
	// Path is the VOLUME of some versions (images.Volume.Unversioned).
	Unversioned bool
}

// EnvSecret is an environment variable convert judged for C2M015: a
// literal value that looks like a secret (LooksLikeSecret), or a variable
// the declarations' credentials: deliver as a credential.
type EnvSecret struct {
	Service, Variable string
	// Image is the service's image.
	Image string
	// Credential is the credential credentials: names for it, with the
	// position of that item; "" when none.
	Credential    string
	CredentialPos manifest.Pos
	// FileEnv names the image table row saying the image reads
	// VARIABLE_FILE ("postgres table.yaml:905"); "" when the table does
	// not say so.
	FileEnv string
	// AsEnvironment is set for a credential the host sets the variable
	// from (the image is not known to read VARIABLE_FILE, and acknowledge
	// does not name SERVICE.credentials.VARIABLE).
	AsEnvironment bool
	// Acknowledged is set when acknowledge names
	// SERVICE.environment.VARIABLE (no credential: the value is carried)
	// or SERVICE.credentials.VARIABLE (a credential the table does not
	// say the image reads from a file).
	Acknowledged bool
	// Field, when set, is a field of the container ("command",
	// "environment DATABASE_URL", "configs NAME content") that carries a
	// value known to be a secret: the value of Of ("environment
	// POSTGRES_PASSWORD of service db", or a secret-looking variable of
	// the project environment). The value is masked out of it and the
	// module refused; no acknowledgement carries it. Of without Field is
	// a variable whose whole value is that secret: settled like a
	// secret-looking variable (credentials: or acknowledge:).
	Field, Of string
	// Config, when set, is a config whose environment: is Variable, a
	// secret-looking variable: refused, not carried.
	Config string
	// SameAs, when set for a literal value, is the credential that
	// delivers the same secret to SameAsItem (SERVICE.VARIABLE, the
	// credentials: item at SameAsPos): a credential's value is nowhere
	// else in plaintext, so the variable is refused even when
	// acknowledged, and the way out is the same credential.
	SameAs, SameAsItem string
	SameAsPos          manifest.Pos
	// Differs, when set for a credential, is an earlier credentials: item
	// (SERVICE.VARIABLE, at DiffersPos) that gives the same credential to
	// a variable of another value: one credential holds one value, so
	// the module is refused.
	Differs    string
	DiffersPos manifest.Pos
	// Pos is where to report Field or Config (the service, the config).
	Pos manifest.Pos
}

// AckDisposableNote is the container comment's note that the image's
// VOLUME at target is a tmpfs because acknowledge names
// SERVICE.volumes.TARGET.disposable.
func AckDisposableNote(target string) string {
	return "acknowledged: image VOLUME " + target + " disposable, mounted as a tmpfs"
}

// checkImageVolume is C2M024: a VOLUME path of the image that no mount
// covers, which the runtime would make an anonymous volume.
func checkImageVolume(p *ProjectPass) {
	for _, v := range p.ImageVolumes {
		key := declare.AnonymousKey(v.Service, v.Path)
		what := "declares"
		if v.Unversioned {
			what = "names no major version, so the tool cannot tell its VOLUME; some versions declare"
		}
		msg := fmt.Sprintf("image %s %s VOLUME %s (%s, %s) and no volume of the service mounts it: the runtime would create an anonymous volume there, data outside every declaration; declare it under anonymous: (%q: {owner, mode, intent}) or acknowledge %s.volumes.%s.disposable to mount a tmpfs",
			v.Image, what, v.Path, v.Row, v.Source, key, v.Service, v.Path)
		if v.Unversioned {
			msg += "; or pin a major version in the tag, which says which VOLUME it has"
		}
		p.Report(Diagnostic{File: v.Pos.File, Line: v.Pos.Line, Service: v.Service, Target: v.Path, Message: msg})
	}
}

// The phrases convert writes in a container's comment for what was
// acknowledged, which check reads back (it trusts the comment, as it
// trusts provenance comments).
const (
	ackPlaintext  = "acknowledged: plaintext environment "
	ackCredential = "acknowledged: credential file for "
)

// AckPlaintextNote is the container comment's note that variable is
// carried in plaintext because acknowledge says so.
func AckPlaintextNote(variable string) string { return ackPlaintext + variable }

// AckCredentialNote is the container comment's note that variable's
// credential is named by VARIABLE_FILE though the image table does not say
// the image reads it.
func AckCredentialNote(variable string) string { return ackCredential + variable }

// commentNotes returns the notes of a comment written "a; b; c".
func commentNotes(comment string) []string {
	if i := strings.Index(comment, " #"); i >= 0 {
		comment = comment[:i] // a further comment on the line
	}
	var out []string
	for _, n := range strings.Split(comment, ";") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// hasNote reports whether comment holds the note.
func hasNote(comment, note string) bool {
	for _, n := range commentNotes(comment) {
		if n == note {
			return true
		}
	}
	return false
}

// RunProject runs every rule of list with a CheckProject over p and
// returns the diagnostics in rule order, then in report order.
func RunProject(list []*Rule, p *ProjectPass) []Diagnostic {
	var out []Diagnostic
	for _, r := range list {
		if r.CheckProject == nil {
			continue
		}
		pass := *p
		pass.Report = reporter(r, "", &out)
		r.CheckProject(&pass)
	}
	return out
}

// mountDiag builds a diagnostic at a mount's position, naming its service,
// source and target.
func mountDiag(m project.Mount, format string, args ...any) Diagnostic {
	return Diagnostic{File: m.Pos.File, Line: m.Pos.Line, Service: m.Service, Source: m.Display(), Target: m.Target,
		Message: fmt.Sprintf(format, args...)}
}

// checkUnsupportedMount is C2M010: npipe, cluster and image volumes, other
// drivers, driver_opts other than a local bind.
func checkUnsupportedMount(p *ProjectPass) {
	shared := map[string][]project.Mount{} // tmpfs volume -> its mounts
	var tmpfsVolumes []string
	for _, m := range p.Mounts {
		if m.Kind == project.Unsupported {
			p.Report(mountDiag(m, "%s cannot be expressed by the mesh", m.Why))
		}
		if n := replicas(p, m.Service); m.Kind == project.Anonymous && n > 1 {
			p.Report(mountDiag(m, "service %q runs %d replicas, and docker gives each its own anonymous volume at %s; the mesh would mount one declared directory into all of them (several processes writing one data directory), which it cannot express: declare a named volume to share one knowingly, or run one replica", m.Service, n, m.Target))
		}
		if m.Kind == project.Tmpfs && m.Volume != "" {
			if shared[m.Volume] == nil {
				tmpfsVolumes = append(tmpfsVolumes, m.Volume)
			}
			shared[m.Volume] = append(shared[m.Volume], m)
		}
	}
	// Docker mounts a tmpfs volume once and shares it between every
	// container that mounts it; the manifest's tmpfs is one container's
	// own, so files one writes (a socket, say) the other would not see.
	for _, name := range tmpfsVolumes {
		ms := shared[name]
		if len(ms) < 2 {
			continue
		}
		var where []string
		for _, m := range ms {
			where = append(where, fmt.Sprintf("%q at %s", m.Service, m.Target))
		}
		p.Report(mountDiag(ms[0], "tmpfs volume %q is mounted by %s: docker shares one tmpfs between them, and the mesh cannot express a tmpfs shared between mounts (each would get its own); remove its driver_opts and declare it under volumes: (intent runtime) so both mount one host directory", name, strings.Join(where, " and ")))
	}
}

// checkSameDockerVolume is C2M005 in convert: two named volumes of the
// project that are one Docker volume (name: gives both the same name):
// docker mounts that one volume wherever either is mounted, and two
// declarations would make two host paths of it, the services no longer
// sharing their data.
func checkSameDockerVolume(p *ProjectPass) {
	first := map[string]*placement.Placement{}
	for i := range p.Placements {
		pl := &p.Placements[i]
		if pl.Section != declare.SectionVolumes || pl.Legacy == "" {
			continue
		}
		if f, ok := first[pl.Legacy]; ok && f.Key != pl.Key {
			d := placementDiag(pl, false, fmt.Sprintf("named volumes %q and %q are the one Docker volume %q (name:): docker mounts that one volume for both, and two declarations would make two host paths of it, the services no longer sharing their data; use one key for both", f.Key, pl.Key, strings.TrimPrefix(pl.Legacy, "Docker volume ")))
			d.relate(f.First().Pos, "the other key of that Docker volume")
			p.Report(d)
			continue
		}
		first[pl.Legacy] = pl
	}
}

// checkProjectPaths is C2M005 in convert: what one project's sources
// would make of one another's data on the host.
func checkProjectPaths(p *ProjectPass) {
	checkSameDockerVolume(p)
	checkSameData(p)
	checkApartData(p)
	checkExternalVolume(p)
	checkHostVolume(p)
	checkShadowedFiles(p)
}

// checkHostVolume is C2M005's warning in convert for a named volume
// declared kind: host at a path: the module uses that path and never owns
// it, so its plan copies nothing of the Docker volume; the data reaches
// the path only through the module that owns it there (a batch of the
// projects sharing the volume says which), or a person.
func checkHostVolume(p *ProjectPass) {
	if p.Project == nil || p.Project.Compose == nil {
		return
	}
	for i := range p.Placements {
		pl := &p.Placements[i]
		v, ok := p.Project.Compose.Volumes[pl.Key]
		if pl.Section != declare.SectionVolumes || !ok || pl.Entry == nil || pl.Entry.Kind != declare.KindHost || pl.HostPath == "" || pl.KindConflict != "" {
			continue
		}
		name := v.Name
		if name == "" {
			name = pl.Key
		}
		d := placementDiag(pl, false, fmt.Sprintf("volume %s is declared kind: host at %s: this module uses that path and never owns it, and its plan copies nothing of the Docker volume %q; the module that owns %s copies it (convert the projects that share the volume in one batch to see which), or a person does", pl.Key, pl.HostPath, name, pl.HostPath))
		d.Severity = Warning
		p.Report(d)
	}
}

// checkExternalVolume is C2M005's warning in convert for a named volume
// declared external: docker compose does not create it, other projects
// (or containers outside compose) may mount the same Docker volume, and
// the manifest makes a directory of it that this module owns and plan
// copies: the others would go on writing to the Docker volume, and the
// two drift apart. A batch that converts every project sharing it refuses
// two owners; a single conversion can only say so. The others then
// declare the volume kind: host at the owner's path, which they use and
// never own; this warning is not given for those.
func checkExternalVolume(p *ProjectPass) {
	if p.Project == nil || p.Project.Compose == nil {
		return
	}
	for i := range p.Placements {
		pl := &p.Placements[i]
		v, ok := p.Project.Compose.Volumes[pl.Key]
		if pl.Section != declare.SectionVolumes || !ok || !bool(v.External) || pl.HostPath == "" {
			continue
		}
		if pl.Entry != nil && pl.Entry.Kind == declare.KindHost {
			continue // another's path, used and never owned (C2M005 across modules says whose)
		}
		name := v.Name
		if name == "" {
			name = pl.Key
		}
		d := placementDiag(pl, false, fmt.Sprintf("volume %s is external (the Docker volume %q, made outside this project, which other projects may mount too): the manifest makes it %s, a directory this module owns, and plan copies it there; where others share it, convert them in one batch (two owners are refused) and let one own it, the others declare it kind: host at its path ({kind: host, path: %s})", pl.Key, name, pl.HostPath, pl.HostPath))
		d.Severity = Warning
		p.Report(d)
	}
}

// checkSameData is C2M005 in convert: a bind source that is another
// one's directory, or lies inside it, in the checkout (./data/sub inside
// ./data, or ./current a symbolic link to ./data) is one tree docker
// mounts for both, and it must land where the other's data lands on the
// target host (./data's place, then /sub): anywhere else, the manifest
// would make two directories of it, and plan two copies, the services no
// longer sharing their data.
func checkSameData(p *ProjectPass) {
	var binds []*placement.Placement
	for i := range p.Placements {
		if pl := &p.Placements[i]; pl.Section == declare.SectionBinds && pl.Real != "" && pl.HostPath != "" {
			binds = append(binds, pl)
		}
	}
	// Outer trees first, and of one tree the source written as it is.
	sort.SliceStable(binds, func(i, j int) bool {
		a, b := binds[i], binds[j]
		if a.Real != b.Real {
			return len(a.Real) < len(b.Real)
		}
		return (a.Key == a.Real) && (b.Key != b.Real)
	})
	clean := make([]string, len(binds))
	for i, b := range binds {
		clean[i] = path.Clean(b.Real)
	}
	for j, in := range binds {
		for k, out := range binds[:j] {
			rel, ok := declare.BindWithinClean(clean[k], clean[j])
			if out.Real == in.Real {
				rel, ok = ".", true
			}
			if !ok {
				continue
			}
			want := path.Join(out.HostPath, rel)
			if in.HostPath == want {
				break
			}
			how := fmt.Sprintf("lies inside bind %s", out.Key)
			if in.Real != declare.NormalizeBind(in.Key) {
				how = fmt.Sprintf("is %s in the checkout (symbolic links followed)", in.Real)
				if rel != "." {
					how += ", inside bind " + out.Key
				} else if out.Key != in.Real {
					how += ", as bind " + out.Key + " is"
				}
			}
			fix := fmt.Sprintf("declare its path: %s", want)
			if in.Entry != nil && in.Entry.Path != "" {
				fix = fmt.Sprintf("remove its path: (or declare %s) so it lands inside", want)
			}
			if rel == "." {
				fix = "mount one source for both in the compose file"
			}
			d := placementDiag(in, false, fmt.Sprintf("bind %s %s, which docker mounts as one tree: it would land at %s, apart from %s where that data goes, and the two would no longer share it; %s", in.Key, how, in.HostPath, want, fix))
			d.relate(out.First().Pos, "the bind whose data it is")
			p.Report(d)
			break
		}
	}
}

// checkApartData is C2M005 for the converse of checkSameData: a source
// docker keeps apart from another (a named volume, or a bind that is not
// inside the other in the checkout) that lands inside the other's host
// directory. On the host the containers that mount the outer directory
// would see the inner source's data, and could change or delete it: a
// database inside an application's data folder.
func checkApartData(p *ProjectPass) {
	var owned []*placement.Placement
	for i := range p.Placements {
		pl := &p.Placements[i]
		if pl.HostPath == "" || (pl.Entry != nil && pl.Entry.Kind == declare.KindHost) || pl.HostProduced {
			continue
		}
		owned = append(owned, pl)
	}
	for _, in := range owned {
		var holder *placement.Placement
		for _, out := range owned {
			if out == in || !manifest.IsAncestor(out.HostPath, in.HostPath) {
				continue
			}
			if out.Real != "" && in.Real != "" {
				if _, ok := declare.BindWithin(out.Real, in.Real); ok {
					continue // one tree in the checkout too (checkSameData)
				}
			}
			if holder == nil || len(out.HostPath) > len(holder.HostPath) {
				holder = out
			}
		}
		if holder == nil {
			continue
		}
		var where []string
		for _, m := range holder.Mounts {
			where = append(where, fmt.Sprintf("service %q at %s", m.Service, m.Target))
		}
		d := placementDiag(in, false, fmt.Sprintf("%s would land at %s, inside %s, where %s lands (mounted by %s): docker keeps the two apart, but on the host those containers would see its data and could change or delete it; give it a path outside %s",
			describePlacement(in), in.HostPath, holder.HostPath, describePlacement(holder), strings.Join(slices.Compact(where), ", "), holder.HostPath))
		d.relate(holder.First().Pos, "the source whose directory holds it")
		p.Report(d)
	}
}

// describePlacement names a placement's source as messages do: bind
// ./data, volume pg, anonymous volume of service db at /data.
func describePlacement(pl *placement.Placement) string {
	switch pl.Section {
	case declare.SectionBinds:
		return "bind " + pl.Key
	case declare.SectionVolumes:
		return "volume " + pl.Key
	}
	m := pl.First()
	return fmt.Sprintf("the anonymous volume of service %q at %s", m.Service, m.Target)
}

// replicas returns how many containers of service docker compose runs
// (deploy.replicas, or scale), 1 when neither says.
func replicas(p *ProjectPass, service string) int {
	if p.Project == nil || p.Project.Compose == nil {
		return 1
	}
	svc, ok := p.Project.Compose.Services[service]
	switch {
	case !ok:
		return 1
	case svc.Scale != nil:
		return *svc.Scale
	case svc.Deploy != nil && svc.Deploy.Replicas != nil:
		return *svc.Deploy.Replicas
	}
	return 1
}

// checkMountOptions is C2M012: volume options the manifest cannot carry,
// and, as warnings, an option acknowledge drops knowingly,
// create_host_path: false and a long-syntax tmpfs mode written as an
// integer that reads as octal too.
func checkMountOptions(p *ProjectPass) {
	var noOps []project.Mount // mounts with an option docker ignores on Linux
	for _, m := range p.Mounts {
		if slices.ContainsFunc(m.Options, noOpOption) {
			noOps = append(noOps, m)
		}
		if m.NoCreate {
			d := mountDiag(m, "bind create_host_path: false wanted a failure when the source is missing; the mesh host creates every declared directory instead")
			d.Severity = Warning
			p.Report(d)
		}
		for _, o := range m.Options {
			name := declare.OptionName(o)
			switch {
			case noOpOption(o):
			case p.Declarations.AcknowledgesOption(m.Service, m.Target, name):
				d := mountDiag(m, "volume option %q acknowledged: not carried by the manifest (acknowledge %s.volumes.%s.%s)", o, m.Service, m.Target, name)
				d.Severity, d.Acknowledged = Warning, true
				p.Report(d)
			case name != "":
				d := mountDiag(m, "volume option %q cannot be carried by the manifest; remove it, or acknowledge %s.volumes.%s.%s to drop it knowingly", o, m.Service, m.Target, name)
				d.Cause = fmt.Sprintf("volume option %q cannot be carried by the manifest; remove it from the compose file, or acknowledge *.volumes.*.%s to drop it knowingly from every mount", name, name)
				p.Report(d)
			default:
				p.Report(mountDiag(m, "volume option %q cannot be carried by the manifest", o))
			}
		}
		if m.DecimalMode != "" && m.Tmpfs != nil {
			d := mountDiag(m, "tmpfs at %s: mode: %s is a YAML integer, which docker compose reads as decimal %s, that is octal %s (the manifest carries mode %q, what docker compose applies), not octal %s; write mode: 0o%s for octal %s, or mode: 0o%s to keep what docker compose applies today",
				m.Target, m.DecimalMode, m.DecimalMode, m.Tmpfs.Mode, m.Tmpfs.Mode, m.DecimalMode, m.DecimalMode, m.DecimalMode, m.Tmpfs.Mode)
			d.Severity = Warning
			p.Report(d)
		}
	}
	reportNoOpOptions(p, noOps)
	checkDecimalModes(p)
}

// checkDecimalModes is C2M012's warning for a secret's, config's or build
// secret's mode: written as an integer whose digits read as octal too
// (project.DecimalMode): docker compose reads it as decimal.
func checkDecimalModes(p *ProjectPass) {
	if p.Project == nil || p.Project.Compose == nil {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(p.Project.Compose.Services)) {
		for _, m := range p.Project.DecimalModes(p.Project.Compose.Services[name]) {
			what, carried := "secret", fmt.Sprintf("the manifest carries mode \"%04o\", what docker compose reads", m.Mode)
			switch {
			case m.Field == "build.secrets":
				what, carried = "build secret", "the manifest carries no build"
			case m.Field == "configs" && p.Project.Compose.Configs[m.Source].File != "":
				what, carried = "config", "the manifest does not carry it: a file config is a bind of its declared file, whose declared mode applies"
			case m.Field == "configs":
				what = "config"
			}
			meant, _ := strconv.ParseInt(m.Written, 8, 64) // its digits are octal (project.DecimalModes)
			p.Report(Diagnostic{File: m.Pos.File, Line: m.Pos.Line, Service: m.Service, Severity: Warning,
				Message: fmt.Sprintf("%s %q: mode: %s is a YAML integer, which docker compose reads as decimal %s, that is octal %04o, not octal %04o (%s); write mode: 0o%s for octal %04o, or mode: 0o%o to keep what docker compose reads today",
					what, m.Source, m.Written, m.Written, m.Mode, meant, carried, m.Written, meant, m.Mode)})
		}
	}
}

// noOpOption reports whether a volume option as project.Mount.Options
// writes it is one docker ignores on Linux: cached, delegated and
// consistent (short syntax) or consistency: (long syntax), which tuned
// Docker Desktop's file sharing on macOS.
func noOpOption(o string) bool {
	switch o {
	case "cached", "delegated", "consistent":
		return true
	}
	return strings.HasPrefix(o, "consistency: ")
}

// reportNoOpOptions says once, at the first of ms, that the options
// docker ignores on Linux are not carried; the other mounts that write
// one are its related positions.
func reportNoOpOptions(p *ProjectPass, ms []project.Mount) {
	if len(ms) == 0 {
		return
	}
	var opts []string
	for _, m := range ms {
		for _, o := range m.Options {
			if noOpOption(o) && !slices.Contains(opts, strconv.Quote(o)) {
				opts = append(opts, strconv.Quote(o))
			}
		}
	}
	msg := fmt.Sprintf("volume option %s is a no-op on Linux: docker ignores it (it tunes Docker Desktop's file sharing on macOS), and the manifest carries nothing for it", opts[0])
	if len(opts) > 1 {
		msg = fmt.Sprintf("volume options %s are no-ops on Linux: docker ignores them (they tune Docker Desktop's file sharing on macOS), and the manifest carries nothing for them", strings.Join(opts, ", "))
	}
	if len(ms) > 1 {
		msg += fmt.Sprintf(" (written by %d mounts)", len(ms))
	}
	d := mountDiag(ms[0], "%s", msg)
	d.Severity = Warning
	for _, m := range ms[1:] {
		d.relate(m.Pos, fmt.Sprintf("service %q at %s writes one too", m.Service, m.Target))
	}
	p.Report(d)
}

// checkUnreadBind is C2M013 for a bind whose compose file was not read a
// second time: where its source is cannot be told.
func checkUnreadBind(p *ProjectPass) {
	for _, m := range p.Mounts {
		if m.Kind == project.Unread {
			d := mountDiag(m, "the compose file that writes this bind was not found or not read, so whether its source is relative, in a home directory or absolute is unknown; name the file with -f")
			d.Source = ""
			p.Report(d)
		}
	}
}

// platformVariables are the variables an app platform sets when it runs
// a compose file of its own (known by a top-level extension), where
// docker compose run by hand sets none: a fact about where the data was,
// offered in C2M014's message, never used unasked.
var platformVariables = []struct {
	// extension is the top-level extension of a compose file that says
	// the platform, or "" for a project.Project.Platform of that name.
	variable, extension, platform string
	// value is what the platform sets: "" for the project's name, and
	// {app} stands for the app's folder name.
	value  string
	source string
}{
	// LoadComposeAppFromConfigFile loads the app with ProjectName appID
	// and the environment AppID=appID, and baseInterpolationMap's PUID
	// and PGID (common.DefaultPUID, DefaultPGID).
	{"AppID", "x-casaos", "CasaOS", "", "https://github.com/IceWhaleTech/CasaOS-AppManagement/blob/debfa317f0f996b91b43210e8d57799461388704/service/compose_app.go#L898-L922"},
	{"PUID", "x-casaos", "CasaOS", "1000", "https://github.com/IceWhaleTech/CasaOS-AppManagement/blob/debfa317f0f996b91b43210e8d57799461388704/service/compose_service.go#L200-L208"},
	{"PGID", "x-casaos", "CasaOS", "1000", "https://github.com/IceWhaleTech/CasaOS-AppManagement/blob/debfa317f0f996b91b43210e8d57799461388704/service/compose_service.go#L200-L208"},
	// The legacy app script exports these for each app, UMBREL_ROOT being
	// umbreld's data directory, /home/umbrel/umbrel by default
	// (packages/umbreld/source/modules/cli-client.ts).
	{"APP_DATA_DIR", "", project.PlatformUmbrel, "/home/umbrel/umbrel/app-data/{app}", umbrelAppScript},
	{"APP_ID", "", project.PlatformUmbrel, "{app}", umbrelAppScript},
	{"TOR_DATA_DIR", "", project.PlatformUmbrel, "/home/umbrel/umbrel/tor/data", umbrelAppScript},
	{"UMBREL_ROOT", "", project.PlatformUmbrel, "/home/umbrel/umbrel", "https://github.com/getumbrel/umbrel/blob/2a479429c5a9107d92dd4aefd8493b326e547492/packages/umbreld/source/modules/cli-client.ts#L11"},
}

// umbrelAppScript is where umbrelOS sets the variables of an app.
const umbrelAppScript = "https://github.com/getumbrel/umbrel/blob/2a479429c5a9107d92dd4aefd8493b326e547492/packages/umbreld/source/modules/apps/legacy-compat/app-script#L200-L218"

// platformValue says, for an unset variable name of project l, the value
// the platform its compose file is written for runs it with
// (platformVariables), as a clause to add to C2M014's message; "" when
// none is known.
func platformValue(l *project.Project, name string) string {
	if l == nil {
		return ""
	}
	for _, v := range platformVariables {
		if v.variable != name {
			continue
		}
		value, what, known := v.value, v.value, ""
		switch {
		case v.extension == "" && l.Platform == v.platform:
			app := filepath.Base(l.Dir)
			value = strings.ReplaceAll(value, "{app}", app)
			what = strings.ReplaceAll(what, "{app}", app)
			known = "an app of " + v.platform + " (" + project.UmbrelAppFile + " beside it)"
		case v.extension != "" && l.Compose != nil && l.Compose.Name != "":
			if _, ok := l.Compose.Extensions[v.extension]; !ok {
				continue
			}
			if value == "" {
				value, what = l.Compose.Name, "the project's name"
			}
			known = "written for " + v.platform + " (" + v.extension + ":)"
		default:
			continue
		}
		return fmt.Sprintf("; the project is %s, which runs it with %s set to %s (%s): if %s ran it, set %s=%s in its .env or give --env-file, to convert it as it ran", known, name, what, v.source, v.platform, name, value)
	}
	return ""
}

// checkUnsetVariables is C2M014 for the compose files' variables: an
// error at each use that feeds a volume or an image of a service that is
// converted; elsewhere (and in services left out by profiles) one warning
// per variable and file, at its first use.
func checkUnsetVariables(p *ProjectPass) {
	if p.Project == nil {
		return
	}
	var out []Diagnostic
	grouped := map[string]int{}
	uses := map[string][]string{}
	var leftOut map[string]types.ServiceConfig
	if p.Project.Compose != nil {
		leftOut = p.Project.Compose.DisabledServices
	}
	for _, u := range p.Project.UnsetVariables {
		where := strings.Join(u.Path, ".")
		d := Diagnostic{File: u.Pos.File, Line: u.Pos.Line, Service: u.Service, Variable: u.Name,
			Message: fmt.Sprintf("variable %s is not set and has no default (used in %s)", u.Name, where),
			Cause:   "variables not set and without a default, which docker compose takes as \"\": set them in .env or with --env-file, or give each a default in the compose file (${VAR:-default})"}
		// A service left out by profiles is not converted: what it would
		// mount is a warning until a profile brings it in.
		if u.Required {
			d.Severity, d.Cause = Error, ""
			state := "not set"
			if u.Empty {
				state = "set but empty"
			}
			d.Message = fmt.Sprintf("variable %s is required (${%s%s…}) and %s (used in %s): docker compose refuses the project with %q", u.Name, u.Name, u.Sep, state, where, u.RequiredError())
			out = append(out, d)
			continue
		}
		if _, skipped := leftOut[u.Service]; u.FeedsMount && !skipped {
			d.Severity, d.Cause = Error, ""
			d.Message += platformValue(p.Project, u.Name)
			out = append(out, d)
			continue
		}
		id := u.Pos.File + "\x00" + u.Name
		if i, ok := grouped[id]; ok {
			uses[id] = append(uses[id], where)
			out[i].Service = ""
			out[i].Message = fmt.Sprintf("variable %s is not set and has no default (used in %s and %d more)", u.Name, uses[id][0], len(uses[id])-1) + platformValue(p.Project, u.Name)
			continue
		}
		grouped[id] = len(out)
		uses[id] = []string{where}
		d.Message += platformValue(p.Project, u.Name)
		out = append(out, d)
	}
	for _, d := range out {
		p.Report(d)
	}
}

// checkUserParts is C2M030: a converted service's user: with an empty
// user or group part, which docker reads as root (an empty user) or as
// the user's group in the image (an empty group). Both empty (":", what
// "${UID}:${GID}" gives with both unset) is an error; one is a warning.
func checkUserParts(p *ProjectPass) {
	for _, svc := range p.services() {
		if _, _, ok := userPartsEmpty(svc.User); !ok {
			continue
		}
		pos := p.servicePos(svc.Name, "")
		for _, d := range slices.Backward(p.Project.ServiceDefs(svc.Name)) {
			if d.Writes("user") {
				pos = d.Pos("user")
				break
			}
		}
		var unset []string
		for _, u := range p.Project.UnsetVariables {
			if u.Service == svc.Name && slices.Equal(u.Path, []string{"services", svc.Name, "user"}) && !slices.Contains(unset, u.Name) {
				unset = append(unset, u.Name)
			}
		}
		from := ""
		switch len(unset) {
		case 0:
		case 1:
			from = fmt.Sprintf(" (variable %s unset)", unset[0])
		default:
			from = fmt.Sprintf(" (variables %s unset)", strings.Join(unset, " and "))
		}
		d := userPartsDiag(svc.User, from)
		d.File, d.Line, d.Service = pos.File, pos.Line, svc.Name
		p.Report(d)
	}
}

// checkUserPartsManifest is C2M030 in a manifest: a container's user:
// with an empty user or group part, judged as convert judges a
// service's.
func checkUserPartsManifest(p *Pass) {
	for _, c := range p.Module.Containers() {
		if _, _, ok := userPartsEmpty(c.Container.User); !ok {
			continue
		}
		d := userPartsDiag(c.Container.User, "")
		d.File, d.Line, d.Service = c.Pos.File, c.Pos.Line, c.Container.Name
		p.Report(d)
	}
}

// userPartsEmpty splits user "USER:GROUP" and reports whether either
// part is empty; ok is false without a ':' or with both parts.
func userPartsEmpty(user string) (uid, gid string, ok bool) {
	uid, gid, colon := strings.Cut(user, ":")
	return uid, gid, colon && (uid == "" || gid == "")
}

// userPartsDiag words C2M030 for user, from saying which unset variables
// made it: an error for both parts empty, a warning for one.
func userPartsDiag(user, from string) Diagnostic {
	uid, gid, _ := userPartsEmpty(user)
	d := Diagnostic{Severity: Warning}
	switch {
	case uid == "" && gid == "":
		d.Severity = Error
		d.Message = fmt.Sprintf("user: %q%s has neither a user nor a group: docker runs the service as root (uid 0, group 0), not as the image's user", user, from)
	case uid == "":
		d.Message = fmt.Sprintf("user: %q%s has no user: docker runs the service as root (uid 0) with group %s", user, from, gid)
	default:
		d.Message = fmt.Sprintf("user: %q%s has no group: docker runs the service as %s with the group the image's /etc/passwd gives it (0 when it has none), so no owner is produced from it", user, from, uid)
	}
	return d
}

// checkNoLocation is C2M013: a source with no location on the target
// host, or a bind source that is a symbolic link out of the project.
func checkNoLocation(p *ProjectPass) {
	checkUnreadBind(p)
	for i := range p.Placements {
		pl := &p.Placements[i]
		if pl.Unplaced != nil {
			d := placementDiag(pl, false, UnplacedMessage(pl.Unplaced))
			switch pl.Unplaced.Why {
			case placement.WhyNoHostProjectDirectory:
				d.Cause = "relative bind sources have no location on the target host: set host_project_directory (or --host-project-directory), or declare their paths"
			case placement.WhyNoVolumeRoot:
				d.Cause = "named and anonymous volumes have no location on the target host: set volume_root (or --volume-root), or declare their paths"
			}
			p.Report(d)
		}
		if pl.LinkOutside != "" {
			p.Report(placementDiag(pl, true, pl.LinkOutside+"; declare it {kind: host} (a path the module uses wherever the link points), or give it a path of its own"))
		}
	}
}

// UndeclaredMessage words what a source nothing declares still lacks
// (C2M001), from the facts convert found.
func UndeclaredMessage(u *placement.Undeclared) string {
	if u.NotOwnable != "" && u.Holder != "" {
		return fmt.Sprintf("no declaration (owner, mode, intent produced); bind source %s is %s, inside bind %s, which must move too: declare that one, and this one moves with it, its values produced; or declare it kind: host", u.Source, u.NotOwnable, u.Holder)
	}
	if u.NotOwnable != "" {
		fix := "give it a path of its own with the produced values"
		if u.Layout {
			fix = "accept the produced values, which layout fhs places by their intent"
		}
		return fmt.Sprintf("no declaration (owner, mode, intent produced); bind source %s is %s, so its data must move: %s, or declare it kind: host", u.Source, u.NotOwnable, fix)
	}
	msg := "no declaration"
	if len(u.Produced) > 0 {
		msg += " (produced " + strings.Join(u.Produced, ", ") + "; still missing " + u.Missing + ")"
	}
	if u.NoOwner != "" {
		msg += "; no owner produced: " + u.NoOwner
	}
	if u.OutOfVersion != "" {
		msg += "; " + u.OutOfVersion
	}
	return msg
}

// KindUnknownMessage words why nothing tells whether a bind source is a
// file or a directory (C2M004), from the facts convert found.
func KindUnknownMessage(k *placement.KindUnknown) string {
	where := "is not in the checkout"
	switch k.Shown {
	case placement.ShownLinkOut:
		where = "leads out of the checkout"
	case placement.ShownHostPath:
		where = "is a path on the target host, which the checkout does not show"
	case placement.ShownHome:
		where = "is in a home directory on the legacy host, which the checkout does not show"
	}
	return fmt.Sprintf("no kind declared, and %s %s, so nothing tells a file from a directory; %s looks like a file, but docker would create a directory there", k.Source, where, k.Looks)
}

// UnplacedMessage words why a source has no location on the target host
// (C2M013), from the facts convert found.
func UnplacedMessage(u *placement.Unplaced) string {
	switch u.Why {
	case placement.WhyHome:
		return fmt.Sprintf("bind source %s is relative to the legacy host's home (~), which the converter cannot know: declare its path", u.What)
	case placement.WhyNoHostProjectDirectory:
		return fmt.Sprintf("relative bind source %s has no location on the target host: set host_project_directory (or --host-project-directory), or declare its path", u.What)
	case placement.WhyNoVolumeRoot:
		return fmt.Sprintf("%s has no location on the target host: set volume_root (or --volume-root), or declare its path", u.What)
	case placement.WhyOutsideRoot:
		return fmt.Sprintf("%s would land at %s, outside %s: declare its path", u.What, u.At, u.Root)
	case placement.WhyNoIntent:
		return fmt.Sprintf("layout fhs places %s by its intent, and it has none: declare its intent (or its path)", u.What)
	case placement.WhyNoName:
		return fmt.Sprintf("layout fhs cannot name %s from its source: declare its path", u.What)
	case placement.WhyCollision:
		return fmt.Sprintf("layout fhs places %s at %s, where %s lands too: declare a path for one of them", u.What, u.At, u.Other)
	case placement.WhyRootUndeclared:
		return fmt.Sprintf("layout fhs places %s at %s, and its module root %s has no declaration: declare %s under directories: with owner, mode and intent", u.What, u.At, u.Root, u.Root)
	case placement.WhyRootHost:
		return fmt.Sprintf("layout fhs places %s at %s, and its module root %s is declared kind host, which the module may not own: declare a path for %s, or declare %s with owner, mode and intent", u.What, u.At, u.Root, u.What, u.Root)
	case placement.WhyInsideUnplaced:
		return fmt.Sprintf("%s lies inside bind %s, which layout fhs cannot place: %s", u.What, u.Holder, UnplacedMessage(u.HolderWhy))
	case placement.WhyInvalidPath:
		if why := manifest.PathLengthProblem(u.At); why != "" {
			return fmt.Sprintf("source %q has no location the host can create: its path %s", u.What, why)
		}
		return fmt.Sprintf("source %q lands at %q, which is not an absolute, clean host path without control characters", u.What, u.At)
	}
	return fmt.Sprintf("%s has no location on the target host (%s)", u.What, u.Why)
}

// checkUndeclared is C2M001 in convert: a source nothing declares, and for
// which evidence did not give owner, mode and intent.
func checkUndeclared(p *ProjectPass) {
	for i := range p.Placements {
		if pl := &p.Placements[i]; pl.Undeclared != nil {
			d := placementDiag(pl, false, UndeclaredMessage(pl.Undeclared))
			if pl.First().Kind == project.NamedBind {
				d.Fix = fmt.Sprintf("Declare it under binds: by its device path, %s, with owner, mode and intent (not under volumes:), or as kind: host for a path the module uses but does not own, and convert again.", pl.Key)
			}
			p.Report(d)
		}
	}
}

// checkDisagreement is C2M026: a value of a source's declaration that
// another source of evidence contradicts, one finding per value.
func checkDisagreement(p *ProjectPass) {
	for i := range p.Placements {
		pl := &p.Placements[i]
		for _, d := range pl.Disagreements {
			kept := ""
			if d.KeptFrom != "" {
				kept = " (" + d.KeptFrom + ")"
			}
			msg := fmt.Sprintf("%s %s%s kept, but %s gives %s: declare the %s the data needs", d.Field, d.Kept, kept, d.OtherFrom, d.Other, d.Field)
			if d.Field == "owner" && d.Kept == d.Other {
				// The process runs as the owner, whose bits of the mode
				// do not let it write (0500).
				msg = fmt.Sprintf("owner %s%s kept, and %s runs as that owner, but the mode does not let the owner write (no u+w): declare the mode the data needs", d.Kept, kept, d.OtherFrom)
			}
			p.Report(placementDiag(pl, false, msg))
		}
	}
}

// checkKindConflict is C2M004 in convert: a declared kind the project's
// evidence contradicts, or a source that looks like a file where nothing
// tells its kind, reported at the declaration.
func checkKindConflict(p *ProjectPass) {
	for i := range p.Placements {
		pl := &p.Placements[i]
		if pl.KindConflict != "" {
			p.Report(placementDiag(pl, true, pl.KindConflict))
		}
		if pl.KindUnknown != nil {
			d := placementDiag(pl, true, KindUnknownMessage(pl.KindUnknown)+"; set kind: file or kind: directory on its declaration")
			d.Cause = "no kind declared, and nothing in the checkout tells a file from a directory, though the name or target looks like a file (docker would create a directory there): set kind: file or kind: directory on each declaration"
			p.Report(d)
		}
	}
}

// placementDiag builds a diagnostic about a placement at its first mount
// (at its declaration when atEntry is set and there is one), naming the
// other services that mount it and its key where the compose file writes
// it otherwise.
func placementDiag(pl *placement.Placement, atEntry bool, msg string) Diagnostic {
	first := pl.First()
	d := Diagnostic{File: first.Pos.File, Line: first.Pos.Line, Service: first.Service, Source: first.Display(), Target: first.Target, Message: msg}
	if atEntry && pl.Entry != nil {
		d.File, d.Line = pl.Entry.Pos.File, pl.Entry.Pos.Line
	}
	if services := pl.Services(); len(services) > 1 {
		q := make([]string, len(services))
		for i, s := range services {
			q[i] = strconv.Quote(s)
		}
		d.Message += fmt.Sprintf(" (mounted by services %s)", strings.Join(q, ", "))
	}
	switch {
	case first.Kind == project.NamedBind && first.Source == pl.Key:
		d.Message += fmt.Sprintf("; volume %q is a bind of %s (driver_opts type: none, o: bind): it is declared under binds:, by that path", first.Volume, first.Source)
	case first.Kind == project.NamedBind:
		d.Message += fmt.Sprintf("; volume %q is a bind of %s (driver_opts type: none, o: bind): it is declared under binds:, as %s", first.Volume, first.Source, pl.Key)
	case pl.Section == declare.SectionBinds && declare.NormalizeBind(first.Source) != pl.Key:
		d.Message += fmt.Sprintf("; its key in binds: is %s", pl.Key)
	}
	return d
}

// checkNotCarried is C2M007 in convert: a compose field the manifest does
// not carry and the declarations do not acknowledge.
func checkNotCarried(p *ProjectPass) {
	singular := map[string]string{"volumes": "volume", "networks": "network", "secrets": "secret", "configs": "config", "jobs": "job"}
	for _, f := range p.NotCarried {
		if f.Acknowledged {
			continue
		}
		d := Diagnostic{File: f.Pos.File, Line: f.Pos.Line, Service: f.Service, Severity: Warning}
		switch {
		case f.Config != "":
			d.Message = fmt.Sprintf("field configs: uid, gid and mode of config %s are not carried: a file config is a read-only bind of the declared file, whose declared owner and mode apply", f.Config)
		case f.Service == "" && f.Name == "":
			d.Message = fmt.Sprintf("%s %s is not carried by the manifest: %s", singular[f.Section], f.Entry, f.Reason)
		case f.Service == "":
			d.Message = fmt.Sprintf("%s %s: field %s is not carried by the manifest: %s", singular[f.Section], f.Entry, f.Name, f.Reason)
		default:
			d.Message = fmt.Sprintf("field %s is not carried by the manifest: %s", f.Name, f.Reason)
		}
		p.Report(d)
	}
}

// deliveredToo returns the credentials: item that delivers the variable an
// acknowledge item SERVICE.environment.VAR would carry in plaintext, or
// nil: the two are contradictory choices, and the credential wins.
func deliveredToo(f *declare.File, item string) *declare.Credential {
	a, ok := declare.ParseAck(item)
	if f == nil || !ok || a.Field != declare.AckEnvironment {
		return nil
	}
	for i, cr := range f.Credentials {
		if cr.Service == a.Service && cr.Variable == a.Variable {
			return &f.Credentials[i]
		}
	}
	return nil
}

// checkUnmatched is C2M009: a declaration key, acknowledge item or images:
// entry, or a survey entry, that matches nothing in the project, across
// all profiles.
func checkUnmatched(p *ProjectPass) {
	for _, u := range p.Unmatched {
		d := Diagnostic{File: u.Pos.File, Line: u.Pos.Line}
		switch u.What {
		case placement.UnmatchedKey:
			d.Source = u.Item
			d.Message = fmt.Sprintf("%s key %q matches nothing in the compose project", u.Section, u.Item)
		case placement.UnmatchedAcknowledge:
			d.Message = fmt.Sprintf("acknowledge %s matches no field the compose project writes and the manifest does not carry", u.Item)
			if cr := deliveredToo(p.Declarations, u.Item); cr != nil {
				d.Message = fmt.Sprintf("acknowledge %s would carry the variable in plaintext, but credentials: delivers it (%s.%s: %s, line %d), which wins: drop one of the two", u.Item, cr.Service, cr.Variable, cr.Name, cr.Pos.Line)
			}
		case placement.UnmatchedTmpfs:
			d.Source = u.Item
			d.Message = fmt.Sprintf("%s key %q declares a tmpfs: volume %q has driver_opts type: tmpfs, so it is mounted as a tmpfs in each container, which has no host path and needs no declaration; remove the key", u.Section, u.Item, u.Item)
		case placement.UnmatchedUncarried:
			d.Source = u.Item
			verb := "mounts"
			if len(u.Mounters) > 1 {
				verb = "mount"
			}
			d.Message = fmt.Sprintf("%s key %q names what only %s %s, which the manifest does not carry (C2M007): it declares nothing; remove the key", u.Section, u.Item, strings.Join(u.Mounters, " and "), verb)
		case placement.UnmatchedBindVolume:
			d.Source = u.Item
			d.Message = fmt.Sprintf("%s key %q names volume %q, whose driver_opts (type: none, o: bind, device: %s) make it a bind of %s: a bind is declared under binds:, by its device path, so this key declares nothing", u.Section, u.Item, u.Item, u.Device, u.Device)
			d.Fix = fmt.Sprintf("Move the entry under binds:, keyed by the device path %s, and delete it from volumes:.", u.BindKey)
		case placement.UnmatchedImage:
			d.Service = u.Item
			d.Message = fmt.Sprintf("images: %s names no service that lacks an image", u.Item)
		case placement.UnmatchedSurvey:
			d.Source = u.Item
			d.Message = fmt.Sprintf("the survey's entry under %s names no source the compose project mounts, across all profiles: it was made for other compose files, or before they changed, and its facts are used nowhere", u.Section)
			if u.Found != "" {
				d.Message += fmt.Sprintf("; it found %s, which nothing converted from this project declares or copies", u.Found)
			}
		}
		p.Report(d)
	}
}

// services yields the converted services of the project in name order,
// each with its index in that order (without a slice of copies of them
// all: a service's configuration is large).
func (p *ProjectPass) services() iter.Seq2[int, types.ServiceConfig] {
	return func(yield func(int, types.ServiceConfig) bool) {
		if p.Project == nil || p.Project.Compose == nil {
			return
		}
		c := p.Project.Compose
		for i, name := range slices.Sorted(maps.Keys(c.Services)) {
			if !yield(i, c.Services[name]) {
				return
			}
		}
	}
}

// servicePos returns the position of key in the last definition of
// service (of the definition itself when key is ""), or none.
func (p *ProjectPass) servicePos(service, key string) manifest.Pos {
	defs := p.Project.ServiceDefs(service)
	if len(defs) == 0 {
		return manifest.Pos{}
	}
	return defs[len(defs)-1].Pos(key)
}

// checkNoImage is C2M016: a service without an image, and none given in
// the declarations' images:.
func checkNoImage(p *ProjectPass) {
	for _, svc := range p.services() {
		if svc.Image != "" {
			continue
		}
		if _, ok := p.Declarations.ImageFor(svc.Name); ok {
			continue
		}
		msg := "has no image"
		if svc.Build != nil {
			msg = "has build: and no image; the mesh runs images, it does not build them"
		}
		pos := p.servicePos(svc.Name, "")
		p.Report(Diagnostic{File: pos.File, Line: pos.Line, Service: svc.Name, Message: msg})
	}
}

// checkLeftOut is C2M019: each service that does not run because of its
// profiles, so that a manifest never lacks a service without a word.
func checkLeftOut(p *ProjectPass) {
	if p.Project == nil || p.Project.Compose == nil {
		return
	}
	disabled := p.Project.Compose.DisabledServices
	for _, name := range slices.Sorted(maps.Keys(disabled)) {
		svc := disabled[name]
		pos := p.servicePos(name, "profiles")
		flags := make([]string, len(svc.Profiles))
		for i, pr := range svc.Profiles {
			flags[i] = "--profile " + pr
		}
		p.Report(Diagnostic{File: pos.File, Line: pos.Line, Service: name,
			Message: fmt.Sprintf("not converted: left out by profiles %s (%s brings it in)", strings.Join(svc.Profiles, ", "), strings.Join(flags, " or "))})
	}
	jobs := p.Project.Compose.DisabledJobs
	for _, name := range slices.Sorted(maps.Keys(jobs)) {
		if p.Declarations != nil && slices.ContainsFunc(p.Declarations.Acknowledge, func(a declare.Ack) bool { return a.Matches("jobs", name) }) {
			continue // left behind knowingly, enabled or not
		}
		job := jobs[name]
		pos, _ := p.Project.TopLevel("jobs", name)
		flags := make([]string, len(job.Profiles))
		for i, pr := range job.Profiles {
			flags[i] = "--profile " + pr
		}
		p.Report(Diagnostic{File: pos.File, Line: pos.Line,
			Message: fmt.Sprintf("job %s left out by profiles %s (%s brings it in, and the manifest carries no jobs: C2M007)", name, strings.Join(job.Profiles, ", "), strings.Join(flags, " or "))})
	}
}

// envPos returns where the service's environment: is written (its last
// definition that writes one), or pos.
func envPos(defs []project.ServiceDef, pos manifest.Pos) manifest.Pos {
	for _, d := range defs {
		if d.Writes("environment") {
			pos = d.Pos("environment")
		}
	}
	return pos
}

// checkUnsetEnvironment is C2M014 for what compose-go resolved: an
// environment variable with no value (left out of the container, a
// warning) and a config whose variable is unset (an error).
func checkUnsetEnvironment(p *ProjectPass) {
	for _, svc := range p.services() {
		defs := p.Project.ServiceDefs(svc.Name)
		var unset []string
		for _, k := range slices.Sorted(maps.Keys(svc.Environment)) {
			if svc.Environment[k] == nil {
				unset = append(unset, k)
			}
		}
		if len(unset) > 0 {
			pos := envPos(defs, p.servicePos(svc.Name, ""))
			p.Report(Diagnostic{File: pos.File, Line: pos.Line, Service: svc.Name,
				Message: fmt.Sprintf("environment %s: no value in the compose file or the environment; left out", abbreviate(unset, 5))})
		}
		for _, ref := range svc.Configs {
			cfg, ok := p.Project.Compose.Configs[ref.Source]
			if !ok || cfg.File != "" || bool(cfg.External) || cfg.Content != "" || cfg.Environment == "" {
				continue
			}
			pos, _ := p.Project.TopLevel("configs", ref.Source)
			p.Report(Diagnostic{Severity: Error, Service: svc.Name, File: pos.File, Line: pos.Line,
				Message: fmt.Sprintf("config %s: variable %s is not set; the config has no content", ref.Source, cfg.Environment)})
		}
	}
}

// checkComposeSecret is C2M015 in convert, at the compose file's (or
// env_file's) line: a literal value of a secret-looking name that no
// credential delivers (an error, left out of the manifest; a warning when
// acknowledged, and carried), and a credential for an image the table
// does not say reads VARIABLE_FILE (an error, unless acknowledged).
func checkComposeSecret(p *ProjectPass) {
	for _, sec := range p.Secrets {
		pos := p.envPos(sec.Service, sec.Variable)
		d := Diagnostic{File: pos.File, Line: pos.Line, Service: sec.Service}
		if sec.Pos.File != "" {
			d.File, d.Line = sec.Pos.File, sec.Pos.Line
		}
		switch {
		case sec.Config != "":
			same := ""
			if sec.SameAs != "" {
				same = fmt.Sprintf(", the value credentials: %s delivers as credential %s%s", sec.SameAsItem, sec.SameAs, at(sec.SameAsPos))
				d.relate(sec.SameAsPos, fmt.Sprintf("credentials: %s: %s delivers the same value", sec.SameAsItem, sec.SameAs))
			}
			d.Message = fmt.Sprintf("config %s: environment %s=%s looks like a secret%s; a manifest never carries it in plaintext: make it a compose secret (secrets: {%s: {environment: %s}}) and give the service secrets: [%s] in place of the config", sec.Config, sec.Variable, Mask(""), same, sec.Config, sec.Variable, sec.Config)
		case sec.Field != "" && strings.HasPrefix(sec.Field, "configs "):
			d.Message = fmt.Sprintf("%s carries the value of %s (%s), a secret; a manifest never carries it in plaintext: deliver the file as a compose secrets: entry instead of a config", sec.Field, sec.Of, Mask(""))
		case sec.Field != "":
			d.Message = fmt.Sprintf("%s carries the value of %s (%s), a secret; a manifest never carries it in plaintext, and no acknowledgement does: have the container read it where the mesh delivers it (the credential's file under /run/secrets, a compose secrets: entry, or the variable itself, $$VAR in a command)", sec.Field, sec.Of, Mask(""))
		case sec.Credential != "" && sec.Differs != "":
			if sec.CredentialPos.File != "" {
				d.File, d.Line = sec.CredentialPos.File, sec.CredentialPos.Line
			}
			d.Message = fmt.Sprintf("credentials: %s: credential %s is also given to %s%s, whose value differs; one credential holds one value, so the mesh would deliver one secret to both: give each its own credential name",
				declare.CredentialKey(sec.Service, sec.Variable), sec.Credential, sec.Differs, at(sec.DiffersPos))
			d.relate(sec.DiffersPos, fmt.Sprintf("credentials: %s: %s, another value", sec.Differs, sec.Credential))
			d.Variable = declare.CredentialKey(sec.Service, sec.Variable)
		case sec.Credential != "" && sec.FileEnv != "":
			continue
		case sec.Credential != "" && sec.Acknowledged:
			d.Severity, d.Acknowledged = Warning, true
			d.Message = fmt.Sprintf("environment %s: credential %s is mounted at /run/secrets/%s and named by %s_FILE, acknowledged though the image table does not say image %s reads %s_FILE", sec.Variable, sec.Credential, sec.Credential, sec.Variable, sec.Image, sec.Variable)
		case sec.Credential != "":
			continue // AsEnvironment: the host sets the variable from the credential
		case sec.SameAs != "":
			ack := ""
			if sec.Acknowledged {
				ack = fmt.Sprintf(", and acknowledge %s does not carry it", declare.AckVariable(declare.AckEnvironment, sec.Service, sec.Variable))
			}
			d.Message = fmt.Sprintf("environment %s=%s holds in plaintext the value credentials: %s delivers as credential %s%s; a credential's value is nowhere else in plaintext%s: deliver it as the same credential under credentials: (%s: %s)",
				sec.Variable, Mask(""), sec.SameAsItem, sec.SameAs, at(sec.SameAsPos), ack, declare.CredentialKey(sec.Service, sec.Variable), sec.SameAs)
			d.relate(sec.SameAsPos, fmt.Sprintf("credentials: %s: %s delivers the same value", sec.SameAsItem, sec.SameAs))
			d.Variable = declare.CredentialKey(sec.Service, sec.Variable)
		case sec.Acknowledged:
			d.Severity, d.Acknowledged = Warning, true
			d.Message = fmt.Sprintf("environment %s=%s %s; acknowledged, the manifest carries it in plaintext", sec.Variable, Mask(""), sec.what())
		default:
			via := "a credential"
			if sec.FileEnv != "" {
				via = fmt.Sprintf("a credential (image %s reads %s_FILE)", sec.Image, sec.Variable)
			}
			d.Message = fmt.Sprintf("environment %s=%s %s; a manifest never carries it in plaintext: deliver it as %s under credentials: (%s: NAME), or acknowledge %s to carry it knowingly", sec.Variable, Mask(""), sec.what(), via, declare.CredentialKey(sec.Service, sec.Variable), declare.AckVariable(declare.AckEnvironment, sec.Service, sec.Variable))
			d.Variable = declare.CredentialKey(sec.Service, sec.Variable)
			if sec.Of != "" {
				break // the value of another secret: its own words say whose
			}
			d.Cause = "literal values that look like secrets, which a manifest never carries in plaintext: deliver each as a credential under credentials: (SERVICE.VARIABLE: NAME; the skeleton suggests each name, and says where the image reads VARIABLE_FILE), or acknowledge SERVICE.environment.VARIABLE to carry it knowingly"
		}
		p.Report(d)
	}
}

// what says why a variable's literal value is a secret: it looks like
// one, or it is the whole value of another secret (Of).
func (sec EnvSecret) what() string {
	if sec.Of != "" {
		return "holds the value of " + sec.Of + ", a secret"
	}
	return "is a literal value that looks like a secret"
}

// at returns " (FILE:LINE)" for a known position, "" for none.
func at(pos manifest.Pos) string {
	if pos.File == "" {
		return ""
	}
	return " (" + pos.String() + ")"
}

// envPos returns where variable of service gets its value: the compose
// file's line, else the env_file's, else the service's environment:.
func (p *ProjectPass) envPos(service, variable string) manifest.Pos {
	defs := p.Project.ServiceDefs(service)
	pos := manifest.Pos{}
	for i := len(defs) - 1; i >= 0 && pos.File == ""; i-- {
		pos, _ = defs[i].EnvPos(variable)
	}
	if pos.File == "" && p.Project.Compose != nil {
		if svc, ok := p.Project.Compose.Services[service]; ok {
			pos = p.Project.EnvFilePos(svc, variable, envPos(defs, p.servicePos(service, "")))
		}
	}
	return pos
}

// Unapplied is a declaration written where it takes no effect.
type Unapplied struct {
	// Pos is where it is written.
	Pos manifest.Pos
	// Key is the setting (volume_root, module, …); "" for a whole
	// x-compose2manifest of an included compose file.
	Key string
	// Value is what Pos gives, Winner what applies instead, written at
	// WinnerPos.
	Value, Winner string
	WinnerPos     manifest.Pos
}

// checkUnapplied is C2M028: declarations that take no effect.
func checkUnapplied(p *ProjectPass) {
	for _, u := range p.Unapplied {
		d := Diagnostic{File: u.Pos.File, Line: u.Pos.Line}
		if u.Key == "" {
			d.Message = fmt.Sprintf("%s: in an included compose file is not read: declarations come from the sidecar file and the x-compose2manifest of the compose files convert is given (-f, or found by default), as docker compose merges no top-level extension of an included file; move them there", declare.ExtensionKey)
		} else {
			d.Message = fmt.Sprintf("%s: %s %s is not applied: the declarations file gives %s %s%s, which wins; write it in one place", declare.ExtensionKey, u.Key, u.Value, u.Key, u.Winner, at(u.WinnerPos))
			d.relate(u.WinnerPos, fmt.Sprintf("%s %s, applied", u.Key, u.Winner))
		}
		p.Report(d)
	}
}

// checkFilesPassedOver is C2M027: the default or override files found
// beside the ones read, which docker compose passes over with a warning,
// at the top of the file that wins over them.
func checkFilesPassedOver(p *ProjectPass) {
	l := p.Project
	if l == nil || l.FilesFrom != project.FilesDefault || len(l.FilesPassedOver) == 0 || len(l.ConfigFiles) == 0 {
		return
	}
	dir, _ := filepath.Abs(l.Dir)
	rel := func(f string) string {
		f, _ = filepath.Abs(f)
		return project.RelTo(dir, f)
	}
	for _, f := range l.FilesPassedOver {
		winner := l.ConfigFiles[0]
		kind := "config"
		if isOverride(f) && len(l.ConfigFiles) > 1 {
			winner, kind = l.ConfigFiles[1], "override"
		}
		p.Report(Diagnostic{File: rel(winner), Line: 1, Message: fmt.Sprintf(
			"%s not read: docker compose, run in the project directory, finds multiple %s files (%s and %s), reads %s only and warns; so does convert, and what %s says is in neither: remove it, merge it into %s, or name both (COMPOSE_FILE in .env, or -f)",
			rel(f), kind, rel(winner), rel(f), rel(winner), rel(f), rel(winner))})
	}
}

// isOverride reports whether f is named as an override file
// (compose.override.yaml, docker-compose.override.yml, …).
func isOverride(f string) bool {
	return strings.Contains(filepath.Base(f), ".override.")
}

// checkFilesLeftOut is C2M025: convert was given -f naming the project's
// own compose file, and docker compose, run in the project directory
// without -f, reads a file that choice leaves out; or --profile leaves out
// services its default profiles bring in; or --env-file replaces the env
// files it reads.
func checkFilesLeftOut(p *ProjectPass) {
	l := p.Project
	if l == nil || len(l.ConfigFiles) == 0 {
		return
	}
	dir, _ := filepath.Abs(l.Dir)
	rel := func(fs []string) []string {
		out := make([]string, 0, len(fs))
		for _, f := range fs {
			f, _ = filepath.Abs(f)
			out = append(out, project.RelTo(dir, f))
		}
		return out
	}
	given, read := rel(l.ConfigFiles), rel(p.FilesRead)
	by := p.FilesBy
	if by == "" {
		by = "-f"
	}
	report := func(format string, args ...any) {
		// At the top of the first compose file: the finding is of the
		// whole reading.
		p.Report(Diagnostic{File: given[0], Line: 1, Message: fmt.Sprintf(format, args...)})
	}
	if len(p.ProfilesLeftOut) > 0 {
		report("services %s not converted: docker compose, run in the project directory without --profile, enables profiles %s (COMPOSE_PROFILES), which bring them in; the profiles this conversion was given leave them out, and what they mount is not in the manifest",
			strings.Join(p.ProfilesLeftOut, ", "), strings.Join(p.DefaultProfiles, ", "))
	}
	if p.EnvDisabled {
		report("env files read that docker compose does not read: run in the project directory without --env-file, it reads none (COMPOSE_DISABLE_ENV_FILE), so the variables, COMPOSE_FILE and COMPOSE_PROFILES they set are not what docker compose runs with")
	}
	if len(p.DefaultEnvFiles) > 0 {
		report("%s not read: docker compose, run in the project directory without --env-file, reads it; this conversion reads the env files it was given instead, so the variables, COMPOSE_FILE and COMPOSE_PROFILES it sets may differ from what docker compose runs with",
			strings.Join(rel(p.DefaultEnvFiles), " and "))
	}
	if p.FilesReordered {
		report("compose files in another order: docker compose, run in the project directory without -f, merges %s; this conversion merges %s (%s), and a later file overrides an earlier one, so what they mount may differ",
			strings.Join(read, " then "), strings.Join(given, " then "), by)
	}
	if len(p.FilesLeftOut) > 0 {
		left := strings.Join(rel(p.FilesLeftOut), " and ")
		report("%s not read: docker compose, run in the project directory without -f, reads %s; this conversion reads %s (%s), so what %s would add or change is not in the manifest",
			left, strings.Join(read, " and "), strings.Join(given, " and "), by, left)
	}
}
