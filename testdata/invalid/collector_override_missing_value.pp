File <| |> {
  mode =>
}
