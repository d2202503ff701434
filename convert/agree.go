package convert

import (
	"slices"

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
