package project

import (
	"os"
	"path/filepath"
	"testing"
)

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
		"---\nservices: {}\n":              "ok:",
		"# c\n---\nname: shop\n":           "ok:shop",
		"---\n---\nname: shop\n":           "no",
		"--- {name: shop}\n":               "no",
		"services: {}\n---\n":              "no",
		"--- # c\nname: shop\n":            "no",
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

func TestDotEnvName(t *testing.T) {
	for _, tc := range []struct {
		env  string // "" for no .env
		name string
		ok   bool
	}{
		{"", "", true},
		{"A=1\n", "", true},
		{"COMPOSE_PROJECT_NAME=shop\nCOMPOSE_PROFILES=x\n", "shop", true},
		{"# COMPOSE_FILE in a comment\nCOMPOSE_PROJECT_NAME=\"shop\"\n", "shop", true},
		{"COMPOSE_PROJECT_NAME=\n", "", true},
		{"COMPOSE_PROJECT_NAME=${X}\n", "", false},
		{"X=1\nCOMPOSE_PROJECT_NAME=${X}\n", "", false},
		{"COMPOSE_FILE=a.yaml\n", "", false},
		{"COMPOSE_ENV_FILES=a.env\nCOMPOSE_PROJECT_NAME=shop\n", "", false},
		{"COMPOSE_PROJECT_NAME='unterminated\n", "", false},
	} {
		dir := t.TempDir()
		if tc.env != "" {
			if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(tc.env), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		name, ok := DotEnvName(dir)
		if name != tc.name || ok != tc.ok {
			t.Errorf("DotEnvName(%q) = %q, %v; want %q, %v", tc.env, name, ok, tc.name, tc.ok)
		}
	}
}
