@notify { 'virtual-one': tag => 'grp' }
notify { 'real-one': tag => 'grp' }
notify { 'start': }
Notify['start'] -> Notify <| tag == 'grp' |>
