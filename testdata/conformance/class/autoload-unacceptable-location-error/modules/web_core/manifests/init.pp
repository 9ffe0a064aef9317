class web {
  notify { 'in the wrong module': }
}
