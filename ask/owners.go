package ask

import (
	"context"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
)

// markVariableOwners finds the owners convert produces from a user: that
// variables write (user: ${UID}:${GID}): CI, where convert and check run
// again, may not have those variables, so such an owner must be written
// out. It converts once more with every variable the project may use
// changed (a "1" appended, or "1" when unset), and each item whose
// produced owner then differs has its owner suggestion no longer
// Produced, so an accepted owner is written, and OwnerFromVariables set,
// for the session's note. A conversion that fails that way changes
// nothing.
func (r *runner) markVariableOwners(ctx context.Context, plan *Plan, res *convert.Result) {
	candidate := false
	for i := range plan.Items {
		if o := plan.Items[i].Owner; o.Value != "" && o.Produced && o.fromUser {
			candidate = true
		}
	}
	m := resultModule(res)
	if !candidate || m == nil || m.Fingerprint == nil || len(m.Fingerprint.Variables) == 0 {
		return
	}
	o := r.opts
	o.Environ = probeEnviron(r.opts.Environ, m.Fingerprint.Variables)
	pres, err := r.convertBlank(ctx, o)
	if err != nil || pres == nil || pres.Status == convert.Failed {
		return
	}
	owners := map[string]string{}
	for _, pm := range pres.Missing {
		owners[pm.Section+"\x00"+pm.Key] = pm.Known.Owner
	}
	for i := range plan.Items {
		it := &plan.Items[i]
		if it.Owner.Value == "" || !it.Owner.Produced || !it.Owner.fromUser {
			continue
		}
		if got, ok := owners[it.Missing.Section+"\x00"+it.Missing.Key]; ok && got == it.Owner.Value {
			continue
		}
		it.Owner.Produced = false
		it.OwnerFromVariables = true
	}
}

// probeEnviron returns environ with each of names (except docker
// compose's COMPOSE_ settings) given another value: its value with "1"
// appended, or "1" when unset.
func probeEnviron(environ, names []string) []string {
	values := map[string]string{}
	var out []string
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		values[k] = v
	}
	probe := map[string]bool{}
	for _, n := range names {
		if !strings.HasPrefix(n, "COMPOSE_") {
			probe[n] = true
		}
	}
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); !probe[k] {
			out = append(out, kv)
		}
	}
	for _, n := range names {
		if probe[n] {
			out = append(out, n+"="+values[n]+"1")
		}
	}
	return out
}
