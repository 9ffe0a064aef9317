node default {
  notify { 'first': }
}
node default {
  notify { 'second': }
}
