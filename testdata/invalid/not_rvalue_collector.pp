$x = File <| |>
