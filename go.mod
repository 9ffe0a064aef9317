module github.com/marionette-dev/marionette

go 1.26.0

require (
	github.com/dlclark/regexp2 v1.12.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/crypto v0.59.0
