notify { 'call 1: hash': message => extlib::cache_data('marionette_conformance', 'functions_cache_hash', { 'a' => [1, 2], 'b' => 'ü' }) }
notify { 'call 2: string': message => extlib::cache_data('marionette_conformance', 'functions_cache_string', 'static value') }
