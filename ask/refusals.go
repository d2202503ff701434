package ask

import (
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// What a Refusal asks for.
const (
	// RefusalAcknowledge is a compose field not carried (C2M007): convert
	// warns, check --against refuses, until acknowledge: names it.
	RefusalAcknowledge = "acknowledge"
	// RefusalImage is a service with build: and no image (C2M016): it
	// needs images: SERVICE: REF.
	RefusalImage = "images"
	// RefusalCredential is a plaintext secret (C2M015): it needs
	// credentials: SERVICE.VAR: NAME, or acknowledge:
	// SERVICE.environment.VAR to carry it knowingly.
	RefusalCredential = declare.KeyCredentials
)

// A Refusal is a finding of convert, other than a volume source, that one
// declaration settles, so that after ask both convert and check --against
// accept the module.
type Refusal struct {
	// What is RefusalAcknowledge, RefusalImage or RefusalCredential.
	What string
	// Rule is the finding's rule, such as C2M007.
	Rule string
	// Service is the service concerned; "" for a top-level entry's field.
	Service string
	// Key is what the declaration names: the acknowledge item, the
	// service of images:, or the SERVICE.VARIABLE of credentials:.
	Key string
	// Suggest is the suggested value: the credential's name; "" for the
	// others. SuggestFrom says where it comes from.
	Suggest, SuggestFrom string
	// Where is the finding's FILE:LINE; Message its message.
	Where, Message string
	// UnreadFile is set, for a credential, when the image table does not
	// say the image reads VARIABLE_FILE: the host sets the variable from
	// the credential.
	UnreadFile bool
	// Existing is set, for a credential, when credentials: declares a
	// credential holding the same value already (SERVICE.VARIABLE):
	// plaintext is no choice then.
	Existing string
}

// NewRefusals returns the refusals among convert's diagnostics ds that a
// declaration settles, in their order, each once. What each asks for
// comes from convert's typed suggestions s beside them, never from a
// finding's words: the field not carried (Suggestions.Uncarried, the one
// the finding is at) and its acknowledge: item, the plaintext secret
// (Suggestions.Secrets, by the finding's Variable) and its credential.
func NewRefusals(ds []rules.Diagnostic, s convert.Suggestions) []Refusal {
	var out []Refusal
	seen := map[string]bool{}
	add := func(r Refusal, d rules.Diagnostic) {
		if seen[r.What+" "+r.Key] {
			return
		}
		seen[r.What+" "+r.Key] = true
		r.Rule, r.Service, r.Message = d.Rule, d.Service, d.Message
		if d.File != "" {
			r.Where = fmt.Sprintf("%s:%d", d.File, d.Line)
		}
		out = append(out, r)
	}
	used := make([]bool, len(s.Uncarried))
	for _, d := range ds {
		option, dropped := rules.DroppedOption(d)
		switch {
		case rules.Uncarried(d):
			if item := uncarriedItem(s, used, d); item != "" {
				add(Refusal{What: RefusalAcknowledge, Key: item}, d)
			}
		case dropped:
			add(Refusal{What: RefusalAcknowledge, Key: option}, d)
		case rules.NoImage(d):
			if d.Service != "" && d.Severity == rules.Error {
				add(Refusal{What: RefusalImage, Key: d.Service}, d)
			}
		case rules.ComposeSecret(d) && d.Severity == rules.Error && d.Service != "" && d.Variable != "":
			add(credentialRefusal(d.Variable, s.Secrets), d)
		}
	}
	return out
}

// uncarriedItem returns the acknowledge: item of the field not carried
// that the C2M007 finding d is about: the first of s.Uncarried not
// acknowledged nor taken already (used) with d's service and position;
// "" when none is.
func uncarriedItem(s convert.Suggestions, used []bool, d rules.Diagnostic) string {
	for i, f := range s.Uncarried {
		if !used[i] && !f.Acknowledged && f.Service == d.Service && f.Pos.File == d.File && f.Pos.Line == d.Line {
			used[i] = true
			return f.AckItem()
		}
	}
	return ""
}

// credentialRefusal is the refusal of the plaintext secret key
// (SERVICE.VARIABLE): the credential convert suggests for it, and whether
// the image reads VARIABLE_FILE, as the image table says.
func credentialRefusal(key string, secrets []convert.SecretSuggestion) Refusal {
	service, variable, _ := declare.SplitCredentialKey(key)
	r := Refusal{What: RefusalCredential, Key: key, Suggest: convert.CredentialName(service, variable), UnreadFile: true}
	for _, sg := range secrets {
		if declare.CredentialKey(sg.Service, sg.Variable) == key {
			r.Suggest, r.UnreadFile = sg.Credential, sg.FileEnv == ""
		}
	}
	return r
}

// suggestFrom says where a credential's suggested name comes from.
func (r Refusal) suggestFrom() string {
	if r.SuggestFrom != "" {
		return r.SuggestFrom
	}
	return "the service's and the variable's names, lowercased"
}

// ShareCredentials gives each credential refusal among rs convert's
// suggestion for its variable (convert.SecretSuggestion): variables that
// hold one secret are offered one credential, the one declared for it
// already or one named after the variable they share, and whether the
// image reads VARIABLE_FILE is the image table's word.
func ShareCredentials(rs []Refusal, secrets []convert.SecretSuggestion) {
	for i := range rs {
		r := &rs[i]
		if r.What != RefusalCredential {
			continue
		}
		for _, sg := range secrets {
			if declare.CredentialKey(sg.Service, sg.Variable) != r.Key {
				continue
			}
			r.Suggest, r.UnreadFile = sg.Credential, sg.FileEnv == ""
			switch {
			case sg.Existing != "":
				r.Existing = sg.Existing
				r.SuggestFrom = "the credential of credentials: " + sg.Existing + ", which holds the same value"
			case len(sg.Shared) > 0:
				r.SuggestFrom = "one credential for the same value as " + strings.Join(sg.Shared, ", ")
			}
		}
	}
}

// Settled is how the author settled one refusal.
type Settled struct {
	// Section is "acknowledge", "images" or "credentials"; Key and Value
	// are what to write: the acknowledge item (Value ""), the service
	// and its image, or SERVICE.VARIABLE and the credential's name.
	Section, Key, Value string
}

// RunRefusals asks how to settle each refusal in turn and returns the
// answers, leaving out those the author left unsettled ("-", or no).
func (s *Session) RunRefusals(rs []Refusal) ([]Settled, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	s.init()
	s.printf("\nModule fields convert does not carry, images and plaintext secrets: %s to settle, so that check --against passes too.\n", report.Plural(len(rs), "finding"))
	var out []Settled
	for i, r := range rs {
		s.printf("\n[%d/%d] %s", i+1, len(rs), r.Rule)
		if r.Where != "" {
			s.printf(" at %s", r.Where)
		}
		if r.Service != "" {
			s.printf(": service %q", r.Service)
		}
		s.printf(": %s\n", r.Message)
		var got *Settled
		var err error
		switch r.What {
		case RefusalAcknowledge:
			got, err = s.settleAcknowledge(r)
		case RefusalImage:
			got, err = s.settleImage(r)
		case RefusalCredential:
			got, err = s.settleCredential(r)
		}
		if err != nil {
			return nil, err
		}
		if got != nil {
			out = append(out, *got)
		}
	}
	return out, nil
}

// settleAcknowledge asks whether to acknowledge a field not carried; nil
// when the author answers no.
func (s *Session) settleAcknowledge(r Refusal) (*Settled, error) {
	yes, err := s.yesNo("acknowledge "+r.Key+", to say the module knowingly goes without it? (yes or no; no leaves it, and check --against refuses it)",
		"yes writes "+r.Key+" under acknowledge:, and convert and check --against accept the field not carried; no writes nothing")
	if err != nil || !yes {
		return nil, err
	}
	return &Settled{Section: RefusalAcknowledge, Key: r.Key}, nil
}

// settleImage asks for the image of a service with build: and no image;
// nil when the author leaves it out ("-").
func (s *Session) settleImage(r Refusal) (*Settled, error) {
	v, err := s.ask(question{
		label: "image for service " + r.Key + " (the image the mesh runs, such as registry.example.org/" + r.Key + ":1.0; - leaves it out)",
		what:  "image",
		help:  "the reference of the image built from this service's build:, as pushed to a registry; written under images:",
		dash:  true,
		check: func(v string) error {
			if strings.ContainsAny(v, " \t") {
				return fmt.Errorf("image %q: an image reference has no blanks", v)
			}
			return nil
		},
	})
	if err != nil || v == "" {
		return nil, err
	}
	return &Settled{Section: RefusalImage, Key: r.Key, Value: v}, nil
}

// settleCredential asks for the credential that delivers a plaintext
// secret, or "plaintext" to acknowledge the variable instead (unless a
// credential delivers the same value already); nil when the author
// leaves it ("-").
func (s *Session) settleCredential(r Refusal) (*Settled, error) {
	service, variable, _ := declare.SplitCredentialKey(r.Key)
	ack := declare.AckVariable(declare.AckEnvironment, service, variable)
	delivered, how := "at /run/secrets/NAME", ", with "+variable+"_FILE set to /run/secrets/NAME"
	if r.UnreadFile {
		// The image is not known to read VARIABLE_FILE: the host
		// sets the variable from the credential.
		delivered, how = "as the variable "+variable, ", the host setting "+variable+" from it when it starts the container"
	}
	instead := "; plaintext acknowledges " + ack + " instead"
	if r.Existing != "" {
		instead = "; the same value as " + r.Existing + ", never in plaintext"
	}
	v, err := s.ask(question{
		label: "credential name for " + r.Key + " (the mesh delivers it " + delivered + instead + "; - leaves it)",
		what:  "credential name",
		help:  "credentials: " + r.Key + ": NAME has the mesh deliver the value as a credential" + how + ": the manifest never holds the value. plaintext writes " + ack + " under acknowledge: and the manifest carries the value as written",
		sugg:  Suggestion{Value: r.Suggest, From: r.suggestFrom()},
		dash:  true,
		check: func(v string) error {
			if v == "plaintext" && r.Existing != "" {
				return fmt.Errorf("credentials: %s delivers the same value, and a credential's value is nowhere else in plaintext: answer a credential name (%s)", r.Existing, r.Suggest)
			}
			if v != "plaintext" && !declare.ValidCredential(v) {
				return fmt.Errorf("%q is not a credential name (letters, digits, '.', '_', '-', such as db_password)", v)
			}
			return nil
		},
	})
	switch {
	case err != nil, v == "":
		return nil, err
	case v == "plaintext":
		return &Settled{Section: RefusalAcknowledge, Key: ack}, nil
	default:
		return &Settled{Section: declare.KeyCredentials, Key: r.Key, Value: v}, nil
	}
}

// yesNo asks a yes-or-no question labelled label, with help for "?";
// Enter answers yes.
func (s *Session) yesNo(label, help string) (bool, error) {
	s.init()
	v, err := s.ask(question{
		label: label, what: "an answer", help: help,
		sugg: Suggestion{Value: "yes"},
		check: func(v string) error {
			switch strings.ToLower(v) {
			case "y", "yes", "n", "no":
				return nil
			}
			return fmt.Errorf("%q: answer yes or no", v)
		},
	})
	if err != nil {
		return false, err
	}
	return strings.HasPrefix(strings.ToLower(v), "y"), nil
}

// ApplySettled writes the settled refusals into doc.
func ApplySettled(doc *declare.Document, ss []Settled) {
	for _, st := range ss {
		if st.Section == RefusalAcknowledge {
			doc.AddAcknowledge(st.Key)
			continue
		}
		doc.SetString(st.Section, st.Key, st.Value)
	}
}
