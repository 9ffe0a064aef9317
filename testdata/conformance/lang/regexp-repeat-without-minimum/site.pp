type Demo::Base64 = Pattern[/\A[a-zA-Z0-9\/\+]+={,2}\z/]
notify { 'repeat':
  message => ['b' =~ /^a{,2}b$/, 'aab' =~ /^a{,2}b$/, 'aaab' =~ /^a{,2}b$/, 'a{,2}b' =~ /^a{,2}b$/],
}
notify { 'pattern':
  message => ['YQ==' =~ Demo::Base64, 'YWJj' =~ Demo::Base64, 'YQ===' =~ Demo::Base64],
}
notify { 'literal':
  message => ['{,2}' =~ /^[{,2}]+$/, 'a{,2}' =~ /^a\{,2}$/, 'a{,x}' =~ /^a{,x}$/],
}
notify { 'lookahead':
  message => ['aa' =~ /^(?=a)a{,2}$/, 'aaa' =~ /^(?=a)a{,2}$/],
}
