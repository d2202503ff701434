package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/rules"
)

// SARIF 2.1.0, the subset code-scanning services read. Field order is the
// order of the specification's examples. GitHub code scanning needs, of
// each result, a ruleId, a message, and a location with an artifact URI
// and a region.startLine; of each rule, its descriptions and help.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult            `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string            `json:"name"`
		Version        string            `json:"version,omitempty"`
		InformationURI string            `json:"informationUri,omitempty"`
		Rules          []sarifRule       `json:"rules"`
		Properties     map[string]string `json:"properties,omitempty"`
	}
	sarifRule struct {
		ID                   string         `json:"id"`
		Name                 string         `json:"name,omitempty"`
		ShortDescription     sarifMessage   `json:"shortDescription"`
		FullDescription      sarifMessage   `json:"fullDescription"`
		HelpURI              string         `json:"helpUri,omitempty"`
		Help                 sarifMessage   `json:"help"`
		DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
		Properties           sarifRuleProps `json:"properties"`
	}
	// sarifRuleProps are what code scanning ranks a rule's results by.
	sarifRuleProps struct {
		Tags             []string `json:"tags"`
		Precision        string   `json:"precision"`
		SecuritySeverity string   `json:"security-severity"`
		ProblemSeverity  string   `json:"problem.severity"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        *int            `json:"ruleIndex,omitempty"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations,omitempty"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		// PartialFingerprints identify a result across runs, whatever
		// line it moved to (FingerprintKey).
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          map[string]string `json:"properties,omitempty"`
	}
	sarifLocation struct {
		ID               *int          `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifMessage `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SrcRoot is the uriBaseId of every relative artifact URI: the directory
// SARIFOptions.BaseDir names (the command gives the repository's root in
// a GitHub workflow, see Workspace, which is what code scanning resolves
// relative URIs against; else the directory it ran in).
const SrcRoot = "%SRCROOT%"

// SARIFOptions are what a SARIF log says beyond the report.
type SARIFOptions struct {
	// BaseDir, when not empty, is the absolute directory the relative
	// file names of the report are relative to: the log maps SrcRoot to
	// it (originalUriBaseIds), and an absolute file name inside it is
	// written relative to it.
	BaseDir string
}

// WriteSARIF writes r as a SARIF 2.1.0 log with one run. list describes the
// rules in tool.driver.rules, followed by rules.Unreadable, the rule of a
// diagnostic with no rule (input that could not be read or decoded); every
// result names its rule by ruleId and ruleIndex. Every result has a
// location: its file (or, failing that, the module's manifest) relative to
// SrcRoot, and a region whose startLine is the diagnostic's line, or 1 when
// the line is not known (the finding is about the whole file).
func WriteSARIF(w io.Writer, r *Report, list []*rules.Rule, opts SARIFOptions) error {
	driver := sarifDriver{Name: "compose2manifest", InformationURI: InformationURI, Rules: []sarifRule{}}
	if r.Tool != nil {
		driver.Name, driver.Version = r.Tool.Name, r.Tool.Version
		if r.Tool.Revision != "" {
			driver.Properties = map[string]string{"revision": r.Tool.Revision}
		}
	}
	unreadable := rules.Unreadable()
	index := map[string]int{}
	for i, rule := range append(append([]*rules.Rule(nil), list...), unreadable) {
		if _, dup := index[rule.ID]; dup {
			continue
		}
		index[rule.ID] = i
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	base := ""
	if opts.BaseDir != "" && filepath.IsAbs(opts.BaseDir) {
		base = filepath.Clean(opts.BaseDir)
	}
	run := sarifRun{Tool: sarifTool{driver}, Results: []sarifResult{}}
	if base != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifact{SrcRoot: {URI: dirURI(base)}}
	}
	seen := map[string]int{}
	for _, m := range r.Modules {
		for _, d := range m.Diagnostics {
			id := d.Rule
			if id == "" {
				id = unreadable.ID
			}
			res := sarifResult{RuleID: id, Level: level(d.Severity), Message: sarifMessage{Body(d)}}
			if i, ok := index[id]; ok {
				res.RuleIndex = &i
			}
			if d.Fix != "" {
				res.Message.Text += "\nfix: " + d.Fix
			}
			file, line := d.File, d.Line
			if file == "" {
				file, line = m.File, 0
			}
			if file == "" {
				file = m.Output
			}
			if file != "" {
				res.Locations = []sarifLocation{location(base, file, line)}
			}
			for i, rel := range d.Related {
				if rel.File == "" {
					continue
				}
				loc := location(base, rel.File, rel.Line)
				id := i + 1
				loc.ID, loc.Message = &id, &sarifMessage{rel.Message}
				res.RelatedLocations = append(res.RelatedLocations, loc)
			}
			props := map[string]string{"module": d.Module, "service": d.Service, "source": d.Source, "target": d.Target}
			if d.Module == "" {
				props["module"] = m.Module
			}
			for k, v := range props {
				if v == "" {
					delete(props, k)
				}
			}
			if len(props) > 0 {
				res.Properties = props
			}
			res.PartialFingerprints = map[string]string{FingerprintKey: fingerprint(seen, res, props)}
			run.Results = append(run.Results, res)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifRuleOf describes rule in tool.driver.rules, with what code
// scanning ranks its results by (rules.Rule.Rank).
func sarifRuleOf(rule *rules.Rule) sarifRule {
	doc := unwrap(rule.Doc)
	rank := rule.Rank()
	return sarifRule{
		ID:                   rule.ID,
		ShortDescription:     sarifMessage{rule.Title},
		FullDescription:      sarifMessage{doc},
		HelpURI:              RuleHelpURI(rule.ID),
		Help:                 sarifMessage{doc},
		DefaultConfiguration: sarifConfig{level(rule.Severity)},
		Properties: sarifRuleProps{
			Tags:             rank.Tags,
			Precision:        rank.Precision,
			SecuritySeverity: rank.SecuritySeverityText(),
			ProblemSeverity:  level(rule.Severity),
		},
	}
}

// FingerprintKey is the key of every result's partialFingerprints: a
// version of the fingerprint's recipe, which changes when the recipe does.
const FingerprintKey = "compose2manifest/v1"

// lineRef is a FILE:LINE reference in a message, whose line number a
// fingerprint leaves out.
var lineRef = regexp.MustCompile(`(\S):[0-9]+\b`)

// fingerprint returns a result's fingerprint: a hash of its rule, its
// file (not its line), its module, service, source and target, and its
// message with the line numbers of FILE:LINE references left out, so that
// a finding keeps its fingerprint when lines above it move. Two results
// alike in all of that are told apart by their order (seen counts them).
func fingerprint(seen map[string]int, res sarifResult, props map[string]string) string {
	file := ""
	if len(res.Locations) > 0 {
		file = res.Locations[0].PhysicalLocation.ArtifactLocation.URI
	}
	msg, _, _ := strings.Cut(res.Message.Text, "\nfix: ")
	parts := []string{res.RuleID, file, props["module"], props["service"], props["source"], props["target"], lineRef.ReplaceAllString(msg, "$1")}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	key := hex.EncodeToString(sum[:16])
	seen[key]++
	if n := seen[key]; n > 1 {
		return key + ":" + strconv.Itoa(n)
	}
	return key
}

// location is a physical location of file at line (1 when unknown).
func location(base, file string, line int) sarifLocation {
	if line < 1 {
		line = 1
	}
	return sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: artifact(base, file), Region: &sarifRegion{StartLine: line}}}
}

// artifact is the artifact location of a file name: relative to SrcRoot
// for a relative name, or an absolute one inside base; a file: URI, with
// no base, for an absolute name elsewhere.
func artifact(base, name string) sarifArtifact {
	if filepath.IsAbs(name) && base != "" {
		if rel, err := filepath.Rel(base, name); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			name = rel
		}
	}
	if filepath.IsAbs(name) {
		return sarifArtifact{URI: fileURI(name)}
	}
	return sarifArtifact{URI: fileURI(name), URIBaseID: SrcRoot}
}

// level maps a severity to a SARIF level.
func level(s rules.Severity) string {
	if s == rules.Warning {
		return "warning"
	}
	return "error"
}

// fileURI returns a SARIF artifact URI for a file name: a relative reference
// for a relative name, a file: URI for an absolute one.
func fileURI(name string) string {
	p := path.Clean(filepath.ToSlash(name)) // never ./manifests/a.yaml
	u := url.URL{Path: p}
	if path.IsAbs(p) {
		u.Scheme = "file"
	}
	return u.String()
}

// dirURI is the file: URI of a directory, with the trailing slash SARIF
// requires of a base URI.
func dirURI(dir string) string {
	s := fileURI(dir)
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// unwrap joins the hard-wrapped lines of each paragraph of doc, keeping
// paragraph breaks.
func unwrap(doc string) string {
	paras := strings.Split(strings.TrimSpace(doc), "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}
