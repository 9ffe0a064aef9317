$u = 'https://example.com/pkgs/tool-1.2.tar.gz?x=1'
notify { 'call 1: default': message => staging_parse($u) }
notify { 'call 2: infos': message => [staging_parse($u, 'basename'), staging_parse($u, 'extname'), staging_parse($u, 'parent'), staging_parse($u, 'basename', '.tar.gz')] }
notify { 'call 3: windows path': message => staging_parse('C:\\tmp\\file.zip', 'basename') }
