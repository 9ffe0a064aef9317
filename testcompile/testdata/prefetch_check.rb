# Makes one FacterDB query as rspec-puppet-facts does, through the adapter
# (which prefetched FacterDB's files at load), and prints how many fact
# sets it answered with, for TestFactSetsPrefetch.
require 'rspec-puppet'
require 'facterdb'
sets = FacterDB.get_facts([{ facterversion: '/\A4\.2/', operatingsystem: 'Debian', operatingsystemrelease: '/^11/', hardwaremodel: 'x86_64' }])
puts "sets: #{sets.size}"
