notify { 'call 1: maven coordinates': message => archive::assemble_nexus_url('https://nexus.example.com/nexus', { 'g' => 'com.example', 'a' => 'app', 'v' => '1.0.0', 'r' => 'releases', 'p' => 'war' }) }
notify { 'call 2: values needing escapes': message => archive::assemble_nexus_url('http://nexus.example.com', { 'v' => '1.0 beta+1', 'c' => 'a/b&c=d', 'u' => 'ü' }) }
notify { 'call 3: empty params': message => archive::assemble_nexus_url('http://nexus.example.com:8081', {}) }
