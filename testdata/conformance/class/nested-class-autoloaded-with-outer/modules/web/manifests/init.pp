class web {
  notify { 'web': }
  class tuning {
    notify { 'tuning': }
  }
}
