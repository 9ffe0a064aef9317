define greeting() {
  notify { "hello ${title}": }
}
greeting { ['alice', 'bob']: }
