# expect: 1 regexp match timeout
case 'aaaaaaaaaaaaaaaaaaaaaaaa!' {
  Pattern[/(a+)+\1$|!/]: { notify { 'matched': } }
  default: { notify { 'default': } }
}
