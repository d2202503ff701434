package check

// About is compose2manifest check's help text.
const About = `Check module manifests: decode each strictly, run every rule over each, and
run the rules that compare modules over all of them together. A DIR stands
for every *.yaml and *.yml file directly in it (not in its subdirectories,
and not files whose name starts with "."); each must be a manifest.

Exit status: 0 clean (warnings allowed), 1 findings, 2 bad usage or a
manifest that cannot be read or decoded.

flags:
`
