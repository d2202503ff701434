package batch

import (
	"reflect"
	"testing"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/placement"
)

// TestSharedItems checks which acknowledge: items a batch offers once for
// every project, and in which form.
func TestSharedItems(t *testing.T) {
	svc := func(service, field string) SharedItem {
		f := placement.Field{Service: service, Name: field}
		return Asked(&convert.Result{Suggestions: convert.Suggestions{Uncarried: []placement.Field{f}}})[0]
	}
	top := func(section, entry, field string) SharedItem {
		f := placement.Field{Section: section, Entry: entry, Name: field}
		return Asked(&convert.Result{Suggestions: convert.Suggestions{Uncarried: []placement.Field{f}}})[0]
	}
	items := func(its []SharedItem) []string {
		var out []string
		for _, it := range its {
			out = append(out, it.Item+" "+string(rune('0'+it.Projects)))
		}
		return out
	}
	for _, tc := range []struct {
		name string
		asks [][]SharedItem
		want []string
	}{
		{"one project asks nothing of the batch", [][]SharedItem{{svc("web", "container_name")}}, nil},
		{"a service field under any service name", [][]SharedItem{{svc("web", "container_name")}, {svc("db", "container_name")}}, []string{"*.container_name 2"}},
		{"counted once per project", [][]SharedItem{{svc("web", "container_name"), svc("db", "container_name")}, {svc("app", "container_name")}}, []string{"*.container_name 2"}},
		{"one entry name: that name", [][]SharedItem{{top("networks", "proxy", "external")}, {top("networks", "proxy", "external")}}, []string{"networks.proxy.external 2"}},
		{"several entry names: the wildcard", [][]SharedItem{{top("networks", "proxy", "external")}, {top("networks", "edge", "external")}, {}}, []string{"networks.*.external 2"}},
		{"most asked first, then by item", [][]SharedItem{
			{svc("a", "links"), svc("a", "container_name")},
			{svc("b", "links"), svc("b", "container_name")},
			{svc("c", "container_name"), top("networks", "n", "name")},
			{top("networks", "n", "name")},
		}, []string{"*.container_name 3", "*.links 2", "networks.n.name 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := items(Shared(tc.asks)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Shared: %q; want %q", got, tc.want)
			}
		})
	}
	// What a project acknowledges already, or what is its own (a job, a
	// nested field, a file config's uid), is not asked of the batch.
	res := &convert.Result{Suggestions: convert.Suggestions{Uncarried: []placement.Field{
		{Service: "web", Name: "container_name", Acknowledged: true},
		{Section: "jobs", Entry: "backup"},
		{Service: "web", Name: "deploy.placement"},
		{Service: "web", Name: "configs", Config: "app"},
	}}}
	if got := Asked(res); len(got) != 0 {
		t.Errorf("Asked: %+v; want none", got)
	}
}

// TestSharers checks which projects share a host path: those mounting
// it or a path inside it; those mounting a path above it hold it; a
// sibling with the same prefix (/mnt/media2) is neither.
func TestSharers(t *testing.T) {
	x := newShareIndex([]Project{{Rel: "sonarr"}, {Rel: "radarr"}, {Rel: "backup"}, {Rel: "other"}, {Rel: "apps/x", File: "apps/x/extra.yml"}})
	bind := func(key string, supplied bool) convert.Missing {
		return convert.Missing{Section: declare.SectionBinds, Key: key, Supplied: supplied}
	}
	refused := func(ms ...convert.Missing) *convert.Result {
		return &convert.Result{Status: convert.Refused, Missing: ms}
	}
	if !x.add(0, refused(bind("/mnt/media", false))) {
		t.Error("a refusal with an undeclared absolute bind is not held")
	}
	x.add(1, refused(bind("/mnt/media/movies/", false)))
	x.add(2, refused(bind("/mnt", true)))
	x.add(3, refused(bind("/mnt/media2", false)))
	if x.add(4, refused(bind("./data", false), bind("/mnt/media", true))) {
		t.Error("a refusal whose absolute bind is declared is held")
	}
	for _, tc := range []struct {
		i               int
		path            string
		shared, holders []string
	}{
		// /mnt, a system directory, holds nothing (rules'
		// checkMovedFromUnder): a monitor of the host sees a moved copy.
		{0, "/mnt/media", []string{"apps/x/extra.yml", "radarr"}, nil},
		{1, "/mnt/media/movies", nil, []string{"sonarr (/mnt/media)", "apps/x/extra.yml (/mnt/media)"}},
		{2, "/mnt", []string{"apps/x/extra.yml", "other", "radarr", "sonarr"}, nil},
		{3, "/mnt/media2", nil, nil},
		{3, "/opt/none", nil, nil},
	} {
		shared, holders := x.sharers(tc.i)(tc.path)
		if !reflect.DeepEqual(shared, tc.shared) || !reflect.DeepEqual(holders, tc.holders) {
			t.Errorf("project %d, %s: shared %q, holders %q; want %q and %q", tc.i, tc.path, shared, holders, tc.shared, tc.holders)
		}
	}
}
