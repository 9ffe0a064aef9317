# Runs Puppet's per-example test setup (Puppet::Test::TestHelper's
# before_each_test and after_each_test) 50 times and prints how many
# `require` calls the setups made and whether Puppet's Facter runtime
# still answers: TestExampleSetupRequires wants no require with the
# adapter on (each costs a fresh expansion of the load path the helper
# restores after every example).
require 'rspec-puppet'

require_relative 'puppet_setup'
helper = Puppet::Test::TestHelper
2.times do
  helper.before_each_test
  helper.after_each_test
end
$requires = 0
module CountRequires
  def require(name)
    $requires += 1
    super
  end
end
Kernel.prepend(CountRequires)
Object.prepend(CountRequires)
50.times do
  helper.before_each_test
  helper.after_each_test
end
helper.before_each_test
facter = Puppet.runtime[:facter]
ok = facter.is_a?(Puppet::FacterImpl) && facter.respond_to?(:value)
helper.after_each_test
puts "requires: #{$requires}"
puts "facter: #{ok}"
