# The start the Ruby checks share that run Puppet's own test setup as
# rspec-puppet drives it: Puppet::Test::TestHelper initialised and its
# before_all_tests run. A check requires it where it would write those
# lines.
require 'rspec-puppet'
require 'puppet/test/test_helper'

Puppet::Test::TestHelper.initialize
Puppet::Test::TestHelper.before_all_tests
