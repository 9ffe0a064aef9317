class app (String $flavour, String $owner, String $missing = 'the default') {
  notify { 'flavour': message => $flavour }
  notify { 'owner': message => $owner }
  notify { 'missing': message => $missing }
}
