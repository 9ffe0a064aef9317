class foo {}
include foo
Class <| title == 'foo' |>
