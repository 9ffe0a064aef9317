case File <| |> {
  default: {}
}
