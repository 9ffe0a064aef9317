notify { 'before': }
Notify <| title == 'before' |>
if $facts['osfamily'] == 'Debian' {
  Nosuch <| title == 'x' |>
}
