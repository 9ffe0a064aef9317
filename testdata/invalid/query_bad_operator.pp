User <| title =~ 'x' |>
