module github.com/marionette-dev/marionette

go 1.26
