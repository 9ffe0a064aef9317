notify { 'call 1: forms': message => [os_plugin_name('plug'), os_plugin_name('foo/plug'), os_plugin_name('foo/plug/1.0.0'), os_plugin_name('foo/opensearch-plug'), os_plugin_name('foo/os-plug/1.3.2')] }
notify { 'call 2: url': message => os_plugin_name('https://example.com/opensearch-analysis-icu-2.11.0.zip') }
notify { 'call 3: fallback': message => os_plugin_name('', 'other/os-thing') }
