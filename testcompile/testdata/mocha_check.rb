# Stubs with Mocha with its checks off (the default) and on, with the
# adapter's MochaChecks installed as its suite hook installs them, and
# prints how many backtraces the allowed stubs took and what a prevented
# one raises (its class, message and where its backtrace starts), for
# TestMochaChecks.
require 'rspec-puppet'
require 'mocha/api'
include Mocha::API # rubocop:disable Style/MixinUsage
MarionetteRspec::MochaChecks.install

class Thing
  def size = 1
end

$backtraces = 0
trace = TracePoint.new(:c_call) { |tp| $backtraces += 1 if tp.method_id == :caller }
trace.enable
10.times do
  mocha_setup
  Thing.new.stubs(:size).returns(2)
  mocha_teardown
end
trace.disable
puts "allowed: backtraces=#{$backtraces}"

Mocha.configure { |c| c.stubbing_non_existent_method = :prevent }
mocha_setup
begin
  Thing.stubs(:colour)
  puts 'prevented: nothing raised'
rescue Exception => e # rubocop:disable Lint/RescueException
  puts "prevented: #{e.class}: #{e.message} at #{e.backtrace.first[/:\d+:/]}"
end
mocha_teardown
