$calls = {
  'b'         => pw_hash('password', 'bcrypt', '05$salt.salt.salt.salt.sa'),
  'a'         => pw_hash('password', 'bcrypt-a', '04$ABCDEFGHIJKLMNOPQRSTUV'),
  'x'         => pw_hash('password', 'bcrypt-x', '04$ABCDEFGHIJKLMNOPQRSTUV'),
  'y'         => pw_hash('hunter2', 'BCRYPT-Y', '10$abcdefghijklmnopqrstuvXYZ'),
  'utf8'      => pw_hash('pässword', 'bcrypt', '04$0123456789./ABCDEFGHIJ'),
  'long'      => pw_hash('a very long password that goes on past the seventy-two bytes bcrypt reads of it', 'bcrypt', '04$0123456789./ABCDEFGHIJ'),
  'sensitive' => pw_hash(Sensitive('secret'), 'bcrypt', '04$0123456789./ABCDEFGHIJ'),
  'empty'     => pw_hash('', 'bcrypt', '04$0123456789./ABCDEFGHIJ'),
}
$calls.each |$k, $v| {
  notify { "pw_hash ${k}": message => $v }
}
