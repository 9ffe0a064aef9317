notify { 'call 1: doc examples': message => [es_plugin_name('plug'), es_plugin_name('foo/plug'), es_plugin_name('foo/plug/1.0.0'), es_plugin_name('foo/elasticsearch-plug'), es_plugin_name('foo/es-plug/1.3.2')] }
notify { 'call 2: fallback past empty and undef': message => es_plugin_name('', undef, 'mobz/elasticsearch-head') }
notify { 'call 3: analysis plugin': message => es_plugin_name('analysis-icu') }
notify { 'call 4: url style': message => es_plugin_name('https://example.com/plugins/repository-s3-7.10.0.zip') }
