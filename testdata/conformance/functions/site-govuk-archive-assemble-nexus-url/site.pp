notify { 'call 1: url': message => assemble_nexus_url('https://nexus.example.com', { 'g' => 'com.example', 'a' => 'my app', 'v' => '1.0+b', 'r' => 'releases' }) }
