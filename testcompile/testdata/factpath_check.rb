# Runs Puppet's per-example test setup (Puppet::Test::TestHelper's
# before_each_test and after_each_test, whose settings initialisation calls
# the factpath hook) and then the factpath hook's own call (Facter's
# `search`, through Puppet's Facter runtime) for 4,200 more examples' fresh
# vardirs, and prints the list of custom fact directories Facter ends with
# (its size and a digest) and the CPU time of the last 200 calls with
# 8,000 directories listed before them, and whether those calls added to
# the list in place: TestFactSearch compares the list with the adapter off
# and wants it kept in place (not copied at every call) with it on.
require 'digest'
require 'rspec-puppet'

require_relative 'puppet_setup'
helper = Puppet::Test::TestHelper
20.times do
  helper.before_each_test
  helper.after_each_test
end
facter = Puppet.runtime[:facter]
4_000.times { |i| facter.search("/tmp/vardir#{i}/lib/facter", "/tmp/vardir#{i}/facts") }
before = Facter::Options[:custom_dir]
start = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
200.times { |i| facter.search("/tmp/late#{i}/lib/facter", "/tmp/late#{i}/facts") }
cpu = (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - start) * 1000
list = Facter::Options[:custom_dir]
puts "list: #{list.size} #{Digest::SHA256.hexdigest(list.join("\n"))}"
puts "in_place: #{before.equal?(list)}"
puts format('cpu_ms: %.1f', cpu)
