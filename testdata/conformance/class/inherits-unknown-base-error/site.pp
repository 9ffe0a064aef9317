class derived inherits nosuch {
  notify { 'derived': }
}
include derived
