module github.com/compose2manifest/compose2manifest

go 1.26.8

require (
	github.com/compose-spec/compose-go/v2 v2.16.2 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/spf13/pflag v1.1.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
)
