notify { "certname=${trusted['certname']} host=${trusted['hostname']} domain=${trusted['domain']} auth=${trusted['authenticated']}": }
notify { "extensions=${trusted['extensions']}": }
