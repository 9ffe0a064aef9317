notify { 'call 1: augeas changes': message => tomcat::change(['set Server/#attribute/port 8005', 'rm Server/Service/Connector']) }
notify { 'call 2: hash': message => tomcat::change({ 'a' => [1, { 'b' => undef }] }) }
notify { 'call 3: string': message => tomcat::change('ü') }
notify { 'call 4: as a Deferred, the way tomcat uses it': message => Deferred('tomcat::change', [['set a 1']]) }
