class webstack {
  @notify { 'from-webstack': }
}
include webstack
@notify { 'explicit': tag => 'special' }
@notify { 'untagged': }
Notify <| tag == 'webstack' |>
Notify <| tag == 'special' |>
