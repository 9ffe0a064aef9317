$x = 'X'
notify { 'dq':
  message => "nl[\n] tab[\t] quote[\"] bs[\\] dollar[\$x] space[\s] smile[\u{263A}] e[\u00e9] unknown[\q] sq[\']",
}
