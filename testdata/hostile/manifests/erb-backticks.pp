# expect: 1 backticks
# args: --ruby-functions subset
# The Ruby subset never runs a command. With the default
# --ruby-functions auto, a template beyond the subset runs in real Ruby
# (the Ruby helper), as Puppet runs every template: then `id` runs, as it
# would on puppetserver.
notify { inline_template("<%= `id` %>"): }
