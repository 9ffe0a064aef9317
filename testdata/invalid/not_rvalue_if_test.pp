if User <| |> {
}
