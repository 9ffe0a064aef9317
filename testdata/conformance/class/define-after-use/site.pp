include late
class late {
  notify { 'defined after the include': }
}
