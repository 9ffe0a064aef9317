# expect: 1 backticks
notify { inline_template("<%= `id` %>"): }
