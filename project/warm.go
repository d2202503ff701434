package project

import "github.com/compose-spec/compose-go/v2/schema"

// Warm does now what the first load of a compose project in this process
// would otherwise do while others wait: compose-go compiles the Compose
// Specification's JSON Schema once per process, under a sync.Once, on
// the first validation, so the first loads started together (a batch's
// workers) all wait for the one that compiles it. A batch calls Warm
// while it discovers its projects, on a core that is idle then. It never
// fails: an error compiling the schema is met again, and reported, by the
// load that needs it.
func Warm() {
	_ = schema.Validate(map[string]any{})
}
