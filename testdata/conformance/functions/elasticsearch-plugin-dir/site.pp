notify { 'call 1: plain': message => plugin_dir('analysis-icu') }
notify { 'call 2: elasticsearch- prefix': message => plugin_dir('mobz/elasticsearch-head') }
notify { 'call 3: es- prefix': message => plugin_dir('lmenezes/es-kopf', 'x') }
notify { 'call 4: dash kept': message => plugin_dir('foo/my-plugin/1.0') }
