package project

import "testing"

func TestPlainTopLevel(t *testing.T) {
	for doc, want := range map[string]string{
		"services:\n  a: {}\n":             "ok:",
		"# c\nservices:\n  name: x\n":      "ok:",
		"name: shop\nservices: {}\n":       "ok:shop",
		"name: \"shop\" # c\n":             "ok:shop",
		"name: ${NAME}\n":                  "no",
		"name : shop\n":                    "no",
		"x-compose2manifest:\n  module: m": "no",
		"{name: shop}\n":                   "no",
		"<<: *base\n":                      "no",
		"services: {}\n---\nname: x\n":     "no",
		"\"name\": shop\n":                 "no",
	} {
		name, ok := plainTopLevel([]byte(doc))
		got := "no"
		if ok {
			got = "ok:" + name
		}
		if got != want {
			t.Errorf("plainTopLevel(%q) = %s, want %s", doc, got, want)
		}
	}
}
