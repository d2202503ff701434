package convert

import (
	"path"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
)

// OfferShared sets, in a refusal's Missing, what the other projects of a
// batch mount: sharers returns, for a clean absolute host path, the other
// projects that mount it or a path inside it (their folders, sorted), and
// those that mount a path above it, each as "FOLDER (PATH)", nearest
// first. An absolute bind source with nothing supplied that another
// project shares is offered as kind: host (Missing.SharedWith): data
// several modules share is owned by none of them, or by one a person
// chooses, since C2M005 refuses two owners. One whose data moves from
// inside another's mount is said to be (Missing.HeldBy). The skeletons
// and Decisions are written again when anything changed, which
// OfferShared reports. The diagnostics are left as they are.
//
// owners, when not nil, returns for a Docker volume's name the other
// project of the batch whose module owns a copy of it and that copy's
// host path ("" when none): a named volume with nothing supplied that
// another module owns is offered as kind: host at that path
// (Missing.OwnedBy), since C2M005 refuses two copies of one volume.
func (r *Result) OfferShared(sharers func(hostPath string) (shared, holders []string), owners func(dockerVolume string) (project, hostPath string)) bool {
	if r == nil || r.Status != Refused || r.Candidate == nil {
		return false
	}
	changed := false
	for i := range r.Missing {
		m := &r.Missing[i]
		if !m.Supplied && m.Section == declare.SectionVolumes && m.Legacy != "" && owners != nil {
			if proj, p := owners(m.Legacy); p != "" {
				m.OwnedBy = proj + " (" + p + ")"
				m.Known = declare.Entry{Key: m.Known.Key, Kind: declare.KindHost, Path: p, Note: m.Known.Note}
				changed = true
			}
			continue
		}
		if m.Supplied || m.Section != declare.SectionBinds || !strings.HasPrefix(m.Key, "/") {
			continue
		}
		others, holders := sharers(path.Clean(m.Key))
		switch {
		case len(others) > 0:
			m.SharedWith = others
			m.Known = declare.Entry{Key: m.Known.Key, Kind: declare.KindHost, Note: m.Known.Note}
			changed = true
		case len(holders) > 0 && m.Moves != "":
			m.HeldBy = holders
			changed = true
		}
	}
	if !changed {
		return false
	}
	module := r.Candidate.Module
	r.Skeleton, r.Decisions = skeleton(module, r.Missing, r.Suggestions)
	r.Inline = r.Skeleton
	if n := len(r.Suggestions.Secrets); n > MaxInlineCredentials {
		r.Inline, r.Elided = inlineSkeleton(module, r.Missing, r.Suggestions, r.skeletonFile), n
	}
	if r.mask != nil {
		r.Skeleton, r.Inline = []byte(r.mask(string(r.Skeleton))), []byte(r.mask(string(r.Inline)))
	}
	return true
}
