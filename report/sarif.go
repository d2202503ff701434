package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/rules"
)

// SARIF 2.1.0, the subset code-scanning services read. Field order is the
// order of the specification's examples.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		FullDescription      sarifMessage `json:"fullDescription"`
		Help                 sarifMessage `json:"help"`
		DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID     string            `json:"ruleId,omitempty"`
		RuleIndex  *int              `json:"ruleIndex,omitempty"`
		Level      string            `json:"level"`
		Message    sarifMessage      `json:"message"`
		Locations  []sarifLocation   `json:"locations,omitempty"`
		Properties map[string]string `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// WriteSARIF writes r as a SARIF 2.1.0 log with one run. list describes the
// rules in tool.driver.rules; a diagnostic names its rule by ruleId and, when
// the rule is in list, ruleIndex. A diagnostic without a rule (input that
// could not be read) is a result with no ruleId.
func WriteSARIF(w io.Writer, r *Report, list []*rules.Rule) error {
	driver := sarifDriver{Name: "compose2manifest", Rules: []sarifRule{}}
	index := map[string]int{}
	for i, rule := range list {
		index[rule.ID] = i
		doc := unwrap(rule.Doc)
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   rule.ID,
			ShortDescription:     sarifMessage{rule.Title},
			FullDescription:      sarifMessage{doc},
			Help:                 sarifMessage{doc},
			DefaultConfiguration: sarifConfig{level(rule.Severity)},
		})
	}
	run := sarifRun{Tool: sarifTool{driver}, Results: []sarifResult{}}
	for _, m := range r.Modules {
		for _, d := range m.Diagnostics {
			res := sarifResult{RuleID: d.Rule, Level: level(d.Severity), Message: sarifMessage{Body(d)}}
			if i, ok := index[d.Rule]; ok {
				res.RuleIndex = &i
			}
			if d.Fix != "" {
				res.Message.Text += "\nfix: " + d.Fix
			}
			if d.File != "" {
				loc := sarifLocation{sarifPhysical{ArtifactLocation: sarifArtifact{fileURI(d.File)}}}
				if d.Line > 0 {
					loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line}
				}
				res.Locations = []sarifLocation{loc}
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
			run.Results = append(run.Results, res)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
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
	p := filepath.ToSlash(name)
	u := url.URL{Path: p}
	if path.IsAbs(p) {
		u.Scheme = "file"
	}
	return u.String()
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
