notify { 'call 1: plain': message => plugin_dir('analysis-icu') }
notify { 'call 2: prefixes': message => [plugin_dir('org/opensearch-head'), plugin_dir('org/os-head'), plugin_dir('org/my-head'), plugin_dir('org/head/1.0')] }
