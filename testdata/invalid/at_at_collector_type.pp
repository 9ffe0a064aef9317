@@User <| |>
