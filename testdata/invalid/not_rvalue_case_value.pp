case 1 {
  File <| |>: {}
}
