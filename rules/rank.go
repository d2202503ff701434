package rules

import "strconv"

// Rank is how code scanning services rank a rule's findings: SARIF's
// rule properties tags, precision and security-severity (GitHub code
// scanning reads all three; it shows security-severity, as critical, high,
// medium or low, for a rule tagged security).
type Rank struct {
	// Tags name what a finding puts at risk: data-loss (data nothing else
	// can rebuild may be lost, left behind or given to the wrong owner),
	// security, reliability, correctness, maintainability.
	Tags []string
	// Precision is how often a finding is right: very-high, high, medium
	// or low, as SARIF's rule property precision.
	Precision string
	// SecuritySeverity is a CVSS-like score from 0.0 to 10.0 (7.0 and
	// more is high): data-loss rules score high.
	SecuritySeverity float64
}

// SecuritySeverityText returns SecuritySeverity as SARIF writes it: a
// number in a string, one decimal.
func (k Rank) SecuritySeverityText() string {
	return strconv.FormatFloat(k.SecuritySeverity, 'f', 1, 64)
}

// The tags of Rank.Tags.
const (
	TagDataLoss        = "data-loss"
	TagSecurity        = "security"
	TagReliability     = "reliability"
	TagCorrectness     = "correctness"
	TagMaintainability = "maintainability"
)

// dataLoss ranks a rule whose finding means data may be lost: tagged
// data-loss and security (so code scanning shows its severity), high.
func dataLoss(precision string, score float64) Rank {
	return Rank{Tags: []string{TagDataLoss, TagSecurity}, Precision: precision, SecuritySeverity: score}
}

// ranks are the ranks of the rules, by ID.
var ranks = map[string]Rank{
	// Input that could not be read: nothing was checked.
	"C2M000": {Tags: []string{TagCorrectness}, Precision: "very-high", SecuritySeverity: 5.0},
	// An undeclared source: created as root, mode nobody chose, outside
	// the rule that keeps a module's data.
	"C2M001": dataLoss("very-high", 8.0),
	"C2M002": {Tags: []string{TagCorrectness}, Precision: "very-high", SecuritySeverity: 5.0},
	"C2M003": {Tags: []string{TagCorrectness}, Precision: "very-high", SecuritySeverity: 4.0},
	// A file mounted as a directory: the runtime makes an empty directory
	// where the data was.
	"C2M004": dataLoss("very-high", 7.5),
	// A path owned by two modules: removing one removes the other's data.
	"C2M005": dataLoss("very-high", 8.0),
	// A system path owned by a module goes with the module.
	"C2M006": dataLoss("very-high", 8.5),
	"C2M007": {Tags: []string{TagReliability}, Precision: "high", SecuritySeverity: 3.0},
	"C2M008": {Tags: []string{TagCorrectness, TagReliability}, Precision: "very-high", SecuritySeverity: 6.0},
	"C2M009": {Tags: []string{TagMaintainability}, Precision: "very-high", SecuritySeverity: 3.0},
	"C2M010": {Tags: []string{TagCorrectness}, Precision: "very-high", SecuritySeverity: 5.0},
	"C2M011": {Tags: []string{TagReliability}, Precision: "high", SecuritySeverity: 3.0},
	"C2M012": {Tags: []string{TagCorrectness}, Precision: "very-high", SecuritySeverity: 5.0},
	// A source with no place on the host: its data has nowhere to be kept.
	"C2M013": dataLoss("very-high", 7.5),
	// An unset variable feeding a volume can put the data in the wrong
	// place (an empty path).
	"C2M014": {Tags: []string{TagReliability}, Precision: "high", SecuritySeverity: 5.0},
	"C2M015": {Tags: []string{TagSecurity}, Precision: "medium", SecuritySeverity: 7.5},
	"C2M016": {Tags: []string{TagCorrectness}, Precision: "very-high", SecuritySeverity: 3.0},
	// Two manifests of one module replace each other, volumes included.
	"C2M017": dataLoss("very-high", 7.0),
	"C2M018": {Tags: []string{TagCorrectness, TagReliability}, Precision: "very-high", SecuritySeverity: 6.0},
	"C2M019": {Tags: []string{TagMaintainability}, Precision: "high", SecuritySeverity: 2.0},
	"C2M020": {Tags: []string{TagReliability}, Precision: "very-high", SecuritySeverity: 3.0},
	"C2M021": {Tags: []string{TagSecurity}, Precision: "high", SecuritySeverity: 6.5},
	// A change that drops or strands state.
	"C2M022": dataLoss("very-high", 9.0),
	"C2M023": {Tags: []string{TagReliability, TagSecurity}, Precision: "high", SecuritySeverity: 5.5},
	// A VOLUME no volume mounts: its data is in an anonymous volume that
	// nothing keeps.
	"C2M024": dataLoss("high", 7.5),
	"C2M025": {Tags: []string{TagReliability}, Precision: "high", SecuritySeverity: 4.0},
	// An owner one source gives and another contradicts: data the
	// software may not read after the move.
	"C2M026": {Tags: []string{TagReliability, TagCorrectness}, Precision: "high", SecuritySeverity: 5.0},
	// A compose file beside the one read that nothing reads: what it
	// says runs nowhere.
	"C2M027": {Tags: []string{TagReliability}, Precision: "high", SecuritySeverity: 2.0},
	// A declaration written where it does nothing: the author's intent
	// is not what the manifest holds.
	"C2M028": {Tags: []string{TagReliability}, Precision: "high", SecuritySeverity: 3.0},
	// Data the host keeps, placed where the host or the system deletes
	// it: lost at boot or with the module.
	"C2M029": {Tags: []string{TagReliability, TagCorrectness}, Precision: "high", SecuritySeverity: 6.0},
	// A user: docker runs as root where ids were meant: the service's
	// files are root's.
	"C2M030": {Tags: []string{TagSecurity, TagCorrectness}, Precision: "very-high", SecuritySeverity: 6.5},
}

// Rank returns how code scanning ranks r's findings; a rule this package
// does not rank (a caller's own) is correctness, medium precision, 5.0.
func (r *Rule) Rank() Rank {
	if k, ok := ranks[r.ID]; ok {
		k.Tags = append([]string(nil), k.Tags...)
		return k
	}
	return Rank{Tags: []string{TagCorrectness}, Precision: "medium", SecuritySeverity: 5.0}
}
