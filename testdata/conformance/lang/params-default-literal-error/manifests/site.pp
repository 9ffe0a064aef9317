define withdefault(String $mode = 'fallback') {
  notify { "${title}: mode=${mode}": }
}
withdefault { 'explicit-default': mode => default }
