module github.com/marionette-dev/marionette

go 1.26

require (
	github.com/dlclark/regexp2 v1.12.0
	gopkg.in/yaml.v3 v3.0.1
)
