$x = !File <| |>
