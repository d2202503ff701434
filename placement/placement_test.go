package placement

import (
	"reflect"
	"testing"

	"github.com/compose2manifest/compose2manifest/project"
)

func TestServices(t *testing.T) {
	p := Placement{Mounts: []project.Mount{{Service: "web"}, {Service: "db"}, {Service: "web"}}}
	if got, want := p.Services(), []string{"db", "web"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Services() = %q, want %q", got, want)
	}
	if got := p.First().Service; got != "web" {
		t.Errorf("First() = %q, want web: the first mount is where it is reported", got)
	}
}
