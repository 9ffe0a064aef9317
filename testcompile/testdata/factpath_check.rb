# Runs Puppet's per-example test setup (Puppet::Test::TestHelper's
# before_each_test and after_each_test, which call the factpath hook) many
# times with the adapter loaded, and prints the size of Facter's custom fact
# directory list after 10 and after 60 examples, and the directories Facter
# would search: TestFactSearchBounded wants the sizes equal and the
# directories those of a single setup.
require 'rspec-puppet'
require 'puppet/test/test_helper'

helper = Puppet::Test::TestHelper
helper.initialize
helper.before_all_tests
sizes = []
60.times do |i|
  helper.before_each_test
  helper.after_each_test
  sizes << Facter::Options[:custom_dir].size if i == 9 || i == 59
end
puts "sizes: #{sizes.join(' ')}"
puts "dirs: #{Facter::Options[:custom_dir].uniq.join(':')}"
