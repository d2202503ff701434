package convert

import (
	"fmt"
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/survey"

	"github.com/compose2manifest/compose2manifest/placement"
)

// setFrom records that evidence from gave the value of field ("owner",
// "mode") of the declaration of s.
func (c *converter) setFrom(s *placement.Placement, field, from string) {
	if c.valueFrom == nil {
		c.valueFrom = map[*placement.Placement]map[string]string{}
	}
	if c.valueFrom[s] == nil {
		c.valueFrom[s] = map[string]string{}
	}
	c.valueFrom[s][field] = from
}

// keptFrom says where the value of field of the declaration of s came
// from: the evidence setFrom recorded, else the declarations file that
// supplied it; "" when neither is known.
func (c *converter) keptFrom(s *placement.Placement, field string) string {
	if from := c.valueFrom[s][field]; from != "" {
		return from
	}
	if e := s.Entry; e != nil && ((field == "owner" && e.Owner != "") || (field == "mode" && e.Mode != "")) {
		return "supplied: " + e.Pos.File
	}
	return ""
}

// disagree records that evidence otherFrom gives other as the value of
// field of the declaration of s, which has kept (C2M026): shown, never
// resolved silently.
func (c *converter) disagree(s *placement.Placement, field, kept, other, otherFrom string) {
	d := placement.Disagreement{Field: field, Kept: kept, KeptFrom: c.keptFrom(s, field), Other: other, OtherFrom: otherFrom}
	if !slices.Contains(s.Disagreements, d) {
		s.Disagreements = append(s.Disagreements, d)
	}
}

// fromEvidence fills the owner and mode r still lacks with what one
// source of evidence (from: a survey, the image's layers) found for the
// data of s, of type t, and says so in provenance. Where r has another
// owner or mode already, provenance says that too and C2M026 reports it:
// two sources that disagree are shown, not resolved. A mode nobody should
// choose is not carried; provenance says why, and its fix is offered
// (refuseMode). An empty owner or mode is no evidence.
func (c *converter) fromEvidence(s *placement.Placement, r *manifest.Resource, owner, mode string, t survey.Type, from string, provenance *[]string) {
	var fields []string
	switch {
	case owner == "":
	case r.Owner == "":
		r.Owner = owner
		fields = append(fields, "owner")
		c.setFrom(s, "owner", from)
	case r.Owner != owner:
		*provenance = append(*provenance, fmt.Sprintf("%s found owner %s there", from, owner))
		c.disagree(s, "owner", r.Owner, owner, from)
	}
	switch why := unchosen(r, mode, t); {
	case mode == "":
	case why != "":
		*provenance = append(*provenance, fmt.Sprintf("%s found mode %s there, not carried: %s", from, mode, why))
		if r.Mode == "" {
			c.refuseMode(s, mode, from, why, evidenceKind(r, t))
		}
	case r.Mode == "":
		r.Mode = mode
		fields = append(fields, "mode")
		c.setFrom(s, "mode", from)
	case !sameMode(r.Mode, mode):
		*provenance = append(*provenance, fmt.Sprintf("%s found mode %s there", from, mode))
		c.disagree(s, "mode", r.Mode, mode, from)
	}
	if len(fields) > 0 {
		*provenance = append(*provenance, strings.Join(fields, ", ")+" produced: "+from)
	}
}
