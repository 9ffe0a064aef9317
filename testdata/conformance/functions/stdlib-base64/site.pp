# Sample calls of base64; each result is a notify message.
notify { 'call 1: base64(\'encode\', \'thestring\')':
  message => base64('encode', 'thestring'),
}
notify { 'call 2: base64(\'decode\', \'dGhlc3RyaW5n\')':
  message => base64('decode', 'dGhlc3RyaW5n'),
}
notify { 'call 3: base64(\'encode\', \'héllo wörld, a rather long string that exceeds sixty bytes for sure\', \'default\')':
  message => base64('encode', 'héllo wörld, a rather long string that exceeds sixty bytes for sure', 'default'),
}
notify { 'call 4: base64(\'encode\', \'héllo\', \'strict\')':
  message => base64('encode', 'héllo', 'strict'),
}
notify { 'call 5: base64(\'encode\', \'<<???>>\', \'urlsafe\')':
  message => base64('encode', '<<???>>', 'urlsafe'),
}
notify { 'call 6: base64(\'decode\', \'PDw_Pz8-Pg==\', \'urlsafe\')':
  message => base64('decode', 'PDw_Pz8-Pg==', 'urlsafe'),
}
