package manifest

import (
	"reflect"
	"testing"
)

// TestYAMLFields: a field's name is its yaml tag's, else its lower-cased
// Go name; "-" marks it Skip (named by its Go name); unexported fields are
// left out.
func TestYAMLFields(t *testing.T) {
	type s struct {
		A      string `yaml:"alpha,omitempty"`
		Beta   int
		Hidden string `yaml:"-"`
		lower  bool
		C      []string `yaml:",flow"`
	}
	_ = s{}.lower
	want := []YAMLField{
		{Index: 0, Name: "alpha", OmitEmpty: true},
		{Index: 1, Name: "beta"},
		{Index: 2, Name: "hidden", Skip: true},
		{Index: 4, Name: "c"},
	}
	if got := YAMLFields(reflect.TypeFor[s]()); !reflect.DeepEqual(got, want) {
		t.Errorf("YAMLFields = %+v, want %+v", got, want)
	}
}
